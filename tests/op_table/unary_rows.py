"""Op-table rows for ops/unary_ops.py: roots, exp/log, trigonometry, activations, erf, abs/sign.

Each row samples a scalar, a vector that spans the op's domain (edge values included: tiny and
large arguments, points near the ends of the domain), and random 2-d and 3-d tensors. Inputs stay
inside each op's domain and away from kinks, so finite differences can judge the gradients.
"""
import math

import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, positive, rand, rand_away


def _samples(edge, make=rand):
    """A scalar, an edge-value vector and random tensors of a few shapes, all from `make`."""
    return [Sample((np.asarray(make()),), name="scalar"),
            Sample((np.asarray(edge, dtype=np.float64),), name="edges"),
            Sample((make(3, 4),), name="3x4"),
            Sample((make(2, 3, 2),), name="2x3x2")]


def _sigmoid(x):
    return np.exp(-np.logaddexp(0.0, -x))


_erf = np.vectorize(math.erf, otypes=[np.float64])

ROWS = [
    OpInfo("sqrt", tf.sqrt, np.sqrt, _samples([0.01, 0.3, 1.0, 4.0, 100.0], positive)),
    OpInfo("rsqrt", tf.math.rsqrt, lambda x: 1.0 / np.sqrt(x),
           _samples([0.05, 0.3, 1.0, 4.0, 100.0], positive)),
    OpInfo("reciprocal", tf.math.reciprocal, lambda x: 1.0 / x,
           _samples([-50.0, -0.2, 0.1, 1.0, 7.0], lambda *s: rand_away(*s, gap=0.3))),
    OpInfo("exp", tf.exp, np.exp, _samples([-20.0, -1.0, 0.0, 1e-9, 5.0])),
    OpInfo("expm1", tf.math.expm1, np.expm1, _samples([-5.0, -1e-9, 0.0, 1e-12, 3.0])),
    OpInfo("log", tf.math.log, np.log, _samples([0.01, 0.5, 1.0, 1.0 + 1e-9, 1e4], positive)),
    OpInfo("log1p", tf.math.log1p, np.log1p,
           _samples([-0.9, -1e-10, 0.0, 1e-12, 50.0], lambda *s: rand(*s, low=-0.5, high=2.0))),
    OpInfo("abs", tf.abs, np.abs, _samples([-3.0, -1e-3, 1e-3, 2.5],
                                           lambda *s: rand_away(*s, gap=0.05))),
    OpInfo("sign", tf.sign, np.sign, _samples([-3.0, -1e-3, 1e-3, 2.5],
                                              lambda *s: rand_away(*s, gap=0.05)),
           notes="the gradient is zero everywhere (TensorFlow's rule); FD agrees away from 0"),
    OpInfo("sin", tf.sin, np.sin, _samples([-10.0, -np.pi / 2, 0.0, 1e-8, 3.0])),
    OpInfo("cos", tf.cos, np.cos, _samples([-10.0, -np.pi / 2, 0.0, 1e-8, 3.0])),
    OpInfo("tan", tf.tan, np.tan, _samples([-1.3, -0.5, 0.0, 1e-8, 1.2, 3.0],
                                           lambda *s: rand(*s, low=-1.2, high=1.2)),
           notes="random samples stay 0.37 away from the poles at +-pi/2"),
    OpInfo("tanh", tf.tanh, np.tanh, _samples([-8.0, -1.0, 0.0, 1e-8, 0.5, 4.0])),
    OpInfo("sigmoid", tf.sigmoid, _sigmoid, _samples([-30.0, -3.0, 0.0, 1e-8, 2.0, 15.0])),
    OpInfo("softplus", tf.math.softplus, lambda x: np.logaddexp(0.0, x),
           _samples([-40.0, -3.0, 0.0, 1e-8, 2.0, 40.0])),
    OpInfo("erf", tf.math.erf, _erf,
           _samples([-6.0, -4.0, -0.46875, -1e-10, 0.0, 0.3, 0.5, 1.7, 4.5])),
    # abs and sign are defined for integers too (no gradient: integer tensors carry none)
    OpInfo("abs_int", tf.abs, np.abs, [Sample((np.array([-3, 0, 2, -7], dtype=np.int32),)),
                                       Sample((np.array(-4, dtype=np.int64),))], grad=False),
    OpInfo("sign_int", tf.sign, np.sign, [Sample((np.array([-3, 0, 2, -7], dtype=np.int32),))],
           grad=False),
]
