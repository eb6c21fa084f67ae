"""Keras 3's NaN-ignoring reductions and scans: `nansum`, `nanprod`, `nanmean`, `nanvar`,
`nanstd`, `nanmax`, `nanmin`, `nanargmax`, `nanargmin`, `nancumsum`, `nancumprod`.

Each replaces the NaNs of a float input by the neutral element of its reduction (0 for sums,
1 for products, -inf / +inf for max / min) and then reduces with the plain function, so the
gradient is the plain reduction's and NaN positions get 0. A reduction over only NaNs gives NaN
(max, min, mean, var) or -1 (the arg-extrema); integer inputs have no NaNs and reduce as usual.

    nanmean = sum(x_valid) / count_valid      nanvar = sum((x - nanmean)^2 over valid) / count
"""
import numpy as np

from ...ops import array_ops, math_ops, reduce_ops, rounding_ops, unary_ops
from ...ops.broadcast_ops import ones_like, zeros_like
from ...ops.cast_ops import cast
from .dtypes import convert, result_type
from .numpy_math import nan_to_num
from .numpy_reductions import argmax, argmin, axes, cumprod, cumsum, prod

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nancumsum", "nancumprod"]

_WIDENED = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32",
            "uint16": "uint32"}


def _filled(x, value):
    """x with its NaNs replaced by `value`."""
    return array_ops.where(rounding_ops.is_nan(x), convert(value, x.dtype), x)


def nansum(x, axis=None, keepdims=False):
    """The sum over `axis`, NaNs counted as 0."""
    x = convert(x)
    if x.dtype.is_floating:
        x = _filled(x, 0)
    wide = _WIDENED.get(x.dtype.name)
    x = cast(x, wide) if wide else x
    return reduce_ops.reduce_sum(x, axis=axes(axis), keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    """The product over `axis`, NaNs counted as 1."""
    x = convert(x)
    return prod(_filled(x, 1) if x.dtype.is_floating else x, axis=axis, keepdims=keepdims)


def _valid_count(x, axis, keepdims, dtype):
    valid = cast(math_ops.logical_not(rounding_ops.is_nan(x)), dtype)
    return reduce_ops.reduce_sum(valid, axis=axes(axis), keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    """The mean of the non-NaN elements over `axis`."""
    x = convert(x)
    if axis in ((), []):
        return x
    if not x.dtype.is_floating:
        return reduce_ops.reduce_mean(cast(x, "float32"), axis=axes(axis), keepdims=keepdims)
    dtype = result_type(x.dtype.name, float)
    total = cast(nansum(x, axis=axis, keepdims=keepdims), dtype)
    return math_ops.divide(total, _valid_count(x, axis, keepdims, dtype))


def nanvar(x, axis=None, keepdims=False):
    """The population variance of the non-NaN elements over `axis`."""
    x = convert(x)
    x = cast(x, result_type(x.dtype.name, float))
    centre = nanmean(x, axis=axis, keepdims=True)
    valid = math_ops.logical_not(rounding_ops.is_nan(x))
    centred = array_ops.where(valid, math_ops.subtract(x, centre), zeros_like(x))
    squares = unary_ops.square(centred)
    total = reduce_ops.reduce_sum(squares, axis=axes(axis), keepdims=keepdims)
    return math_ops.divide(total, _valid_count(x, axis, keepdims, squares.dtype))


def nanstd(x, axis=None, keepdims=False):
    """The population standard deviation of the non-NaN elements over `axis`."""
    return unary_ops.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def _nan_extreme(reduce, bool_reduce, fill, x, axis, keepdims):
    x = convert(x)
    if not x.dtype.is_floating:
        op = bool_reduce if x.dtype.name == "bool" else reduce
        return op(x, axis=axes(axis), keepdims=keepdims)
    nan = rounding_ops.is_nan(x)
    out = reduce(_filled(x, fill), axis=axes(axis), keepdims=keepdims)
    all_nan = reduce_ops.reduce_all(nan, axis=axes(axis), keepdims=keepdims)
    return array_ops.where(all_nan, zeros_like(out) + np.nan, out)


def nanmax(x, axis=None, keepdims=False):
    """The largest non-NaN element over `axis` (NaN if there is none)."""
    return _nan_extreme(reduce_ops.reduce_max, reduce_ops.reduce_any, -np.inf, x, axis,
                        keepdims)


def nanmin(x, axis=None, keepdims=False):
    """The smallest non-NaN element over `axis` (NaN if there is none)."""
    return _nan_extreme(reduce_ops.reduce_min, reduce_ops.reduce_all, np.inf, x, axis,
                        keepdims)


def _nan_arg(arg, fill, x, axis, keepdims):
    x = convert(x)
    if not x.dtype.is_floating:
        return arg(x, axis=axis, keepdims=keepdims)
    nan = rounding_ops.is_nan(x)
    out = arg(_filled(x, fill), axis=axis, keepdims=keepdims)
    all_nan = reduce_ops.reduce_all(nan, axis=axes(axis), keepdims=keepdims)
    return array_ops.where(all_nan, -ones_like(out), out)


def nanargmax(x, axis=None, keepdims=False):
    """The int32 index of the largest non-NaN element over `axis` (-1 if there is none)."""
    return _nan_arg(argmax, -np.inf, x, axis, keepdims)


def nanargmin(x, axis=None, keepdims=False):
    """The int32 index of the smallest non-NaN element over `axis` (-1 if there is none)."""
    return _nan_arg(argmin, np.inf, x, axis, keepdims)


def nancumsum(x, axis=None, dtype=None):
    """The running sum along `axis` with NaNs as 0 (infinities become the largest finite
    values, as nan_to_num makes them)."""
    return cumsum(nan_to_num(x), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    """The running product along `axis` with NaNs as 1."""
    return cumprod(nan_to_num(x, nan=1.0), axis=axis, dtype=dtype)

