"""Op-table rows for ops/special_math_ops.py, against SciPy.

Shape parameters TensorFlow gives no gradient (polygamma's order, betainc's a and b, zeta's x)
are left out of `wrt`; igamma's gradient in a (IgammaGradA) has no derivative of its own, as in
TensorFlow, so rows through it check first order only, and separate rows check x to second
order. tests/test_special_math_ops.py checks the None gradients and the LookupError.
"""
import numpy as np
import scipy.special as sp

import wengert as tf
from op_table import OpInfo, Sample, positive, rand


def _unary(edge, make):
    return [Sample((np.asarray(edge, dtype=np.float64),), name="edges"),
            Sample((make(3, 4),), name="3x4")]


def _in(low, high):
    return lambda *s: rand(*s, low=low, high=high)


_A = positive(3, 4, low=0.3, high=4.0)
_X = positive(3, 4, low=0.05, high=6.0)
_IGAMMA = [Sample((_A, _X), name="3x4"),
           Sample((positive(4, low=0.5, high=3.0), positive(2, 1, low=0.2, high=5.0)),
                  name="broadcast"),
           Sample((np.array([0.5, 2.0, 10.0, 30.0, 1.0]), np.array([3.0, 0.5, 12.0, 25.0, 1.0])),
                  name="branches")]

ROWS = [
    OpInfo("erfc", tf.math.erfc, sp.erfc, _unary([-3.0, -0.5, 0.0, 0.4, 4.0, 8.0], rand)),
    OpInfo("erfinv", tf.math.erfinv, sp.erfinv,
           _unary([-0.95, -0.3, 0.0, 1e-6, 0.9], _in(-0.9, 0.9))),
    OpInfo("ndtri", tf.math.ndtri, sp.ndtri, _unary([0.02, 0.3, 0.5, 0.8, 0.97], _in(0.05, 0.95))),
    OpInfo("erfcinv", tf.math.erfcinv, sp.erfcinv,
           _unary([0.05, 0.5, 1.0, 1.5, 1.95], _in(0.1, 1.9)), fwd_rtol=1e-6),
    OpInfo("lgamma", tf.math.lgamma, sp.gammaln,
           _unary([0.1, 0.5, 1.0, 2.5, 30.0, -0.5, -2.5], _in(0.2, 6.0))),
    OpInfo("digamma", tf.math.digamma, sp.psi,
           _unary([0.1, 0.5, 1.0, 2.5, 30.0, -0.5], _in(0.2, 6.0))),
    OpInfo("polygamma", tf.math.polygamma, sp.polygamma,
           [Sample((np.array([0.0, 1.0, 2.0, 3.0]), positive(3, 4, low=0.3, high=5.0)), wrt=[1]),
            Sample((np.array(1.0), positive(5, low=0.5, high=4.0)), wrt=[1], name="trigamma")]),
    OpInfo("igamma", tf.math.igamma, sp.gammainc, _IGAMMA, grad2=False, rtol=1e-5),
    OpInfo("igammac", tf.math.igammac, sp.gammaincc, _IGAMMA, grad2=False, rtol=1e-5),
    OpInfo("igamma_in_x", tf.math.igamma, sp.gammainc,
           [Sample(s.args, wrt=[1], name=s.name) for s in _IGAMMA]),
    OpInfo("igammac_in_x", tf.math.igammac, sp.gammaincc,
           [Sample(s.args, wrt=[1], name=s.name) for s in _IGAMMA]),
    OpInfo("betainc", tf.math.betainc, sp.betainc,
           [Sample((positive(3, 4, low=0.5, high=4.0), positive(3, 4, low=0.5, high=4.0),
                    _in(0.1, 0.9)(3, 4)), wrt=[2]),
            Sample((np.array(2.0), np.array(3.0), _in(0.05, 0.95)(5)), wrt=[2], name="scalar-ab"),
            Sample((np.array([1.0, 2.0, 0.7]), np.array([1.0, 1.0, 3.0]),
                    np.array([0.3, 0.6, 0.2])), wrt=[2], name="a-or-b-one")]),
    OpInfo("zeta", tf.math.zeta, sp.zeta,
           [Sample((positive(3, 4, low=1.5, high=5.0), positive(3, 4, low=0.5, high=3.0)),
                   wrt=[1]),
            Sample((np.array(2.0), positive(4, low=0.5, high=3.0)), wrt=[1], name="basel")]),
    OpInfo("lbeta", tf.math.lbeta,
           lambda x: np.sum(sp.gammaln(x), -1) - sp.gammaln(np.sum(x, -1)),
           [Sample((positive(3, 4, low=0.3, high=4.0),)), Sample((positive(2, low=0.5),))]),
]
