"""Matching the entries of one sparse tensor to those of another, with ops (so that gradient
and JVP rules built on it run eagerly, in graphs and on outer tapes).

An entry's linear position is p = sum_k indices[k] t_k, with t_k = prod_{j>k} dense_shape[j]
(row-major strides). For entries E and a canonically ordered target T (strictly increasing
positions), `match` finds for each entry of E the slot s = searchsorted(p_T, p_E) and whether
p_T[s] = p_E: a gradient is then where(found, gather(g, s), 0) and a tangent is the
segment sum of where(found, t, 0) into T's slots.
"""
from ...framework import dtypes
from ..array_ops import concat
from ..creation_ops import ones, zeros
from ..indexing_ops import gather
from ..math_ops import cast, equal
from ..reduce_ops import reduce_sum
from ..scan_ops import cumprod
from ..segment_ops import unsorted_segment_sum
from ..sort_ops import searchsorted
from ..array_ops import where
from ..broadcast_ops import zeros_like

__all__ = ["positions", "match", "pull", "push"]


def positions(indices, dense_shape):
    """The row-major position of each row of `indices` (int64 [N])."""
    strides = cumprod(cast(dense_shape, dtypes.int64), exclusive=True, reverse=True)
    return reduce_sum(cast(indices, dtypes.int64) * strides, axis=1)


def match(entries, target, dense_shape):
    """(slot, found): for each row of `entries`, its slot among `target`'s rows (sorted; the
    slot past the end when none is larger), and whether the target holds that coordinate."""
    target_pos = positions(target, dense_shape)
    entry_pos = positions(entries, dense_shape)
    slot = searchsorted(target_pos, entry_pos, out_type=dtypes.int64)
    return slot, equal(gather(concat([target_pos, -ones([1], dtypes.int64)], 0), slot),
                       entry_pos)


def pull(values, slot, found):
    """values at each entry's slot, 0 where the target lacks it."""
    picked = gather(concat([values, zeros([1], values.dtype)], 0), slot)
    return where(found, picked, zeros_like(picked))


def push(values, slot, found, count):
    """The entries' values summed into `count` target slots (entries the target lacks drop)."""
    return unsorted_segment_sum(where(found, values, zeros_like(values)),
                                where(found, slot, zeros_like(slot) - 1), count)
