"""`tf.compat.v1.import_graph_def`: a GraphDef (written by wengert or by TensorFlow) rebuilt as
ops of the default graph, under a name prefix.

Every node is checked before any op is made: its op type must be one wengert runs (the op
registry's raw-op table: each TensorFlow op type maps to the function taking TensorFlow's
arguments), its inputs must name nodes of the GraphDef (or tensors `input_map` replaces), and
`input_map` and `return_elements` must name tensors and ops that exist. The nodes are then
ordered so that each comes after its inputs (Kahn's algorithm over data and control inputs: a
GraphDef may list them in any order; a cycle is an error) and made one by one: a node's data
inputs fill the raw op's input arguments in order (a list argument takes `N` of them), its
attributes the raw op's arguments of the same names (types, shapes, tensors and lists decoded
from AttrValues), its control inputs become control dependencies, and its op is named
`prefix/node_name`. Resource variables (VarHandleOp) become graph variables with zeros as their
initial value, which the graph's own AssignVariableOp nodes overwrite when run.
"""
import inspect

import numpy as np

from ..framework import dtypes
from ..framework.errors import NotFoundError
from ..framework.operation import Operation
from ..framework.protos.graph import GraphDef as _ProtoGraphDef
from ..framework.protos.tensor import from_proto
from ..framework.raw_ops import raw_op
from ..framework.registry import raw_op_entry
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import ASSIGN, ASSIGN_ADD, ASSIGN_SUB, READ_VARIABLE
from .graph import get_default_graph
from .graph_def import GraphDef
from .node_defs import list_input_position
from .variable_initialization import VAR_IS_INITIALIZED, is_variable_initialized
from .variables import VAR_HANDLE, GraphVariable

__all__ = ["import_graph_def", "import_with_variables", "attr_python", "ordered_nodes"]

_RESOURCE_OPS = (VAR_HANDLE, READ_VARIABLE, ASSIGN, ASSIGN_ADD, ASSIGN_SUB, VAR_IS_INITIALIZED)


def _op_def(node):
    entry = raw_op_entry(node.op)
    return entry[0] if entry else None


def _split_name(name):
    """("node", output index) of "node:i" or "node"; ("node", None) for "^node"."""
    if name.startswith("^"):
        return name[1:], None
    node, sep, index = name.rpartition(":")
    if sep and index.isdigit():
        return node, int(index)
    return name, 0


def _as_graph_def(graph_def):
    if isinstance(graph_def, _ProtoGraphDef):
        return graph_def
    if hasattr(graph_def, "SerializeToString") and not isinstance(graph_def, (bytes, str)):
        return GraphDef.FromString(graph_def.SerializeToString())
    raise TypeError("Argument `graph_def` must be a GraphDef proto.")


def _checked_input_map(input_map):
    if input_map is None:
        return {}
    if not isinstance(input_map, dict):
        raise TypeError(f"Argument `input_map` must be a dictionary. Obtained "
                        f"{type(input_map).__name__}")
    out = {}
    for key, value in input_map.items():
        if not isinstance(key, str):
            raise TypeError(f"import_graph_def: input_map keys must be tensor names (strings), "
                            f"got {key!r}.")
        node, index = _split_name(key)
        if index is None:
            out[(node, None)] = value if isinstance(value, Operation) else value.op
        else:
            out[(node, index)] = value if isinstance(value, Tensor) or hasattr(
                value, "_as_tensor") else convert_to_tensor(value)
    return out


def _check_names(graph_def, input_map, return_elements):
    nodes = {n.name: n for n in graph_def.node}
    missing = [f"{n}:{i}" if i is not None else f"^{n}" for n, i in input_map if n not in nodes]
    if missing:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: "
                         f"[{', '.join(missing)}]")
    for node in graph_def.node:
        if raw_op_entry(node.op) is None:
            raise NotFoundError(f"import_graph_def: node '{node.name}' has op type '{node.op}', "
                                f"which wengert does not run (Op type not registered "
                                f"'{node.op}').")
        for name in node.input:
            source, _ = _split_name(name)
            if source not in nodes:
                raise ValueError(f"Node '{node.name}': Unknown input node '{name}'")
    for name in return_elements or ():
        if not isinstance(name, str):
            raise TypeError(f"import_graph_def: return_elements must be names (strings), got "
                            f"{name!r}.")
        source, index = _split_name(name)
        if source not in nodes:
            kind = "tensor" if ":" in name else "node"
            raise ValueError(f"Requested return {kind} '{name}' not found in graph def")
        count = _known_outputs(nodes[source])
        if ":" in name and count is not None and index >= count:
            raise ValueError(f"Invalid return output {index} of node '{source}', which has "
                             f"{count} output(s)")
    return nodes


def _known_outputs(node):
    """How many outputs the node's op type has, where the registry says (else None)."""
    op_def = _op_def(node)
    count = getattr(op_def, "num_outputs", None)
    return count if isinstance(count, int) and op_def is not VAR_HANDLE else None


def ordered_nodes(nodes, source_names):
    """(`nodes` with each after the nodes it reads, the names of up to five left waiting on a
    cycle): Kahn's algorithm, stable in the given order. `source_names(node)` gives the names
    of the nodes it reads; a name of no node among `nodes` (a function argument) is skipped."""
    index = {n.name: i for i, n in enumerate(nodes)}
    waiting, users = [0] * len(nodes), [[] for _ in nodes]
    for i, node in enumerate(nodes):
        sources = {index[s] for s in source_names(node) if s in index}
        waiting[i] = len(sources)
        for s in sources:
            users[s].append(i)
    ready = [i for i in range(len(nodes)) if waiting[i] == 0][::-1]
    order = []
    while ready:
        i = ready.pop()
        order.append(nodes[i])
        for u in reversed(users[i]):
            waiting[u] -= 1
            if waiting[u] == 0:
                ready.append(u)
    return order, [nodes[i].name for i in range(len(nodes)) if waiting[i]][:5]


def _ordered(graph_def):
    """The nodes with each after its inputs (every input names a node: _check_names)."""
    order, stuck = ordered_nodes(list(graph_def.node),
                                 lambda node: (_split_name(name)[0] for name in node.input))
    if stuck:
        raise ValueError(f"import_graph_def: the GraphDef has a cycle through nodes {stuck} "
                         "(loops written as NextIteration/Merge are not supported).")
    return order


# -- attributes ------------------------------------------------------------------------------
def _shape(proto):
    if proto.unknown_rank:
        return None
    return [None if d.size < 0 else d.size for d in proto.dim]


def _text(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def attr_python(value):
    """The Python value of an AttrValue, as raw ops take it."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "list":
        return _list_python(value.list)
    item = getattr(value, kind)
    return _decode(kind, item)


def _decode(kind, item):
    if kind == "s":
        return _text(item)
    if kind == "type":
        return dtypes.as_dtype(item)
    if kind == "shape":
        return _shape(item)
    if kind == "tensor":
        return from_proto(item)[0]
    if kind == "func":
        raise NotImplementedError(f"import_graph_def: function attributes ({item.name}) are "
                                  "not supported.")
    return item


def _list_python(values):
    for kind in ("s", "i", "f", "b", "type", "shape", "tensor"):
        items = getattr(values, kind)
        if len(items):
            return [_decode(kind, x) for x in items]
    return []


# -- making ops ------------------------------------------------------------------------------
def _parameters(function):
    params = inspect.signature(function).parameters
    return [(n, p.default is p.empty) for n, p in params.items() if n != "name"]


# A NodeDef attribute whose tf.raw_ops argument TensorFlow renames (its api_def), keyed by the
# attribute's name: in TensorFlow 2.21 only Squeeze's squeeze_dims, tf.raw_ops.Squeeze's axis.
_RENAMED_ATTRS = {"squeeze_dims": "axis"}


def _arguments(node, function, inputs):
    """Keyword arguments of the raw op for `node` with its data `inputs` (tensors)."""
    params = _parameters(function)
    names = {n for n, _ in params}
    renamed = {_RENAMED_ATTRS[k]: k for k in node.attr
               if k in _RENAMED_ATTRS and k not in names and _RENAMED_ATTRS[k] in names}
    slots = [n for n, required in params if required and n not in node.attr]
    kwargs = {}
    if len(inputs) > len(slots) and slots:
        at = list_input_position(node.op)
        extra = len(inputs) - len(slots) + 1
        groups = inputs[:at] + [list(inputs[at:at + extra])] + inputs[at + extra:]
    elif len(slots) == 1 and "N" in node.attr:
        groups = [list(inputs)]
    else:
        groups = list(inputs)
    if len(groups) != len(slots):
        raise ValueError(f"import_graph_def: node '{node.name}' ({node.op}) has {len(inputs)} "
                         f"inputs; wengert's {node.op} takes {slots}.")
    kwargs.update(zip(slots, groups))
    for name, _ in params:
        attr = renamed.get(name, name)
        if attr in node.attr and name not in kwargs:
            kwargs[name] = attr_python(node.attr[attr])
    return kwargs


def _outputs(result):
    if result is None:
        return None, []
    if isinstance(result, Operation):
        return result, list(result.outputs)
    if isinstance(result, (tuple, list)):
        items = list(result)
        return (items[0].op if items else None), items
    return result.op, [result]


def _resource_op(graph, node, op_def, inputs, made_variables):
    if op_def is VAR_HANDLE:
        dtype = dtypes.as_dtype(node.attr["dtype"].type)
        shape = _shape(node.attr["shape"].shape)
        if shape is None or None in shape:
            raise ValueError(f"import_graph_def: variable '{node.name}' has shape {shape}; "
                             "only fully known shapes are imported.")
        var = GraphVariable(np.zeros(shape, dtype.as_numpy_dtype), name=node.name,
                            trainable=False, collections=[])
        made_variables[node.name] = var
        return var.op, [var]
    var = inputs[0]
    if op_def is READ_VARIABLE:
        return _outputs(graph.create_op(READ_VARIABLE, (var,), {}, node.name))
    if op_def is VAR_IS_INITIALIZED:
        return _outputs(is_variable_initialized(var, name=node.name))
    method = {ASSIGN: var.assign, ASSIGN_ADD: var.assign_add, ASSIGN_SUB: var.assign_sub}[op_def]
    return _outputs(method(inputs[1], name=node.name))


def _make(graph, node, inputs, controls, made_variables):
    with graph.control_dependencies(controls):
        op_def = _op_def(node)
        if op_def in _RESOURCE_OPS:
            return _resource_op(graph, node, op_def, inputs, made_variables)
        function = raw_op(node.op)
        return _outputs(function(**_arguments(node, function, inputs), name=node.name))


class _Names:
    """Keeps the names of the GraphDef's nodes free (under the prefix) while ops are made, so
    that helper ops a raw op makes cannot take a later node's name."""

    def __init__(self, graph, prefix, nodes):
        self.counts = graph._name_counts
        self.keys = [f"{prefix}{n.name}".lower() for n in nodes]
        self.reserved = {k for k in self.keys if k not in self.counts}
        for key in self.reserved:
            self.counts[key] = 1

    def release(self, name):
        key = name.lower()
        if key in self.reserved:
            self.reserved.discard(key)
            del self.counts[key]


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
    """Import `graph_def` into the default graph (see the module docstring). `name`: the prefix
    ("import" by default, uniquified; "" for none). Returns the tensors ("node:i") and
    operations ("node") that `return_elements` names, in order, or None."""
    if op_dict is not None or producer_op_list is not None:
        raise ValueError("import_graph_def: op_dict and producer_op_list are not supported "
                         "(TensorFlow 2 ignores op_dict; leave them None).")
    return import_with_variables(graph_def, input_map, return_elements, name)[0]


def import_with_variables(graph_def, input_map=None, return_elements=None, name=None):
    """import_graph_def's work: (what return_elements names, {VarHandleOp node name: the graph
    variable made for it})."""
    graph_def = _as_graph_def(graph_def)
    mapped = _checked_input_map(input_map)
    if isinstance(return_elements, str):
        return_elements = [return_elements]
    nodes = _check_names(graph_def, mapped, return_elements)
    graph = get_default_graph()
    order = _ordered(graph_def)
    with graph.name_scope("import" if name is None else name) as scope:
        made, variables = _import_nodes(graph, order, mapped, scope)
    return _returned(return_elements, made, nodes), variables


def _import_nodes(graph, order, mapped, scope):
    made, variables = {}, {}
    names = _Names(graph, scope, order)
    for node in order:
        inputs, controls = [], []
        for text in node.input:
            source, index = _split_name(text)
            key = (source, index)
            if index is None:
                controls.append(mapped[key] if key in mapped else made[source][0])
            else:
                inputs.append(mapped[key] if key in mapped else
                              _output(made, source, index, node))
        names.release(f"{scope}{node.name}")
        made[node.name] = _make(graph, node, inputs, controls, variables)
    return made, variables


def _output(made, source, index, node):
    op, outputs = made[source]
    if index >= len(outputs):
        raise ValueError(f"Node '{node.name}': Connecting to invalid output {index} of source "
                         f"node {source} which has {len(outputs)} outputs.")
    return outputs[index]


def _returned(return_elements, made, nodes):
    if return_elements is None:
        return None
    out = []
    for text in return_elements:
        source, index = _split_name(text)
        op, outputs = made[source]
        if ":" not in text:
            out.append(op)
        elif index >= len(outputs):
            raise ValueError(f"Invalid return output {index} of node '{source}', which has "
                             f"{len(outputs)} output(s)")
        else:
            out.append(outputs[index])
    return out
