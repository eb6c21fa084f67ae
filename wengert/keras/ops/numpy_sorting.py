"""Keras 3's sorting and counting: `sort`, `argsort`, `argpartition`, `unique`, `bincount` and
`histogram`.

`sort` is differentiable (the gradient returns to each element's original position); the index
and count outputs are int32 and have no gradient. `unique` sorts the elements (or the slices along
an axis, lexicographically) with stable argsorts, starts a new group wherever a slice differs
from its predecessor, and reads the distinct values, first indices, inverse map and counts from
the groups, ascending or, unless `sorted`, in order of first appearance; `size` truncates or pads the result to a fixed length with `fill_value`.
`argpartition` returns a full argsort, which is one valid partition: the k-th entry indexes the
k-th smallest value, those before it index no larger values and those after no smaller ones.

    bincount(x, w)[v] = sum of w[k] over the k with x[k] = v
    histogram(x, bins, (lo, hi)): bins equal-width bins over [lo, hi], the last one closed
"""
from ...ops import math_ops, reduce_ops
from ...ops.array_ops import concat
from ...ops.broadcast_ops import ones_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as tf_range
from ...ops.histogram_ops import bincount as tf_bincount
from ...ops.indexing_ops import boolean_mask, gather
from ...ops.misc_math_ops import invert_permutation
from ...ops.pad_ops import pad
from ...ops.reshape_ops import reshape
from ...ops.scan_ops import cumsum
from ...ops.segment_ops import unsorted_segment_min, unsorted_segment_sum
from ...ops.shape_ops import linspace
from ...ops.sparse.conversions import from_dense
from ...ops.sort_ops import argsort as tf_argsort, searchsorted, sort as tf_sort
from .dtypes import convert, result_type
from .numpy_shapes import moveaxis

__all__ = ["sort", "argsort", "argpartition", "unique", "bincount", "histogram"]


def _flat_axis(x, axis):
    return (reshape(x, [-1]), 0) if axis is None else (x, axis)


def sort(x, axis=-1):
    """x sorted ascending along `axis` (the flattened x when None)."""
    x, axis = _flat_axis(convert(x), axis)
    if x.dtype.name == "bool":
        return cast(tf_sort(cast(x, "int8"), axis=axis), "bool")
    return tf_sort(x, axis=axis)


def argsort(x, axis=-1):
    """The int32 indices that sort x ascending along `axis` (the flattened x when None)."""
    x = convert(x)
    if x.shape.rank == 0:
        return convert([0], "int32")
    x, axis = _flat_axis(x, axis)
    if x.dtype.name == "bool":
        x = cast(x, "uint8")
    return tf_argsort(x, axis=axis, stable=True)


def argpartition(x, kth, axis=-1):
    """Indices that partition x around its kth smallest element along `axis` (int32)."""
    x = convert(x)
    size = x.shape.num_elements() if axis is None else x.shape[axis]
    if not -size <= kth < size:
        raise ValueError(f"keras.ops.argpartition: kth={kth} is out of range for an axis of "
                         f"size {size}.")
    return argsort(x, axis=axis)


def _lexicographic_order(rows):
    """The permutation that sorts the rows of a 2-D tensor lexicographically (stable)."""
    order = tf_range(rows.shape[0], dtype="int32")
    for column in reversed(range(rows.shape[1])):
        keys = gather(rows[:, column], order)
        if keys.dtype.name == "bool":
            keys = cast(keys, "int8")
        order = gather(order, tf_argsort(keys, stable=True))
    return order


def _distinct_rows(rows, sorted):
    """(distinct rows, first index of each, inverse map, counts) of a 2-D tensor, the rows
    ascending when `sorted`, else in order of first appearance."""
    order = _lexicographic_order(rows)
    ranked = gather(rows, order)
    starts = reduce_ops.reduce_any(math_ops.not_equal(ranked[1:], ranked[:-1]), axis=1)
    group = cumsum(concat([convert([0], "int32"), cast(starts, "int32")], 0), axis=0)
    count = int(group[-1]) + 1 if rows.shape[0] else 0
    first = unsorted_segment_min(order, group, count)
    inverse = gather(group, invert_permutation(order))
    counts = unsorted_segment_sum(ones_like(group), group, count)
    if not sorted:
        by_appearance = tf_argsort(first, stable=True)
        first, counts = gather(first, by_appearance), gather(counts, by_appearance)
        inverse = gather(invert_permutation(by_appearance), inverse)
    return gather(rows, first), first, inverse, counts


def _fixed_size(values, index, counts, size, fill_value):
    """The first `size` distinct entries, padded with fill_value (and index 1, count 0)."""
    found = values.shape[0]
    if found >= size:
        return values[:size], index[:size], counts[:size]
    extra = [[0, size - found]]
    fill = convert(0 if fill_value is None else fill_value, values.dtype.name)
    values = pad(values, extra + [[0, 0]] * (values.shape.rank - 1), constant_values=fill)
    return values, pad(index, extra, constant_values=1), pad(counts, extra)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False,
           axis=None, size=None, fill_value=None):
    """The distinct values of the flattened x (the distinct slices along `axis` when given),
    with (as asked) the index of each one's first occurrence, the inverse map that rebuilds x,
    and the counts."""
    x = convert(x)
    moved = reshape(x, [-1]) if axis is None else moveaxis(x, axis, 0)
    rows = reshape(moved, [moved.shape[0], -1])
    values, index, inverse, counts = _distinct_rows(rows, sorted)
    values = reshape(values, [-1] + list(moved.shape[1:]))
    if size is not None:
        values, index, counts = _fixed_size(values, index, counts, size, fill_value)
    out = [values if axis is None else moveaxis(values, 0, axis)]
    out += [index] if return_index else []
    out += [reshape(inverse, list(x.shape)) if axis is None else inverse] \
        if return_inverse else []
    out += [counts] if return_counts else []
    return tuple(out) if len(out) > 1 else out[0]


def bincount(x, weights=None, minlength=0, sparse=False):
    """The count (or the weight sum) of each non-negative integer value of x, along its last
    axis; a SparseTensor of the nonzero counts when `sparse`."""
    x = convert(x)
    dtype = "int32"
    if x.dtype.name not in ("int32", "int64"):
        x = cast(x, "int32")
    if weights is not None:
        weights = convert(weights)
        dtype = result_type(x.dtype.name, weights.dtype.name)
        if weights.dtype.name not in ("int32", "int64", "float32", "float64"):
            weights = cast(weights, "int32" if weights.dtype.is_integer else "float32")
    out = tf_bincount(x, weights=weights, minlength=minlength, axis=-1,
                      dtype="int32" if weights is None else weights.dtype)
    out = cast(out, dtype)
    return from_dense(out) if sparse else out


def histogram(x, bins=10, range=None):
    """(counts, edges): how many elements of x fall in each of `bins` equal-width bins over
    `range` (x's min to max when None); counts in x's dtype."""
    x = convert(x)
    if range is None:
        low, high = reduce_ops.reduce_min(x), reduce_ops.reduce_max(x)
    else:
        low, high = (convert(v, x.dtype.name) for v in range)
    inside = boolean_mask(x, math_ops.logical_and(math_ops.greater_equal(x, low),
                                                  math_ops.less_equal(x, high)))
    edges = cast(linspace(cast(low, "float64"), cast(high, "float64"), bins + 1), x.dtype.name)
    which = searchsorted(edges[1:-1], inside, side="right", out_type="int32")
    counts = unsorted_segment_sum(ones_like(inside), which, bins)
    return counts, edges

