"""Keras 3's activation functions of `keras.ops.nn` over wengert's ops, with the TensorFlow
backend's definitions:

    hard_sigmoid(x) = relu6(x + 3) / 6            hard_silu(x) = x hard_sigmoid(x)
    hard_tanh(x) = clip(x, -1, 1)                 tanh_shrink(x) = x - tanh(x)
    soft_shrink(x, t) = x - t (x > t), x + t (x < -t), 0 otherwise
    hard_shrink(x, t) = x where |x| > t, else 0   threshold(x, t, v) = x where x > t, else v
    sparse_plus(x) = 0 (x <= -1), (x + 1)^2 / 4 (|x| < 1), x (x >= 1)
    sparse_sigmoid(x) = 0 (x <= -1), (x + 1) / 2, 1 (x >= 1)
    squareplus(x, b) = (x + sqrt(x^2 + b)) / 2    celu(x, a) = max(x, 0) + a expm1(min(x, 0) / a)
    elu(x, a) = x (x > 0), a (e^x - 1)            glu(x) = a sigmoid(b), x split in halves (a, b)
    sparsemax(x) = max(x - tau, 0), tau = (sum_{i <= k} c_i - 1) / k, with c the cumulative
        sums of x sorted descending and k the size of the support {i : x_(i) > (c_i - 1) / i}:
        Keras 3's formula on every backend, which equals the simplex projection (whose tau is
        (c_k - 1) / k) when k = 1 and differs from it otherwise
gelu defaults to the tanh approximation, as Keras's does. softmax and log_softmax accept a tuple
of axes (normalising over their product) or None (over every element). Each is written in
wengert's ops, so each is differentiable with the derivative of its pieces (at the kinks, the
one TensorFlow's where/relu/clip rules give).
"""
from ...ops.array_ops import concat, split, where
from ...framework.tensor import constant, is_tensor
from ...ops.cast_ops import cast
from ...ops.broadcast_ops import ones_like, zeros_like
from ...ops.math_ops import clip_by_value, maximum, minimum
from ...ops.misc_math_ops import log_sigmoid as _log_sigmoid, softsign as _softsign
from ...ops.nn import activations as nn
from ...ops.reduce_ops import reduce_sum
from ...ops.reshape_ops import reshape, transpose
from ...ops.scan_ops import cumsum
from ...ops.sort_ops import sort
from ...ops.unary_ops import abs as _abs, expm1, sigmoid as _sigmoid, softplus as _softplus
from ...ops.unary_ops import sqrt, square, tanh as _tanh
from ...ops.creation_ops import range as _range, shape as dynamic_shape
from .core import convert_to_tensor

__all__ = ["relu", "relu6", "sigmoid", "sparse_sigmoid", "tanh_shrink", "softplus",
           "softsign", "soft_shrink", "sparse_plus", "silu", "swish", "squareplus",
           "log_sigmoid", "leaky_relu", "hard_sigmoid", "hard_silu", "hard_swish", "elu", "selu",
           "gelu", "celu", "glu", "hard_tanh", "hard_shrink", "threshold", "softmax",
           "log_softmax", "sparsemax"]


def _const(value, like):
    """`value` in the dtype of `like`; a Python number exactly (a float64 0.2 is not the float32
    one widened)."""
    return cast(value, like.dtype) if is_tensor(value) else constant(value, dtype=like.dtype)


def relu(x):
    return nn.relu(convert_to_tensor(x))


def relu6(x):
    return nn.relu6(convert_to_tensor(x))


def sigmoid(x):
    return _sigmoid(convert_to_tensor(x))


def softplus(x):
    return _softplus(convert_to_tensor(x))


def softsign(x):
    return _softsign(convert_to_tensor(x))


def silu(x):
    return nn.silu(convert_to_tensor(x))


swish = silu


def log_sigmoid(x):
    return _log_sigmoid(convert_to_tensor(x))


def leaky_relu(x, negative_slope=0.2):
    """max(x, negative_slope x); integer inputs become float32 first, as tf.nn's do."""
    x = convert_to_tensor(x)
    if x.dtype.is_integer:
        x = cast(x, "float32")
    return nn.leaky_relu(x, alpha=negative_slope)


def selu(x):
    return nn.selu(convert_to_tensor(x))


def gelu(x, approximate=True):
    return nn.gelu(convert_to_tensor(x), approximate=approximate)


def elu(x, alpha=1.0):
    x = convert_to_tensor(x)
    out = nn.elu(x)
    return out if alpha == 1 else where(x > 0, out, out * _const(alpha, x))


def sparse_sigmoid(x):
    x = convert_to_tensor(x)
    middle = (x + _const(1.0, x)) * _const(0.5, x)
    return where(x <= -1, zeros_like(x), where(x >= 1, ones_like(x), middle))


def tanh_shrink(x):
    x = convert_to_tensor(x)
    return x - _tanh(x)


def soft_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    t = _const(threshold, x)
    return where(x > t, x - t, where(x < -t, x + t, zeros_like(x)))


def sparse_plus(x):
    x = convert_to_tensor(x)
    quadratic = square(x + _const(1.0, x)) * _const(0.25, x)
    return where(x <= -1, zeros_like(x), where(x < 1, quadratic, x))


def squareplus(x, b=4):
    x = convert_to_tensor(x)
    return (x + sqrt(square(x) + _const(b, x))) / _const(2.0, x)


def hard_sigmoid(x):
    x = convert_to_tensor(x)
    return nn.relu6(x + _const(3.0, x)) / _const(6.0, x)


def hard_silu(x):
    x = convert_to_tensor(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def celu(x, alpha=1.0):
    x = convert_to_tensor(x)
    a = _const(alpha, x)
    return maximum(x, _const(0.0, x)) + a * expm1(minimum(x, _const(0.0, x)) / a)


def glu(x, axis=-1):
    """a * sigmoid(b), where (a, b) are the two halves of x along `axis`."""
    x = convert_to_tensor(x)
    if x.shape[axis] is not None and x.shape[axis] % 2 != 0:
        raise ValueError(f"glu: the size of axis {axis} must be divisible by 2; got x.shape="
                         f"{x.shape}.")
    a, b = split(x, 2, axis=axis)
    return a * _sigmoid(b)


def hard_tanh(x):
    x = convert_to_tensor(x)
    return clip_by_value(x, _const(-1.0, x), _const(1.0, x))


def hard_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    return where(_abs(x) > _const(threshold, x), x, zeros_like(x))


def threshold(x, threshold, default_value):
    x = convert_to_tensor(x)
    return where(x > _const(threshold, x), x, _const(default_value, x) + zeros_like(x))


def _over_axes(fn, x, axis):
    """fn (a last-axis normaliser) over the tuple of axes `axis`: those axes are moved last and
    flattened into one, then put back."""
    rank = x.shape.rank
    axes = [a % rank for a in axis]
    keep = [a for a in range(rank) if a not in axes]
    order = keep + axes
    moved = transpose(x, order)
    flat = reshape(moved, concat([dynamic_shape(moved)[:len(keep)], [-1]], 0))
    out = reshape(fn(flat, axis=-1), dynamic_shape(moved))
    return transpose(out, sorted(range(rank), key=order.__getitem__))


def _normaliser(fn, x, axis):
    x = convert_to_tensor(x)
    if axis is None:
        return reshape(fn(reshape(x, [-1]), axis=-1), dynamic_shape(x))
    if isinstance(axis, (tuple, list)):
        return _over_axes(fn, x, axis)
    return fn(x, axis=axis)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over `axis` (an int, a tuple of axes, or None for all)."""
    return _normaliser(nn.softmax, x, axis)


def log_softmax(x, axis=-1):
    """x - logsumexp(x) over `axis` (an int, a tuple of axes, or None for all)."""
    return _normaliser(nn.log_softmax, x, axis)


def sparsemax(x, axis=-1):
    """Keras's sparsemax of x along `axis` (see the module docstring)."""
    x = convert_to_tensor(x)
    ordered = sort(x, axis=axis, direction="DESCENDING")
    running = cumsum(ordered, axis=axis)
    k = cast(_range(1, dynamic_shape(x)[axis] + 1), x.dtype)
    shape = [1] * x.shape.rank
    shape[axis] = -1
    k = reshape(k, shape)
    support = ordered - (running - _const(1.0, x)) / k > 0
    count = reduce_sum(cast(support, x.dtype), axis=axis, keepdims=True)
    kept = where(support, running, zeros_like(running))
    tau = (reduce_sum(kept, axis=axis, keepdims=True) - _const(1.0, x)) / count
    return maximum(x - tau, _const(0.0, x))
