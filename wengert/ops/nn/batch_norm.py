"""Batch normalization: `nn.moments`, `nn.batch_normalization` and `nn.fused_batch_norm`, and the
moments helpers (sufficient_statistics, normalize_moments, weighted_moments) and TensorFlow 1's
batch_norm_with_global_normalization, compositions of other ops.

sufficient_statistics gives (count, sum(x - shift), sum((x - shift)^2), shift) and
normalize_moments turns them into (mean, variance); weighted_moments divides frequency-weighted
sums by the summed weights.

moments(x, axes) = (mean, variance) over `axes`: mean = E[x], variance = E[(x - mean)^2].
TensorFlow writes E[(x - stop_gradient(mean))^2]: the same first derivative (that of the variance
with respect to the mean, -2 E[x - mean], is zero), but a wrong second one; wengert keeps the mean
differentiable, which is exact at every order.

batch_normalization(x, mean, variance, offset, scale, eps) = (x - mean) * scale / sqrt(variance +
eps) + offset, composed of ordinary ops (TensorFlow's form: x * inv + (offset - mean * inv) with
inv = scale * rsqrt(variance + eps)), so every argument gets its gradient from those ops.

fused_batch_norm is one op, `FusedBatchNormV3(x, scale, offset, mean, variance)`, with C channels
on the last axis (NHWC) or axis 1 (NCHW), statistics over the other axes (n values per channel):
- training: mu, s2 = the batch mean and (biased) variance of x; r = 1 / sqrt(s2 + eps);
  xhat = (x - mu) r; y = scale * xhat + offset. It returns y, mu and the Bessel-corrected variance
  s2 n / (n - 1) (the one running averages use, as in TensorFlow), and keeps mu and s2 as reserve
  outputs for the gradient. The gradient op `FusedBatchNormGradV3(g, x, scale, mu, s2)` computes
    d offset = sum g,   d scale = sum g xhat,   dx = scale r / n (n g - d offset - xhat d scale),
  the chain rule through mu and s2 included. Gradients reaching the mean and variance outputs
  add d mu / dx = 1/n and d s2 / dx = 2 (x - mu) / n to dx.
- inference (is_training=False): y = scale (x - mean) r + offset with the given mean and variance,
  r = 1 / sqrt(variance + eps); the gradient is composed of ordinary ops (so it has every order),
  and, unlike TensorFlow, mean and variance get theirs as well: d mean = -sum(g) scale r,
  d variance = -1/2 sum(g (x - mean)) scale r^3.
Second order in training: the gradient of FusedBatchNormGradV3 is the chain rule through that
backward formula. With upstream gradients a, b, c of dx, d scale, d offset, k = scale r / n,
A = sum a, AX = sum a xhat and K = n sum(a g) - A d offset - AX d scale (the slope in k):
    d g = k (n a - A - xhat AX) + b xhat + c,     d scale = K r / n,
    d x = H r  with  H = (b - k AX) g - k d scale a   (the slope in xhat),
    d mu = -r sum H,     d s2 = -r^3 / 2 (sum H (x - mu) + K scale / n);
with the reserve outputs' gradients flowing back into FusedBatchNormV3 (above) this is the exact
second derivative.
A float16 x with float32 parameters is computed in float32 and cast back.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.context import op_scope
from .. import shape_rules
from . import batch_norm_kernels
from ..binary_math_ops import reciprocal_no_nan, squared_difference
from ..broadcast_ops import is_zero_gradient, zeros_like
from ..creation_ops import shape, size
from ..creation_ops import shape as shape_of
from ..indexing_ops import gather
from ..math_ops import add, cast, multiply, subtract
from ..reduce_ops import reduce_mean, reduce_prod, reduce_sum
from ..reshape_ops import reshape, squeeze
from ..shape_rules import axis_tuple
from ..unary_ops import rsqrt, square

__all__ = ["moments", "batch_normalization", "fused_batch_norm", "sufficient_statistics",
           "normalize_moments", "weighted_moments", "batch_norm_with_global_normalization"]

_CHANNEL_LAST = ("NHWC", "NDHWC", "NWC", "NC")
_CHANNEL_FIRST = ("NCHW", "NCDHW", "NCW")


# -- composite forms ----------------------------------------------------------------------------
def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and variance of `x` over `axes` (float16 inputs are reduced in float32). `shift` is
    "not used in the current implementation" of TensorFlow's, nor here."""
    del shift
    with op_scope(name, "moments"):
        x = convert_to_tensor(x)
        axes = list(axis_tuple(axes, "moments: axes"))
        y = cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = reduce_mean(y, axes, keepdims=True)
        variance = reduce_mean(squared_difference(y, mean), axes, keepdims=keepdims)
        if not keepdims:
            mean = squeeze(mean, axes)
        if x.dtype == dtypes.float16:
            return cast(mean, dtypes.float16), cast(variance, dtypes.float16)
        return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset (offset and scale may be
    None), broadcasting the statistics against x."""
    with op_scope(name, "batchnorm"):
        x = convert_to_tensor(x)
        inv = rsqrt(add(convert_to_tensor(variance, dtype=x.dtype), variance_epsilon))
        if scale is not None:
            inv = multiply(inv, convert_to_tensor(scale, dtype=x.dtype))
        shift = multiply(convert_to_tensor(mean, dtype=x.dtype), inv)
        shift = -shift if offset is None else subtract(convert_to_tensor(offset, dtype=x.dtype),
                                                       shift)
        return add(multiply(x, inv), shift)


# -- the fused op --------------------------------------------------------------------------------
def _channel_axis(ndim, data_format):
    if data_format in _CHANNEL_LAST:
        return ndim - 1
    if data_format in _CHANNEL_FIRST:
        return 1
    raise InvalidArgumentError(f"data_format must be one of {_CHANNEL_LAST + _CHANNEL_FIRST}, got "
                               f"{data_format!r}.")


def _layout(ndim, data_format):
    """(reduction axes, shape that broadcasts a [C] vector against x) for a rank-`ndim` x."""
    c = _channel_axis(ndim, data_format)
    axes = tuple(a for a in range(ndim) if a != c)
    return axes, c


def _fbn_kernel(x, scale, offset, mean, variance, *, epsilon, data_format, is_training):
    c = _channel_axis(x.ndim, data_format)
    y, mean, variance = batch_norm_kernels.forward(x, scale, offset, mean, variance, epsilon, c,
                                                   is_training)
    if not is_training:  # (fresh arrays for the outputs: no output is an input or another)
        return y, mean.copy(), variance.copy(), mean.copy(), variance.copy()
    n = x.size // max(x.shape[c], 1)
    corrected = variance * x.dtype.type(n / max(n - 1, 1))
    return y, mean, corrected, mean.copy(), variance


def _check_vector(t, what, channels, dtype):
    if t.dtype != dtype:
        raise InvalidArgumentError(f"{what} must have x's dtype {dtype.name}, got {t.dtype.name}; "
                                   "cast it.")
    if t.shape.rank is not None and (t.shape.rank != 1 or not t.shape.is_compatible_with(
            TensorShape([channels]))):
        raise InvalidArgumentError(f"{what} must be a vector of the {channels} channels, got "
                                   f"shape {t.shape}.")


def _fbn_rule(x, scale, offset, mean, variance, *, epsilon, data_format, is_training):
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"x must be floating-point, got {x.dtype.name}.")
    if x.shape.rank is not None and x.shape.rank < 2:
        raise InvalidArgumentError(f"x must have rank >= 2 (batch, ..., channels), got shape "
                                   f"{x.shape}.")
    channels = None
    if x.shape.rank is not None:
        channels = x.shape[_channel_axis(x.shape.rank, data_format)]
    params = [("scale", scale), ("offset", offset)]
    if not is_training:
        params += [("mean", mean), ("variance", variance)]
    for what, t in params:
        _check_vector(t, what, channels, x.dtype)
    vector = (TensorShape([channels]), x.dtype)
    return [(x.shape, x.dtype)] + [vector] * 4


def _fbn_grad_kernel(g, x, scale, mean, variance, *, epsilon, data_format):
    return batch_norm_kernels.backward(g, x, scale, mean, variance, epsilon,
                                       _channel_axis(x.ndim, data_format))


def _fbn_grad_rule(g, x, scale, mean, variance, **_):
    vector = (scale.shape, x.dtype)
    return [(x.shape, x.dtype), vector, vector]


def _rank(x, data_format):
    """x's rank; when unknown, the one its data format spells ("NHWC": 4), as TensorFlow's
    FusedBatchNorm requires."""
    return x.shape.rank if x.shape.rank is not None else len(data_format)


def _broadcastable(v, rank, c):
    """A [C] tensor reshaped to broadcast along channel axis `c` of a rank-`rank` tensor."""
    if c == rank - 1:
        return v  # channels last: a [C] vector broadcasts as it is
    return reshape(v, (1,) * c + (-1,) + (1,) * (rank - c - 1))


def _count(x, c, rank):
    """Values per channel, n (a Python int when the shape is known, else a tensor). With an
    unknown rank the channels are counted from the end where they are last, so a 2-D input
    (wengert's extension) works too."""
    dims = x.shape.as_list() if x.shape.rank is not None else [None]
    if None not in dims:
        return int(np.prod(dims)) // max(dims[c], 1)
    axis = -1 if x.shape.rank is None and c == rank - 1 else c
    return cast(size(x), x.dtype) / cast(shape(x)[axis], x.dtype)


def _fbn_grad_grad(op, a, b, c):
    """The VJP of FusedBatchNormGradV3 for upstream gradients (a, b, c) of (dx, d scale,
    d offset): the chain rule through the backward formula (see the module docstring)."""
    g, x, scale, mean, variance = op.inputs
    rank = _rank(x, op.get_attr("data_format"))
    axes, ch = _layout(rank, op.get_attr("data_format"))
    n = _count(x, ch, rank)
    r = rsqrt(variance + op.get_attr("epsilon"))
    k = scale * r / n
    centered = x - _broadcastable(mean, rank, ch)
    xhat = centered * _broadcastable(r, rank, ch)
    d_offset, d_scale = reduce_sum(g, axes), reduce_sum(g * xhat, axes)
    a_sum, a_xhat = reduce_sum(a, axes), reduce_sum(a * xhat, axes)
    slope = reduce_sum(a * g, axes) * n - d_offset * a_sum - d_scale * a_xhat  # d L / d k
    at_xhat = (g * _broadcastable(b - k * a_xhat, rank, ch)
               - a * _broadcastable(k * d_scale, rank, ch))
    dg = (a * n - _broadcastable(a_sum, rank, ch) - xhat * _broadcastable(a_xhat, rank, ch)) * \
        _broadcastable(k, rank, ch) + xhat * _broadcastable(b, rank, ch) + \
        _broadcastable(c, rank, ch)
    d_r = reduce_sum(at_xhat * centered, axes) + slope * scale / n
    return (dg, at_xhat * _broadcastable(r, rank, ch), slope * r / n,
            -r * reduce_sum(at_xhat, axes), d_r * (r * r * r) * -0.5)


def _raw_fbn_grad(y_backprop, x, scale, reserve_space_1, reserve_space_2, reserve_space_3,
                  epsilon=0.0001, data_format="NHWC", is_training=True, name=None):
    """tf.raw_ops.FusedBatchNormGradV3: (dx, d scale, d offset) and two empty outputs, from the
    saved batch statistics (training) or the population ones (inference)."""
    g, x, scale, mean, variance = (convert_to_tensor(t) for t in (
        y_backprop, x, scale, reserve_space_1, reserve_space_2))
    empty = convert_to_tensor(np.zeros([0], scale.dtype.as_numpy_dtype))
    if is_training:
        return execute(FUSED_BATCH_NORM_GRAD, (g, x, scale, mean, variance),
                       {"epsilon": float(epsilon), "data_format": data_format}, name) + (
                           empty, empty)
    rank = _rank(x, data_format)
    axes, c = _layout(rank, data_format)
    inv = rsqrt(variance + epsilon)
    return (g * _broadcastable(scale * inv, rank, c),
            reduce_sum(g * (x - _broadcastable(mean, rank, c)), axes) * inv,
            reduce_sum(g, axes), empty, empty)


FUSED_BATCH_NORM_GRAD = defop("FusedBatchNormGradV3", _fbn_grad_kernel, shape=_fbn_grad_rule,
                              grad=_fbn_grad_grad, num_outputs=3, raw=_raw_fbn_grad)


def _fbn_grad(op, gy, g_mean, g_var, g_saved_mean, g_saved_var):
    x, scale, offset, mean, variance = op.inputs
    epsilon, data_format = op.get_attr("epsilon"), op.get_attr("data_format")
    if not op.get_attr("is_training"):
        return _inference_grad(op, gy, g_mean + g_saved_mean, g_var + g_saved_var)
    _, _, _, saved_mean, saved_var = op.outputs
    dx, dscale, doffset = execute(FUSED_BATCH_NORM_GRAD, (gy, x, scale, saved_mean, saved_var),
                                  {"epsilon": epsilon, "data_format": data_format})
    if not all(is_zero_gradient(t) for t in (g_mean, g_var, g_saved_mean, g_saved_var)):
        rank = _rank(x, data_format)
        _, c = _layout(rank, data_format)
        n = _count(x, c, rank)
        g_mu = g_mean + g_saved_mean
        g_s2 = g_var * (n / max(n - 1, 1) if isinstance(n, int) else n / (n - 1)) + g_saved_var
        dx = dx + _broadcastable(g_mu / n, rank, c) + \
            (x - _broadcastable(saved_mean, rank, c)) * \
            _broadcastable(g_s2 * (2.0 / n), rank, c)
    return dx, dscale, doffset, None, None


def _inference_grad(op, gy, g_mean, g_var):
    x, scale, offset, mean, variance = op.inputs
    rank = _rank(x, op.get_attr("data_format"))
    axes, c = _layout(rank, op.get_attr("data_format"))
    inv = rsqrt(variance + op.get_attr("epsilon"))
    centered = x - _broadcastable(mean, rank, c)
    doffset = reduce_sum(gy, axes)
    g_centered = reduce_sum(gy * centered, axes)
    dx = gy * _broadcastable(scale * inv, rank, c)
    dscale = g_centered * inv
    dmean = g_mean - doffset * scale * inv
    dvar = g_var - 0.5 * g_centered * scale * inv * inv * inv
    return dx, dscale, doffset, dmean, dvar


def _fbn_onnx(ctx, op, x, scale, offset, mean, variance):
    """Inference batch normalization as elementwise ONNX ops on the channel axis:
    y = (x - mean) * scale / sqrt(variance + epsilon) + offset."""
    if op.attrs["is_training"]:
        ctx.fail("batch statistics (is_training=True) are not exported; export the model in "
                 "inference mode (training=False).")
    rank = ctx.rank(op.inputs[0])
    _, c = _layout(rank, op.attrs["data_format"])
    eps = ctx.scalar_like(op.attrs["epsilon"], op.inputs[3])
    factor = ctx.node("Div", [scale, ctx.node("Sqrt", [ctx.node("Add", [variance, eps])])])
    if c != rank - 1:
        shape = ctx.int64s([-1] + [1] * (rank - c - 1))
        factor, offset, centre = (ctx.node("Reshape", [v, shape]) for v in (factor, offset, mean))
    else:
        centre = mean
    y = ctx.node("Add", [ctx.node("Mul", [ctx.node("Sub", [x, centre]), factor]), offset])
    return [y, mean, variance, mean, variance]


def _raw_fbn(x, scale, offset, mean, variance, epsilon=0.0001, exponential_avg_factor=1,
             data_format="NHWC", is_training=True, name=None):
    """tf.raw_ops.FusedBatchNormV3: TensorFlow's six outputs, the running statistics moved by
    exponential_avg_factor in training, and an empty reserve_space_3."""
    inputs = [convert_to_tensor(t) for t in (x, scale, offset, mean, variance)]
    attrs = {"epsilon": float(epsilon), "data_format": data_format,
             "is_training": bool(is_training)}
    y, batch_mean, batch_var, saved_mean, saved_var = execute(FUSED_BATCH_NORM, inputs, attrs,
                                                              name)
    factor = float(exponential_avg_factor)
    if is_training and factor != 1.0:
        batch_mean = inputs[3] * (1.0 - factor) + batch_mean * factor
        batch_var = inputs[4] * (1.0 - factor) + batch_var * factor
    reserve = convert_to_tensor(np.zeros((), inputs[1].dtype.as_numpy_dtype))
    return y, batch_mean, batch_var, saved_mean, saved_var, reserve


FUSED_BATCH_NORM = defop("FusedBatchNormV3", _fbn_kernel, shape=_fbn_rule, grad=_fbn_grad,
                         num_outputs=5, onnx=_fbn_onnx, raw=_raw_fbn)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None):
    """Batch normalization in one op: (y, batch_mean, batch_var).

    Training: normalizes with the batch statistics and returns them (batch_var with Bessel's
    correction, for running averages). Inference (is_training=False): normalizes with the given
    `mean` and `variance`, which are returned unchanged."""
    x = convert_to_tensor(x)
    work = dtypes.float32 if x.dtype in (dtypes.float16,) else x.dtype
    xs = cast(x, work) if work != x.dtype else x
    params = [convert_to_tensor(scale), convert_to_tensor(offset)]
    if is_training:
        empty = convert_to_tensor(np.zeros([0], work.as_numpy_dtype))
        stats = [empty if mean is None else convert_to_tensor(mean),
                 empty if variance is None else convert_to_tensor(variance)]
    else:
        if mean is None or variance is None:
            raise ValueError("fused_batch_norm: is_training=False needs `mean` and `variance` "
                             "(the running statistics to normalize with).")
        stats = [convert_to_tensor(mean), convert_to_tensor(variance)]
    for what, t in zip(("scale", "offset", "mean", "variance"), params + stats):
        if t.dtype != work:
            raise InvalidArgumentError(
                f"fused_batch_norm: {what} has dtype {t.dtype.name}, but x ({x.dtype.name}) "
                f"needs {work.name} parameters; cast it with cast({what}, {work.name}).")
    attrs = {"epsilon": float(epsilon), "data_format": data_format,
             "is_training": bool(is_training)}
    y, batch_mean, batch_var, _, _ = execute(FUSED_BATCH_NORM, [xs] + params + stats, attrs,
                                             name)
    if work != x.dtype:
        y = cast(y, x.dtype)
    return y, batch_mean, batch_var


def batch_norm_training(x, scale, offset, epsilon, data_format):
    """Training-mode FusedBatchNormV3 for the Keras layer: (y, batch mean, biased batch
    variance), the statistics being the op's reserve outputs (the ones the moving averages of
    Keras's layer take); `scale` / `offset` None stand for ones / zeros."""
    x = convert_to_tensor(x)
    channels = x.shape[_channel_axis(x.shape.rank, data_format)]
    dtype = x.dtype.as_numpy_dtype
    scale = convert_to_tensor(np.ones([channels], dtype) if scale is None else scale)
    offset = convert_to_tensor(np.zeros([channels], dtype) if offset is None else offset)
    empty = convert_to_tensor(np.zeros([0], dtype))
    attrs = {"epsilon": float(epsilon), "data_format": data_format, "is_training": True}
    y, _, _, mean, variance = execute(FUSED_BATCH_NORM, [x, scale, offset, empty, empty], attrs)
    return y, mean, variance


def _axes_list(axes):
    return [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum(x - shift), sum((x - shift)^2), shift) over `axes` (shift None: no shift)."""
    with op_scope(name, "sufficient_statistics"):
        x = convert_to_tensor(x)
        axes = [shape_rules.normalize_axis(a, x.shape.rank, "sufficient_statistics: axes")
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
    with op_scope(name, "normalize"):
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
    with op_scope(name, "weighted_moments"):
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
