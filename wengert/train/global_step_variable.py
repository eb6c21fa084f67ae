"""The global step (`compat.v1.train.get_or_create_global_step` and friends): one int64
scalar variable per graph, in the GLOBAL_STEP collection, that `minimize(global_step=...)` and
the training hooks count with; eagerly, one variable for the program.
"""
import numpy as np

from ..framework.context import state
from ..framework.tensor import TensorLike
from ..framework.variables import Variable

__all__ = ["get_global_step", "get_or_create_global_step", "create_global_step", "global_step",
           "assert_global_step"]


_EAGER_STEP = []


def get_global_step(graph=None):
    """The global step variable (of `graph` or the default graph), or None."""
    graph = graph if graph is not None else state.graph
    if graph is None:
        return _EAGER_STEP[0] if _EAGER_STEP else None
    found = graph.get_collection("global_step")
    return found[0] if found else None


def create_global_step(graph=None):
    """A new int64 global step variable starting at 0 (an error if one exists)."""
    graph = graph if graph is not None else state.graph
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    if graph is None:
        step = Variable(np.int64(0), trainable=False, name="global_step")
        _EAGER_STEP.append(step)
        return step
    with graph.as_default(), graph.name_scope(""):
        step = Variable(np.int64(0), trainable=False, name="global_step")
    graph.add_to_collection("global_step", step)
    return step


def get_or_create_global_step(graph=None):
    step = get_global_step(graph)
    return step if step is not None else create_global_step(graph)


def global_step(sess, global_step_tensor):
    """The step as a Python int: run in `sess`, or read eagerly when no graph is being built."""
    if state.graph is None:
        return int(global_step_tensor.numpy())
    return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor):
    """Raise TypeError unless `global_step_tensor` is an integer scalar variable or tensor."""
    if not isinstance(global_step_tensor, (Variable, TensorLike)):
        raise TypeError(f'Existing "global_step" must be a Variable or Tensor: '
                        f"{global_step_tensor}.")
    if not global_step_tensor.dtype.is_integer:
        raise TypeError(f'Existing "global_step" does not have integer type: '
                        f"{global_step_tensor.dtype}")
    shape = global_step_tensor.shape
    if shape.rank != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')
