"""Op-table rows for ops/trig_ops.py: hyperbolic and inverse trigonometric functions, atan2.

Samples stay inside each function's domain and away from its singular points (+-1 for asin,
acos and atanh, 1 for acosh, the origin for atan2), where the derivatives blow up.
"""
import numpy as np

import wengert as tf
from op_table import BROADCAST_PAIRS, OpInfo, Sample, rand, rand_away


def _samples(edge, make=rand):
    return [Sample((np.asarray(make()),), name="scalar"),
            Sample((np.asarray(edge, dtype=np.float64),), name="edges"),
            Sample((make(3, 4),), name="3x4")]


def _inside(*shape):
    return rand(*shape, low=-0.9, high=0.9)


def _above_one(*shape):
    return rand(*shape, low=1.1, high=4.0)


ROWS = [
    OpInfo("sinh", tf.sinh, np.sinh, _samples([-5.0, -1e-8, 0.0, 0.5, 3.0])),
    OpInfo("cosh", tf.cosh, np.cosh, _samples([-5.0, -1e-8, 0.0, 0.5, 3.0])),
    OpInfo("asin", tf.asin, np.arcsin, _samples([-0.9, -1e-8, 0.0, 0.5, 0.9], _inside)),
    OpInfo("acos", tf.acos, np.arccos, _samples([-0.9, -1e-8, 0.0, 0.5, 0.9], _inside)),
    OpInfo("atan", tf.atan, np.arctan, _samples([-50.0, -1.0, 0.0, 1e-8, 3.0])),
    OpInfo("asinh", tf.asinh, np.arcsinh, _samples([-50.0, -1.0, 0.0, 1e-8, 3.0])),
    OpInfo("acosh", tf.acosh, np.arccosh, _samples([1.1, 1.5, 3.0, 50.0], _above_one)),
    OpInfo("atanh", tf.atanh, np.arctanh, _samples([-0.9, -1e-8, 0.0, 0.5, 0.9], _inside)),
    OpInfo("atan2", tf.atan2, np.arctan2,
           [Sample((rand(*a), rand_away(*b, gap=0.3)), name=f"{a}x{b}")
            for a, b in BROADCAST_PAIRS]),
]
