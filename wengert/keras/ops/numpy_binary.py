"""Keras 3's elementwise functions of two tensors: arithmetic, comparisons, logic and bits.

Both operands are first brought to one dtype by Keras's promotion (dtypes.py), then handed to
the wengert op of the same math, which broadcasts them NumPy-style. The arithmetic functions
(`add`, `subtract`, `multiply`, `maximum`, `minimum`, `power`, `floor_divide`, `divide`, `fmax`,
`fmin`) treat Python scalars as weakly typed (`int8 + 3` stays int8); the others convert a
scalar to a tensor first (int32, float32), as Keras's TensorFlow backend does. `divide`,
`arctan2`, `logaddexp` and `ldexp` add a weak float to the promotion, so integers divide to
floatx. Gradients are the ops' own; the formulas below are built from differentiable ops:

    hypot(a, b) = M sqrt(1 + (m / M)^2) with M = max(|a|, |b|), m = min(|a|, |b|)
    logaddexp(a, b) = max(a, b) + log1p(exp(-|a - b|))        fmod(a, b) = sign(a) (|a| mod |b|)
    heaviside(a, b) = 0 if a < 0, 1 if a > 0, b if a == 0      ldexp(a, n) = a 2^n
    isclose(a, b) = |a - b| <= atol + rtol |b|
"""
import math

from ...control_flow.while_loop import while_loop
from ...ops import array_ops, binary_math_ops, bitwise_ops, complex_ops, math_ops
from ...ops import reduce_ops, rounding_ops, trig_ops, unary_ops
from ...ops.broadcast_ops import broadcast_to, ones_like, zeros_like
from ...ops.cast_ops import cast
from ...ops.query_ops import shape
from ...ops.reshape_ops import expand_dims, reshape
from ...ops.shape_ops import broadcast_dynamic_shape
from ...ops.sort_ops import unique
from .. import backend
from .dtypes import convert, dtype_of, promote, result_type, shared_dtype

__all__ = ["add", "subtract", "multiply", "divide", "true_divide", "divide_no_nan", "power",
           "floor_divide", "mod", "fmod", "maximum", "minimum", "fmax", "fmin", "arctan2",
           "hypot", "heaviside", "logaddexp", "logaddexp2", "ldexp", "nextafter", "gcd", "lcm",
           "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
           "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift", "left_shift", "right_shift", "isclose", "allclose", "isin"]

_SMALL_INTS = ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32")


def _strong(x1, x2, *extra):
    """Both operands as tensors (scalars converted first), promoted to their Keras result type."""
    if not extra and shared_dtype(x1, x2):
        return x1, x2
    x1, x2 = convert(x1), convert(x2)
    return promote(x1, x2, dtype=result_type(x1.dtype.name, x2.dtype.name, *extra))


def _weak(x1, x2, *extra):
    """Both operands promoted with Python scalars weakly typed."""
    if not extra and shared_dtype(x1, x2):
        return x1, x2
    return promote(x1, x2, dtype=result_type(dtype_of(x1), dtype_of(x2), *extra))


def add(x1, x2):
    """x1 + x2, elementwise with broadcasting."""
    return math_ops.add(*_weak(x1, x2))


def subtract(x1, x2):
    """x1 - x2, elementwise with broadcasting."""
    return math_ops.subtract(*_weak(x1, x2))


def multiply(x1, x2):
    """x1 * x2, elementwise with broadcasting."""
    return math_ops.multiply(*_weak(x1, x2))


def divide(x1, x2):
    """x1 / x2 as a float tensor (integers divide to floatx)."""
    return math_ops.divide(*_weak(x1, x2, float))


true_divide = divide


def divide_no_nan(x1, x2):
    """x1 / x2, with 0 where x2 is 0."""
    return binary_math_ops.divide_no_nan(*_weak(x1, x2, float))


def power(x1, x2):
    """x1 ** x2, elementwise (unsigned integers compute in int32)."""
    dtype = result_type(dtype_of(x1), dtype_of(x2))
    if dtype.startswith("uint"):
        return cast(math_ops.pow(*promote(x1, x2, dtype="int32")), dtype)
    return math_ops.pow(*promote(x1, x2, dtype=dtype))


def floor_divide(x1, x2):
    """floor(x1 / x2), in the promoted dtype."""
    return math_ops.floordiv(*_weak(x1, x2))


def mod(x1, x2):
    """x1 mod x2 with the sign of x2 (Python's %); bools count as int32."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    return math_ops.floormod(*promote(x1, x2, dtype="int32" if dtype == "bool" else dtype))


def fmod(x1, x2):
    """C's fmod: the remainder of x1 / x2 with the sign of x1."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    dtype = "int32" if dtype == "bool" else dtype
    compute = "int32" if dtype in ("uint8", "uint16", "uint32") else dtype
    x1, x2 = promote(x1, x2, dtype=compute)
    rem = math_ops.floormod(complex_ops.abs(x1), complex_ops.abs(x2))
    return cast(math_ops.multiply(unary_ops.sign(x1), rem), dtype)


def maximum(x1, x2):
    """The elementwise larger of x1 and x2 (NaN wins)."""
    return math_ops.maximum(*_weak(x1, x2))


def minimum(x1, x2):
    """The elementwise smaller of x1 and x2 (NaN wins)."""
    return math_ops.minimum(*_weak(x1, x2))


def _nan_ignoring(op, x1, x2):
    x1, x2 = _weak(x1, x2)
    out = op(x1, x2)
    if "float" not in x1.dtype.name:
        return out
    nan1, nan2 = rounding_ops.is_nan(x1), rounding_ops.is_nan(x2)
    out = array_ops.where(math_ops.logical_and(nan1, math_ops.logical_not(nan2)), x2, out)
    return array_ops.where(math_ops.logical_and(nan2, math_ops.logical_not(nan1)), x1, out)


def fmax(x1, x2):
    """The elementwise larger of x1 and x2, ignoring a NaN on one side."""
    return _nan_ignoring(math_ops.maximum, x1, x2)


def fmin(x1, x2):
    """The elementwise smaller of x1 and x2, ignoring a NaN on one side."""
    return _nan_ignoring(math_ops.minimum, x1, x2)


def arctan2(x1, x2):
    """The angle of the point (x2, x1), in (-pi, pi]."""
    return trig_ops.atan2(*_strong(x1, x2, float))


def _float_pair(x1, x2):
    """Both operands in the float type hypot and heaviside use (int64 pairs give float64)."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    if dtype in _SMALL_INTS[1:]:
        dtype = backend.floatx()
    elif dtype == "int64":
        dtype = "float64"
    return promote(x1, x2, dtype=dtype)


def hypot(x1, x2):
    """sqrt(x1^2 + x2^2), without overflow in the squares."""
    x1, x2 = _float_pair(x1, x2)
    a1, a2 = complex_ops.abs(x1), complex_ops.abs(x2)
    big, small = math_ops.maximum(a1, a2), math_ops.minimum(a1, a2)
    ratio = binary_math_ops.divide_no_nan(small, big)
    return math_ops.multiply(big, unary_ops.sqrt(math_ops.add(convert(1.0, ratio.dtype), unary_ops.square(ratio))))


def heaviside(x1, x2):
    """The Heaviside step of x1, taking the value x2 at 0."""
    x1, x2 = _float_pair(x1, x2)
    x1, x2 = x1 + zeros_like(x2), x2 + zeros_like(x1)
    step = array_ops.where(math_ops.greater(x1, 0), ones_like(x1), x2)
    return array_ops.where(math_ops.less(x1, 0), zeros_like(x1), step)


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)), computed without overflow."""
    x1, x2 = _strong(x1, x2, float)
    delta = math_ops.subtract(x1, x2)
    stable = math_ops.add(math_ops.maximum(x1, x2),
                          unary_ops.log1p(unary_ops.exp(math_ops.negative(complex_ops.abs(delta)))))
    return array_ops.where(rounding_ops.is_nan(delta), math_ops.add(x1, x2), stable)


def logaddexp2(x1, x2):
    """log2(2^x1 + 2^x2), computed without overflow."""
    x1, x2 = _strong(x1, x2, float)
    delta = math_ops.subtract(x1, x2)
    ln2 = convert(math.log(2.0), x1.dtype)
    tail = unary_ops.log1p(unary_ops.exp(math_ops.multiply(
        math_ops.negative(complex_ops.abs(delta)), ln2)))
    stable = math_ops.add(math_ops.maximum(x1, x2), math_ops.divide(tail, ln2))
    return array_ops.where(rounding_ops.is_nan(delta), math_ops.add(x1, x2), stable)


def ldexp(x1, x2):
    """x1 * 2 ** x2 for an integer exponent x2."""
    x1, x2 = convert(x1), convert(x2)
    if not x2.dtype.is_integer:
        raise TypeError(f"keras.ops.ldexp: the exponent x2 must have an integer dtype; got "
                        f"{x2.dtype.name}. Cast it with keras.ops.cast(x2, 'int32').")
    dtype = result_type(x1.dtype.name, x2.dtype.name, float)
    x1, exponent = cast(x1, dtype), cast(x2, dtype)
    scaled = math_ops.multiply(x1, math_ops.pow(convert(2.0, dtype), exponent))
    keep = math_ops.logical_or(rounding_ops.is_inf(x1), math_ops.equal(x1, 0))
    return array_ops.where(keep, x1 + zeros_like(scaled), scaled)


def nextafter(x1, x2):
    """The next representable float after x1 toward x2 (computed in float64)."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name, float)
    return cast(rounding_ops.nextafter(cast(x1, "float64"), cast(x2, "float64")), dtype)


def _int_pair(name, x1, x2):
    x1, x2 = convert(x1), convert(x2)
    if not (x1.dtype.is_integer and x2.dtype.is_integer):
        raise TypeError(f"keras.ops.{name}: both arguments must have integer dtypes; got "
                        f"{x1.dtype.name} and {x2.dtype.name}.")
    x1, x2 = promote(x1, x2, dtype=result_type(x1.dtype.name, x2.dtype.name))
    target = broadcast_dynamic_shape(shape(x1), shape(x2))
    x1, x2 = broadcast_to(x1, target), broadcast_to(x2, target)
    if not x1.dtype.name.startswith("uint"):
        x1, x2 = complex_ops.abs(x1), complex_ops.abs(x2)
    return x1, x2


def _euclid(a, b):
    def cond(a, b):
        return reduce_ops.reduce_any(math_ops.not_equal(b, 0))

    def body(a, b):
        nonzero = math_ops.not_equal(b, 0)
        safe = array_ops.where(nonzero, b, ones_like(b))
        return (array_ops.where(nonzero, b, a),
                array_ops.where(nonzero, math_ops.floormod(a, safe), zeros_like(b)))
    return while_loop(cond, body, [a, b])[0]


def gcd(x1, x2):
    """The greatest common divisor of |x1| and |x2| (Euclid's algorithm)."""
    return _euclid(*_int_pair("gcd", x1, x2))


def lcm(x1, x2):
    """The least common multiple of |x1| and |x2| (0 where either is 0)."""
    x1, x2 = _int_pair("lcm", x1, x2)
    divisor = _euclid(x1, x2)
    zero = math_ops.equal(divisor, 0)
    safe = array_ops.where(zero, ones_like(divisor), divisor)
    out = math_ops.multiply(x1, math_ops.floordiv(x2, safe))
    return array_ops.where(zero, zeros_like(out), out)


def _comparison(op, doc):
    def fn(x1, x2):
        return op(*_strong(x1, x2))
    fn.__doc__ = doc
    return fn


equal = _comparison(math_ops.equal, "Elementwise x1 == x2, after promotion.")
not_equal = _comparison(math_ops.not_equal, "Elementwise x1 != x2, after promotion.")
greater = _comparison(math_ops.greater, "Elementwise x1 > x2, after promotion.")
greater_equal = _comparison(math_ops.greater_equal, "Elementwise x1 >= x2, after promotion.")
less = _comparison(math_ops.less, "Elementwise x1 < x2, after promotion.")
less_equal = _comparison(math_ops.less_equal, "Elementwise x1 <= x2, after promotion.")


def _logical(op, doc):
    def fn(x1, x2):
        return op(convert(x1, "bool"), convert(x2, "bool"))
    fn.__doc__ = doc
    return fn


logical_and = _logical(math_ops.logical_and, "Elementwise truth of x1 and x2.")
logical_or = _logical(math_ops.logical_or, "Elementwise truth of x1 or x2.")
logical_xor = _logical(math_ops.logical_xor, "Elementwise truth of x1 xor x2.")


def logical_not(x):
    """Elementwise truth of not x."""
    return math_ops.logical_not(convert(x, "bool"))


def bitwise_and(x, y):
    """Bitwise AND of integer tensors, after promotion."""
    return bitwise_ops.bitwise_and(*_strong(x, y))


def bitwise_or(x, y):
    """Bitwise OR of integer tensors, after promotion."""
    return bitwise_ops.bitwise_or(*_strong(x, y))


def bitwise_xor(x, y):
    """Bitwise XOR of integer tensors, after promotion."""
    return bitwise_ops.bitwise_xor(*_strong(x, y))


def bitwise_invert(x):
    """Bitwise NOT of an integer tensor."""
    return bitwise_ops.invert(convert(x))


bitwise_not = bitwise_invert


def _shift(op, x, y):
    x = convert(x)
    if isinstance(y, int):
        return op(x, convert(y, x.dtype.name))
    return op(*_strong(x, y))


def bitwise_left_shift(x, y):
    """x shifted left by y bits."""
    return _shift(bitwise_ops.left_shift, x, y)


def bitwise_right_shift(x, y):
    """x shifted right by y bits (arithmetic shift for signed integers)."""
    return _shift(bitwise_ops.right_shift, x, y)


left_shift = bitwise_left_shift
right_shift = bitwise_right_shift


def isclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether |x1 - x2| <= atol + rtol |x2|, elementwise (exact equality for integers)."""
    x1, x2 = _strong(x1, x2)
    if "float" not in x1.dtype.name:
        return math_ops.equal(x1, x2)
    gap = complex_ops.abs(math_ops.subtract(x1, x2))
    bound = math_ops.add(convert(atol, x1.dtype),
                         math_ops.multiply(convert(rtol, x1.dtype), complex_ops.abs(x2)))
    out = math_ops.less_equal(gap, bound)
    if equal_nan:
        both = math_ops.logical_and(rounding_ops.is_nan(x1), rounding_ops.is_nan(x2))
        out = math_ops.logical_or(out, both)
    return out


def allclose(x1, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every pair of elements is close (infinities must be equal)."""
    x1, x2 = _strong(x1, x2)
    if "float" not in x1.dtype.name:
        return reduce_ops.reduce_all(math_ops.equal(x1, x2))
    finite = math_ops.logical_and(rounding_ops.is_finite(x1), rounding_ops.is_finite(x2))
    close = math_ops.logical_and(finite, isclose(x1, x2, rtol, atol))
    out = math_ops.logical_or(close, math_ops.equal(x1, x2))
    if equal_nan:
        both = math_ops.logical_and(rounding_ops.is_nan(x1), rounding_ops.is_nan(x2))
        out = math_ops.logical_or(out, both)
    return reduce_ops.reduce_all(out)


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each element of x1 occurs in x2, in x1's shape."""
    x1, x2 = _strong(x1, x2)
    flat1, flat2 = reshape(x1, [-1]), reshape(x2, [-1])
    if not assume_unique:
        flat2 = unique(flat2)[0]
    hits = math_ops.equal(expand_dims(flat1, 1), expand_dims(flat2, 0))
    found = reduce_ops.reduce_any(hits, axis=1)
    if invert:
        found = math_ops.logical_not(found)
    return reshape(found, shape(x1))
