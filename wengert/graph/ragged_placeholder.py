"""`tf.compat.v1.ragged.placeholder`: a ragged graph input, fed as its parts.

A ragged placeholder of ragged rank k is k + 1 placeholders: the flat values, of shape
[None] + value_shape, and one int64 row splits vector [None] per ragged level (outermost
first), wrapped as a RaggedTensor; a Session feeds each part (or the RaggedTensor's parts).
"""
from ..framework import dtypes
from ..framework.ragged_tensor import RaggedTensor
from ..ops.ragged import factories
from .graph import placeholder as dense_placeholder

__all__ = ["placeholder"]


def placeholder(dtype, ragged_rank, value_shape=None, name=None):
    """A RaggedTensor of placeholders (see the module docstring)."""
    if not isinstance(ragged_rank, int) or ragged_rank < 1:
        raise ValueError(f"tf.compat.v1.ragged.placeholder: ragged_rank must be an int >= 1, "
                         f"got {ragged_rank!r}.")
    prefix = name or "RaggedPlaceholder"
    inner = [] if value_shape is None else list(value_shape)
    result = dense_placeholder(dtypes.as_dtype(dtype), [None] + inner, f"{prefix}/flat_values")
    for level in range(ragged_rank - 1, -1, -1):
        splits = dense_placeholder(dtypes.int64, [None], f"{prefix}/row_splits_{level}")
        result = factories.from_row_splits(RaggedTensor, result, splits, validate=False)
    return result
