"""TensorFlow's small graph utilities at the top level: `no_op`, `group`, `tuple`,
`get_current_name_scope`, `inside_function`, `is_symbolic_tensor`.

In a graph `no_op` is a NoOp op, `group(*inputs)` a NoOp that runs after all of `inputs`
(fetching it runs them), and `tuple(tensors)` gives identities of `tensors` that are ready only
once all of them (and `control_inputs`) are: a barrier. Eagerly ops run as they are called, so
`no_op` and `group` return None and `tuple` returns its tensors, as in TensorFlow 2.
"""
import builtins

from ..framework.context import state
from ..framework.operation import Operation
from ..ops.array_ops import identity
from .graph import NO_OP, current_scope_name, get_default_graph
from .symbolic import SymbolicTensor

__all__ = ["no_op", "group", "tuple", "get_current_name_scope", "inside_function",
           "is_symbolic_tensor"]


def no_op(name=None):
    """An op that does nothing: a NoOp in a graph (for control dependencies), None eagerly."""
    if state.graph is None:
        return None
    return state.graph.create_op(NO_OP, (), {}, name or "NoOp")


def _ops_of(inputs):
    ops = []
    for item in inputs:
        if isinstance(item, (list, builtins.tuple)):
            ops.extend(_ops_of(item))
        elif isinstance(item, Operation):
            ops.append(item)
        elif item is not None and getattr(item, "op", None) is not None:
            ops.append(item.op)
    return ops


def group(*inputs, name=None):
    """An op that runs after every one of `inputs` (ops, tensors, nested lists of them)."""
    if state.graph is None:
        return None
    with get_default_graph().control_dependencies(_ops_of(inputs)):
        return no_op(name=name or "group_deps")


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 (TensorFlow's name)
    """Identities of `tensors` (None entries stay None) ready only after all of `tensors` and
    `control_inputs`: a barrier in a graph; the tensors themselves eagerly."""
    if state.graph is None:
        return list(tensors)
    gate = group(*tensors, *(control_inputs or ()), name=name)
    with get_default_graph().control_dependencies([gate]):
        return [None if t is None else identity(t) for t in tensors]


def get_current_name_scope():
    """The name scope in effect ("outer/inner", no trailing slash; "" at the top)."""
    return current_scope_name().rstrip("/")


def inside_function():
    """Whether the code runs while a graph is being built (tracing a tf.function or in a
    Graph's as_default block), TensorFlow's test for "not eager"."""
    return state.graph is not None


def is_symbolic_tensor(tensor):
    """Whether `tensor` is a graph tensor (no value until the graph runs)."""
    return isinstance(tensor, SymbolicTensor)

