"""Op-table rows for ops/binary_math_ops.py: squared difference and the zero-guarded forms.

The guards make the functions jump where they act (y == 0 for div_no_nan, x == 0 for xdivy), so
finite differences are taken away from those points, except for mul_no_nan, which is continuous
at y == 0 (it is x * y there), and for xlogy / xlog1py in x, which vanish continuously at x == 0
only in y's gradient: those samples differentiate y alone. TensorFlow's values at the guards are
tested in tests/test_binary_math_ops.py.
"""
import numpy as np

import wengert as tf
from op_table import BROADCAST_PAIRS, OpInfo, Sample, positive, rand, rand_away

_WITH_ZERO = np.array([1.5, 0.0, -2.0, 0.7])
_X_WITH_ZERO = np.array([[0.0, 1.5, -2.0, 0.7], [0.3, 0.0, 1.1, -0.4], [0.0, 0.0, 2.0, 1.0]])


def _pairs(make_x=rand, make_y=rand):
    return [Sample((make_x(*a), make_y(*b)), name=f"{a}x{b}") for a, b in BROADCAST_PAIRS]


def _guard_x(fn):
    def ref(x, y):
        with np.errstate(all="ignore"):
            return np.where(x == 0, 0.0, fn(x, y))
    return ref


def _div_no_nan(x, y):
    return np.where(y == 0, 0.0, x / np.where(y == 0, 1, y))


ROWS = [
    OpInfo("squared_difference", tf.math.squared_difference, lambda x, y: (x - y) ** 2, _pairs()),
    OpInfo("xlogy", tf.math.xlogy, _guard_x(lambda x, y: x * np.log(y)),
           _pairs(rand, positive) + [Sample((_X_WITH_ZERO, positive(4)), wrt=[1],
                                            name="zero-x")]),
    OpInfo("xlog1py", tf.math.xlog1py, _guard_x(lambda x, y: x * np.log1p(y)),
           _pairs(rand, lambda *s: rand(*s, low=-0.5, high=2.0))
           + [Sample((_X_WITH_ZERO, positive(4)), wrt=[1], name="zero-x")]),
    OpInfo("xdivy", tf.math.xdivy, _guard_x(lambda x, y: x / y),
           _pairs(lambda *s: rand_away(*s, gap=0.2), lambda *s: rand_away(*s, gap=0.5))
           + [Sample((_X_WITH_ZERO, rand_away(4, gap=0.5)), wrt=[1], name="zero-x")]),
    # y == 0 is a discontinuity: differentiate x there, and y only on samples away from 0.
    OpInfo("divide_no_nan", tf.math.divide_no_nan, _div_no_nan,
           [Sample((rand(3, 4), _WITH_ZERO), wrt=[0], name="zero-divisor"),
            Sample((rand(3, 4), rand_away(4, gap=0.5)), name="nonzero")]),
    # x * y is continuous at y == 0: both gradients are checked there (d/dy = x, TF's rule).
    OpInfo("multiply_no_nan", tf.math.multiply_no_nan, lambda x, y: np.where(y == 0, 0.0, x * y),
           [Sample((rand(3, 4), _WITH_ZERO), name="zero-factor"),
            Sample((rand(3, 4), rand_away(4, gap=0.5)), name="nonzero")]),
    OpInfo("reciprocal_no_nan", tf.math.reciprocal_no_nan, lambda x: 1.0 / x,
           [Sample((rand_away(3, 4, gap=0.3),))]),
    OpInfo("reciprocal_no_nan_at_zero", tf.math.reciprocal_no_nan,
           lambda x: np.where(x == 0, 0.0, 1.0 / np.where(x == 0, 1.0, x)),
           [Sample((_WITH_ZERO,))], grad=False),
]
