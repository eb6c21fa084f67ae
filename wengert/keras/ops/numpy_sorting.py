"""Keras 3's sorting and counting: `sort`, `argsort`, `argpartition`, `unique`, `bincount` and
`histogram`.

`sort` is differentiable (the gradient returns to each element's original position); the index
and count outputs are int32 and have no gradient. `unique` finds the distinct values in order
of first appearance and, when `sorted`, reorders them (and the index, inverse and count
outputs) ascending; `size` truncates or pads the result to a fixed length with `fill_value`.
`argpartition` returns a full argsort, which is one valid partition: the k-th entry indexes the
k-th smallest value, those before it index no larger values and those after no smaller ones.

    bincount(x, w)[v] = sum of w[k] over the k with x[k] = v
    histogram(x, bins, (lo, hi)): bins equal-width bins over [lo, hi], the last one closed
"""
from ...ops import math_ops, reduce_ops
from ...ops.broadcast_ops import ones_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as tf_range
from ...ops.histogram_ops import bincount as tf_bincount
from ...ops.indexing_ops import boolean_mask, gather
from ...ops.misc_math_ops import invert_permutation
from ...ops.pad_ops import pad
from ...ops.reshape_ops import reshape
from ...ops.segment_ops import unsorted_segment_min, unsorted_segment_sum
from ...ops.shape_ops import linspace
from ...ops.sort_ops import argsort as tf_argsort, searchsorted, sort as tf_sort
from ...ops.sort_ops import unique_with_counts
from .dtypes import convert, result_type

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


def _sorted_unique(values, index, inverse, counts):
    order = tf_argsort(values, stable=True)
    values = gather(values, order)
    index = None if index is None else gather(index, order)
    counts = None if counts is None else gather(counts, order)
    inverse = None if inverse is None else gather(invert_permutation(order), inverse)
    return values, index, inverse, counts


def _fixed_size(values, index, counts, size, fill_value):
    found = values.shape[0]
    if found >= size:
        cut = slice(0, size)
        return values[cut], None if index is None else index[cut], \
            None if counts is None else counts[cut]
    extra = [[0, size - found]]
    fill = 0 if fill_value is None else fill_value
    values = pad(values, extra, constant_values=convert(fill, values.dtype.name))
    index = None if index is None else pad(index, extra, constant_values=1)
    counts = None if counts is None else pad(counts, extra, constant_values=0)
    return values, index, counts


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False,
           axis=None, size=None, fill_value=None):
    """The distinct values of the flattened x, with (as asked) the index of each one's first
    occurrence, the inverse map that rebuilds x, and the counts."""
    if axis is not None:
        raise NotImplementedError(
            "keras.ops.unique: axis= (unique slices) is not supported yet: wengert's Unique op "
            "finds distinct elements of a 1-D tensor only. Call it with axis=None.")
    x = convert(x)
    flat = reshape(x, [-1])
    values, inverse, counts = unique_with_counts(flat)
    n = values.shape[0]
    index = unsorted_segment_min(tf_range(flat.shape[0], dtype="int32"), inverse, n) \
        if return_index else None
    if sorted:
        values, index, inverse, counts = _sorted_unique(values, index, inverse, counts)
    if size is not None:
        values, index, counts = _fixed_size(values, index, counts, size, fill_value)
    out = [values]
    out += [index] if return_index else []
    out += [reshape(inverse, list(x.shape))] if return_inverse else []
    out += [counts] if return_counts else []
    return tuple(out) if len(out) > 1 else values


def bincount(x, weights=None, minlength=0, sparse=False):
    """The count (or the weight sum) of each non-negative integer value of x, along its last
    axis."""
    if sparse:
        raise NotImplementedError("keras.ops.bincount: sparse=True is not supported yet: wengert "
                                  "has no sparse bincount; call it with sparse=False.")
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
    return cast(out, dtype)


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

