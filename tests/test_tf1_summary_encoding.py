"""TensorFlow 1's scalar and histogram summaries are encoded straight to bytes
(wengert/summary/v1_histogram.py, v1_summaries.py): the float32 bucket tables count every value
where a binary search over the limits does (random bit patterns, the limits and their float32
neighbours, zeros of both signs, denormals, the largest floats), the bytes equal the same
Summary built as messages, and sums are accumulated in order as TensorFlow's are (its bytes for
arrays of 100352, 5000 and 7777 values, recorded with TensorFlow 2.21, are checked through
their digests)."""
import hashlib

import numpy as np
import pytest

import wengert.compat.v1 as v1
from wengert.framework.protos import wire
from wengert.framework.protos.summary import HistogramProto, Summary
from wengert.summary.v1_histogram import LIMITS, bucket_counts, histogram_bytes


def _searched(values):
    index = np.searchsorted(LIMITS, np.asarray(values, np.float64), side="right")
    return np.bincount(index, minlength=len(LIMITS))


def _edge_float32s():
    with np.errstate(over="ignore"):
        limits = np.concatenate([LIMITS, -LIMITS]).astype(np.float32)
    limits = limits[np.isfinite(limits)]
    up, down = (np.nextafter(limits, np.float32(d)) for d in (np.inf, -np.inf))
    special = np.array([0.0, -0.0, 1e-45, -1e-45, 1.1e-38, -1.1e-38, 3.4e38, -3.4e38],
                       np.float32)
    return np.concatenate([limits, up, down, special])


def test_float32_tables_count_as_the_binary_search():
    bits = np.random.default_rng(0).integers(0, 2 ** 32, 1_000_000, dtype=np.uint64)
    values = bits.astype(np.uint32).view(np.float32)
    values = values[np.isfinite(values)]
    np.testing.assert_array_equal(bucket_counts(values), _searched(values))
    edges = _edge_float32s()
    np.testing.assert_array_equal(bucket_counts(edges), _searched(edges))
    strided = values[::3]
    np.testing.assert_array_equal(bucket_counts(strided), _searched(strided))
    square = values[:40000].reshape(200, 200)
    np.testing.assert_array_equal(bucket_counts(square), _searched(square.reshape(-1)))
    np.testing.assert_array_equal(bucket_counts(square.astype(np.float64)),
                                  _searched(square.reshape(-1)))
    for value in edges[::97]:
        np.testing.assert_array_equal(bucket_counts(value[None]), _searched(value[None]))


def _message_histogram(values):
    """The HistogramProto built field by field (TensorFlow's rules, in messages)."""
    values = np.asarray(values, np.float64).reshape(-1)
    counts = _searched(values)
    limits, buckets, i = [], [], 0
    while i < len(counts):
        end, count = LIMITS[i], counts[i]
        i += 1
        while count == 0 and i < len(counts) and counts[i] == 0:
            end, count = LIMITS[i], counts[i]
            i += 1
        limits.append(float(end))
        buckets.append(float(count))
    empty = values.size == 0
    low, high, total, squares = np.finfo(np.float64).max, -np.finfo(np.float64).max, 0.0, 0.0
    for v in values.tolist():  # TensorFlow's Histogram::Add, value by value
        low, high = (v if low > v else low), (v if high < v else high)
        total += v
        squares += v * v
    return HistogramProto(min=0.0 if empty else low, max=0.0 if empty else high,
                          num=float(values.size), sum=total, sum_squares=squares,
                          bucket_limit=limits, bucket=buckets)


@pytest.mark.parametrize("values", [
    np.zeros(0, np.float32), np.zeros(3, np.float32), np.array([-0.0, 0.0], np.float32),
    np.array([1, 2, 4], np.int32), np.arange(-5, 5, dtype=np.float16) / 4,
    np.random.default_rng(1).standard_normal(3001),
    np.random.default_rng(2).standard_normal((40, 50)).astype(np.float32) * 1e-10,
    _edge_float32s(),
], ids=["empty", "zeros", "signed_zeros", "int32", "float16", "float64", "tiny", "edges"])
def test_histogram_bytes_equal_the_message(values):
    assert histogram_bytes(values) == _message_histogram(values).SerializeToString()


def test_scalar_and_histogram_summaries_equal_the_messages():
    for value in [0.0, -0.0, 1e300, 1.5, -1e-50, np.nan]:
        got = v1.summary.scalar("s", np.float64(value)).numpy()
        assert got == Summary(value=[Summary.Value(tag="s", simple_value=value)]
                              ).SerializeToString()
    histogram = v1.summary.histogram("w", np.ones((2, 3), np.float32)).numpy()
    want = Summary(value=[Summary.Value(tag="w", histo=_message_histogram(np.ones(6)))])
    assert histogram == want.SerializeToString()


# TensorFlow 2.21's HistogramProto bytes for `tf.compat.v1.summary.histogram("h", a)`, a float32:
# its running min and max keep the first of equal values (the sign of the first zero), and its
# sum starts from +0.0 (never -0.0). Keyed by the values' signs (tuples of zeros compare equal).
SIGNED_ZERO_HISTOGRAMS = {
    "-0": ("09000000000000008011000000000000008019000000000000f03f3218000000000000000011ea2d"
           "819997713dffffffffffffef7f3a180000000000000000000000000000f03f0000000000000000"),
    "-0 +0": ("0900000000000000801100000000000000801900000000000000403218000000000000000011ea2d"
           "819997713dffffffffffffef7f3a18000000000000000000000000000000400000000000000000"),
    "+0 -0": ("1900000000000000403218000000000000000011ea2d819997713dffffffffffffef7f3a18000000"
           "000000000000000000000000400000000000000000"),
    "-0 -0": ("0900000000000000801100000000000000801900000000000000403218000000000000000011ea2d"
           "819997713dffffffffffffef7f3a18000000000000000000000000000000400000000000000000"),
}


@pytest.mark.parametrize("signs", sorted(SIGNED_ZERO_HISTOGRAMS))
def test_signed_zeros_are_tensorflows_bytes(signs):
    values = np.array([float(f"{s}.0") for s in signs.split()], np.float32)
    histo = bytes.fromhex(SIGNED_ZERO_HISTOGRAMS[signs])
    want = wire.field_bytes(1, wire.field_bytes(1, b"h") + wire.field_bytes(5, histo))
    assert v1.summary.histogram("h", values).numpy() == want


# sha256 of TensorFlow 2.21's bytes for `tf.compat.v1.summary.histogram(f"h{i}", tf.constant(a))`
# run in a graph and Session, for the arrays of _tf_arrays()
TF_DIGESTS = {
    0: "e4c8acafc03f333ffc7d90daf176ebddffdcbc8d52cf00a91c720a554d1d3e20",
    1: "e66177c8cb7a02d090e3b5b0a5824039104a814c56e91ecdc038a19dd12b2c80",
    2: "905f2d0f99d2d6b5a395acb618ece5b6ee5aafe30e61763ba79267a199d80b5c",
}


def _tf_arrays():
    rng = np.random.default_rng(0)
    return [(rng.standard_normal(100352) * 0.05).astype(np.float32),
            rng.standard_normal(5000).astype(np.float64),
            rng.uniform(-3, 3, 7777).astype(np.float32)]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_large_histograms_are_tensorflows_bytes(index):
    got = v1.summary.histogram(f"h{index}", _tf_arrays()[index]).numpy()
    assert hashlib.sha256(got).hexdigest() == TF_DIGESTS[index]
