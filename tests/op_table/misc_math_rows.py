"""Op-table rows for ops/misc_math_ops.py: softsign, log_sigmoid, scalar_mul, realdiv, polyval,
accumulate_n, zero_fraction, invert_permutation and the monotonicity tests."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand, rand_away


def _softsign(x):
    return x / (1.0 + np.abs(x))


ROWS = [
    OpInfo("softsign", tf.math.softsign, _softsign,
           [Sample((rand_away(3, 4, gap=0.05),)), Sample((np.array([-30.0, -1.0, 0.5, 40.0]),))]),
    OpInfo("log_sigmoid", tf.math.log_sigmoid, lambda x: -np.logaddexp(0.0, -x),
           [Sample((rand(3, 4) * 3,)), Sample((np.array([-40.0, -1.0, 0.0, 2.0, 50.0]),))]),
    OpInfo("scalar_mul", lambda s, x: tf.math.scalar_mul(s, x), np.multiply,
           [Sample((np.array(1.7), rand(3, 4))), Sample((2.5, rand(3)), wrt=[1], name="python")]),
    OpInfo("realdiv", tf.realdiv, np.divide, [Sample((rand(3, 4), rand_away(4, gap=0.5)))]),
    OpInfo("polyval", lambda a, b, c, x: tf.math.polyval([a, b, c], x),
           lambda a, b, c, x: (a * x + b) * x + c,
           [Sample((np.array(1.5), np.array(-2.0), np.array(0.5), rand(3, 4)))]),
    OpInfo("polyval_numbers", lambda x: tf.math.polyval([2.0, 0.0, -1.0, 3.0], x),
           lambda x: np.polyval([2.0, 0.0, -1.0, 3.0], x), [Sample((rand(5),))]),
    OpInfo("accumulate_n", lambda a, b, c: tf.math.accumulate_n([a, b, c]),
           lambda a, b, c: a + b + c, [Sample((rand(3, 4), rand(3, 4), rand(3, 4)))]),
    OpInfo("zero_fraction", tf.math.zero_fraction, lambda v: np.float32(np.mean(v == 0)),
           [Sample((np.array([[0.0, 1.0], [0.0, 0.0]]),))], grad=False),
    OpInfo("invert_permutation", tf.math.invert_permutation, np.argsort,
           [Sample((np.array([3, 0, 4, 1, 2], np.int32),))], grad=False),
    OpInfo("is_non_decreasing", tf.math.is_non_decreasing,
           lambda x: np.all(np.diff(x.reshape(-1)) >= 0),
           [Sample((np.array([1.0, 1.0, 2.0]),)), Sample((np.array([[1.0, 2.0], [0.0, 3.0]]),)),
            Sample((np.array([4.0]),))], grad=False),
    OpInfo("is_strictly_increasing", tf.math.is_strictly_increasing,
           lambda x: np.all(np.diff(x.reshape(-1)) > 0),
           [Sample((np.array([1.0, 1.0, 2.0]),)), Sample((np.array([1.0, 2.0, 5.0]),))],
           grad=False),
    OpInfo("sobol_sample", lambda: tf.math.sobol_sample(3, 6, skip=2),
           lambda: np.array([[0.25, 0.75, 0.75], [0.375, 0.375, 0.625], [0.875, 0.875, 0.125],
                             [0.625, 0.125, 0.875], [0.125, 0.625, 0.375],
                             [0.1875, 0.3125, 0.9375]]),
           [Sample(())], grad=False, float32=False),
]
