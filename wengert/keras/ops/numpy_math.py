"""Keras 3's elementwise functions of one tensor: trigonometry, exponentials and logarithms,
rounding, signs, complex parts and the finiteness tests.

Each maps onto the wengert op of the same math (`keras.ops.sin` is `tf.sin`), after Keras's
dtype rule for it: the transcendental functions compute in a float type, so integer and bool
inputs become floatx (int64 too, where NumPy would give float64) and float inputs keep their
precision; `exp`, `expm1` and `exp2` do the same. Gradients are the ops' own (d sin = cos,
d log = 1/x, ...); a cast from an integer input has none, as in TensorFlow.

    log10(x) = log(x) / log(10)    log2(x) = log(x) / log(2)    exp2(x) = 2 ** x
    sinc(x) = sin(pi x) / (pi x), 1 at 0    cbrt(x) = sign(x) |x| ** (1/3)
    deg2rad(x) = x pi / 180    rad2deg(x) = x 180 / pi    trunc(x) = ceil(x) if x < 0 else floor(x)
    signbit(x) = atan2(x, -1) < 0   (-pi for negative values and -0.0, +pi otherwise)
"""
import math

import numpy as np

from ...ops import array_ops, bessel_ops, complex_ops, rounding_ops, trig_ops, unary_ops
from ...ops import math_ops
from ...ops.broadcast_ops import ones_like, zeros_like
from ...ops.cast_ops import cast
from .. import backend
from .dtypes import convert, result_type, standardize_dtype

__all__ = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
           "arccosh", "arctanh", "log", "log1p", "log2", "log10", "sqrt", "ceil", "floor",
           "angle", "sinc", "exp", "exp2", "expm1", "abs", "absolute", "fabs", "sign", "signbit",
           "square", "negative", "reciprocal", "real", "imag", "conj", "conjugate", "copy",
           "cbrt", "deg2rad", "rad2deg", "i0", "trunc", "round", "isfinite", "isinf", "isnan",
           "isneginf", "isposinf", "isreal", "nan_to_num", "clip"]


def _float_input(x):
    """x as a tensor of the float type Keras computes transcendental functions in."""
    x = convert(x)
    name = x.dtype.name
    dtype = backend.floatx() if name == "int64" else result_type(name, float)
    return cast(x, dtype) if dtype != name else x


def _float_unary(op, doc):
    def fn(x):
        return op(_float_input(x))
    fn.__doc__ = doc
    return fn


sin = _float_unary(unary_ops.sin, "Elementwise sine (radians).")
cos = _float_unary(unary_ops.cos, "Elementwise cosine (radians).")
tan = _float_unary(unary_ops.tan, "Elementwise tangent (radians).")
arcsin = _float_unary(trig_ops.asin, "Elementwise inverse sine.")
arccos = _float_unary(trig_ops.acos, "Elementwise inverse cosine.")
arctan = _float_unary(trig_ops.atan, "Elementwise inverse tangent.")
sinh = _float_unary(trig_ops.sinh, "Elementwise hyperbolic sine.")
cosh = _float_unary(trig_ops.cosh, "Elementwise hyperbolic cosine.")
tanh = _float_unary(unary_ops.tanh, "Elementwise hyperbolic tangent.")
arcsinh = _float_unary(trig_ops.asinh, "Elementwise inverse hyperbolic sine.")
arccosh = _float_unary(trig_ops.acosh, "Elementwise inverse hyperbolic cosine.")
arctanh = _float_unary(trig_ops.atanh, "Elementwise inverse hyperbolic tangent.")
log = _float_unary(unary_ops.log, "Elementwise natural logarithm.")
log1p = _float_unary(unary_ops.log1p, "Elementwise log(1 + x), accurate near 0.")
sqrt = _float_unary(unary_ops.sqrt, "Elementwise square root.")
ceil = _float_unary(rounding_ops.ceil, "Elementwise ceiling, as a float tensor.")
floor = _float_unary(rounding_ops.floor, "Elementwise floor, as a float tensor.")
angle = _float_unary(complex_ops.angle, "The argument of each (complex) element.")


def log2(x):
    """Elementwise base-2 logarithm."""
    x = _float_input(x)
    return math_ops.divide(unary_ops.log(x), convert(math.log(2.0), x.dtype))


def log10(x):
    """Elementwise base-10 logarithm."""
    x = _float_input(x)
    return math_ops.divide(unary_ops.log(x), convert(math.log(10.0), x.dtype))


def sinc(x):
    """Normalised sinc, sin(pi x) / (pi x), with sinc(0) = 1."""
    x = _float_input(x)
    pi_x = math_ops.multiply(x, convert(np.pi, x.dtype))
    safe = array_ops.where(math_ops.equal(x, 0), ones_like(pi_x), pi_x)
    return array_ops.where(math_ops.equal(x, 0), ones_like(x),
                           math_ops.divide(unary_ops.sin(safe), safe))


def _exp_input(x):
    x = convert(x)
    name = x.dtype.name
    return cast(x, backend.floatx()) if "int" in name or name == "bool" else x


def exp(x):
    """Elementwise e ** x; integer and bool inputs give floatx."""
    return unary_ops.exp(_exp_input(x))


def expm1(x):
    """Elementwise e ** x - 1, accurate near 0."""
    return unary_ops.expm1(_exp_input(x))


def exp2(x):
    """Elementwise 2 ** x."""
    x = _exp_input(x)
    return math_ops.pow(convert(2.0, x.dtype), x)


def absolute(x):
    """Elementwise |x| (the modulus for complex input; unsigned and bool pass through)."""
    x = convert(x)
    if x.dtype.name.startswith("uint") or x.dtype.name == "bool":
        return x
    return complex_ops.abs(x)


abs = absolute


def fabs(x):
    """Elementwise |x| as a float tensor (integer and bool inputs become floatx)."""
    x = convert(x)
    if "int" in x.dtype.name or x.dtype.name == "bool":
        x = cast(x, backend.floatx())
    return complex_ops.abs(x)


def sign(x):
    """Elementwise -1, 0 or 1 (x / |x| for complex), in x's dtype."""
    x = convert(x)
    name = x.dtype.name
    if name in ("uint8", "uint16", "uint32"):
        return cast(unary_ops.sign(cast(x, "int32")), name)
    return unary_ops.sign(x)


def signbit(x):
    """Whether each element's sign bit is set (True for -0.0 and negative values)."""
    x = convert(x)
    name = x.dtype.name
    if name == "bool":
        return zeros_like(x, dtype="bool")
    if "int" in name:
        return math_ops.less(x, convert(0, name))
    as_float = cast(x, "float64")
    return math_ops.less(trig_ops.atan2(as_float, convert(-1.0, "float64")), 0.0)


def square(x):
    """Elementwise x * x (bool inputs count as int32)."""
    x = convert(x)
    if x.dtype.name == "bool":
        x = cast(x, "int32")
    return unary_ops.square(x)


def negative(x):
    """Elementwise -x."""
    return math_ops.negative(convert(x))


def reciprocal(x):
    """Elementwise 1 / x."""
    return unary_ops.reciprocal(convert(x))


def real(x):
    """The real part of each element."""
    return complex_ops.real(convert(x))


def imag(x):
    """The imaginary part of each element (zeros for real input)."""
    return complex_ops.imag(convert(x))


def conjugate(x):
    """The complex conjugate of each element (real input unchanged)."""
    return complex_ops.conj(convert(x))


conj = conjugate


def copy(x):
    """A new tensor with x's values."""
    return array_ops.identity(convert(x))


def cbrt(x):
    """Elementwise real cube root, sign(x) |x| ** (1/3)."""
    x = convert(x)
    name = x.dtype.name
    if name == "int64":
        x = cast(x, "float64")
    elif name not in ("float16", "float64"):
        x = cast(x, backend.floatx())
    magnitude = math_ops.pow(complex_ops.abs(x), convert(1.0 / 3.0, x.dtype))
    return math_ops.multiply(unary_ops.sign(x), magnitude)


def _angle_input(x):
    x = convert(x)
    name = x.dtype.name
    if name in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        return cast(x, backend.floatx())
    return cast(x, "float64") if name == "int64" else x


def deg2rad(x):
    """Degrees to radians, x pi / 180."""
    x = _angle_input(x)
    return math_ops.multiply(x, convert(math.pi / 180.0, x.dtype))


def rad2deg(x):
    """Radians to degrees, x 180 / pi."""
    x = _angle_input(x)
    return math_ops.multiply(x, convert(180.0 / math.pi, x.dtype))


def i0(x):
    """The modified Bessel function of the first kind, order 0."""
    x = convert(x)
    name = x.dtype.name
    dtype = "float64" if name in ("int64", "float64") else (
        name if name == "float16" else backend.floatx())
    return bessel_ops.bessel_i0(cast(x, dtype) if dtype != name else x)


def trunc(x):
    """Rounds toward zero; integer and bool inputs pass through."""
    x = convert(x)
    if x.dtype.name == "bool" or "int" in x.dtype.name:
        return x
    return array_ops.where(math_ops.less(x, 0), rounding_ops.ceil(x), rounding_ops.floor(x))


def round(x, decimals=0):
    """Rounds half to even at `decimals` digits after the point (negative: before it)."""
    x = convert(x)
    if decimals == 0:
        return rounding_ops.round(x)
    name = x.dtype.name
    if "int" in name:
        if decimals > 0:
            return x
        factor = convert(math.pow(10, decimals), backend.floatx())
        x = cast(x, backend.floatx())
    else:
        factor = convert(math.pow(10, decimals), name)
    scaled = rounding_ops.round(math_ops.multiply(x, factor))
    return cast(math_ops.divide(scaled, factor), name)


def _is_numeric_float(x):
    return x.dtype.is_floating or x.dtype.is_complex


def isfinite(x):
    """Whether each element is neither infinite nor NaN (True for integers)."""
    x = convert(x)
    return rounding_ops.is_finite(x) if _is_numeric_float(x) else ones_like(x, dtype="bool")


def isinf(x):
    """Whether each element is +inf or -inf."""
    x = convert(x)
    return rounding_ops.is_inf(x) if _is_numeric_float(x) else zeros_like(x, dtype="bool")


def isnan(x):
    """Whether each element is NaN."""
    x = convert(x)
    return rounding_ops.is_nan(x) if _is_numeric_float(x) else zeros_like(x, dtype="bool")


def isposinf(x):
    """Whether each element is +inf."""
    x = convert(x)
    if not x.dtype.is_floating:
        return zeros_like(x, dtype="bool")
    return math_ops.equal(x, convert(np.inf, x.dtype))


def isneginf(x):
    """Whether each element is -inf."""
    x = convert(x)
    if not x.dtype.is_floating:
        return zeros_like(x, dtype="bool")
    return math_ops.equal(x, convert(-np.inf, x.dtype))


def isreal(x):
    """Whether each element has a zero imaginary part (True for real dtypes)."""
    x = convert(x)
    if x.dtype.is_complex:
        return math_ops.equal(complex_ops.imag(x), 0)
    return ones_like(x, dtype="bool")


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN to `nan`, +inf to `posinf` and -inf to `neginf` (the dtype's largest and smallest
    finite values by default); integer inputs pass through."""
    x = convert(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(standardize_dtype(x.dtype))
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = array_ops.where(rounding_ops.is_nan(x), convert(nan, x.dtype), x)
    x = array_ops.where(math_ops.equal(x, convert(np.inf, x.dtype)), convert(posinf, x.dtype), x)
    return array_ops.where(math_ops.equal(x, convert(-np.inf, x.dtype)),
                           convert(neginf, x.dtype), x)


def clip(x, x_min, x_max):
    """x limited to [x_min, x_max] elementwise (bools count as int32); the gradient passes
    where x is inside the interval."""
    x = convert(x)
    if x.dtype.name == "bool":
        x = cast(x, "int32")
    return math_ops.clip_by_value(x, convert(x_min, x.dtype.name), convert(x_max, x.dtype.name))
