"""A graph as TensorFlow's GraphDef, and as plain data to look at.

`as_graph_def(graph)` gives the `GraphDef` protocol buffer TensorFlow would write for the graph
(node_defs.py makes each op's NodeDef), with `producer` and `min_consumer` as TensorFlow 2.21
writes them; `add_shapes=True` adds each node's `_output_shapes`. The message serializes to
bytes TensorFlow reads (`SerializeToString`), and `as_dict()` still gives the plain-data view.

`graph_def(graph)` is that plain view: `.node` holds one `PlainNodeDef` per op (name, op type,
input tensor names with control inputs as "^name", attributes with arrays summarized, and
output specs); `as_dict()` gives the same as lists and dicts. `describe(graph)` prints it one op
per line, so the gradient nodes that `gradients()` added (under "gradients/") are easy to see.
"""
import numpy as np

from ..framework.protos import graph as graph_pb
from ..framework.variables import Variable, variable_op_name
from .graph import Graph
from .node_defs import node_defs

__all__ = ["as_graph_def", "graph_def", "describe", "GraphDef", "PlainGraphDef",
           "PlainNodeDef", "PRODUCER", "MIN_CONSUMER"]

PRODUCER, MIN_CONSUMER = 2474, 12  # the GraphDef versions TensorFlow 2.21 writes


def _attr_value(v):
    if isinstance(v, np.ndarray):
        if v.size <= 8:
            return v.tolist()
        return f"<array {v.dtype} {list(v.shape)}>"
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    if isinstance(v, np.dtype):
        return v.name
    return v


class PlainNodeDef:
    """One op as TensorFlow's NodeDef shows it: `name`, `op` (its type), `input` (tensor names,
    "x" for output 0 and "x:1" for others, control inputs as "^name"), `attr`, `device`; plus
    `output`, the dtype and shape of each output."""

    __slots__ = ("name", "op", "input", "attr", "device", "output", "gradient_override")

    def __init__(self, name, op, inputs, attr, output, gradient_override=None):
        self.name, self.op, self.input, self.attr = name, op, inputs, attr
        self.device, self.output, self.gradient_override = "", output, gradient_override

    def as_dict(self):
        return {"name": self.name, "op": self.op, "input": list(self.input),
                "attr": dict(self.attr), "output": list(self.output),
                "gradient_override": self.gradient_override}

    def __repr__(self):
        return f"<NodeDef {self.name!r} op={self.op!r} input={self.input}>"


class PlainGraphDef:
    """A graph as data, shaped like TensorFlow's GraphDef: `node` lists the NodeDefs in creation
    order (a topological order); `as_dict()` gives the same as plain lists and dicts."""

    __slots__ = ("node",)

    def __init__(self, nodes):
        self.node = nodes

    def as_dict(self):
        return {"node": [n.as_dict() for n in self.node]}

    def __len__(self):
        return len(self.node)

    def __repr__(self):
        return f"<GraphDef with {len(self.node)} nodes>"


def _tensor_input(t):
    if isinstance(t, Variable):
        return variable_op_name(t)
    name = t.name
    return name[:-2] if name.endswith(":0") else name


def graph_def(graph):
    """The GraphDef of `graph`."""
    nodes = []
    for op in graph.get_operations():
        inputs = [_tensor_input(t) for t in op.inputs] + [f"^{c.name}"
                                                          for c in op.control_inputs]
        nodes.append(PlainNodeDef(op.name, op.type, inputs,
                             {k: _attr_value(v) for k, v in op.attrs.items()},
                             [{"dtype": t.dtype.name, "shape": _shape(t.shape)}
                              for t in op.outputs], op.gradient_override))
    return PlainGraphDef(nodes)


class GraphDef(graph_pb.GraphDef):
    """`tf.compat.v1.GraphDef`, the protocol buffer; one that `Graph.as_graph_def()` made also
    gives its graph's plain-data view with `as_dict()`."""

    __slots__ = ("_plain",)

    def __init__(self, **fields):
        super().__init__(**fields)
        object.__setattr__(self, "_plain", None)

    def as_dict(self):
        """Plain lists and dicts: the graph's ops (name, op, input, attr, output) when a graph
        made this message, else its nodes' names, op types, inputs and attribute kinds."""
        if self._plain is not None:
            return self._plain.as_dict()
        return {"node": [{"name": n.name, "op": n.op, "input": list(n.input),
                          "attr": {k: v.WhichOneof("value") for k, v in n.attr.items()}}
                         for n in self.node]}


def as_graph_def(graph, add_shapes=False):
    """The GraphDef protocol buffer of `graph` (see the module docstring)."""
    out = GraphDef()
    out.node.extend(node_defs(graph))
    if add_shapes:
        _add_shapes(out, graph)
    out.versions.producer, out.versions.min_consumer = PRODUCER, MIN_CONSUMER
    object.__setattr__(out, "_plain", graph_def(graph))
    return out


Graph.graph_def_writer = as_graph_def  # the graph layer's hook for Graph.as_graph_def


def _add_shapes(out, graph):
    ops = {op.name: op for op in graph.get_operations()}
    for node in out.node:
        op = ops.get(node.name)
        outputs = op.outputs if op is not None else ()
        if op is None and "value" in node.attr:
            node.attr["_output_shapes"].list.shape.add().CopyFrom(node.attr["value"].tensor
                                                                  .tensor_shape)
            continue
        shapes = node.attr["_output_shapes"].list
        shapes.SetInParent()
        for t in outputs:
            proto = shapes.shape.add()
            if t.shape.rank is None:
                proto.unknown_rank = True
            for d in t.shape.as_list() if t.shape.rank is not None else ():
                proto.dim.add(size=-1 if d is None else int(d))


def _shape(shape):
    return None if shape.rank is None else list(shape)


def describe(graph):
    """One line per op: `name = Type(inputs) -> dtype[shape]`."""
    lines = []
    for node in graph_def(graph).node:
        outs = ", ".join(f"{o['dtype']}{o['shape'] if o['shape'] is not None else '[?]'}"
                         for o in node.output)
        data = [i for i in node.input if not i.startswith("^")]
        control = [i[1:] for i in node.input if i.startswith("^")]
        deps = f" after {control}" if control else ""
        lines.append(f"{node.name} = {node.op}({', '.join(data)}) -> {outs or '()'}{deps}")
    return "\n".join(lines)
