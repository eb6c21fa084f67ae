"""Op-table rows for ops/rounding_ops.py: rounding, classification, truncating division,
nextafter, approximate_equal. All but nextafter are forward-only rows: they have no gradient
(tests/test_rounding_ops.py checks that they give None, and that TruncateMod raises as in
TensorFlow)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand, rand_away

_HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49, -0.51, 3.7])
_SPECIAL = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -3.5])
_INTS_X = np.array([-7, 7, -7, 7, 0, 9], np.int32)
_INTS_Y = np.array([2, 2, -2, -2, 3, 4], np.int32)


def _forward(name, fn, ref, samples, **kw):
    return OpInfo(name, fn, ref, samples, grad=False, **kw)


def _c_div(x, y):
    return np.trunc(x / y).astype(x.dtype)


ROWS = [
    _forward("round", tf.round, np.round, [Sample((_HALVES,), name="halves"),
                                           Sample((rand(3, 4) * 5,))]),
    _forward("round_int", tf.round, lambda x: x, [Sample((_INTS_X,))]),
    _forward("rint", tf.math.rint, np.rint, [Sample((_HALVES,))]),
    _forward("floor", tf.floor, np.floor, [Sample((_HALVES,)), Sample((rand(2, 3) * 4,))]),
    _forward("ceil", tf.math.ceil, np.ceil, [Sample((_HALVES,)), Sample((rand(2, 3) * 4,))]),
    _forward("is_nan", tf.math.is_nan, np.isnan, [Sample((_SPECIAL,))]),
    _forward("is_inf", tf.math.is_inf, np.isinf, [Sample((_SPECIAL,))]),
    _forward("is_finite", tf.math.is_finite, np.isfinite, [Sample((_SPECIAL,))]),
    _forward("truncatediv", tf.truncatediv, _c_div,
             [Sample((_INTS_X, _INTS_Y), name="int"),
              Sample((rand(3, 4) * 5, rand_away(4, gap=0.5)), name="float")]),
    _forward("truncatemod", tf.truncatemod, np.fmod,
             [Sample((_INTS_X, _INTS_Y), name="int"),
              Sample((rand(3, 4) * 5, rand_away(4, gap=0.5)), name="float")]),
    OpInfo("nextafter", tf.math.nextafter, np.nextafter,
           [Sample((rand(3, 4), rand(4) + 5.0), name="up"),
            Sample((rand(3, 4), rand(4) - 5.0), name="down")]),
    _forward("approximate_equal", tf.math.approximate_equal,
             lambda x, y, tolerance=1e-5: np.abs(x - y) < tolerance,
             [Sample((np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0 + 1e-7]))),
              Sample((np.array([1.0, 2.0]), np.array([1.2, 2.5])), {"tolerance": 0.3})],
             float32=False),
]
