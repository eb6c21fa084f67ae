"""Op-table rows for ops/bessel_ops.py (tf.math.special), against SciPy.

Each function is sampled on its domain (K and Y on x > 0), away from 0 where the second
derivative has a kink or a pole; the removable 0/0 at x = 0 of I1', I1e' and J1' gets rows of
its own (first order for i1e, whose scaled form has a kink in its derivative at 0).
"""
import numpy as np
import scipy.special as sp

import wengert as tf
from op_table import OpInfo, Sample, positive, rand, rand_away

S = tf.math.special


def _samples(make):
    return [Sample((np.asarray(make()),), name="scalar"), Sample((make(3, 4),), name="3x4")]


def _any(*s):
    return rand_away(*s, low=-4.0, high=4.0, gap=0.2)


def _pos(*s):
    return positive(*s, low=0.3, high=6.0)


_AT_ZERO = [Sample((np.array([0.0, 0.7, -1.3, 2.0]),), name="with-zero")]

ROWS = [OpInfo(name, fn, ref, _samples(make)) for name, fn, ref, make in [
    ("bessel_i0", tf.math.bessel_i0, sp.i0, _any),
    ("bessel_i0e", tf.math.bessel_i0e, sp.i0e, _any),
    ("bessel_i1", tf.math.bessel_i1, sp.i1, _any),
    ("bessel_i1e", tf.math.bessel_i1e, sp.i1e, _any),
    ("bessel_j0", S.bessel_j0, sp.j0, _any),
    ("bessel_j1", S.bessel_j1, sp.j1, _any),
    ("bessel_k0", S.bessel_k0, sp.k0, _pos),
    ("bessel_k0e", S.bessel_k0e, sp.k0e, _pos),
    ("bessel_k1", S.bessel_k1, sp.k1, _pos),
    ("bessel_k1e", S.bessel_k1e, sp.k1e, _pos),
    ("bessel_y0", S.bessel_y0, sp.y0, _pos),
    ("bessel_y1", S.bessel_y1, sp.y1, _pos),
    ("dawsn", S.dawsn, sp.dawsn, _any),
    ("expint", S.expint, sp.expi, _any),
    ("fresnel_cos", S.fresnel_cos, lambda x: sp.fresnel(x)[1], _any),
    ("fresnel_sin", S.fresnel_sin, lambda x: sp.fresnel(x)[0], _any),
    ("spence", S.spence, sp.spence, lambda *s: positive(*s, low=0.1, high=4.0)),
]]
ROWS += [
    OpInfo("bessel_i1_at_zero", tf.math.bessel_i1, sp.i1, _AT_ZERO),
    OpInfo("bessel_j1_at_zero", S.bessel_j1, sp.j1, _AT_ZERO),
    OpInfo("bessel_i1e_at_zero", tf.math.bessel_i1e, sp.i1e, _AT_ZERO, grad2=False),
    OpInfo("spence_at_one", S.spence, sp.spence, [Sample((np.array([1.0, 0.5, 2.0]),))],
           grad2=False),
]
