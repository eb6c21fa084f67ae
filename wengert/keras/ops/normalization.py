"""Keras 3's normalisations of `keras.ops.nn` (`moments`, `batch_normalization`,
`layer_normalization`, `rms_normalization`, `normalize`) over wengert's ops.

    moments(x, axes) = (mean, variance) over axes (float16 / bfloat16 reduced in float32)
    batch_normalization(x, m, v, axis) = (x - m) scale / sqrt(v + eps) + offset, the statistics
        laid along `axis`
    layer_normalization(x, gamma, beta, axis) = (x - mean) gamma / sqrt(var + eps) + beta over
        `axis` (eps defaults to backend.epsilon(), computed in at least float32); with Keras's
        deprecated rms_scaling=True, x gamma / sqrt(var + eps)
    rms_normalization(x, scale, axis) = x scale / sqrt(mean(x^2) + eps)
    normalize(x, axis, order) = x / max(||x||_order, eps); for order 2, x min(1 / ||x||, 1 / eps)
"""
import warnings

from ...distribute.context import get_replica_context
from ...ops.reshape_ops import squeeze
from ...ops.broadcast_ops import ones_like
from ...ops.cast_ops import cast
from ...ops.linalg.norms import norm
from ...ops.math_ops import maximum, minimum
from ...ops.nn.batch_norm import batch_normalization as _batch_norm, moments as _moments
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims, reshape
from ...ops.unary_ops import rsqrt, square
from .. import backend
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["moments", "batch_normalization", "layer_normalization", "rms_normalization",
           "normalize"]


def _synchronized_moments(x, axes, keepdims):
    axes = [axes] if isinstance(axes, int) else list(axes)
    totals = [reduce_sum(x, axis=axes, keepdims=True),
              reduce_sum(square(x), axis=axes, keepdims=True),
              reduce_sum(ones_like(x), axis=axes, keepdims=True)]
    context = get_replica_context()
    if context is not None and context.num_replicas_in_sync > 1:
        totals = context.all_reduce("sum", totals)
    mean = totals[0] / totals[2]
    variance = maximum(totals[1] / totals[2] - square(mean), 0.0)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return mean, variance


def moments(x, axes, keepdims=False, synchronized=False):
    """(mean, variance) of x over `axes`. With `synchronized`, as Keras's TensorFlow backend:
    the sums of x and x**2 and the counts are summed over the replicas of the replica context
    (one replica outside a strategy), and variance = max(E[x**2] - mean**2, 0)."""
    x = convert_to_tensor(x)
    dtype = x.dtype.name
    if dtype in ("float16", "bfloat16"):
        x = cast(x, "float32")
    if synchronized:
        mean, variance = _synchronized_moments(x, axes, keepdims)
    else:
        mean, variance = _moments(x, axes, keepdims=keepdims)
    if dtype in ("float16", "bfloat16"):
        limit = 65504.0
        mean = cast(minimum(maximum(mean, -limit), limit), dtype)
        variance = cast(minimum(variance, limit), dtype)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """x normalised by per-channel statistics laid along `axis`."""
    x = convert_to_tensor(x)
    mean, variance = convert_to_tensor(mean), convert_to_tensor(variance)
    if axis != -1 and axis != x.shape.rank - 1:
        shape = [1] * x.shape.rank
        shape[axis] = -1

        def laid(v):
            return None if v is None else reshape(convert_to_tensor(v), shape)
        mean, variance, offset, scale = laid(mean), laid(variance), laid(offset), laid(scale)
    return _batch_norm(x, mean, variance, offset, scale, epsilon)


def _compute(x):
    x = convert_to_tensor(x)
    return x, x.dtype.name, result_type(x.dtype.name, "float32")


def _broadcast(v, x, axes):
    """gamma or beta (holding the normalised axes' entries) reshaped to broadcast against x."""
    if v is None:
        return None
    v = convert_to_tensor(v, x.dtype)
    rank = x.shape.rank
    if v.shape.rank == rank or axes == [rank - 1]:
        return v
    dims = x.shape.as_list()
    return reshape(v, [(-1 if dims[a] is None else dims[a]) if a in axes else 1
                       for a in range(rank)])


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """(x - mean) / sqrt(variance + epsilon) * gamma + beta, statistics over `axis`."""
    rms_scaling = kwargs.pop("rms_scaling", False)
    if rms_scaling:
        warnings.warn("layer_normalization: rms_scaling=True is deprecated (it scales by the "
                      "variance, not the root mean square); use rms_normalization.",
                      stacklevel=2)
    if kwargs:
        raise TypeError(f"layer_normalization: unexpected arguments {sorted(kwargs)}.")
    epsilon = backend.epsilon() if epsilon is None else epsilon
    x, original, compute = _compute(x)
    x = cast(x, compute)
    rank = x.shape.rank
    axes = sorted(a % rank for a in ([axis] if isinstance(axis, int) else axis))
    mean, variance = _moments(x, axes, keepdims=True)
    inv = rsqrt(variance + cast(epsilon, compute))
    gamma, beta = _broadcast(gamma, x, axes), _broadcast(beta, x, axes)
    if rms_scaling:
        return cast(x * inv if gamma is None else x * inv * gamma, original)
    if gamma is not None:
        inv = inv * gamma
    shift = -mean * inv
    if beta is not None:
        shift = shift + beta
    return cast(x * inv + shift, original)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x^2 over axis) + epsilon) * scale."""
    epsilon = backend.epsilon() if epsilon is None else epsilon
    x, original, compute = _compute(x)
    x = cast(x, compute)
    if x.shape.rank == 0:
        x = expand_dims(x, 0)
    axes = sorted(axis) if isinstance(axis, (tuple, list)) else axis
    out = x * rsqrt(reduce_mean(square(x), axis=axes, keepdims=True) + cast(epsilon, compute))
    if scale is not None:
        out = out * convert_to_tensor(scale, compute)
    return cast(out, original)


def normalize(x, axis=-1, order=2, epsilon=None):
    """x divided by its `order`-norm along `axis` (at least epsilon)."""
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"normalize: order must be an int >= 1; got {order!r}.")
    x = convert_to_tensor(x)
    if x.shape.rank == 0:
        x = expand_dims(x, 0)
    epsilon = backend.epsilon() if epsilon is None else epsilon
    if order == 2:
        inv = rsqrt(reduce_sum(square(x), axis=axis, keepdims=True))
        return x * minimum(inv, cast(1.0 / epsilon, x.dtype))
    return x / maximum(norm(x, ord=order, axis=axis, keepdims=True), cast(epsilon, x.dtype))
