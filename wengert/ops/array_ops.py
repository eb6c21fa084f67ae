"""Shape and indexing ops: where, reshape, transpose, concat, gather, slicing and friends.

Gradients of pure data movement are data movement the other way: the gradient of a reshape is a
reshape back, of a transpose the inverse transpose, of a gather a scatter-add, of a slice a pad
with zeros. `where` (Select) routes each element's gradient to the branch it was taken from: the
condition gets None, x gets g where the condition held and 0 elsewhere, y the rest.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from . import shapes
from .array_core import zeros_like

__all__ = ["where"]


def _select_rule(condition, x, y):
    if not condition.dtype.is_bool:
        raise InvalidArgumentError(f"condition must be bool, got {condition.dtype.name}.")
    shapes.check_same_dtype(x, y)
    out = shapes.broadcast_shapes(shapes.broadcast_shapes(condition.shape, x.shape), y.shape)
    return out, x.dtype


def _select_grad(op, grad):
    condition = op.inputs[0]
    zeros = zeros_like(grad)
    dx = where(condition, grad, zeros) if 1 not in op.skip_input_indices else None
    dy = where(condition, zeros, grad) if 2 not in op.skip_input_indices else None
    return None, dx, dy


SELECT = defop("SelectV2", np.where, shape=_select_rule, grad=_select_grad)


def _where_indices_rule(condition):
    from ..framework.tensor_shape import TensorShape
    return TensorShape([None, condition.shape.rank]), dtypes.int64


WHERE_INDICES = defop("Where", lambda c: np.argwhere(c).astype(np.int64),
                      shape=_where_indices_rule, grad=None)


def where(condition, x=None, y=None, name=None):
    """Elementwise `x if condition else y` (broadcasting), or, with only `condition`, the
    coordinates of its True entries as an int64 [n, rank] tensor."""
    condition = convert_to_tensor(condition, dtype_hint=dtypes.bool)
    if x is None and y is None:
        return execute(WHERE_INDICES, (condition,), name=name)
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither.")
    if not condition.dtype.is_bool:
        raise TypeError(f"where: condition must be a bool tensor, got {condition.dtype.name}; "
                        "compare it with a value first, e.g. where(x > 0, ...).")
    x, y = binary_operands(x, y, "SelectV2")
    return execute(SELECT, (condition, x, y), name=name)
