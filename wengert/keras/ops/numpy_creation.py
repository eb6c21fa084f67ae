"""Keras 3's array constructors: ranges, filled arrays, identity and triangular matrices, and the
classic window functions.

Without a dtype, `arange` takes the Keras result type of its arguments (Python ints give int32,
a Python float float32), `linspace`/`logspace` a float one, and `zeros`, `ones`, `full`, `eye`,
`tri` floatx. The `*_like` functions keep x's dtype unless told otherwise.

    linspace(a, b, n) = a + (b - a) k / (n - 1)      logspace = base ** linspace
    geomspace(a, b, n) = sign(a) 10 ** linspace(log10 |a|, log10 |b|, n)
    bartlett(M) = 1 - |2k / (M - 1) - 1|
    blackman(M) = 0.42 - 0.5 cos(2 pi k / (M - 1)) + 0.08 cos(4 pi k / (M - 1))
    hamming(M) = 0.54 - 0.46 cos(2 pi k / (M - 1))      hanning(M) = 0.5 - 0.5 cos(...)
    kaiser(M, beta) = I0(beta sqrt(1 - (2k / (M - 1) - 1)^2)) / I0(beta)
"""
import numpy as np

from ...ops import complex_ops, math_ops, unary_ops
from ...ops.broadcast_ops import broadcast_to
from ...ops.cast_ops import cast
from ...ops.creation_ops import eye as tf_eye, ones as tf_ones, range as tf_range
from ...ops.creation_ops import zeros as tf_zeros
from ...ops.pad_ops import pad
from ...ops.query_ops import shape as tf_shape
from ...ops.rounding_ops import floor
from ...ops.shape_ops import linspace as tf_linspace
from ...ops.signal.windows import hamming_window, hann_window, kaiser_window
from .. import backend
from .dtypes import convert, dtype_of, result_type, standardize_dtype

__all__ = ["arange", "linspace", "logspace", "geomspace", "zeros", "ones", "empty", "full",
           "zeros_like", "ones_like", "empty_like", "full_like", "eye", "identity", "tri",
           "array", "bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _dtype(dtype):
    return backend.floatx() if dtype is None else standardize_dtype(dtype)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop) (in [0, start) when stop is None)."""
    if dtype is None:
        dtype = result_type(*(dtype_of(v) for v in (start, stop, step) if v is not None))
    dtype = standardize_dtype(dtype)
    step = 1 if step is None else step
    if stop is None:
        start, stop = 0, start
    compute = dtype if dtype in ("int32", "int64", "float32", "float64", "float16") \
        else "float64"
    out = tf_range(convert(start, compute), convert(stop, compute), convert(step, compute),
                   dtype=compute)
    return cast(out, dtype) if compute != dtype else out


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from start to stop (stop excluded unless endpoint)."""
    if num < 0:
        raise ValueError(f"keras.ops.linspace: num must be a non-negative integer; got {num}.")
    if dtype is None:
        dtype = result_type(dtype_of(start), dtype_of(stop), float)
    dtype = standardize_dtype(dtype)
    compute = dtype if "float" in dtype else result_type(dtype, float)
    start, stop = convert(start, compute), convert(stop, compute)
    count = convert(num, compute)
    intervals = math_ops.subtract(count, 1.0) if endpoint else count
    step = math_ops.divide(math_ops.subtract(stop, start), intervals) if num > int(endpoint) \
        else convert(np.nan, compute)
    end = stop if endpoint or num <= 1 else math_ops.subtract(stop, step)
    out = tf_linspace(start, end, num, axis=axis)
    if "int" in dtype:
        out = cast(floor(out), dtype)
    elif out.dtype.name != dtype:
        out = cast(out, dtype)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """base ** linspace(start, stop, num)."""
    exponent = linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    return math_ops.pow(convert(base, exponent.dtype), exponent)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values from start to stop spaced evenly on a log scale."""
    start, stop = convert(start), convert(stop)
    compute = _dtype(dtype)
    ln10 = convert(np.log(10.0), compute)
    log_start = math_ops.divide(unary_ops.log(cast(complex_ops.abs(start), compute)), ln10)
    log_stop = math_ops.divide(unary_ops.log(cast(complex_ops.abs(stop), compute)), ln10)
    out = logspace(log_start, log_stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    return math_ops.multiply(out, cast(unary_ops.sign(cast(start, compute)), out.dtype))


def zeros(shape, dtype=None):
    """A tensor of zeros (floatx by default)."""
    return tf_zeros(shape, dtype=_dtype(dtype))


def ones(shape, dtype=None):
    """A tensor of ones (floatx by default)."""
    return tf_ones(shape, dtype=_dtype(dtype))


def empty(shape, dtype=None):
    """An uninitialised tensor, which here is a tensor of zeros."""
    return zeros(shape, dtype=dtype)


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with fill_value (which may itself broadcast)."""
    return broadcast_to(convert(fill_value, _dtype(dtype)), shape)


def _like_dtype(x, dtype):
    return x.dtype.name if dtype is None else standardize_dtype(dtype)


def zeros_like(x, dtype=None):
    """Zeros in x's shape (and dtype unless given)."""
    x = convert(x)
    return tf_zeros(tf_shape(x), dtype=_like_dtype(x, dtype))


def ones_like(x, dtype=None):
    """Ones in x's shape (and dtype unless given)."""
    x = convert(x)
    return tf_ones(tf_shape(x), dtype=_like_dtype(x, dtype))


def empty_like(x, dtype=None):
    """An uninitialised tensor in x's shape, which here is zeros."""
    return zeros_like(x, dtype=dtype)


def full_like(x, fill_value, dtype=None):
    """fill_value broadcast to x's shape, in x's dtype unless given."""
    x = convert(x)
    return broadcast_to(convert(fill_value, _like_dtype(x, dtype)), tf_shape(x))


def eye(N, M=None, k=0, dtype=None):
    """An N x M matrix with ones on the k-th diagonal."""
    if isinstance(N, float) or isinstance(M, float):
        raise TypeError(f"keras.ops.eye: N and M must be integers; got N={N!r}, M={M!r}.")
    dtype = _dtype(dtype)
    M = N if M is None else M
    if k == 0:
        return tf_eye(N, M, dtype=dtype)
    size = max(min(M - k, N + k), 0)
    paddings = [[max(-k, 0), max(N - M + k, 0)], [max(k, 0), max(M - N - k, 0)]]
    return pad(tf_eye(size, dtype=dtype), paddings) if size else tf_zeros([N, M], dtype=dtype)


def identity(n, dtype=None):
    """The n x n identity matrix."""
    return eye(n, n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    """An N x M matrix with ones at and below the k-th diagonal."""
    M = N if M is None else M
    dtype = _dtype(dtype)
    rows = cast(tf_range(N), "int32")[:, None]
    cols = cast(tf_range(M), "int32")[None, :]
    return cast(math_ops.less_equal(math_ops.subtract(cols, rows), k), dtype)


def array(x, dtype=None):
    """x as a tensor, of `dtype` if given."""
    return convert(x, dtype)


def _window_positions(x):
    size = int(x)
    return size, tf_range(size, dtype=backend.floatx())


def bartlett(x):
    """The triangular (Bartlett) window of x points."""
    size, n = _window_positions(x)
    if size <= 1:
        return tf_ones([size], dtype=backend.floatx())
    return math_ops.subtract(1.0, complex_ops.abs(math_ops.subtract(
        math_ops.divide(math_ops.multiply(n, 2.0), float(size - 1)), 1.0)))


def blackman(x):
    """The Blackman window of x points."""
    size, n = _window_positions(x)
    if size <= 1:
        return tf_ones([size], dtype=backend.floatx())
    phase = math_ops.divide(math_ops.multiply(n, 2.0 * np.pi), float(size - 1))
    return math_ops.add(math_ops.subtract(0.42, math_ops.multiply(0.5, unary_ops.cos(phase))),
                        math_ops.multiply(0.08, unary_ops.cos(math_ops.multiply(phase, 2.0))))


def hamming(x):
    """The (symmetric) Hamming window of x points."""
    return hamming_window(int(x), periodic=False)


def hanning(x):
    """The (symmetric) Hann window of x points."""
    return hann_window(int(x), periodic=False)


def kaiser(x, beta):
    """The Kaiser window of x points with shape parameter beta."""
    return kaiser_window(int(x), beta=beta)
