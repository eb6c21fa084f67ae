"""Local response normalization: `tf.nn.local_response_normalization` (`lrn`), one op, LRN, with
TensorFlow's LRNGrad.

LRN over the last (channel) axis, with radius r, bias k, alpha a and beta b:

    N[d] = k + a * sum_{|d' - d| <= r} x[d']^2,     y[d] = x[d] * N[d]^-b

    dx[d] = g[d] N[d]^-b - 2ab x[d] sum_{|d' - d| <= r} g[d'] x[d'] N[d']^(-b-1)   (LRNGrad)
    dy[d] = t[d] N[d]^-b - 2ab x[d] N[d]^(-b-1) sum_{|d' - d| <= r} x[d'] t[d']   (the JVP)

The window sums run over the channels inside the array (the window is cut at both ends).
TensorFlow registers no gradient for LRNGrad, and neither does wengert.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from .. import shape_rules
from ..creation_ops import pad
from ..unary_ops import square

__all__ = ["local_response_normalization", "lrn"]


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
    shape_rules.check_float(x)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise InvalidArgumentError(f"input must have rank 4 [batch, height, width, channels], "
                                   f"got shape {x.shape}.")
    return x.shape, x.dtype


def _lrn_grad_rule(g, x, y, **_):
    shape_rules.check_same_dtype(g, x, y)
    if not (g.shape.is_compatible_with(x.shape) and y.shape.is_compatible_with(x.shape)):
        raise InvalidArgumentError(f"input_grads {g.shape}, input_image {x.shape} and "
                                   f"output_image {y.shape} must have one shape.")
    return x.shape, x.dtype


def _raw_lrn_grad(input_grads, input_image, output_image, depth_radius=5, bias=1.0, alpha=1.0,
                  beta=0.5, name=None):
    """tf.raw_ops.LRNGrad: TensorFlow's arguments onto the op's inputs and attributes."""
    inputs = tuple(convert_to_tensor(t) for t in (input_grads, input_image, output_image))
    return execute(LRN_GRAD, inputs, {"depth_radius": int(depth_radius), "bias": float(bias),
                                      "alpha": float(alpha), "beta": float(beta)}, name)


LRN_GRAD = defop("LRNGrad", _lrn_grad_kernel, shape=_lrn_grad_rule, grad=None, raw=_raw_lrn_grad)


LRN = defop("LRN", _lrn_kernel, shape=_lrn_rule, jvp=_lrn_jvp,
            grad=lambda op, g: execute(LRN_GRAD, (g, op.inputs[0], op.outputs[0]), op.attrs),
            raw=lambda input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None:
            local_response_normalization(input, depth_radius, bias, alpha, beta, name))


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
