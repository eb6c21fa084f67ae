"""A traced function's graph as an ONNX model.

The function is traced with its input signature (None dimensions stay dynamic). The ops its
outputs need are lowered in graph order, each by its own OpDef's `onnx` rule (context.py): the
graph's placeholders become the model's inputs (named after the signature's TensorSpec names or
the function's parameters, dynamic dimensions named `unk__<n>`), every variable an op reads
becomes an initializer holding its current value, and each output gets an `Identity` node named
`output_<i>`. An op whose OpDef has no lowering stops the conversion with an UnimplementedError
naming the op and its type. The result is checked with `onnx.checker.check_model`.
"""
import inspect
import re

import numpy as np

from ..framework.errors import UnimplementedError
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable, variable_op_name
from ..tracing.func_graph import needed_ops
from .context import LoweringContext, onnx_type

__all__ = ["concrete_to_model", "DEFAULT_OPSET", "import_onnx"]

DEFAULT_OPSET = 17
MIN_OPSET = 13


def import_onnx():
    try:
        import onnx  # optional dependency
    except ImportError:
        raise ImportError("wengert.onnx needs the `onnx` package: pip install "
                          "'wengert[onnx]' (or pip install onnx).") from None
    return onnx


def _clean(name):
    return re.sub(r"[^A-Za-z0-9_./:-]", "_", name)


def input_names(function, concrete):
    """The model's input names: TensorSpec names, else the Python parameters' names."""
    names = [None] * len(concrete.inputs)
    specs = getattr(function, "input_signature", None) or []
    flat_specs = [s for s in _flatten(specs)]
    for i, spec in enumerate(flat_specs[:len(names)]):
        names[i] = getattr(spec, "name", None)
    try:
        params = [p.name for p in inspect.signature(function.python_function).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    if len(params) == len(names):
        names = [n or p for n, p in zip(names, params)]
    return [_clean(n) if n else f"input_{i}" for i, n in enumerate(names)]


def _flatten(structure):
    stack, out = [structure], []
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(item[k] for k in sorted(item, reverse=True))
        else:
            out.append(item)
    return out


def _dims(shape, counter):
    shape = TensorShape(shape)
    if shape.rank is None:
        return None
    dims = []
    for d in shape:
        if d is None:
            dims.append(f"unk__{next(counter)}")
        else:
            dims.append(int(d))
    return dims


def _lower(ctx, op, names):
    lowering = op.op_def.onnx
    if lowering is None:
        raise UnimplementedError(
            f"Op type {op.type} (op '{op.name}') has no ONNX lowering: declare one with "
            f"`onnx=` in its defop, or keep the op out of the exported function.", op)
    ctx.op = op
    if isinstance(lowering, str):
        out = ctx.node(lowering, names)
    else:
        out = lowering(ctx, op, *names)
    ctx.op = None
    outs = [out] if isinstance(out, str) else list(out)
    if len(outs) < len(op.outputs):
        raise UnimplementedError(f"{op.type} (op '{op.name}'): its ONNX lowering gave "
                                 f"{len(outs)} outputs for {len(op.outputs)}.", op)
    return outs


def concrete_to_model(concrete, names, opset=None, doc=""):
    """An onnx.ModelProto of a ConcreteFunction whose inputs are called `names`."""
    onnx = import_onnx()
    from onnx import helper, numpy_helper  # optional dependency
    opset = DEFAULT_OPSET if opset is None else int(opset)
    if opset < MIN_OPSET:
        raise ValueError(f"wengert.onnx writes opset {MIN_OPSET} or newer, got opset={opset}.")
    ctx = LoweringContext(opset)
    counter = iter(range(1 << 30))
    graph = concrete.graph
    values, inputs = {}, []
    for placeholder, name in zip(graph.inputs, names):
        values[id(placeholder)] = ctx.reserve(name)
        inputs.append(helper.make_tensor_value_info(
            name, onnx_type(placeholder.dtype), _dims(placeholder.shape, counter)))
    outputs = [t for t in concrete.outputs if t is not None]
    fed = {id(p.op) for p in graph.inputs}
    variables = {}
    for op in needed_ops(graph, outputs, []):
        if id(op) in fed:
            continue
        names_in = []
        for t in op.inputs:
            if isinstance(t, Variable):
                names_in.append(_variable(ctx, t, variables))
            elif id(t) in values:
                names_in.append(values[id(t)])
            else:
                raise UnimplementedError(f"{op.type} (op '{op.name}') reads {t.name}, which "
                                         "has no ONNX value (an unfed placeholder?).", op)
        for t, name in zip(op.outputs, _lower(ctx, op, names_in)):
            values[id(t)] = name
    out_infos = []
    for i, t in enumerate(outputs):
        name = ctx.reserve(f"output_{i}")
        ctx.nodes.append(("Identity", [values[id(t)]], [name], ctx.fresh(f"Identity_{i}"), {}))
        out_infos.append(helper.make_tensor_value_info(name, onnx_type(t.dtype),
                                                       _dims(t.shape, counter)))
    nodes = [helper.make_node(t, i, o, name=n, **_attributes(a, numpy_helper))
             for t, i, o, n, a in ctx.nodes]
    initializers = [numpy_helper.from_array(a, n) for n, a in ctx.initializers]
    onnx_graph = helper.make_graph(nodes, _clean(graph.name), inputs, out_infos, initializers,
                                   doc_string=doc)
    opsets = [helper.make_opsetid("", opset)]
    model = helper.make_model(onnx_graph, opset_imports=opsets, producer_name="wengert",
                              ir_version=helper.find_min_ir_version_for(opsets))
    onnx.checker.check_model(model)
    return model


def _attributes(attrs, numpy_helper):
    """Node attributes with arrays as TensorProtos (ConstantOfShape's value)."""
    return {k: numpy_helper.from_array(v) if isinstance(v, np.ndarray) else v
            for k, v in attrs.items()}


def _variable(ctx, var, variables):
    hit = variables.get(id(var))
    if hit is None:
        value = np.asarray(var.numpy())
        hit = ctx.fresh(_clean(variable_op_name(var)))
        ctx.initializers.append((hit, np.ascontiguousarray(value)))
        variables[id(var)] = hit
    return hit
