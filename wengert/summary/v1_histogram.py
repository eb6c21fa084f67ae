"""TensorFlow 1's histogram summary (`HistogramSummary`): fixed buckets, counted fast, and the
`HistogramProto` bytes TensorFlow writes.

The bucket limits are 0 and +-1e-12 * 1.1^k (k = 0, 1, ..., each the previous times 1.1 in
double precision) up to 1e20, the outermost +-DBL_MAX; a value x is counted in the first bucket
whose limit exceeds it (index = the number of limits <= x, C++'s upper_bound). The proto holds
min, max, num, sum and sum_squares (sums accumulated in double, element by element in order, as
TensorFlow's Histogram::Add does) and the buckets, a run of empty buckets written as one (the
run's last limit, count 0).

Counting float32 values (weights, activations) avoids a binary search per value. The top 16
bits of a float32 (sign, exponent and 7 mantissa bits) name a cell of values whose magnitudes
span a factor of at most 1 + 2^-7, less than the limits' ratio 1.1, so at most one limit falls
inside a cell. Two tables over the 65536 cells give each cell's bucket index below that limit
and the limit rounded up to float32 (for negative values its negation, the count running
downwards; +inf for a cell without a limit); a value's index is `base[cell] + (x >= limit[cell])`.
Other dtypes are converted to double and searched.
"""
import math

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.protos import wire

__all__ = ["LIMITS", "bucket_counts", "histogram_bytes"]


def _default_limits():
    positive, v = [], 1.0e-12
    while v < 1.0e20:
        positive.append(v)
        v *= 1.1
    positive.append(np.finfo(np.float64).max)
    return np.array([-p for p in reversed(positive)] + [0.0] + positive)


LIMITS = _default_limits()
_CELL_SHIFT = 16
_LITTLE_ENDIAN = np.little_endian  # a float32's top 16 bits are then its second uint16


def _round_up_to_float32(values):
    """The smallest float32 >= each float64 of `values`."""
    with np.errstate(over="ignore"):
        out = values.astype(np.float32)
    low = out.astype(np.float64) < values
    out[low] = np.nextafter(out[low], np.float32(np.inf))
    return out


def _cell_tables():
    """(base index, threshold) per float32 cell (see the module docstring)."""
    positive = LIMITS[len(LIMITS) // 2 + 1:]
    n = len(positive)
    cells = np.arange(1 << 16, dtype=np.uint32)
    magnitude = cells & 0x7FFF
    with np.errstate(invalid="ignore"):
        low = (magnitude << _CELL_SHIFT).view(np.float32).astype(np.float64)
        high = ((magnitude + 1) << _CELL_SHIFT).view(np.float32).astype(np.float64)
    finite = np.isfinite(low)
    below = np.searchsorted(positive, low, side="left")
    inside = (np.searchsorted(positive, high, side="left") > below) & finite
    limit = positive[np.minimum(below, n - 1)]
    negative = cells >= 0x8000
    base = np.where(negative, n - below - inside, n + 1 + below)
    threshold = _round_up_to_float32(np.where(inside, np.where(negative, -limit, limit),
                                              np.inf))
    threshold[negative & (magnitude == 0)] = -0.0  # -0.0 counts with 0, -denormals below it
    return base.astype(np.int16), threshold


_BASE, _THRESHOLD = _cell_tables()


def bucket_counts(values):
    """How many of `values` (an array of any shape) each bucket of LIMITS counts."""
    if values.dtype == np.float32:
        values = np.ascontiguousarray(values).reshape(-1)
        cell = values.view(np.uint16)[1::2] if _LITTLE_ENDIAN else \
            values.view(np.uint32) >> _CELL_SHIFT
        index = np.take(_BASE, cell)  # take: about twice as fast as _BASE[cell] here
        index += values >= np.take(_THRESHOLD, cell)
    else:
        index = np.searchsorted(LIMITS, values.astype(np.float64).reshape(-1), side="right")
    return np.bincount(index, minlength=len(LIMITS))


def _double(number, value):
    """A double field as proto3 writes it: left out when +0.0."""
    if value == 0.0 and math.copysign(1.0, value) > 0:
        return b""
    return wire.field_double(number, value)


def histogram_bytes(values):
    """The serialized HistogramProto of `values` (see the module docstring)."""
    values = np.asarray(values)
    if values.dtype.kind == "f" and values.dtype.itemsize < 4:
        values = values.astype(np.float32)
    values = values.reshape(-1)
    if values.size == 0:
        return b"".join([wire.packed_doubles(6, LIMITS[-1:]), wire.packed_doubles(7, [0.0])])
    low, high = float(values.min()), float(values.max())
    if not (math.isfinite(low) and math.isfinite(high)):
        raise InvalidArgumentError("Nan in summary histogram: the values must be finite.")
    counts = bucket_counts(values)
    kept = counts > 0
    kept[:-1] |= kept[1:]
    kept[-1] = True
    doubles = values.astype(np.float64)
    squares = np.multiply(doubles, doubles)
    total = float(np.cumsum(doubles, out=doubles)[-1])  # in order, in place: no new buffer
    squares = float(np.cumsum(squares, out=squares)[-1])
    return b"".join([_double(1, low), _double(2, high), _double(3, float(values.size)),
                     _double(4, total), _double(5, squares),
                     wire.packed_doubles(6, LIMITS[kept]),
                     wire.packed_doubles(7, counts[kept].astype(np.float64))])
