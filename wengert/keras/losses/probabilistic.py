"""The probabilistic losses of `keras.losses`: cross-entropies (plain, focal, generalized),
Kullback-Leibler divergence, Poisson and CTC, as TensorFlow 2.21's Keras 3 computes them.

With probabilities p (from_logits=False) Keras clips p to [eps, 1 - eps] (eps = 1e-7):
    categorical_crossentropy(y, p)  = -sum_k y_k log(p_k / sum_j p_j)            (last axis)
    sparse_categorical_crossentropy = -log p[label]      (p normalized and clipped as above)
    binary_crossentropy(y, p)       = -mean_k [y log p + (1 - y) log(1 - p)]   (Keras 3: no + eps)
With logits x (from_logits=True) the fused, stable ops are used instead:
softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy_with_logits and
sigmoid_cross_entropy_with_logits (max(x, 0) - x y + log(1 + exp(-|x|))), averaged over the last
axis for the binary loss. Label smoothing replaces y by y (1 - s) + s / classes (categorical) or
y (1 - s) + s / 2 (binary). Like Keras, labels whose rank differs from the predictions' by a
trailing axis of size 1 are squeezed first.

    binary_focal_crossentropy       mean((1 - p_t)^gamma bce [* (y alpha + (1 - y)(1 - alpha))]),
                                    p_t = y p + (1 - y)(1 - p), bce on p clipped to [eps, 1 - eps]
    categorical_focal_crossentropy  sum(-alpha (1 - q)^gamma y log q), q = p / sum(p) clipped
    categorical_generalized_...(q)  (1 - p[label]^q) / q
    kl_divergence                   sum(t log(t / p)),  t, p clipped to [eps, 1]
    poisson                         mean(p - y log(p + eps))
    ctc                             tf.nn.ctc_loss over [batch, time, classes] logits, blank 0

The focal losses smooth labels likewise; their logits go through sigmoid / softmax first. Each
is written in wengert ops, so gradients (and their gradients) come from the ops' own rules.
"""
import numpy as np

from ...framework.tensor import Tensor, convert_to_tensor
from ...ops.array_ops import where
from ...ops.broadcast_ops import zeros_like
from ...ops.creation_ops import one_hot
from ...ops.math_ops import cast, clip_by_value, multiply, not_equal, pow as pow_
from ...ops.nn import losses as loss_ops
from ...ops.nn.activations import softmax
from ...ops.nn.ctc.loss import ctc_loss
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims, reshape, squeeze
from ...ops.unary_ops import log, sigmoid
from .loss import (_SOBS, LossFunctionWrapper, Reduction, _const, _convert, _eps, _loss_class,
                   _pred_and_true, _tensor, apply_mask, reduce_losses)

__all__ = ["CategoricalCrossentropy", "SparseCategoricalCrossentropy", "BinaryCrossentropy",
           "BinaryFocalCrossentropy", "CategoricalFocalCrossentropy",
           "CategoricalGeneralizedCrossEntropy", "KLDivergence", "Poisson", "CTC",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy",
           "binary_focal_crossentropy", "categorical_focal_crossentropy",
           "categorical_generalized_cross_entropy", "kl_divergence", "kld", "KLD",
           "kullback_leibler_divergence", "poisson", "ctc"]


# -- cross-entropies ---------------------------------------------------------------------------
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Cross-entropy between one-hot (or probability) labels and predicted distributions."""
    y_pred = convert_to_tensor(y_pred) if not isinstance(y_pred, Tensor) else y_pred
    y_true = _tensor(y_true, y_pred.dtype)
    if label_smoothing:
        classes = y_pred.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return loss_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    eps = _eps(y_pred.dtype)
    y_pred = y_pred / reduce_sum(y_pred, axis, keepdims=True)
    y_pred = clip_by_value(y_pred, eps, 1.0 - eps)
    return -reduce_sum(y_true * log(y_pred), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1,
                                    ignore_class=None):
    """Cross-entropy between integer class labels and predicted distributions. With
    `ignore_class`, entries labelled with it lose 0 (and a Loss object averages over the rest)."""
    y_pred = convert_to_tensor(y_pred) if not isinstance(y_pred, Tensor) else y_pred
    y_true = _tensor(y_true)
    if y_true.dtype.name not in ("int32", "int64"):  # uint8 labels too: TensorFlow's only take
        y_true = cast(y_true, "int64")                # int32 and int64, as Keras casts them
    rank = y_pred.shape.rank
    if y_true.shape.rank == rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, [-1])
    if axis not in (-1, rank - 1):
        raise NotImplementedError("sparse_categorical_crossentropy: only axis=-1 is available.")
    valid = None
    if ignore_class is not None:
        valid = not_equal(y_true, cast(ignore_class, y_true.dtype))
        y_true = where(valid, y_true, zeros_like(y_true))
        y_pred = where(expand_dims(valid, -1), y_pred, zeros_like(y_pred))
    if not from_logits:
        eps = _eps(y_pred.dtype)
        y_pred = log(clip_by_value(y_pred, eps, 1.0 - eps))  # log_softmax(log p) normalizes p
    if rank is not None and rank > 2:
        batch_shape = tuple(y_pred.shape)[:-1]
        losses = loss_ops.sparse_softmax_cross_entropy_with_logits(
            labels=reshape(y_true, [-1]), logits=reshape(y_pred, [-1, y_pred.shape[-1]]))
        losses = reshape(losses, [-1 if d is None else d for d in batch_shape])
    else:
        losses = loss_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    if valid is not None:
        losses = where(valid, losses, zeros_like(losses))
    return losses


def _ignore_class_weights(y_true, ignore_class, sample_weight, reduction, dtype):
    """The sample weights with Keras's mask of the entries not labelled ignore_class."""
    labels = _tensor(y_true)
    return apply_mask(not_equal(labels, cast(ignore_class, labels.dtype)), sample_weight,
                      reduction, dtype)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy per element, averaged over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        losses = loss_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        eps = _eps(y_pred.dtype)
        p = clip_by_value(y_pred, eps, 1.0 - eps)
        losses = -(y_true * log(p) + (1.0 - y_true) * log(1.0 - p))
    return reduce_mean(losses, axis)


# -- focal and generalized cross-entropies -----------------------------------------------------
def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by (1 - p_t)^gamma (and alpha / 1 - alpha if balancing)."""
    y_true, y_pred = _convert(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = sigmoid(y_pred)
    eps = _eps(y_pred.dtype)
    clipped = clip_by_value(y_pred, eps, 1.0 - eps)
    bce = -(y_true * log(clipped) + (1.0 - y_true) * log(1.0 - clipped))
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal_bce = pow_(1.0 - p_t, _const(gamma, y_pred.dtype)) * bce
    if apply_class_balancing:
        focal_bce = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal_bce
    return reduce_mean(focal_bce, axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical cross-entropy terms scaled by alpha (1 - q)^gamma, summed over `axis`."""
    if isinstance(axis, bool):
        raise ValueError(f"categorical_focal_crossentropy: `axis` must be an int, got {axis!r}.")
    y_true, y_pred = _convert(y_true, y_pred)
    if label_smoothing:
        classes = y_true.shape[-1]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        y_pred = softmax(y_pred, axis=axis)
    eps = _eps(y_pred.dtype)
    output = clip_by_value(y_pred / reduce_sum(y_pred, axis, keepdims=True), eps, 1.0 - eps)
    cce = -y_true * log(output)
    alpha = _tensor(alpha, y_pred.dtype)
    weighting = multiply(pow_(1.0 - output, _const(gamma, y_pred.dtype)), alpha)
    return reduce_sum(weighting * cce, axis)


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """(1 - p[label]^q) / q for integer labels: between cross-entropy (q -> 0) and MAE (q = 1)."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    labels = cast(_tensor(y_true), "int32")
    hot = one_hot(labels, y_pred.shape[-1], dtype=y_pred.dtype)
    p = reduce_sum(y_pred * hot, -1)
    return (1.0 - pow_(p, _const(q, y_pred.dtype))) / q


# -- divergence, counts and sequences ----------------------------------------------------------
def kl_divergence(y_true, y_pred):
    """sum(y_true log(y_true / y_pred)) over the last axis, both clipped to [eps, 1]."""
    y_true, y_pred = _convert(y_true, y_pred)
    eps = _eps(y_pred.dtype)
    y_true = clip_by_value(y_true, eps, 1.0)
    y_pred = clip_by_value(y_pred, eps, 1.0)
    return reduce_sum(y_true * log(y_true / y_pred), -1)


kld = KLD = kullback_leibler_divergence = kl_divergence


def poisson(y_true, y_pred):
    """mean(y_pred - y_true log(y_pred + eps)) over the last axis."""
    y_true, y_pred = _convert(y_true, y_pred)
    return reduce_mean(y_pred - y_true * log(y_pred + _eps(y_pred.dtype)), -1)


def ctc(y_true, y_pred):
    """CTC loss of integer label rows (0 = padding / blank) against [batch, time, classes]
    logits, every row using all time steps, as Keras 3's ctc."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    labels = _tensor(y_true)
    if labels.shape.rank != 2 or y_pred.shape.rank != 3:
        raise ValueError("ctc: expects y_true of shape (batch_size, max_length) and y_pred of "
                         "shape (batch_size, max_length, num_classes). Received: y_true.shape="
                         f"{tuple(labels.shape)}, y_pred.shape={tuple(y_pred.shape)}")
    labels = cast(labels, "int32")
    batch, steps = y_pred.shape[0], y_pred.shape[1]
    label_length = reduce_sum(cast(not_equal(labels, 0), "int32"), -1)
    logit_length = np.full((batch,), steps, np.int32)
    return ctc_loss(labels=labels, logits=y_pred, label_length=label_length,
                    logit_length=logit_length, blank_index=0, logits_time_major=False)


# -- Loss classes (Keras 3's names, defaults and config keys) ---------------------------------
class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction=Reduction.AUTO,
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class)

    def __call__(self, y_true, y_pred, sample_weight=None):
        ignore_class = self._fn_kwargs["ignore_class"]
        if ignore_class is None:
            return super().__call__(y_true, y_pred, sample_weight)
        losses = self.call(y_true, y_pred)
        weights = _ignore_class_weights(y_true, ignore_class, sample_weight, self.reduction,
                                        losses.dtype)
        if weights.shape.rank is not None and weights.shape.rank > losses.shape.rank:
            weights = reshape(weights, [-1 if d is None else d for d in losses.shape])
        return reduce_losses(losses, weights, self.reduction)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


BinaryFocalCrossentropy = _loss_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    [("apply_class_balancing", False), ("alpha", 0.25), ("gamma", 2.0), ("from_logits", False),
     ("label_smoothing", 0.0), ("axis", -1)])
CategoricalFocalCrossentropy = _loss_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy,
    "categorical_focal_crossentropy",
    [("alpha", 0.25), ("gamma", 2.0), ("from_logits", False), ("label_smoothing", 0.0),
     ("axis", -1)])
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _loss_class("Poisson", poisson, "poisson")
CTC = _loss_class("CTC", ctc, "ctc")


class CategoricalGeneralizedCrossEntropy(_loss_class(
        "_GCE", categorical_generalized_cross_entropy,
        "categorical_generalized_cross_entropy", [("q", 0.5)])):
    """Generalized cross-entropy of integer labels (0 < q < 1)."""

    def __init__(self, q=0.5, reduction=_SOBS, name="categorical_generalized_cross_entropy",
                 dtype=None):
        if not 0 < q < 1:
            raise ValueError(f"CategoricalGeneralizedCrossEntropy: q must be in the interval "
                             f"(0, 1). Received: q={q}")
        super().__init__(q=q, reduction=reduction, name=name, dtype=dtype)
