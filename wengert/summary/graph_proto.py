"""A wengert graph as a TensorFlow `GraphDef` protobuf, for TensorBoard's graph dashboard.

Every op becomes a `NodeDef` with its name and its op type (wengert's op types are TensorFlow's
names: MatMul, AddV2, Relu, ...), its inputs written as TensorFlow writes them ("op" for output 0,
"op:1" for output 1, "^op" for a control input), and its attributes converted by value: bools,
ints, floats, strings, dtypes, shapes, arrays (tensors; large ones keep their shape and dtype but
not their values) and lists of these. Two attributes are added as TensorFlow adds them: `T`, the
first output's dtype (`dtype` for an op without inputs), when the op has no dtype attribute of
its own, and `_output_shapes`, which
TensorBoard prints on the edges. A variable an op reads or writes becomes a `VarHandleOp` node of
its name, shape and dtype. A traced function's outputs become `Identity` nodes.
"""
import numpy as np

from ..framework.dtypes import DType
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable, variable_op_name
from . import protobuf

__all__ = ["graph_def_bytes", "function_graph_bytes"]

_LARGE = 1024  # elements: bigger arrays keep their shape and dtype, not their values


def _ref(t):
    op = t.op
    return op.name if t.value_index == 0 else f"{op.name}:{t.value_index}"


def _dims(shape):
    shape = TensorShape(shape)
    return None if shape.rank is None else [None if d is None else int(d) for d in shape]


def _is_dtype(value):
    return isinstance(value, (DType, np.dtype)) or (
        isinstance(value, type) and issubclass(value, np.generic))


def _dtype(value):
    return value.as_numpy_dtype if isinstance(value, DType) else value


def attr(value, key=""):
    """The tagged AttrValue (protobuf.attr_value) of one attribute value; None to leave it out."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return "b", bool(value)
    if isinstance(value, (int, np.integer)):
        return "i", int(value)
    if isinstance(value, (float, np.floating)):
        return "f", float(value)
    if isinstance(value, (str, bytes)):
        return "s", value
    if _is_dtype(value):
        return "type", _dtype(value)
    if isinstance(value, TensorShape) or (key == "shape" and isinstance(value, (tuple, list))):
        return "shape", _dims(value)
    if isinstance(value, np.ndarray):
        return _array_attr(value)
    if isinstance(value, (tuple, list)):
        return _list_attr(value)
    return "s", f"<{type(value).__name__}>"


def _array_attr(value):
    if value.dtype.kind not in "biuf" or value.dtype.name not in protobuf.DATA_TYPES:
        return "s", f"<array {value.dtype} {list(value.shape)}>"
    if value.size > _LARGE:
        return "tensor", np.zeros((0,), value.dtype)
    return "tensor", value


def _list_attr(items):
    if all(isinstance(x, (bool, np.bool_)) for x in items):
        return "list_b", list(items)
    if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in items):
        return "list_i", [int(x) for x in items]
    if all(isinstance(x, (int, float, np.integer, np.floating)) for x in items):
        return "list_f", [float(x) for x in items]
    if all(isinstance(x, (str, bytes)) for x in items):
        return "list_s", list(items)
    if all(_is_dtype(x) for x in items):
        return "list_type", [_dtype(x) for x in items]
    return "s", f"<{type(items).__name__} of {len(items)}>"


def _node(op, variables):
    inputs = []
    for t in op.inputs:
        if isinstance(t, Variable):
            variables.setdefault(variable_op_name(t), t)
            inputs.append(variable_op_name(t))
        else:
            inputs.append(_ref(t))
    inputs += [f"^{c.name}" for c in op.control_inputs]
    attrs = {}
    for key, value in op.attrs.items():
        tagged = attr(value, key)
        if tagged is not None:
            attrs[key] = tagged
    if op.outputs:
        if not any(tag == "type" for tag, _ in attrs.values()):  # sources say "dtype"
            attrs["dtype" if not op.inputs else "T"] = ("type", op.outputs[0].dtype.as_numpy_dtype)
        attrs["_output_shapes"] = ("list_shape", [_dims(t.shape) for t in op.outputs])
    return protobuf.node_def(op.name, op.type, inputs, attrs)


def _variable_node(name, var):
    return protobuf.node_def(name, "VarHandleOp", (), {
        "dtype": ("type", var.dtype.as_numpy_dtype), "shape": ("shape", _dims(var.shape)),
        "shared_name": ("s", name)})


def graph_def_bytes(graph, outputs=()):
    """Serialized GraphDef of `graph` (a wengert Graph or FuncGraph); `outputs` (graph tensors)
    get Identity nodes."""
    variables = {}
    nodes = [_node(op, variables) for op in graph.get_operations()]
    nodes = [_variable_node(name, var) for name, var in variables.items()] + nodes
    taken = {op.name for op in graph.get_operations()}
    for i, t in enumerate(o for o in outputs if o is not None):
        name = "Identity" if i == 0 else f"Identity_{i}"
        while name in taken:
            name += "_"
        taken.add(name)
        nodes.append(protobuf.node_def(name, "Identity", [_ref(t)], {
            "T": ("type", t.dtype.as_numpy_dtype),
            "_output_shapes": ("list_shape", [_dims(t.shape)])}))
    return protobuf.graph_def(nodes)


def function_graph_bytes(concrete):
    """Serialized GraphDef of one trace of a `function` (a ConcreteFunction)."""
    return graph_def_bytes(concrete.graph, concrete.outputs)
