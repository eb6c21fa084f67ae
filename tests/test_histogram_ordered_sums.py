"""The histogram's in-order double sums (wengert/summary/v1_histogram.py: ordered_sum and the
histogram's float32 path) equal TensorFlow's `sum += v` loop from 0.0, value by value, bit for
bit, over values spanning few and many binades, zeros of both signs, subnormals, the largest
floats, integers, and long runs whose prefix sums need more than 53 bits."""
import struct

import numpy as np
import pytest

from wengert.framework.protos import wire
from wengert.summary.v1_histogram import histogram_bytes, ordered_sum


def _tensorflows_sum(doubles):
    total = 0.0
    for v in doubles.tolist():
        total += v
    return total


def _arrays():
    rng = np.random.default_rng(0)
    fixed = [rng.uniform(-0.08, 0.08, 100352), rng.standard_normal(5000) * 1e-30,
             rng.standard_normal(3000) * 1e30, np.zeros(10), -np.zeros(3),
             np.array([-0.0, 1.0, -1.0]), rng.uniform(0, 1, 20000),
             np.array([1e-45, -1e-45, 3e38, -3e38]), np.full(5, 1e-45),
             rng.integers(-1000, 1000, 10000), np.r_[rng.uniform(-1, 1, 1000), 1e-20],
             np.full(3000, 3.4e38), np.array([3.4e38, 3.4e38, -3.4e38]),
             np.full(1 << 18, 16777215.0 * 2.0 ** 40),
             np.r_[rng.uniform(0, 4, 1000), 2.0 ** -20],  # prefix sums past 2^53 units
             np.r_[-rng.uniform(0, 4, 1000), 2.0 ** -20], np.r_[2.0 ** -20, rng.uniform(0, 1, 30)]]
    drawn = []
    for i in range(150):
        n = int(rng.integers(1, 2000))
        a = rng.standard_normal(n) * 10.0 ** rng.uniform(-44, 38)
        if i % 3 == 0:
            a[rng.integers(0, n, n // 4)] = 0
        if i % 5 == 0:
            a = np.abs(a)
        if i % 7 == 0:
            a = np.round(a * 2.0 ** int(rng.integers(0, 30)))
        drawn.append(a)
    return fixed + drawn


def _sum_fields(histo):
    """The sum (4) and sum_squares (5) fields of HistogramProto bytes (+0.0 when left out)."""
    found = {4: 0.0, 5: 0.0}
    for number, _, value, _, _ in wire.fields(histo, "HistogramProto"):
        if number in found:
            found[number] = struct.unpack("<d", value)[0]
    return found[4], found[5]


@pytest.mark.parametrize("index", range(len(_arrays())))
def test_sums_are_the_ordered_loop(index):
    with np.errstate(over="ignore"):
        values = np.asarray(_arrays()[index]).astype(np.float32)
    values = values[np.isfinite(values)]
    doubles = values.astype(np.float64)
    want = _tensorflows_sum(doubles), _tensorflows_sum(doubles * doubles)
    for got in (ordered_sum(doubles), ordered_sum(doubles.copy(), out=np.empty_like(doubles))):
        assert got == want[0] and np.signbit(got) == np.signbit(want[0])
    if values.size:
        sums = _sum_fields(histogram_bytes(values))
        assert sums == want and not any(v == 0 and np.signbit(v) for v in sums)
