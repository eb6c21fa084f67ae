"""Losses of `wengert.nn`: softmax, sparse softmax, sigmoid and weighted cross-entropy, the Poisson
log loss and l2_loss.

softmax_cross_entropy_with_logits(labels p, logits x) = -sum(p * log_softmax(x)) per row. The fused
kernel also returns backprop = softmax(x) - p, so d loss/dx = g * backprop at no extra cost, and
d loss/dp = -g * log_softmax(x). Differentiating that VJP again reaches the backprop output: its
gradient gg adds softmax's VJP of gg to the logits and -gg to the labels (TensorFlow's rule, which
skips the term when gg is the zeros the reverse pass filled in). The sparse form takes integer
class indices (no gradient) and backprop = softmax(x) - one_hot(label). Logits of any size are
safe: the kernels subtract each row's max first.

sigmoid_cross_entropy_with_logits(z, x) = max(x, 0) - x*z + log(1 + exp(-|x|)); dx = sigmoid(x) - z,
dz = -x. l2_loss(t) = sum(t^2) / 2, dt = g*t.

Forward mode: d loss = sum(backprop dx) - sum(log_softmax(x) dp) and d backprop = softmax's JVP of
dx - dp; l2_loss: sum(t dt).

Two losses are compositions of other ops, so their derivatives come from those ops:
weighted_cross_entropy_with_logits is TensorFlow's stable form of
-(q * labels * log(sigmoid(x)) + (1 - labels) * log(1 - sigmoid(x))) with l = 1 + (q - 1) labels:
(1 - labels) x + l (log1p(exp(-|x|)) + max(-x, 0)). log_poisson_loss is exp(c) - c * z, plus
Stirling's z log z - z + log(2 pi z) / 2 for z > 1 when compute_full_loss.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import binary_operands, execute
from ...framework.registry import defop, needs_grad
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.context import op_scope
from .. import shape_rules
from ..array_ops import where
from ..broadcast_ops import is_zero_gradient
from ..cast_ops import cast
from ..elementwise import float_rule
from ..math_ops import add
from ..reduce_ops import reduce_sum
from ..reshape_ops import expand_dims, reshape
from ..shape_rules import axis_int, axis_tuple
from ..unary_ops import abs as abs_
from ..unary_ops import exp, log, log1p, sigmoid
from .activations import _float_input, _one, _zero, log_softmax, relu, softmax

__all__ = ["softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits",
           "sigmoid_cross_entropy_with_logits", "l2_loss", "log_poisson_loss",
           "weighted_cross_entropy_with_logits"]


# -- softmax cross-entropy ------------------------------------------------------------------------
def _dense_ce_kernel(logits, labels, axis):
    if logits.shape != labels.shape:
        raise ValueError("labels and logits shapes differ")
    shifted = logits - np.max(logits, axis=axis, keepdims=True)
    e = np.exp(shifted)
    total = np.sum(e, axis=axis, keepdims=True)
    loss = np.sum(labels * (np.log(total) - shifted), axis=axis)
    return loss, e / total - labels


def _dense_ce_rule(logits, labels, axis):
    shape_rules.check_float(logits, "logits")
    shape_rules.check_same_dtype(logits, labels)
    if not logits.shape.is_compatible_with(labels.shape):
        raise InvalidArgumentError(f"labels and logits must have the same shape: labels shape "
                                   f"{labels.shape}, logits shape {logits.shape}.")
    full = logits.shape.merge_with(labels.shape)
    return [(_without_axis(full, axis), logits.dtype), (full, logits.dtype)]


def _without_axis(shape, axis):
    if shape.rank is None:
        return TensorShape(None)
    if shape.rank == 0:
        raise InvalidArgumentError("logits must have rank >= 1, got a scalar.")
    (axis,) = shape_rules.normalize_axes(axis, shape.rank)
    return TensorShape([d for i, d in enumerate(shape) if i != axis])


def _softmax_vjp_of(gg, logits, axis):
    """The VJP of softmax at `logits` applied to gg: how backprop = softmax - labels moves."""
    p = softmax(logits, axis)
    return (gg - reduce_sum(gg * p, axis, keepdims=True)) * p


def _expand(g, axis):
    return expand_dims(g, axis)


def _dense_ce_grad(op, grad_loss, grad_backprop):
    logits, labels = op.inputs
    axis = op.attrs["axis"]
    g = _expand(grad_loss, axis)
    need_logits, need_labels = needs_grad(op, 0), needs_grad(op, 1)
    d_logits = g * op.outputs[1] if need_logits else None
    d_labels = g * -log_softmax(logits, axis) if need_labels else None
    if not is_zero_gradient(grad_backprop):
        if need_logits:
            d_logits = d_logits + _softmax_vjp_of(grad_backprop, logits, axis)
        if need_labels:
            d_labels = d_labels - grad_backprop
    return d_logits, d_labels


def _dense_ce_jvp(primals, tangents, outputs, axis):
    """d loss = sum(backprop * dx) - sum(log_softmax(x) * dp); d backprop = softmax'(x) dx - dp
    (the same convention as the VJP, which takes each row of labels to sum to 1)."""
    logits, (dx, dp), backprop = primals[0], tangents, outputs[1]
    d_loss = reduce_sum(backprop * dx, axis) if dx is not None else None
    d_backprop = _softmax_vjp_of(dx, logits, axis) if dx is not None else None
    if dp is not None:
        term = -reduce_sum(log_softmax(logits, axis) * dp, axis)
        d_loss = term if d_loss is None else d_loss + term
        d_backprop = -dp if d_backprop is None else d_backprop - dp
    return d_loss, d_backprop


SOFTMAX_CE = defop("SoftmaxCrossEntropyWithLogits", _dense_ce_kernel, shape=_dense_ce_rule,
                   grad=_dense_ce_grad, jvp=_dense_ce_jvp, num_outputs=2, batch="negative_axis",
                   raw=lambda features, labels, name=None: execute(SOFTMAX_CE, binary_operands(
                       features, labels, "SoftmaxCrossEntropyWithLogits"), {"axis": -1}, name))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits), axis): one loss per row; labels are probability rows
    of logits' shape, cast to logits' dtype. Stable for large logits; both labels and logits get
    gradients."""
    logits = convert_to_tensor(logits)
    shape_rules.check_allowed(SOFTMAX_CE, logits)
    labels = convert_to_tensor(labels, dtype_hint=logits.dtype)
    if labels.dtype != logits.dtype:  # TensorFlow casts the labels (ints, bools) to logits'
        labels = cast(labels, logits.dtype)
    return execute(SOFTMAX_CE, (logits, labels), {"axis": axis_int(axis, "softmax_cross_entropy_with_logits: axis")}, name)[0]


def _sparse_ce_kernel(logits, labels):
    classes = logits.shape[-1] if logits.ndim else 0
    if labels.shape != logits.shape[:-1]:
        raise ValueError("labels shape must be logits shape without its last axis")
    bad = (labels < 0) | (labels >= classes)
    if bad.any():
        raise InvalidArgumentError(
            f"SparseSoftmaxCrossEntropyWithLogits: received a label value of "
            f"{labels[bad].flat[0]} which is outside the valid range of [0, {classes}) "
            f"(logits have {classes} classes). Label values: {labels.ravel()[:20]}.")
    flat = logits.reshape(-1, classes)
    e = flat - np.max(flat, axis=-1, keepdims=True)  # shifted; then exp and softmax in place
    rows, picked = np.arange(len(e)), labels.reshape(-1)
    loss = -e[rows, picked]
    np.exp(e, out=e)
    total = np.sum(e, axis=-1, keepdims=True)
    loss += np.log(total[:, 0])
    backprop = e
    backprop /= total
    backprop[rows, picked] -= _one(e)
    return loss.reshape(labels.shape), backprop.reshape(logits.shape)


def _sparse_ce_rule(logits, labels):
    shape_rules.check_float(logits, "logits")
    if not labels.dtype.is_integer:
        raise InvalidArgumentError(f"labels must be int32 or int64 class indices, got "
                                   f"{labels.dtype.name}.")
    lg, lb = logits.shape, labels.shape
    if lg.rank is not None and lb.rank is not None:
        if lg.rank == 0 or lb.rank != lg.rank - 1:
            raise InvalidArgumentError(
                f"rank mismatch: labels (shape {lb}, rank {lb.rank}) must have rank one less "
                f"than logits (shape {lg}, rank {lg.rank}).")
        if not lb.is_compatible_with(lg[:-1]):
            raise InvalidArgumentError(
                f"shape mismatch: labels shape {lb} must equal logits shape {lg} without its "
                "last (class) dimension.")
    return [(lg[:-1] if lg.rank is not None else TensorShape(None), logits.dtype),
            (lg, logits.dtype)]


def _sparse_ce_grad(op, grad_loss, grad_backprop):
    logits = op.inputs[0]
    d_logits = _expand(grad_loss, -1) * op.outputs[1]
    if not is_zero_gradient(grad_backprop):
        d_logits = d_logits + _softmax_vjp_of(grad_backprop, logits, -1)
    return d_logits, None


def _sparse_ce_jvp(primals, tangents, outputs):
    dx = tangents[0]
    if dx is None:
        return None, None
    return reduce_sum(outputs[1] * dx, -1), _softmax_vjp_of(dx, primals[0], -1)


SPARSE_SOFTMAX_CE = defop("SparseSoftmaxCrossEntropyWithLogits", _sparse_ce_kernel,
                          shape=_sparse_ce_rule, grad=_sparse_ce_grad, jvp=_sparse_ce_jvp,
                          num_outputs=2, batch="safe",
                          raw=lambda features, labels, name=None: execute(SPARSE_SOFTMAX_CE, (
                              _float_input(features, "SparseSoftmaxCrossEntropyWithLogits"),
                              convert_to_tensor(labels)), name=name))


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[label] per row: labels are integer class indices in [0, classes),
    of logits' shape without the last axis. Labels get no gradient."""
    logits = _float_input(logits, "SparseSoftmaxCrossEntropyWithLogits")
    labels = convert_to_tensor(labels)
    if not labels.dtype.is_integer:
        raise TypeError(f"sparse_softmax_cross_entropy_with_logits: labels must be int32 or int64"
                        f" class indices, got {labels.dtype.name} (shape {labels.shape}); use "
                        "softmax_cross_entropy_with_logits for probability labels.")
    return execute(SPARSE_SOFTMAX_CE, (logits, labels), name=name)[0]


# -- sigmoid cross-entropy, l2_loss ---------------------------------------------------------------
def _sigmoid_ce_kernel(logits, labels):
    return (np.maximum(logits, _zero(logits)) - logits * labels
            + np.log1p(np.exp(-np.abs(logits))))


def _sigmoid_ce_grad(op, g):
    logits, labels = op.inputs
    d_logits = g * (sigmoid(logits) - labels) if needs_grad(op, 0) else None
    d_labels = g * -logits if needs_grad(op, 1) else None
    return d_logits, d_labels


def _sigmoid_ce_rule(logits, labels):
    shape_rules.check_float(logits, "logits")
    shape_rules.check_same_dtype(logits, labels)
    if not logits.shape.is_compatible_with(labels.shape):
        raise InvalidArgumentError(f"logits and labels must have the same shape: logits shape "
                                   f"{logits.shape}, labels shape {labels.shape}.")
    return logits.shape.merge_with(labels.shape), logits.dtype


def _sigmoid_ce_jvp(primals, tangents, outputs):
    (logits, labels), (dx, dz) = primals, tangents
    out = dx * (sigmoid(logits) - labels) if dx is not None else None
    if dz is not None:
        out = -dz * logits if out is None else out - dz * logits
    return out


SIGMOID_CE = defop("SigmoidCrossEntropyWithLogits", _sigmoid_ce_kernel, shape=_sigmoid_ce_rule,
                   grad=_sigmoid_ce_grad, jvp=_sigmoid_ce_jvp, batch="safe")


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Elementwise -z*log(sigmoid(x)) - (1-z)*log(1-sigmoid(x)), as
    max(x, 0) - x*z + log(1 + exp(-|x|)) so that large |x| stays finite."""
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits: both labels and logits are needed.")
    logits, labels = binary_operands(logits, labels, "SigmoidCrossEntropyWithLogits")
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"sigmoid_cross_entropy_with_logits: logits and labels must have the "
                         f"same shape ({logits.shape} vs {labels.shape}).")
    if not logits.dtype.is_floating:
        raise TypeError(f"sigmoid_cross_entropy_with_logits: logits must be floating-point, "
                        f"got {logits.dtype.name}; use cast(logits, float32).")
    return execute(SIGMOID_CE, (logits, labels), name=name)


def _l2_loss_batched(op, grad):
    x = op.inputs[0]
    nb = len(grad.shape) - len(op.outputs[0].shape)
    return reshape(grad, tuple(grad.shape[:nb]) + (1,) * len(x.shape)) * x


L2_LOSS = defop("L2Loss", lambda t: np.asarray(np.sum(t * t) * t.dtype.type(0.5)),
                shape=lambda t: (TensorShape(()), float_rule("L2Loss")(t)[1]),
                grad=lambda op, g: g * op.inputs[0],
                jvp=lambda primals, tangents, outputs: _sum_all(primals[0] * tangents[0]), batch=_l2_loss_batched,
                args=("t",))


def _sum_all(x):
    return reduce_sum(x)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2, a scalar."""
    return execute(L2_LOSS, (_float_input(t, "L2Loss"),), name=name)


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets (+ Stirling's approximation of log(targets!) where
    targets > 1, with compute_full_loss)."""
    with op_scope(name, "log_poisson_loss"):
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
