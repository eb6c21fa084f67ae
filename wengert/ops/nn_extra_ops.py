"""More of `tf.nn`: local response normalization (one op, LRN, with TensorFlow's LRNGrad) and
compositions of other ops: crelu, log_poisson_loss, weighted_cross_entropy_with_logits, the
moments helpers (sufficient_statistics, normalize_moments, weighted_moments),
batch_norm_with_global_normalization, zero_fraction, approx_max_k / approx_min_k.

LRN over the last (channel) axis, with radius r, bias k, alpha a and beta b:

    N[d] = k + a * sum_{|d' - d| <= r} x[d']^2,     y[d] = x[d] * N[d]^-b

    dx[d] = g[d] N[d]^-b - 2ab x[d] sum_{|d' - d| <= r} g[d'] x[d'] N[d']^(-b-1)   (LRNGrad)
    dy[d] = t[d] N[d]^-b - 2ab x[d] N[d]^(-b-1) sum_{|d' - d| <= r} x[d'] t[d']   (the JVP)

The window sums run over the channels inside the array (the window is cut at both ends).
TensorFlow registers no gradient for LRNGrad, and neither does wengert.

weighted_cross_entropy_with_logits is TensorFlow's stable form of
-(q * labels * log(sigmoid(x)) + (1 - labels) * log(1 - sigmoid(x))) with l = 1 + (q - 1) labels:
(1 - labels) x + l (log1p(exp(-|x|)) + max(-x, 0)). log_poisson_loss is exp(c) - c * z, plus
Stirling's z log z - z + log(2 pi z) / 2 for z > 1 when compute_full_loss. sufficient_statistics
gives (count, sum(x - shift), sum((x - shift)^2), shift) and normalize_moments turns them into
(mean, variance); weighted_moments divides frequency-weighted sums by the summed weights.
approx_max_k / approx_min_k are exact here (top_k), which TensorFlow's documentation permits.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from . import shapes
from .array_core import cast, zeros_like
from .array_ops import concat, squeeze, transpose, where
from .binary_math_ops import reciprocal_no_nan, squared_difference
from .creation_ops import pad, shape as shape_of
from .indexing_ops import gather
from .math_ops import add, equal, negative, subtract
from .nn_ops import relu
from .norm_ops import batch_normalization
from .reduce_ops import reduce_mean, reduce_prod, reduce_sum
from .sort_ops import top_k
from .unary_ops import abs as abs_, exp, log, log1p, square

__all__ = ["local_response_normalization", "lrn", "crelu", "log_poisson_loss",
           "weighted_cross_entropy_with_logits", "sufficient_statistics", "normalize_moments",
           "weighted_moments", "batch_norm_with_global_normalization", "zero_fraction",
           "approx_max_k", "approx_min_k"]


# -- LRN --------------------------------------------------------------------------------------------
def _window_sum(a, radius):
    """sum_{|d' - d| <= radius} a[..., d'] (zeros beyond the ends), NumPy."""
    padded = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(radius, radius)])
    c = a.shape[-1]
    total = padded[..., 0:c].copy()
    for k in range(1, 2 * radius + 1):
        total += padded[..., k:k + c]
    return total


def _norm(x, depth_radius, bias, alpha):
    return bias + alpha * _window_sum(x * x, depth_radius)


def _lrn_kernel(x, depth_radius, bias, alpha, beta):
    return (x * _norm(x, depth_radius, bias, alpha) ** -beta).astype(x.dtype)


def _lrn_grad_kernel(g, x, y, depth_radius, bias, alpha, beta):
    norm = _norm(x, depth_radius, bias, alpha)
    inner = _window_sum(g * y / norm, depth_radius)  # y / N = x N^(-b-1)
    return (g * norm ** -beta - 2 * alpha * beta * x * inner).astype(g.dtype)


def _window_sum_op(t, radius):
    """The same window sum in wengert ops (for the JVP, so it differentiates again)."""
    rank = t.shape.rank
    padded = pad(t, [[0, 0]] * (rank - 1) + [[radius, radius]])
    head = (slice(None),) * (rank - 1)
    parts = [padded[head + (slice(k, k - 2 * radius if k < 2 * radius else None),)]
             for k in range(2 * radius + 1)]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _lrn_jvp(primals, tangents, outputs, depth_radius, bias, alpha, beta):
    x, t = primals[0], tangents[0]
    if t is None:
        return None
    norm = bias + alpha * _window_sum_op(square(x), depth_radius)
    y = outputs[0]
    return t * norm ** -beta - (2 * alpha * beta) * (y / norm) * _window_sum_op(x * t,
                                                                               depth_radius)


def _lrn_rule(x, depth_radius, **_):
    shapes.check_float(x)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise InvalidArgumentError(f"input must have rank 4 [batch, height, width, channels], "
                                   f"got shape {x.shape}.")
    return x.shape, x.dtype


def _lrn_grad_rule(g, x, y, **_):
    shapes.check_same_dtype(g, x, y)
    if not (g.shape.is_compatible_with(x.shape) and y.shape.is_compatible_with(x.shape)):
        raise InvalidArgumentError(f"input_grads {g.shape}, input_image {x.shape} and "
                                   f"output_image {y.shape} must have one shape.")
    return x.shape, x.dtype


LRN_GRAD = defop("LRNGrad", _lrn_grad_kernel, shape=_lrn_grad_rule, grad=None)
LRN = defop("LRN", _lrn_kernel, shape=_lrn_rule, jvp=_lrn_jvp,
            grad=lambda op, g: execute(LRN_GRAD, (g, op.inputs[0], op.outputs[0]), op.attrs))


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,  # noqa: A002
                                 name=None):
    """x / (bias + alpha * sum of x^2 over the 2*depth_radius + 1 nearest channels)^beta, for
    a [batch, height, width, channels] input."""
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f"local_response_normalization: input must be floating-point, got "
                        f"{x.dtype.name}.")
    if int(depth_radius) < 0:
        raise ValueError(f"local_response_normalization: depth_radius must be >= 0, got "
                         f"{depth_radius}.")
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha),
             "beta": float(beta)}
    _lrn_rule(x, **attrs)
    return execute(LRN, (x,), attrs, name)


lrn = local_response_normalization


# -- compositions -----------------------------------------------------------------------------------
def crelu(features, axis=-1, name=None):
    """concat([relu(x), relu(-x)], axis): the positive and the negative part, side by side."""
    x = convert_to_tensor(features)
    return concat([relu(x), relu(negative(x))], axis, name=name or "concat")


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets (+ Stirling's approximation of log(targets!) where
    targets > 1, with compute_full_loss)."""
    c = convert_to_tensor(log_input)
    z = convert_to_tensor(targets, dtype=c.dtype)
    if z.shape.rank is not None and c.shape.rank is not None and \
            not z.shape.is_compatible_with(c.shape):
        raise ValueError(f"log_poisson_loss: log_input {c.shape} and targets {z.shape} must "
                         "have the same shape.")
    loss = exp(c) - c * z
    if compute_full_loss:
        safe = where(z > 1, z, 1.0 + 0.0 * z)  # log of ones where the term is dropped
        stirling = z * log(safe) - z + 0.5 * log((2 * np.pi) * safe)
        loss = loss + where(z > 1, stirling, 0.0 * z)
    return loss


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with the positive term weighted by pos_weight (stable form)."""
    x = convert_to_tensor(logits)
    z = convert_to_tensor(labels, dtype=x.dtype)
    if not z.shape.is_compatible_with(x.shape):
        raise ValueError(f"weighted_cross_entropy_with_logits: logits {x.shape} and labels "
                         f"{z.shape} must have the same shape.")
    q = convert_to_tensor(pos_weight, dtype=x.dtype)
    log_weight = 1.0 + (q - 1.0) * z
    return add((1.0 - z) * x, log_weight * (log1p(exp(-abs_(x))) + relu(-x)), name=name)


def _axes_list(axes):
    return [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum(x - shift), sum((x - shift)^2), shift) over `axes` (shift None: no shift)."""
    x = convert_to_tensor(x)
    axes = [shapes.normalize_axis(a, x.shape.rank, "sufficient_statistics: axes")
            for a in _axes_list(axes)]
    if x.shape.rank is not None and all(x.shape[a] is not None for a in axes):
        count = convert_to_tensor(np.prod([x.shape[a] for a in axes]), dtype=x.dtype)
    else:
        count = cast(reduce_prod(gather(shape_of(x), axes)), x.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift, dtype=x.dtype)
        centered = x - shift
    else:
        centered = x
    return (count, reduce_sum(centered, axes, keepdims=keepdims),
            reduce_sum(square(centered), axes, keepdims=keepdims), shift)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics: mean_ss / counts (+ shift) and
    variance_ss / counts - (mean_ss / counts)^2."""
    mean_ss = convert_to_tensor(mean_ss)
    divisor = 1.0 / convert_to_tensor(counts, dtype=mean_ss.dtype)
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + convert_to_tensor(
        shift, dtype=mean_ss.dtype)
    variance = subtract(convert_to_tensor(variance_ss, dtype=mean_ss.dtype) * divisor,
                        square(shifted_mean))
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """(mean, variance) of x over axes with every element counted frequency_weights times
    (weights broadcast against x; a zero total weight gives 0, as reciprocal_no_nan does)."""
    x = convert_to_tensor(x)
    dtype = dtypes.float32 if x.dtype == dtypes.float16 else x.dtype
    x = cast(x, dtype)
    weights = cast(convert_to_tensor(frequency_weights), dtype)
    axes = _axes_list(axes)
    weighted_sum = reduce_sum(weights * x, axes, keepdims=True)
    divisor = reciprocal_no_nan(reduce_sum(weights + zeros_like(x), axes, keepdims=True))
    mean = weighted_sum * divisor
    variance = reduce_sum(weights * squared_difference(x, mean), axes, keepdims=True) * divisor
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return mean, variance


def batch_norm_with_global_normalization(input=None, mean=None, variance=None,  # noqa: A002
                                         beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, t=None,
                                         m=None, v=None):
    """batch_normalization with TensorFlow 1's argument names (gamma used only when
    scale_after_normalization)."""
    x = t if input is None else input
    mean = m if mean is None else mean
    variance = v if variance is None else variance
    return batch_normalization(x, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon,
                               name)


def zero_fraction(value, name=None):
    """The fraction of entries of `value` that are zero (a float32 scalar)."""
    x = convert_to_tensor(value)
    return reduce_mean(cast(equal(x, 0), dtypes.float32), name=name)


def _approx_k(operand, k, reduction_dimension, largest, name):
    x = convert_to_tensor(operand)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"approx_{'max' if largest else 'min'}_k needs an operand of known rank.")
    axis = shapes.normalize_axis(reduction_dimension, rank,
                                 f"approx_{'max' if largest else 'min'}_k: reduction_dimension")
    perm = [a for a in range(rank) if a != axis] + [axis]
    moved = x if axis == rank - 1 else transpose(x, perm)
    values, indices = top_k(moved if largest else negative(moved), k)
    if not largest:
        values = negative(values)
    if axis != rank - 1:
        back = list(np.argsort(perm))
        values, indices = transpose(values, back), transpose(indices, back)
    return values, indices


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k largest entries along reduction_dimension (exact here)."""
    return _approx_k(operand, int(k), int(reduction_dimension), True, name)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """(values, indices) of the k smallest entries along reduction_dimension (exact here)."""
    return _approx_k(operand, int(k), int(reduction_dimension), False, name)
