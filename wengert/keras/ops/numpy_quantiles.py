"""Keras 3's order statistics: `quantile`, `percentile`, `median` and their NaN-ignoring forms.

The reduced axes are moved last and flattened, so each row holds the n values one quantile is
taken over; the row is sorted and, for a quantile q, the position p = (n - 1) q is read from it:

    linear:   y[floor p] (1 - f) + y[floor p + 1] f,  f = p - floor p
    lower / higher / nearest:   y[floor p] / y[ceil p] / y[round p]
    midpoint: (y[floor p] + y[ceil p]) / 2

The NaN-ignoring forms sort NaNs to the end of each row and use the row's count of valid values
for n (a row without any gives NaN); the plain forms give NaN for a row holding a NaN. q may be a
scalar or a 1-D tensor, whose axis then leads the output. The gradient flows through the sort
and the gathers (to the one or two order statistics each quantile reads).
"""
import numpy as np

from ...ops import array_ops, math_ops, reduce_ops, rounding_ops
from ...ops.broadcast_ops import zeros_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as arange
from ...ops.indexing_ops import gather
from ...ops.reshape_ops import expand_dims, reshape, transpose
from ...ops.sort_ops import sort
from .. import backend
from .dtypes import convert, result_type

__all__ = ["quantile", "percentile", "median", "nanquantile", "nanpercentile", "nanmedian"]

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _rows(x, axis):
    """(x with the reduced axes last and flattened, the reduced axes as a sorted list)."""
    rank = x.shape.rank
    if axis is None:
        return reshape(x, [1, -1]), list(range(rank))
    axis = sorted(a % rank for a in ((axis,) if isinstance(axis, int) else axis))
    others = [i for i in range(rank) if i not in axis]
    moved = transpose(x, others + axis) if others + axis != list(range(rank)) else x
    return reshape(moved, [-1, int(np.prod([x.shape[i] for i in axis]))]), axis


def _pick(rows, index):
    """rows[r, index[r, k]] for every row r and quantile k."""
    n, count = rows.shape[-1], rows.shape[0]
    offsets = expand_dims(arange(0, count * n, n, dtype="int32"), 1)
    return gather(reshape(rows, [-1]), math_ops.add(index, offsets))


def _read(sorted_rows, count, q, method):
    """The quantiles q (shape [Q]) of each row, whose first `count` values are valid."""
    last = math_ops.maximum(math_ops.subtract(count, 1.0), 0.0)
    position = math_ops.multiply(expand_dims(last, 1), expand_dims(q, 0))
    top = cast(expand_dims(last, 1), "int32")

    def at(p):
        return _pick(sorted_rows, math_ops.minimum(math_ops.maximum(cast(p, "int32"), 0), top))
    low, high = rounding_ops.floor(position), rounding_ops.ceil(position)
    if method == "lower":
        return at(low)
    if method == "higher":
        return at(high)
    if method == "nearest":
        return at(rounding_ops.round(position))
    if method == "midpoint":
        return math_ops.multiply(math_ops.add(at(low), at(high)), convert(0.5, sorted_rows.dtype))
    fraction = cast(math_ops.subtract(position, low), sorted_rows.dtype)
    below, above = at(low), at(math_ops.add(low, 1.0))
    return math_ops.add(below, math_ops.multiply(math_ops.subtract(above, below), fraction))


def _layout(values, x, q_rank, axis, reduced, keepdims):
    """Rows x quantiles back to Keras's layout: the q axis first, then the kept axes."""
    rank = x.shape.rank
    kept = [x.shape[i] for i in range(rank) if i not in reduced]
    if keepdims:
        kept = [1 if i in reduced else x.shape[i] for i in range(rank)]
    out = reshape(transpose(values, [1, 0]), [-1] + kept)
    return out if q_rank else reshape(out, kept)


def _quantile(name, x, q, axis, method, keepdims, ignore_nan):
    if method not in _METHODS:
        raise ValueError(f"keras.ops.{name}: method must be one of {_METHODS}; got {method!r}.")
    rows, reduced = _rows(x, axis)
    q_rank = q.shape.rank
    q = reshape(cast(q, "float64"), [-1])
    is_float = x.dtype.is_floating
    nan = rounding_ops.is_nan(rows) if is_float else None
    if ignore_nan and is_float:
        rows = array_ops.where(nan, convert(np.inf, rows.dtype), rows)
        count = reduce_ops.reduce_sum(cast(math_ops.logical_not(nan), "float64"), axis=1)
    else:
        count = cast(convert([rows.shape[-1]] * rows.shape[0]), "float64")
    values = _read(sort(rows, axis=-1), count, q, method)
    if is_float:
        invalid = math_ops.equal(count, 0.0) if ignore_nan else reduce_ops.reduce_any(nan, axis=1)
        values = array_ops.where(expand_dims(invalid, 1), zeros_like(values) + np.nan, values)
    return _layout(values, x, q_rank, axis, reduced, keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) of x over `axis`, as a float tensor."""
    x = convert(x)
    x = cast(x, result_type(x.dtype.name, float))
    return _quantile("quantile", x, convert(q), axis, method, keepdims, ignore_nan=False)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles (q in [0, 100]) of x over `axis`."""
    q = math_ops.divide(convert(q, backend.floatx()), convert(100.0, backend.floatx()))
    return quantile(x, q, axis=axis, method=method, keepdims=keepdims)


def median(x, axis=None, keepdims=False):
    """The median of x over `axis` (the mean of the middle two for an even count)."""
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """quantile ignoring NaNs (NaN where a row has no valid value)."""
    x = convert(x)
    if not x.dtype.is_floating:
        x = cast(x, result_type(x.dtype.name, float))
    q = convert(q, backend.floatx())
    return _quantile("nanquantile", x, q, axis, method, keepdims, ignore_nan=True)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """percentile ignoring NaNs."""
    q = math_ops.divide(convert(q, backend.floatx()), convert(100.0, backend.floatx()))
    return nanquantile(x, q, axis=axis, method=method, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    """median ignoring NaNs."""
    x = convert(x)
    if axis in ((), []):
        return x
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)
