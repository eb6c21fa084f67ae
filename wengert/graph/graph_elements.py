"""`Graph.as_graph_element`: a tensor or an operation of a graph from itself or its name.

"scope/add:0" names output 0 of the op "scope/add"; "scope/add" names the op. A tensor or op of
another graph is a ValueError, a name nobody holds a KeyError, each with TensorFlow's message;
`allow_tensor`/`allow_operation` say which of the two kinds the caller accepts (a ValueError
names the other kind)."""
from ..framework.operation import Operation

__all__ = ["as_graph_element"]


def as_graph_element(graph, obj, allow_tensor=True, allow_operation=True):
    """The tensor or operation of `graph` that `obj` is or names."""
    if not (allow_tensor or allow_operation):
        raise ValueError("allow_tensor and allow_operation can't both be False.")
    kinds = " or ".join(k for k, a in (("Tensor", allow_tensor), ("Operation", allow_operation))
                        if a)
    if isinstance(obj, str):
        return _by_name(graph, obj, allow_tensor, allow_operation, kinds)
    element = getattr(obj, "_as_graph_element", None)
    if callable(element):  # a variable stands for its value
        obj = element()
    if isinstance(obj, Operation) and allow_operation:
        return _mine(graph, obj, obj)
    if hasattr(obj, "op") and isinstance(getattr(obj, "op", None), Operation) and allow_tensor:
        return _mine(graph, obj, obj.op)
    raise TypeError(f"Can not convert a {type(obj).__name__} into a {kinds}.")


def _mine(graph, element, op):
    if op.graph is not graph:
        raise ValueError(f"{element} is not an element of this graph.")
    return element


def _by_name(graph, name, allow_tensor, allow_operation, kinds):
    if ":" in name:
        if not allow_tensor:
            raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a {kinds}.")
        op_name, _, index = name.rpartition(":")
        if not index.isdigit():
            raise ValueError(f"The name {name!r} looks a like a Tensor name, but is not a valid "
                             "one. Tensor names must be of the form \"<op_name>:<output_index>\".")
        op = graph._by_name.get(op_name)
        if op is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {op_name!r}, does not exist in the graph.")
        if int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {op_name!r}, exists but only has {len(op.outputs)} "
                           "outputs.")
        return op.outputs[int(index)]
    op = graph._by_name.get(name)
    if op is None:
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
    if allow_operation:
        return op
    raise ValueError(f"The name {name!r} refers to an Operation, not a {kinds}. Tensor names "
                     f"must be of the form \"<op_name>:<output_index>\".")
