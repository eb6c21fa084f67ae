"""Op-table rows for ops/segment_ops.py, with repeated ids, empty segments and (for the unsorted
forms) dropped negative ids. Max/min samples keep values distinct within a segment (no ties: at a
tie the gradient is split evenly, tested in tests/test_segment_properties.py); prod samples hold
one zero in a segment (the exact co-factor) and are checked to first order where a segment has
two zeros."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

_SORTED = np.array([0, 0, 0, 2, 2, 5], np.int32)          # segments 1, 3, 4 empty
_UNSORTED = np.array([3, 0, 3, -1, 0, 1], np.int32)        # row 3 dropped, segment 2 empty
_UNSORTED_2D = np.array([[1, 0, 1], [-1, 2, 0]], np.int32)
_INDICES = np.array([0, 4, 4, 1, 5, 2], np.int32)          # row 4 twice, row 3 never


def _distinct(*shape):
    return np.arange(np.prod(shape), dtype=np.float64).reshape(shape)[np.random.default_rng(
        3).permutation(shape[0])] * 0.37 - 1.0


_REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
           "sqrtn": lambda rows, axis: np.sum(rows, axis) / np.sqrt(len(rows))}


def _ref(kind, empty):
    """A loop over segments: rows (one per id) reduced into `num` segments, `empty` if none."""
    def reduce(rows, ids, num=None):
        num = int(ids.max()) + 1 if num is None else int(num)
        out = np.full((num,) + rows.shape[1:], empty, dtype=rows.dtype)
        for s in range(num):
            if np.any(ids == s):
                out[s] = _REDUCE[kind](rows[ids == s], axis=0)
        return out
    return reduce


def _unsorted_ref(kind, empty):
    reduce = _ref(kind, empty)

    def ref(data, ids, num):
        rows = data.reshape((-1,) + data.shape[ids.ndim:])
        return reduce(rows, ids.reshape(-1), num)
    return ref


def _sparse_ref(kind):
    reduce = _ref(kind, 0.0)

    def ref(data, indices, ids, num_segments=None):
        return reduce(data[indices], ids, num_segments)
    return ref


def _prod_data():
    x = rand(6, 3, low=0.5, high=2.0)
    x[1, 0] = 0.0   # segment 0: one zero in column 0
    return x


def _two_zeros():
    x = _prod_data()
    x[2, 1] = x[0, 1] = 0.0
    return x


_SAMPLES = [Sample((rand(6, 3), _SORTED), name="6x3"), Sample((rand(6), _SORTED), name="vector")]
_MAXMIN = [Sample((_distinct(6, 3), _SORTED), name="6x3")]
_U = [Sample((rand(6, 2), _UNSORTED, 5), name="6x2"),
      Sample((rand(2, 3, 2), _UNSORTED_2D, 4), name="2d-ids")]
# every segment filled: the lowest/highest value of an empty one is out of reach of differences
_UMAXMIN = [Sample((_distinct(6, 2), np.array([2, 0, 2, -1, 0, 1], np.int32), 3), name="6x2")]
_LOW = np.finfo(np.float64).min

ROWS = [
    OpInfo("segment_sum", tf.math.segment_sum, _ref("sum", 0.0), _SAMPLES),
    OpInfo("segment_mean", tf.math.segment_mean, _ref("mean", 0.0), _SAMPLES),
    OpInfo("segment_max", tf.math.segment_max, _ref("max", 0.0), _MAXMIN),
    OpInfo("segment_min", tf.math.segment_min, _ref("min", 0.0), _MAXMIN),
    OpInfo("segment_prod", tf.math.segment_prod, _ref("prod", 1.0),
           _SAMPLES + [Sample((_prod_data(), _SORTED), name="one-zero")]),
    OpInfo("segment_prod_two_zeros", tf.math.segment_prod, _ref("prod", 1.0),
           [Sample((_two_zeros(), _SORTED))], grad2=False),
    OpInfo("unsorted_segment_sum", tf.math.unsorted_segment_sum, _unsorted_ref("sum", 0.0), _U),
    OpInfo("unsorted_segment_mean", tf.math.unsorted_segment_mean, _unsorted_ref("mean", 0.0),
           _U),
    OpInfo("unsorted_segment_sqrt_n", tf.math.unsorted_segment_sqrt_n,
           _unsorted_ref("sqrtn", 0.0), _U),
    OpInfo("unsorted_segment_max", tf.math.unsorted_segment_max, _unsorted_ref("max", _LOW),
           _UMAXMIN),
    OpInfo("unsorted_segment_max_empty", tf.math.unsorted_segment_max,
           _unsorted_ref("max", _LOW), [Sample((_distinct(6, 2), _UNSORTED, 5))], grad=False,
           float32=False),
    OpInfo("unsorted_segment_min", tf.math.unsorted_segment_min,
           _unsorted_ref("min", np.finfo(np.float64).max), _UMAXMIN),
    OpInfo("unsorted_segment_prod", tf.math.unsorted_segment_prod, _unsorted_ref("prod", 1.0),
           _U + [Sample((_prod_data(), np.array([0, 0, 1, 1, 3, -1], np.int32), 4),
                        name="one-zero")]),
    OpInfo("segment_sum_int", tf.math.segment_sum, _ref("sum", 0),
           [Sample((np.array([[1, 2], [3, 4], [5, 6]], np.int32), np.array([0, 0, 2], np.int32)))],
           grad=False),
]
for _kind, _fn in (("sum", tf.sparse.segment_sum), ("mean", tf.sparse.segment_mean),
                   ("sqrtn", tf.sparse.segment_sqrt_n)):
    ROWS.append(OpInfo(f"sparse_segment_{_kind}", _fn, _sparse_ref(_kind), [
        Sample((rand(6, 2), _INDICES, _SORTED), name="sorted"),
        Sample((rand(6, 2), _INDICES, _SORTED, 8), name="num_segments"),
        Sample((rand(6), _INDICES, _SORTED), name="vector")]))
