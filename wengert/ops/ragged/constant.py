"""`tf.ragged.constant`: a ragged tensor from nested Python lists.

The scalars of the list must all sit at the same depth K (else ValueError, as TensorFlow says).
The outer ragged_rank levels become row partitions (by default K - 1 - len(inner_shape) of
them); what remains below them is a list of equally shaped items, the flat values, of shape
[nvals, *inner_shape]. A ragged_rank of 0 gives a dense tensor. A list without scalars counts
its own depth.
"""
import numpy as np

from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import convert_to_tensor
from . import factories

__all__ = ["constant", "constant_value"]


def _scalar_depth(pylist):
    """(depth of the scalars or None if there are none, depth of the deepest list)."""
    depths, deepest, stack = set(), 0, [(pylist, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in item)
        else:
            depths.add(depth)
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return (depths.pop() if depths else None), deepest


def _cut(items, levels):
    """The row lengths of `levels` levels of nesting, outermost first, and the items below."""
    lengths = []
    for _ in range(levels):
        for item in items:
            if not isinstance(item, (list, tuple)):
                raise ValueError("tf.ragged.constant: ragged_rank is deeper than the list's "
                                 "scalars; lower ragged_rank.")
        lengths.append([len(item) for item in items])
        items = [child for item in items for child in item]
    return lengths, items


def _flat_values(items, dtype, inner_shape, name):
    if not items:
        base = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
        return convert_to_tensor(np.zeros([0] + list(inner_shape), base.as_numpy_dtype),
                                 dtype=base, name=name)
    try:
        values = convert_to_tensor(items, dtype=dtype, name=name)
    except ValueError as exc:
        raise ValueError(f"tf.ragged.constant: the values below ragged_rank must all have the "
                         f"same shape (inner_shape {list(inner_shape)}): {exc}") from None
    if inner_shape and tuple(values.shape.as_list()[1:]) != tuple(inner_shape):
        raise ValueError(f"tf.ragged.constant: inner values have shape "
                         f"{values.shape.as_list()[1:]}, which does not match inner_shape "
                         f"{list(inner_shape)}.")
    return values


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """The RaggedTensor holding `pylist` (a dense Tensor when ragged_rank comes out 0)."""
    depth, deepest = _scalar_depth(pylist)
    inner_shape = () if inner_shape is None else tuple(int(d) for d in inner_shape)
    scalar_depth = depth if depth is not None else deepest + len(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(0, scalar_depth - 1 - len(inner_shape))
    if not isinstance(ragged_rank, int) or ragged_rank < 0:
        raise ValueError(f"tf.ragged.constant: ragged_rank must be a non-negative int, got "
                         f"{ragged_rank!r}.")
    if ragged_rank == 0:
        return convert_to_tensor(pylist, dtype=dtype, name=name)
    if depth is not None and ragged_rank >= depth:
        raise ValueError(f"tf.ragged.constant: ragged_rank={ragged_rank} must be less than "
                         f"the depth of the scalars ({depth}).")
    if inner_shape and depth is not None and depth - 1 - ragged_rank != len(inner_shape):
        raise ValueError(f"tf.ragged.constant: inner_shape {list(inner_shape)} does not fit "
                         f"ragged_rank={ragged_rank} for scalars at depth {depth}.")
    lengths, items = _cut([pylist], ragged_rank + 1)
    values = _flat_values(items, dtype, inner_shape, name)
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    lengths = [convert_to_tensor(np.asarray(level, splits_dtype.as_numpy_dtype), dtype=splits_dtype)
               for level in lengths[1:]]
    return factories.from_nested_row_lengths(RaggedTensor, values, lengths, validate=False)


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
    """TensorFlow's RaggedTensorValue counterpart: here the same eager RaggedTensor."""
    return constant(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype=row_splits_dtype)
