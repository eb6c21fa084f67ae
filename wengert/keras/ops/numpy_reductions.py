"""Keras 3's reductions and scans: sums, products, means, extrema, spreads, arg-extrema, counts,
cumulative sums and products, and the trapezoid rule.

`axis` is None (all axes), an int or a tuple of ints; `keepdims` keeps reduced axes as size 1.
The dtypes follow Keras's TensorFlow backend: `sum` and `prod` accumulate small integers and bools
in int32 (uint8/uint16 in uint32); `mean`, `var` and `std` of integers are floatx-or-wider floats;
`argmax`, `argmin` and `count_nonzero` give int32. Each maps onto wengert's reduce op, whose
gradient is the reduction's own (sum: broadcast back; max/min: split among ties; mean: divided by
the count; var: 2 (x - mean) / n).

    average(x, w) = sum(x w) / sum(w)      ptp(x) = max(x) - min(x)
    trapezoid(y, x) = sum((y[1:] + y[:-1]) / 2 * diff(x))
"""
from ...ops import math_ops, reduce_ops, scan_ops
from ...ops.cast_ops import cast
from ...ops.einsum_ops import tensordot
from ...ops.reshape_ops import reshape, transpose
from .. import backend
from .dtypes import convert, result_type

__all__ = ["sum", "prod", "mean", "max", "min", "amax", "amin", "all", "any", "argmax",
           "argmin", "std", "var", "average", "count_nonzero", "ptp", "cumsum", "cumprod",
           "trapezoid"]

_WIDENED = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32",
            "uint16": "uint32"}


def axes(axis):
    """Keras's axis argument as what wengert's reductions take (None, an int or a list)."""
    return list(axis) if isinstance(axis, tuple) else axis


def _accumulating(x):
    x = convert(x)
    wide = _WIDENED.get(x.dtype.name)
    return cast(x, wide) if wide else x


def sum(x, axis=None, keepdims=False):
    """The sum over `axis` (small integers and bools accumulate in int32/uint32)."""
    return reduce_ops.reduce_sum(_accumulating(x), axis=axes(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    """The product over `axis`, in `dtype` if given."""
    x = convert(x) if dtype is None else convert(x, dtype)
    if dtype is None:
        x = _accumulating(x)
    return reduce_ops.reduce_prod(x, axis=axes(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """The arithmetic mean over `axis`; integers and bools give a float (float32 or wider)."""
    x = convert(x)
    name = x.dtype.name
    compute = result_type(name, "float32")
    out = reduce_ops.reduce_mean(cast(x, compute) if compute != name else x,
                                 axis=axes(axis), keepdims=keepdims)
    if "int" in name or name == "bool":
        return out
    return cast(out, name) if out.dtype.name != name else out


def max(x, axis=None, keepdims=False, initial=None):
    """The largest element over `axis`, at least `initial` when it is given."""
    x = convert(x)
    if x.dtype.name == "bool":
        out = reduce_ops.reduce_any(x, axis=axes(axis), keepdims=keepdims)
        if initial is None:
            return out
        return cast(math_ops.maximum(cast(out, "int32"), convert(initial, "int32")), "bool")
    out = reduce_ops.reduce_max(x, axis=axes(axis), keepdims=keepdims)
    return out if initial is None else math_ops.maximum(out, convert(initial, x.dtype.name))


def min(x, axis=None, keepdims=False, initial=None):
    """The smallest element over `axis`, at most `initial` when it is given."""
    x = convert(x)
    if x.dtype.name == "bool":
        out = reduce_ops.reduce_all(x, axis=axes(axis), keepdims=keepdims)
        if initial is None:
            return out
        return cast(math_ops.minimum(cast(out, "int32"), convert(initial, "int32")), "bool")
    out = reduce_ops.reduce_min(x, axis=axes(axis), keepdims=keepdims)
    return out if initial is None else math_ops.minimum(out, convert(initial, x.dtype.name))


def amax(x, axis=None, keepdims=False):
    """The largest element over `axis` (max without `initial`)."""
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    """The smallest element over `axis` (min without `initial`)."""
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):
    """Whether every element over `axis` is true (nonzero)."""
    return reduce_ops.reduce_all(convert(x, "bool"), axis=axes(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):
    """Whether some element over `axis` is true (nonzero)."""
    return reduce_ops.reduce_any(convert(x, "bool"), axis=axes(axis), keepdims=keepdims)


def _arg(op, x, axis, keepdims):
    x = convert(x)
    flat = reshape(x, [-1]) if axis is None else x
    out = op(flat, axis=0 if axis is None else axis, output_type="int32")
    if not keepdims:
        return out
    if axis is None:
        return reshape(out, [1] * x.shape.rank)
    shape = list(x.shape)
    shape[axis] = 1
    return reshape(out, shape)


def argmax(x, axis=None, keepdims=False):
    """The int32 index of the largest element over `axis` (of the flattened x when None)."""
    return _arg(reduce_ops.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    """The int32 index of the smallest element over `axis` (of the flattened x when None)."""
    return _arg(reduce_ops.argmin, x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    """The population variance over `axis`, mean((x - mean(x))^2)."""
    x = convert(x)
    compute = result_type(x.dtype.name, "float32")
    out = reduce_ops.reduce_variance(cast(x, compute), axis=axes(axis), keepdims=keepdims)
    return cast(out, result_type(x.dtype.name, float))


def std(x, axis=None, keepdims=False):
    """The population standard deviation over `axis`."""
    x = convert(x)
    if "int" in x.dtype.name or x.dtype.name == "bool":
        x = cast(x, backend.floatx())
    return reduce_ops.reduce_std(x, axis=axes(axis), keepdims=keepdims)


def average(x, axis=None, weights=None):
    """The (weighted) mean over `axis`; 1-D weights weigh the positions along `axis`."""
    x = convert(x)
    if weights is None:
        x = cast(x, result_type(x.dtype.name, float))
        return reduce_ops.reduce_mean(x, axis=axes(axis))
    weights = convert(weights)
    dtype = result_type(x.dtype.name, weights.dtype.name, float)
    x, weights = cast(x, dtype), cast(weights, dtype)
    if axis is None or x.shape.rank == weights.shape.rank:
        total = reduce_ops.reduce_sum(math_ops.multiply(x, weights), axis=axes(axis))
        return math_ops.divide(total, reduce_ops.reduce_sum(weights, axis=axes(axis)))
    return math_ops.divide(tensordot(x, weights, [[axis], [0]]), reduce_ops.reduce_sum(weights))


def count_nonzero(x, axis=None):
    """The int32 count of nonzero elements over `axis`."""
    return reduce_ops.count_nonzero(convert(x), axis=axes(axis), dtype="int32")


def ptp(x, axis=None, keepdims=False):
    """The range, max - min, over `axis`."""
    x = convert(x)
    return math_ops.subtract(reduce_ops.reduce_max(x, axis=axes(axis), keepdims=keepdims),
                             reduce_ops.reduce_min(x, axis=axes(axis), keepdims=keepdims))


def _scan(op, x, axis, dtype):
    x = convert(x, dtype)
    if x.dtype.name == "bool":
        x = cast(x, "int32")
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    return op(x, axis=axis)


def cumsum(x, axis=None, dtype=None):
    """The running sum along `axis` (of the flattened x when None)."""
    return _scan(scan_ops.cumsum, x, axis, dtype)


def cumprod(x, axis=None, dtype=None):
    """The running product along `axis` (of the flattened x when None)."""
    return _scan(scan_ops.cumprod, x, axis, dtype)


def _to_last(x, axis):
    rank = x.shape.rank
    axis = axis % rank
    if axis == rank - 1:
        return x
    return transpose(x, [i for i in range(rank) if i != axis] + [axis])


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoid rule, with sample points x or spacing
    dx."""
    y = convert(y)
    dtype = result_type(y.dtype.name, float)
    y = _to_last(cast(y, dtype), axis)
    if x is None:
        step = convert(dx, dtype)
    else:
        x = _to_last(convert(x, dtype), axis)
        step = math_ops.subtract(x[..., 1:], x[..., :-1])
    heights = math_ops.multiply(math_ops.add(y[..., 1:], y[..., :-1]), convert(0.5, dtype))
    return reduce_ops.reduce_sum(math_ops.multiply(heights, step), axis=-1)
