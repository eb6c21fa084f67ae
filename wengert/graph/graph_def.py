"""Seeing a graph: a plain-data description of its ops and a readable text listing.

`graph_def(graph)` gives one dict per op: name, type, input tensor names, control inputs,
attributes (arrays summarized) and output specs. `describe(graph)` prints it one op per line,
so the gradient nodes that `gradients()` added (under "gradients/") are easy to see.
"""
import numpy as np

from ..framework.variables import Variable

__all__ = ["graph_def", "describe"]


def _input_name(t):
    if isinstance(t, Variable):
        return t.name.rsplit(":", 1)[0]
    return t.name


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


def graph_def(graph):
    nodes = []
    for op in graph.get_operations():
        nodes.append({
            "name": op.name,
            "op": op.type,
            "input": [_input_name(t) for t in op.inputs],
            "control_input": [c.name for c in op.control_inputs],
            "attr": {k: _attr_value(v) for k, v in op.attrs.items()},
            "output": [{"dtype": t.dtype.name, "shape": _shape(t.shape)} for t in op.outputs],
            "gradient_override": op.gradient_override,
        })
    return {"node": nodes}


def _shape(shape):
    return None if shape.rank is None else list(shape)


def describe(graph):
    """One line per op: `name = Type(inputs) -> dtype[shape]`."""
    lines = []
    for node in graph_def(graph)["node"]:
        outs = ", ".join(f"{o['dtype']}{o['shape'] if o['shape'] is not None else '[?]'}"
                         for o in node["output"])
        deps = f" after {node['control_input']}" if node["control_input"] else ""
        lines.append(f"{node['name']} = {node['op']}({', '.join(node['input'])}) -> "
                     f"{outs or '()'}{deps}")
    return "\n".join(lines)
