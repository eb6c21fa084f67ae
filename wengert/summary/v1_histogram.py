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

min and max are TensorFlow's running ones (`if (min_ > v) min_ = v`): among equal values the
first one seen stays, which only shows for zeros: a minimum or maximum of zero has the sign of
the first zero. The sums are np.cumsum's, which adds in order and rounds after every addition as
TensorFlow's loop does; it starts from the first value rather than from 0.0, which only differs
in the sign of a zero (from +0.0 a running sum is never -0.0), so a zero sum is written as +0.0.
Two faster-looking variants were measured in bench_tf1_loop.py's training loop and left out, as
neither changed the histogram's time there (1.4 to 3 ms per step for 100352 weights, with the
machine's load; values and arrays come from memory at every step): an exact int64 route for
float32 sums (each value an integer multiple of 2^E, summed in int64 while no prefix sum needs
more than 53 bits; 0.25 ms against np.cumsum's 0.39 ms with warm caches, but six passes over
memory), and per-thread scratch arrays in place of fresh temporaries (~10% faster with the
caches flushed between calls, no faster in the loop).
"""
import math

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.protos import wire

__all__ = ["LIMITS", "bucket_counts", "histogram_bytes", "ordered_sum"]


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


def ordered_sum(doubles, out=None):
    """(((0.0 + d[0]) + d[1]) + ...) of a 1-D float64 array, rounded at every step; `out`, a
    float64 array of the same size (may be `doubles` itself), holds the running sums."""
    if doubles.size == 0:
        return 0.0
    return float(np.cumsum(doubles, out=out)[-1]) + 0.0  # + 0.0: -0.0 is +0.0, as from 0.0 on


def _double(number, value):
    """A double field as proto3 writes it: left out when +0.0."""
    if value == 0.0 and math.copysign(1.0, value) > 0:
        return b""
    return wire.field_double(number, value)


def _running_extreme(values, extreme):
    """TensorFlow's running min or max: a zero extreme has the sign of the first zero."""
    if extreme != 0.0:
        return extreme
    return float(values[int(np.argmax(values == 0))])


def _stats(values):
    """(counts, sum, sum of squares) of the non-empty 1-D array `values`."""
    doubles = values.astype(np.float64)
    squares = np.multiply(doubles, doubles)
    return (bucket_counts(values), ordered_sum(doubles, out=doubles),  # in place: no new buffer
            ordered_sum(squares, out=squares))


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
    low, high = _running_extreme(values, low), _running_extreme(values, high)
    counts, total, squares = _stats(values)
    kept = counts > 0
    kept[:-1] |= kept[1:]
    kept[-1] = True
    return b"".join([_double(1, low), _double(2, high), _double(3, float(values.size)),
                     _double(4, total), _double(5, squares),
                     wire.packed_doubles(6, LIMITS[kept]),
                     wire.packed_doubles(7, counts[kept].astype(np.float64))])
