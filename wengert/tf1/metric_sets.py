"""Sets of class ids along the last axis, as TensorFlow's `tf.sets` sees them, for the top-k
metrics: the sizes of intersections and differences per row, with dense tensor ops.

A set here is a pair (ids, present): ids of shape [..., m] and a bool mask of the same shape
saying which entries belong (all of a dense tensor's entries do, -1 included; a SparseTensor's
only the stored ones, so it becomes dense ids plus the mask of stored places, scattered into
tensors of its dense shape). An id may repeat;
the set holds it once, so each row counts only the first present copy of an id:

    first[i]  = present[i] and no present j < i has ids[j] = ids[i]
    in_b[i]   = some present j of b has b[j] = a[i]
    |a & b|   = sum_i first_a[i] and in_b[i]        |a - b| = sum_i first_a[i] and not in_b[i]

(the comparisons are [..., m, n] tensors, fine for the k and label counts of top-k metrics).
`select` keeps only the entries equal to one class id.
"""
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..ops.broadcast_ops import ones_like
from ..ops.cast_ops import cast
from ..ops.creation_ops import fill, range as _range
from ..ops.math_ops import equal, greater, less, logical_and, logical_not
from ..ops.query_ops import shape
from ..ops.reduce_ops import reduce_any, reduce_sum
from ..ops.reshape_ops import expand_dims
from ..ops.scatter_ops import tensor_scatter_nd_add

__all__ = ["as_set", "select", "first_present", "members", "intersection_size",
           "difference_size", "set_size"]


def as_set(t, dtype=dtypes.int64):
    """(ids, present) of a dense tensor or a SparseTensor of class ids."""
    if isinstance(t, SparseTensor):
        ids = tensor_scatter_nd_add(fill(t.dense_shape, cast(0, dtype)), t.indices,
                                    cast(t.values, dtype))
        stored = tensor_scatter_nd_add(fill(t.dense_shape, 0), t.indices,
                                       ones_like(t.values, dtype=dtypes.int32))
        return ids, greater(stored, 0)
    ids = cast(convert_to_tensor(t), dtype)
    return ids, equal(ones_like(ids, dtype=dtypes.int32), 1)


def select(s, class_id):
    """The set keeping only the entries equal to `class_id`."""
    ids, present = s
    return ids, logical_and(present, equal(ids, cast(class_id, ids.dtype)))


def first_present(s):
    """The mask of each row's first present copy of each id."""
    ids, present = s
    same = equal(expand_dims(ids, -1), expand_dims(ids, -2))
    positions = _range(shape(ids)[-1])
    earlier = less(expand_dims(positions, 0), expand_dims(positions, 1))
    repeated = reduce_any(logical_and(logical_and(same, earlier),
                                      expand_dims(present, -2)), axis=-1)
    return logical_and(present, logical_not(repeated))


def members(a, b):
    """For each entry of a, whether its id is a present id of b."""
    hits = logical_and(equal(expand_dims(a[0], -1), expand_dims(b[0], -2)),
                       expand_dims(b[1], -2))
    return reduce_any(hits, axis=-1)


def _count(mask):
    return reduce_sum(cast(mask, dtypes.int32), axis=-1)


def set_size(s):
    """The number of distinct present ids per row."""
    return _count(first_present(s))


def intersection_size(a, b):
    """|a & b| per row."""
    return _count(logical_and(first_present(a), members(a, b)))


def difference_size(a, b):
    """|a - b| per row."""
    return _count(logical_and(first_present(a), logical_not(members(a, b))))
