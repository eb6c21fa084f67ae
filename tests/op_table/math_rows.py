"""Op-table rows for ops/math_ops.py: binary arithmetic, comparisons, logic, cast."""
import numpy as np

import wengert as tf
from op_table import BROADCAST_PAIRS, OpInfo, Sample, positive, rand, rand_away


def _pairs(make_x=rand, make_y=rand):
    return [Sample((make_x(*a), make_y(*b)), name=f"{a}x{b}") for a, b in BROADCAST_PAIRS]


ROWS = [
    OpInfo("add", tf.add, np.add, _pairs()),
    OpInfo("subtract", tf.subtract, np.subtract, _pairs()),
    OpInfo("multiply", tf.multiply, np.multiply, _pairs()),
    OpInfo("divide", tf.divide, np.divide, _pairs(rand, lambda *s: rand_away(*s, gap=0.5))),
    OpInfo("negative", tf.negative, np.negative, [Sample((rand(3, 4),))]),
    OpInfo("square", tf.square, np.square, [Sample((rand(3, 4),))]),
    OpInfo("pow", tf.pow, np.power, _pairs(positive, rand)),
    OpInfo("maximum", tf.maximum, np.maximum, _pairs(lambda *s: rand(*s) + 0.05,
                                                     lambda *s: rand(*s) - 0.05)),
    OpInfo("minimum", tf.minimum, np.minimum, _pairs(lambda *s: rand(*s) + 0.05,
                                                     lambda *s: rand(*s) - 0.05)),
    OpInfo("floormod", tf.floormod, np.mod,
           [Sample((positive(3, 4, low=2.1, high=2.9), np.full((4,), 1.0)))]),
    OpInfo("floordiv", tf.floordiv, np.floor_divide,
           [Sample((rand(3, 4) * 5, positive(4)))], grad=False),
    # float64 -> float32 -> float64 is locally constant at 1e-7: step over that granularity.
    OpInfo("cast", lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64),
           lambda x: x.astype(np.float32).astype(np.float64), [Sample((rand(3),))],
           fwd_rtol=1e-7, float32=False, rtol=1e-4, eps=1e-2),
    OpInfo("pow_int", tf.pow, np.power,
           [Sample((np.array([2, -3, 0, 5], np.int32), np.array([3, 2, 4, 0], np.int32)))],
           grad=False),
    OpInfo("sign_int", tf.sign, np.sign, [Sample((np.array([-3, 0, 7], np.int8),))],
           grad=False),  # TensorFlow's Sign refuses unsigned integers
    OpInfo("add_strings", tf.add, lambda x, y: np.array(
        [a.encode() + b.encode() for a, b in zip(x, y)], object), [Sample((np.array(["a", "bc"], object), np.array(["x", "y"], object)))],
           grad=False, float32=False),
    OpInfo("cast_to_int", lambda x: tf.cast(x, tf.int32), lambda x: x.astype(np.int32),
           [Sample((rand(5) * 3,))], grad=False),
]

for _name, _fn, _ref in [("equal", tf.equal, np.equal), ("not_equal", tf.not_equal, np.not_equal),
                         ("less", tf.less, np.less), ("less_equal", tf.less_equal, np.less_equal),
                         ("greater", tf.greater, np.greater),
                         ("greater_equal", tf.greater_equal, np.greater_equal)]:
    ROWS.append(OpInfo(_name, _fn, _ref, [Sample((rand(3, 4), rand(4)))], grad=False,
                       float32=False))

_B = [Sample((np.array([True, False, True, False]), np.array([True, True, False, False])))]
ROWS += [
    OpInfo("logical_and", tf.logical_and, np.logical_and, _B, grad=False),
    OpInfo("logical_or", tf.logical_or, np.logical_or, _B, grad=False),
    OpInfo("logical_xor", tf.logical_xor, np.logical_xor, _B, grad=False),
    OpInfo("logical_not", tf.logical_not, np.logical_not, [Sample((_B[0].args[0],))], grad=False),
]
