"""Op-table rows for ops/bitwise_ops.py (integers: forward only, no gradient)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample

_X = np.array([0, 1, 5, -6, 127, -128], np.int32)
_Y = np.array([3, 3, 6, 7, 1, -1], np.int32)
_I8 = np.array([1, 1, 1, -64, 3], np.int8)
_SHIFT8 = np.array([7, 8, -1, 2, 0], np.int8)


def _clamped(fn, bits):
    return lambda x, y: fn(x, np.clip(y, 0, bits - 1).astype(x.dtype)).astype(x.dtype)


ROWS = [OpInfo(name, fn, ref, [Sample((_X, _Y))], grad=False)
        for name, fn, ref in [("bitwise_and", tf.bitwise.bitwise_and, np.bitwise_and),
                              ("bitwise_or", tf.bitwise.bitwise_or, np.bitwise_or),
                              ("bitwise_xor", tf.bitwise.bitwise_xor, np.bitwise_xor)]]
ROWS += [
    OpInfo("invert", tf.bitwise.invert, np.invert, [Sample((_X,)), Sample((_I8,))], grad=False),
    OpInfo("left_shift", tf.bitwise.left_shift, _clamped(np.left_shift, 8),
           [Sample((_I8, _SHIFT8), name="int8-clamped")], grad=False),
    OpInfo("right_shift", tf.bitwise.right_shift, _clamped(np.right_shift, 32),
           [Sample((_X, np.array([1, 0, 2, 1, 40, 3], np.int32)), name="int32")], grad=False),
]
