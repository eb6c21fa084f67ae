"""Keras 3's indexing and selection: `take`, `take_along_axis`, `get_item`, `where`, `select`,
`nonzero`, `searchsorted`, `digitize`, `unravel_index` and `diff`.

Gathers route gradients back to the positions they read (summing repeats), `where` and `select`
to the chosen branch (zero elsewhere), `diff` is a difference of two slices. Negative indices
count from the end, as in NumPy. Index outputs are int32.

    take_along_axis(x, i, axis)[..., k, ...] = x[..., i[..., k, ...], ...]
    digitize(x, bins)[k] = the j with bins[j-1] <= x[k] < bins[j] (searchsorted on the right)
    diff(a)[k] = a[k + 1] - a[k], applied n times
"""
from ...ops import array_ops, math_ops
from ...ops.broadcast_ops import broadcast_to, zeros_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as tf_range
from ...ops.indexing_ops import gather, getitem
from ...ops.reshape_ops import expand_dims, reshape, transpose
from ...ops.shape_ops import broadcast_static_shape
from ...ops.sort_ops import searchsorted as tf_searchsorted
from .dtypes import convert, dtype_of, result_type

__all__ = ["take", "take_along_axis", "get_item", "where", "select", "nonzero", "searchsorted",
           "digitize", "unravel_index", "diff"]


def _wrapped(indices, length):
    """indices with negative entries counted from the end."""
    return array_ops.where(math_ops.less(indices, 0),
                           math_ops.add(indices, cast(length, indices.dtype.name)), indices)


def take(x, indices, axis=None):
    """The elements of x at `indices` along `axis` (of the flattened x when None)."""
    x = convert(x)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    indices = convert(indices)
    if indices.dtype.is_floating:
        indices = cast(indices, "int32")
    return gather(x, _wrapped(indices, x.shape[axis]), axis=axis)


def take_along_axis(x, indices, axis=None):
    """x's elements picked along `axis` by `indices`, which match x's shape elsewhere (after
    broadcasting); 1-D indices into the flattened x when axis is None."""
    x = convert(x)
    indices = convert(indices, "int32")
    if axis is None:
        if indices.shape.rank != 1:
            raise ValueError(f"keras.ops.take_along_axis: indices must be 1-D when axis is "
                             f"None; got shape {tuple(indices.shape)}.")
        x, axis = reshape(x, [-1]), 0
    rank = x.shape.rank
    axis %= rank
    x_shape, i_shape = list(x.shape), list(indices.shape)
    shape = list(broadcast_static_shape(
        _with(x_shape, axis, 1), _with(i_shape, axis, 1)).as_list())
    x = broadcast_to(x, _with(shape, axis, x_shape[axis]))
    indices = _wrapped(broadcast_to(indices, _with(shape, axis, i_shape[axis])), x_shape[axis])
    perm = [i for i in range(rank) if i != axis] + [axis]
    rows = reshape(transpose(x, perm), [-1, x_shape[axis]])
    picks = reshape(transpose(indices, perm), [-1, i_shape[axis]])
    offsets = expand_dims(tf_range(0, rows.shape[0] * x_shape[axis], x_shape[axis],
                                   dtype="int32"), 1)
    flat = gather(reshape(rows, [-1]), math_ops.add(picks, offsets))
    moved = reshape(flat, [shape[i] for i in perm[:-1]] + [i_shape[axis]])
    return transpose(moved, [perm.index(i) for i in range(rank)])


def _with(shape, axis, value):
    out = list(shape)
    out[axis] = value
    return out


def get_item(x, key):
    """x[key], with NumPy's basic and advanced indexing."""
    return getitem(convert(x), key)


def where(condition, x1=None, x2=None):
    """x1 where condition holds, else x2 (promoted to one dtype); with neither, the indices of
    the true elements (as nonzero)."""
    condition = convert(condition, "bool")
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("keras.ops.where: give both x1 and x2, or neither.")
    dtype = result_type(dtype_of(x1), dtype_of(x2))
    return array_ops.where(condition, convert(x1, dtype), convert(x2, dtype))


def select(condlist, choicelist, default=0):
    """For each element, the entry of the first choice whose condition holds (default if
    none)."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"keras.ops.select: condlist and choicelist must have the same length; "
                         f"got {len(condlist)} and {len(choicelist)}.")
    dtype = result_type(*(dtype_of(c) for c in choicelist), dtype_of(default))
    out = convert(default, dtype)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        choice = convert(choice, dtype)
        out = array_ops.where(convert(cond, "bool"), choice, out + zeros_like(choice))
    return out


def nonzero(x):
    """A tuple of int32 index vectors, one per axis, of x's nonzero elements."""
    x = convert(x)
    coords = cast(array_ops.where(convert(x, "bool")), "int32")
    return tuple(array_ops.unstack(coords, num=x.shape.rank, axis=1))


def searchsorted(sorted_sequence, values, side="left"):
    """Where each value would be inserted into the sorted 1-D sequence (int32)."""
    sorted_sequence, values = convert(sorted_sequence), convert(values)
    if sorted_sequence.shape.rank != 1:
        raise ValueError(f"keras.ops.searchsorted: sorted_sequence must be 1-D; got shape "
                         f"{tuple(sorted_sequence.shape)}. Use keras.ops.vectorized_map for "
                         "batches of sequences.")
    dtype = result_type(sorted_sequence.dtype.name, values.dtype.name)
    sequence, flat = cast(sorted_sequence, dtype), reshape(cast(values, dtype), [-1])
    out = tf_searchsorted(sequence, flat, side=side, out_type="int32")
    return reshape(out, list(values.shape))


def digitize(x, bins):
    """The index of the bin each element of x falls in, bins[i-1] <= x < bins[i] (int32)."""
    x = convert(x)
    bins = [float(b) for b in bins]
    dtype = "float64" if x.dtype.name in ("int64", "uint32", "uint64", "float64") else "float32"
    return searchsorted(convert(bins, dtype), cast(x, dtype), side="right")


def unravel_index(indices, shape):
    """The coordinates in an array of `shape` of the flat `indices` (a tuple, one per axis)."""
    indices = convert(indices)
    if any(d is None for d in shape):
        raise ValueError(f"keras.ops.unravel_index: shape cannot contain None; got {shape}.")
    coords = []
    for dim in reversed(shape):
        coords.append(math_ops.floormod(indices, convert(dim, indices.dtype.name)))
        indices = math_ops.floordiv(indices, convert(dim, indices.dtype.name))
    return tuple(reversed(coords))


def diff(a, n=1, axis=-1):
    """The n-th discrete difference of a along `axis` (not-equal for bools)."""
    a = convert(a)
    if n < 0:
        raise ValueError(f"keras.ops.diff: the order n must be non-negative; got {n}.")
    if n and a.shape.rank == 0:
        raise ValueError("keras.ops.diff: the input must have at least one dimension.")
    if n == 0:
        return a
    axis %= a.shape.rank
    head = tuple(slice(None) for _ in range(axis))
    for _ in range(n):
        later, earlier = getitem(a, head + (slice(1, None),)), getitem(a, head + (slice(None, -1),))
        a = math_ops.not_equal(later, earlier) if a.dtype.name == "bool" else \
            math_ops.subtract(later, earlier)
    return a
