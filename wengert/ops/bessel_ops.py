"""tf.math.special: Bessel functions, Dawson's integral, the exponential integral, Fresnel
integrals and Spence's function.

Values come from SciPy (`scipy.special`: i0, i0e, i1, i1e, j0, j1, k0, k0e, k1, k1e, y0, y1,
dawsn, expi, fresnel, spence); the suffix e marks the exponentially scaled forms
i0e(x) = exp(-|x|) I0(x), k0e(x) = exp(x) K0(x). Derivatives are TensorFlow's, from the standard
recurrences (y is the op's output):

    I0' = I1            I0e' = I1e - sign(x) y         I1' = I0 - y / x        I1e' = I0e - y (sign(x) + 1/x)
    K0' = -K1           K0e' = y - K1e                 K1' = -K0 - y / x       K1e' = y (1 - 1/x) - K0e
    J0' = -J1           J1' = J0 - y / x               Y0' = -Y1               Y1' = Y0 - y / x
    dawsn' = 1 - 2 x y          expint' = e^x / x       spence' = log(x) / (1 - x)  (-1 at x = 1)
    fresnel_cos' = cos(pi x^2 / 2)                       fresnel_sin' = sin(pi x^2 / 2)

At x = 0 the terms y / x are 0/0; the limits are used there: I1' = J1' = I1e' = 1/2 (TensorFlow's
own BesselI1 rule puts 1 there, which is not the derivative). The division is done by a safe
denominator, so no NaN enters the next derivative either.
"""
import numpy as np

from .broadcast_ops import ones_like
from .array_ops import where
from .elementwise import call_float, float_op
from .math_ops import equal, square
from .special_math_ops import scipy_kernel, scipy_special
from .unary_ops import cos, exp, log, reciprocal, sign, sin

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]


def _over_x(y, x, at_zero):
    """y / x, with `at_zero` in its place where x == 0 (the division by a safe x)."""
    zero = equal(x, 0.0)
    return where(zero, ones_like(x) * at_zero, y / where(zero, ones_like(x), x))


def _fresnel_kernel(index):
    def kernel(x):
        dtype = x.dtype
        work = np.float32 if dtype == np.float16 else dtype
        return np.asarray(scipy_special().fresnel(np.asarray(x, work))[index]).astype(dtype)
    return kernel


BESSEL_I0 = float_op("BesselI0", scipy_kernel("i0"), lambda x, y: bessel_i1(x), args=("x",))
BESSEL_I0E = float_op("BesselI0e", scipy_kernel("i0e"), lambda x, y: bessel_i1e(x) - sign(x) * y,
                      args=("x",))
BESSEL_I1 = float_op("BesselI1", scipy_kernel("i1"),
                      lambda x, y: where(equal(x, 0.0), ones_like(x) * 0.5,
                                         bessel_i0(x) - _over_x(y, x, 0.0)), args=("x",))
BESSEL_I1E = float_op("BesselI1e", scipy_kernel("i1e"),
                       lambda x, y: where(equal(x, 0.0), ones_like(x) * 0.5,
                                          bessel_i0e(x) - y * sign(x) - _over_x(y, x, 0.0)),
                      args=("x",))
BESSEL_K0 = float_op("BesselK0", scipy_kernel("k0"), lambda x, y: -bessel_k1(x), args=("x",))
BESSEL_K0E = float_op("BesselK0e", scipy_kernel("k0e"), lambda x, y: y - bessel_k1e(x), args=("x",))
BESSEL_K1 = float_op("BesselK1", scipy_kernel("k1"), lambda x, y: -bessel_k0(x) - y / x,
                     args=("x",))
BESSEL_K1E = float_op("BesselK1e", scipy_kernel("k1e"),
                       lambda x, y: y * (1.0 - reciprocal(x)) - bessel_k0e(x), args=("x",))
BESSEL_J0 = float_op("BesselJ0", scipy_kernel("j0"), lambda x, y: -bessel_j1(x), args=("x",))
BESSEL_J1 = float_op("BesselJ1", scipy_kernel("j1"),
                      lambda x, y: where(equal(x, 0.0), ones_like(x) * 0.5,
                                         bessel_j0(x) - _over_x(y, x, 0.0)), args=("x",))
BESSEL_Y0 = float_op("BesselY0", scipy_kernel("y0"), lambda x, y: -bessel_y1(x), args=("x",))
BESSEL_Y1 = float_op("BesselY1", scipy_kernel("y1"), lambda x, y: bessel_y0(x) - y / x, args=("x",))

DAWSN = float_op("Dawsn", scipy_kernel("dawsn"), lambda x, y: 1.0 - 2.0 * x * y, args=("x",))
EXPINT = float_op("Expint", scipy_kernel("expi"), lambda x, y: exp(x) / x, args=("x",))
FRESNEL_COS = float_op("FresnelCos", _fresnel_kernel(1),
                        lambda x, y: cos(square(x) * (np.pi / 2.0)), args=("x",))
FRESNEL_SIN = float_op("FresnelSin", _fresnel_kernel(0),
                        lambda x, y: sin(square(x) * (np.pi / 2.0)), args=("x",))


def _spence_derivative(x, y):
    one = equal(x, 1.0)
    safe = where(one, ones_like(x) * 2.0, x)
    return where(one, -ones_like(x), log(safe) / (1.0 - safe))


SPENCE = float_op("Spence", scipy_kernel("spence"), _spence_derivative, args=("x",))


def _public(op_def, fn_name, doc):
    def fn(x, name=None):
        return call_float(op_def, x, name)
    fn.__name__ = fn.__qualname__ = fn_name
    fn.__doc__ = doc
    return fn


bessel_i0 = _public(BESSEL_I0, "bessel_i0", "The modified Bessel function of the first kind "
                    "of order 0, I0(x).")
bessel_i0e = _public(BESSEL_I0E, "bessel_i0e", "exp(-|x|) I0(x), the scaled I0.")
bessel_i1 = _public(BESSEL_I1, "bessel_i1", "The modified Bessel function of the first kind "
                    "of order 1, I1(x).")
bessel_i1e = _public(BESSEL_I1E, "bessel_i1e", "exp(-|x|) I1(x), the scaled I1.")
bessel_k0 = _public(BESSEL_K0, "bessel_k0", "The modified Bessel function of the second kind "
                    "of order 0, K0(x) (x > 0).")
bessel_k0e = _public(BESSEL_K0E, "bessel_k0e", "exp(x) K0(x), the scaled K0.")
bessel_k1 = _public(BESSEL_K1, "bessel_k1", "The modified Bessel function of the second kind "
                    "of order 1, K1(x) (x > 0).")
bessel_k1e = _public(BESSEL_K1E, "bessel_k1e", "exp(x) K1(x), the scaled K1.")
bessel_j0 = _public(BESSEL_J0, "bessel_j0", "The Bessel function of the first kind of order "
                    "0, J0(x).")
bessel_j1 = _public(BESSEL_J1, "bessel_j1", "The Bessel function of the first kind of order "
                    "1, J1(x).")
bessel_y0 = _public(BESSEL_Y0, "bessel_y0", "The Bessel function of the second kind of order "
                    "0, Y0(x) (x > 0).")
bessel_y1 = _public(BESSEL_Y1, "bessel_y1", "The Bessel function of the second kind of order "
                    "1, Y1(x) (x > 0).")
dawsn = _public(DAWSN, "dawsn", "Dawson's integral exp(-x^2) * integral from 0 to x of "
                "exp(t^2) dt.")
expint = _public(EXPINT, "expint", "The exponential integral Ei(x) = -principal value of the "
                 "integral from -x to inf of exp(-t) / t dt.")
fresnel_cos = _public(FRESNEL_COS, "fresnel_cos", "The Fresnel cosine integral C(x) = "
                      "integral from 0 to x of cos(pi t^2 / 2) dt.")
fresnel_sin = _public(FRESNEL_SIN, "fresnel_sin", "The Fresnel sine integral S(x) = "
                      "integral from 0 to x of sin(pi t^2 / 2) dt.")
spence = _public(SPENCE, "spence", "Spence's function (the dilogarithm Li2(1 - x)), integral "
                 "from 1 to x of log(t) / (1 - t) dt, for x >= 0.")
