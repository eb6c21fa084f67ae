"""`tf.compat.v1.graph_util`: TensorFlow 1's tools over GraphDefs, and `tf.io.write_graph`.

`extract_sub_graph(graph_def, dest_nodes)` keeps the nodes that `dest_nodes` reach through data,
control and colocation (`_class`) inputs, in their GraphDef order (a breadth-first walk, no
recursion). `convert_variables_to_constants(sess, graph_def, output_node_names)` freezes a graph:
on that sub-graph, each variable node (VarHandleOp, VariableV2) becomes a Const holding the value
`sess` has for it, and each ReadVariableOp of one becomes an Identity, so the result runs with no
variables and no checkpoint; `variable_names_whitelist`/`blacklist` choose which variables.
`remove_training_nodes` drops CheckNumerics nodes and splices out Identity and StopGradient nodes
that no control edge involves. `write_graph` writes a GraphDef as text or binary protobuf.
"""
import collections
import os

import numpy as np

from ..debugging.numerics import CHECK_NUMERICS
from ..framework import dtypes
from ..framework.protos.graph import GraphDef as _ProtoGraphDef
from ..framework.protos.graph import NodeDef
from ..framework.protos.tensor import to_proto
from ..framework.registry import raw_op_entry
from ..framework.variables import READ_VARIABLE, Variable, variable_op_name
from ..graph.graph_def import GraphDef
from ..graph.variables import VAR_HANDLE
from ..ops.array_ops import IDENTITY, STOP_GRADIENT
from ..ops.cast_ops import CAST
from ..ops.creation_ops import CONST
from ..ops.io import gfile
from ..ops.partition_ops import DYNAMIC_STITCH
from ..ops.random.seeded import TRUNCATED_NORMAL

__all__ = ["extract_sub_graph", "convert_variables_to_constants", "remove_training_nodes",
           "tensor_shape_from_node_def_name", "must_run_on_cpu", "write_graph"]

# TensorFlow 1's reference-variable ops (wengert has none of them) and the ops wengert has
_REF_VARIABLE_OPS = ("Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub",
                     "ScatterUpdate", "Variable", "VariableV2")
_REF_VARIABLES = ("VariableV2", "Variable")


def _op_def(node):
    """The OpDef of a NodeDef's op type (None for one wengert does not declare)."""
    entry = raw_op_entry(node.op)
    return entry[0] if entry else None


def _is_variable(node):
    return node.op in _REF_VARIABLES or _op_def(node) is VAR_HANDLE


def _node_name(text):
    return text[1:] if text.startswith("^") else text.split(":")[0]


def _check_graph_def(graph_def, what):
    if not isinstance(graph_def, _ProtoGraphDef):
        raise TypeError(f"{what} must be a graph_pb2.GraphDef proto, but got type "
                        f"{type(graph_def)}.")


def _colocated(node):
    names = []
    if "_class" in node.attr:
        for raw in node.attr["_class"].list.s:
            text = raw.decode("utf-8")
            names.append(text[5:] if text.startswith("loc:@") else text)
    return names


def _sources(node):
    return [_node_name(x) for x in node.input] + _colocated(node)


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes that can reach `dest_nodes` (names), in graph_def's order."""
    _check_graph_def(graph_def, "graph_def")
    if isinstance(dest_nodes, str):
        raise TypeError(f"dest_nodes must be an iterable of strings, but got type "
                        f"{type(dest_nodes)}.")
    by_name = {_node_name(n.name): n for n in graph_def.node}
    for name in dest_nodes:
        if name not in by_name:
            raise AssertionError(f"{name} is not in graph")
    keep, queue = set(), collections.deque(dest_nodes)
    while queue:
        name = queue.popleft()
        if name in keep:
            continue
        keep.add(name)
        if name in by_name:
            queue.extend(_sources(by_name[name]))
    out = GraphDef()
    out.node.extend(n for n in graph_def.node if _node_name(n.name) in keep)
    if graph_def.HasField("library"):
        out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _graph_variables(graph):
    """variable node name -> the Variable of `graph` it holds."""
    found = {}
    for op in graph.get_operations():
        for t in op.inputs:
            if isinstance(t, Variable):
                found.setdefault(variable_op_name(t), t)
    return found


def _chosen(name, whitelist, blacklist):
    return ((whitelist is None or name in whitelist) and
            (blacklist is None or name not in blacklist))


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """A frozen copy of `input_graph_def` (see the module docstring): the sub-graph reaching
    `output_node_names`, with the chosen variables as Consts of their values in `sess`."""
    sub = extract_sub_graph(input_graph_def, output_node_names)
    frozen = [n.name for n in sub.node if _is_variable(n) and
              _chosen(n.name, variable_names_whitelist, variable_names_blacklist)]
    variables = _graph_variables(sess.graph)
    missing = [name for name in frozen if name not in variables]
    if missing:
        raise ValueError(f"convert_variables_to_constants: the session's graph has no "
                         f"variables named {missing}; pass the GraphDef of sess.graph.")
    values = dict(zip(frozen, sess.run([variables[name] for name in frozen]))) if frozen else {}
    out = GraphDef()
    for node in sub.node:
        out.node.append(_frozen_node(node, values))
    if sub.HasField("library"):
        out.library.CopyFrom(sub.library)
    out.versions.CopyFrom(sub.versions)
    return out


def _frozen_node(node, values):
    if node.name in values:
        value = np.asarray(values[node.name])
        dtype = dtypes.as_dtype(value.dtype)
        out = NodeDef(name=node.name, op=CONST.type)
        out.attr["dtype"].type = dtype.as_datatype_enum
        out.attr["value"].tensor.CopyFrom(to_proto(value, dtype))
        return out
    if _op_def(node) is READ_VARIABLE and node.input and _node_name(node.input[0]) in values:
        out = NodeDef(name=node.name, op=IDENTITY.type, device=node.device)
        out.input.extend(node.input)
        out.attr["T"].type = node.attr["dtype"].type
        return out
    copy = NodeDef()
    copy.CopyFrom(node)
    return copy


def remove_training_nodes(input_graph, protected_nodes=None):
    """`input_graph` (a GraphDef) without CheckNumerics nodes, and with Identity and
    StopGradient nodes spliced out unless a control edge or colocation involves them or they
    are in `protected_nodes`."""
    protected = set(protected_nodes or ())
    removed = {n.name for n in input_graph.node if _op_def(n) is CHECK_NUMERICS and
               n.name not in protected}
    nodes = []
    for node in input_graph.node:
        if node.name not in removed:
            copy = NodeDef()
            copy.CopyFrom(node)
            kept = [x for x in copy.input if _node_name(x) not in removed]
            del copy.input[:]
            copy.input.extend(kept)
            nodes.append(copy)
    splice = _spliced(nodes, protected)
    out = GraphDef()
    for node in nodes:
        if node.name in splice:
            continue
        inputs = []
        for text in node.input:
            while _node_name(text) in splice:
                text = splice[_node_name(text)]
            inputs.append(text)
        del node.input[:]
        node.input.extend(inputs)
        out.node.append(node)
    return out


def _spliced(nodes, protected):
    control_inputs, with_controls, colocated = set(), set(), set()
    for node in nodes:
        for text in node.input:
            if text.startswith("^"):
                control_inputs.add(text[1:])
                with_controls.add(node.name)
        colocated.update(_colocated(node))
    return {n.name: n.input[0] for n in nodes
            if _op_def(n) in (IDENTITY, STOP_GRADIENT) and n.name not in protected and
            n.name not in colocated and n.name not in with_controls and
            n.name not in control_inputs and n.input}


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor a NodeDef input string names ("op" means "op:0")."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).shape


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether TensorFlow places `node` (a NodeDef or an Operation) on the CPU: int32 and
    string constants, int32 DynamicStitch and Cast from int32, and variable ops when
    `pin_variables_on_cpu`."""
    if not isinstance(node, NodeDef):
        node = _node_of(node)
    op_def = _op_def(node)
    if pin_variables_on_cpu and (node.op in _REF_VARIABLE_OPS or
                                 op_def in (VAR_HANDLE, TRUNCATED_NORMAL)):
        return True
    int32, string = dtypes.int32.as_datatype_enum, dtypes.string.as_datatype_enum
    if op_def is CONST:
        return node.attr["dtype"].type in (int32, string)
    if op_def is DYNAMIC_STITCH or node.op == "ParallelDynamicStitch":
        return node.attr["T"].type == int32
    if op_def is CAST:
        return node.attr["SrcT"].type == int32
    return False


def _node_of(op):
    for node in op.graph.as_graph_def().node:
        if node.name == op.name:
            return node
    raise ValueError(f"must_run_on_cpu: {op!r} is neither a NodeDef nor an op of a graph.")


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write a Graph's GraphDef (or a GraphDef) to `logdir/name`, in text format when
    `as_text`, else as binary protobuf; returns the path."""
    graph_def = graph_or_graph_def
    if not isinstance(graph_def, _ProtoGraphDef):
        if not hasattr(graph_def, "as_graph_def"):
            raise TypeError(f"write_graph: graph_or_graph_def must be a Graph or a GraphDef, "
                            f"got {type(graph_def).__name__}.")
        graph_def = graph_def.as_graph_def()
    if not gfile.exists(logdir):
        gfile.makedirs(logdir)
    path = os.path.join(logdir, name)
    data = str(graph_def).encode("utf-8") if as_text else graph_def.SerializeToString()
    with gfile.GFile(path, "wb") as f:
        f.write(data)
    return path
