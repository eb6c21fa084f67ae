"""Seeing a graph: a plain-data description of its ops and a readable text listing.

`graph_def(graph)` gives a `GraphDef` shaped like TensorFlow's: `.node` holds one `NodeDef` per
op (name, op type, input tensor names with control inputs as "^name", attributes with arrays
summarized, and output specs); `as_dict()` gives the same as plain data. `describe(graph)` prints it one op per line,
so the gradient nodes that `gradients()` added (under "gradients/") are easy to see.
"""
import numpy as np

from ..framework.variables import Variable, variable_op_name

__all__ = ["graph_def", "describe", "GraphDef", "NodeDef"]


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


class NodeDef:
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


class GraphDef:
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
        nodes.append(NodeDef(op.name, op.type, inputs,
                             {k: _attr_value(v) for k, v in op.attrs.items()},
                             [{"dtype": t.dtype.name, "shape": _shape(t.shape)}
                              for t in op.outputs], op.gradient_override))
    return GraphDef(nodes)


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
