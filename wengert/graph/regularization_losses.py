"""The regularization losses of a TensorFlow 1 graph: `get_variable(..., regularizer=r)` adds
`r(variable)` to the REGULARIZATION_LOSSES collection; `get_regularization_losses(scope)` lists
them (names matching `scope` at their start) and `get_regularization_loss(scope)` is their sum,
sum_i loss_i (0.0 when there are none)."""
from ..ops.broadcast_ops import add_n
from ..framework.tensor import constant
from .collections import GraphKeys, get_collection

__all__ = ["get_regularization_losses", "get_regularization_loss"]


def get_regularization_losses(scope=None):
    """The REGULARIZATION_LOSSES of the default graph (those whose name matches `scope`)."""
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses (matching `scope`), a tensor named `name`."""
    losses = get_regularization_losses(scope)
    if losses:
        return add_n(losses, name=name)
    return constant(0.0)
