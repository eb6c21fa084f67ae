"""More `keras.losses`, as TensorFlow 2.21's Keras 3 computes them (per-sample values, reduced
over the last axis; eps = keras.backend.epsilon() = 1e-7; e = y_pred - y_true):

    huber(delta)                    mean(|e| <= delta ? e^2 / 2 : delta |e| - delta^2 / 2)
    log_cosh                        mean(e + softplus(-2 e) - log 2)
    kl_divergence                   sum(t log(t / p)),  t, p clipped to [eps, 1]
    poisson                         mean(p - y log(p + eps))
    cosine_similarity(axis)         -sum(normalize(y) normalize(p)),  normalize(x) =
                                    x min(rsqrt(sum x^2), 1 / eps)
    hinge / squared_hinge           mean(max(1 - y p, 0)) / its square; labels that are all 0/1
                                    become -1/1 first
    categorical_hinge               max(max((1 - y) p) - sum(y p) + 1, 0)
    mean_absolute_percentage_error  100 mean(|e / max(|y|, eps)|)
    mean_squared_logarithmic_error  mean((log(max(p, eps) + 1) - log(max(y, eps) + 1))^2)
    dice(axis=None)                 1 - 2 sum(y p) / (sum y + sum p + eps)
    tversky(alpha, beta, axis=None) 1 - sum(y p) / (sum(y p) + alpha sum((1 - p) y)
                                    + beta sum(p (1 - y)) + eps)
    categorical_generalized_...(q)  (1 - p[label]^q) / q
    ctc                             tf.nn.ctc_loss over [batch, time, classes] logits, blank 0
    circle(gamma, margin)           softplus of the log-sum-exps of the weighted positive and
                                    negative pair distances (see circle)
    binary_focal_crossentropy       mean((1 - p_t)^gamma bce [* (y alpha + (1 - y)(1 - alpha))]),
                                    p_t = y p + (1 - y)(1 - p), bce on p clipped to [eps, 1 - eps]
    categorical_focal_crossentropy  sum(-alpha (1 - q)^gamma y log q), q = p / sum(p) clipped

Labels are smoothed as in the cross-entropies (y (1 - s) + s / 2 binary, + s / classes
categorical); logits go through sigmoid / softmax first. Each is written in wengert ops, so
gradients (and their gradients) come from the ops' own rules.
"""
import math

import numpy as np

from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.math_ops import clip_by_value
from ..ops.math_ops import cast, equal, less_equal, logical_or, maximum, minimum, pow as pow_
from ..ops.math_ops import greater, logical_and, logical_not, multiply, not_equal, square
from ..ops.reshape_ops import reshape
from ..ops.reshape_ops import transpose
from ..ops.matmul_ops import matmul
from ..ops.creation_ops import one_hot
from ..ops.nn.ctc.loss import ctc_loss
from ..ops.nn.activations import softmax
from ..ops.reduce_ops import reduce_all, reduce_logsumexp, reduce_max, reduce_mean, reduce_sum
from ..ops.unary_ops import abs as abs_
from ..ops.unary_ops import log, rsqrt, sigmoid, softplus
from ..ops.array_ops import where
from .losses_base import apply_mask, reduce_losses
from .losses_base import LossFunctionWrapper, Reduction, _eps, _pred_and_true, _tensor

__all__ = ["Huber", "LogCosh", "KLDivergence", "Poisson", "CosineSimilarity", "Hinge",
           "SquaredHinge", "CategoricalHinge", "MeanAbsolutePercentageError",
           "MeanSquaredLogarithmicError", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "huber", "log_cosh", "logcosh", "kl_divergence",
           "kld", "KLD", "kullback_leibler_divergence", "poisson", "cosine_similarity", "hinge",
           "squared_hinge", "categorical_hinge", "mean_absolute_percentage_error", "mape",
           "MAPE", "mean_squared_logarithmic_error", "msle", "MSLE",
           "binary_focal_crossentropy", "categorical_focal_crossentropy", "Dice", "Tversky",
           "CTC", "CategoricalGeneralizedCrossEntropy", "Circle", "dice", "tversky", "ctc",
           "circle",
           "categorical_generalized_cross_entropy"]

_SOBS = Reduction.SUM_OVER_BATCH_SIZE


def _convert(y_true, y_pred):
    """y_pred as a tensor, y_true cast to its dtype (no rank fixing, as Keras for these)."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    return _tensor(y_true, y_pred.dtype), y_pred


def _const(value, dtype):
    return cast(value, dtype)


# -- regression-style losses ------------------------------------------------------------------
def huber(y_true, y_pred, delta=1.0):
    """Quadratic for |error| <= delta, linear beyond; mean over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    delta = _const(delta, y_pred.dtype)
    error = y_pred - y_true
    abs_error = abs_(error)
    half = _const(0.5, y_pred.dtype)
    return reduce_mean(where(less_equal(abs_error, delta), half * square(error),
                             delta * abs_error - half * square(delta)), -1)


def log_cosh(y_true, y_pred):
    """log(cosh(y_pred - y_true)) = x + softplus(-2 x) - log 2, mean over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    x = y_pred - y_true
    return reduce_mean(x + softplus(x * -2.0) - _const(math.log(2.0), x.dtype), -1)


logcosh = log_cosh


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


def _l2_normalize(x, axis):
    """Keras's ops.normalize(order=2): x min(rsqrt(sum x^2), 1 / eps)."""
    inv_norm = rsqrt(reduce_sum(square(x), axis, keepdims=True))
    return x * minimum(inv_norm, _const(1.0 / 1e-7, x.dtype))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine similarity along `axis` (so minimizing it aligns the vectors)."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return -reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis)


def mean_absolute_percentage_error(y_true, y_pred):
    """100 mean(|(y_true - y_pred) / max(|y_true|, eps)|) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    diff = abs_((y_true - y_pred) / maximum(abs_(y_true), _eps(y_pred.dtype)))
    return 100.0 * reduce_mean(diff, -1)


mape = MAPE = mean_absolute_percentage_error


def mean_squared_logarithmic_error(y_true, y_pred):
    """mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1))^2) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    eps = _eps(y_pred.dtype)
    first = log(maximum(y_pred, eps) + 1.0)
    second = log(maximum(y_true, eps) + 1.0)
    return reduce_mean(square(first - second), -1)


msle = MSLE = mean_squared_logarithmic_error


# -- hinge losses -----------------------------------------------------------------------------
def _hinge_labels(y_true):
    """2 y - 1 when every label is 0 or 1, else the labels unchanged (as Keras's cond)."""
    binary = reduce_all(logical_or(equal(y_true, 0.0), equal(y_true, 1.0)))
    return y_true + cast(binary, y_true.dtype) * (y_true - 1.0)


def hinge(y_true, y_pred):
    """mean(max(1 - y_true y_pred, 0)) over the last axis (0/1 labels mapped to -1/1)."""
    y_true, y_pred = _convert(y_true, y_pred)
    y_true = _hinge_labels(y_true)
    return reduce_mean(maximum(1.0 - y_true * y_pred, _const(0.0, y_pred.dtype)), -1)


def squared_hinge(y_true, y_pred):
    """mean(max(1 - y_true y_pred, 0)^2) over the last axis (0/1 labels mapped to -1/1)."""
    y_true, y_pred = _convert(y_true, y_pred)
    y_true = _hinge_labels(y_true)
    return reduce_mean(square(maximum(1.0 - y_true * y_pred, _const(0.0, y_pred.dtype))), -1)


def categorical_hinge(y_true, y_pred):
    """max(neg - pos + 1, 0), pos = sum(y_true y_pred), neg = max((1 - y_true) y_pred)."""
    y_true, y_pred = _convert(y_true, y_pred)
    pos = reduce_sum(y_true * y_pred, -1)
    neg = reduce_max((1.0 - y_true) * y_pred, -1)
    return maximum(neg - pos + 1.0, _const(0.0, y_pred.dtype))


# -- focal cross-entropies --------------------------------------------------------------------
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


# -- overlap, generalized cross-entropy and CTC losses ----------------------------------------
def dice(y_true, y_pred, axis=None):
    """1 - 2 sum(y p) / (sum(y) + sum(p) + eps) over `axis` (all axes by default)."""
    y_true, y_pred = _convert(y_true, y_pred)
    intersection = reduce_sum(y_true * y_pred, axis)
    return 1.0 - 2.0 * intersection / (reduce_sum(y_true, axis) + reduce_sum(y_pred, axis)
                                       + _eps(y_pred.dtype))


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - TP / (TP + alpha FP + beta FN + eps), TP = sum(y p), FP = sum((1 - p) y) and
    FN = sum(p (1 - y)) as Keras 3 names them, over `axis` (all axes by default)."""
    y_true, y_pred = _convert(y_true, y_pred)
    intersection = reduce_sum(y_true * y_pred, axis)
    fp = reduce_sum((1.0 - y_pred) * y_true, axis)
    fn = reduce_sum(y_pred * (1.0 - y_true), axis)
    return 1.0 - intersection / (intersection + fp * alpha + fn * beta + _eps(y_pred.dtype))


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """(1 - p[label]^q) / q for integer labels: between cross-entropy (q -> 0) and MAE (q = 1)."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    labels = cast(_tensor(y_true), "int32")
    hot = one_hot(labels, y_pred.shape[-1], dtype=y_pred.dtype)
    p = reduce_sum(y_pred * hot, -1)
    return (1.0 - pow_(p, _const(q, y_pred.dtype))) / q


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


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4):
    """Circle loss of (normalized) embeddings with integer labels, per sample, as Keras 3:
    with cosine distances d = max(1 - p r^T, 0) to the reference embeddings,
    softplus(logsumexp_pos(-gamma max(m + d, 0)(m - d)) + logsumexp_neg(gamma max(1 + m - d, 0)
    (1 - m - d))) over the pairs with the same / another label (self pairs left out)."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    labels = reshape(cast(_tensor(y_true), "int32"), [-1, 1])
    ref = y_pred if ref_embeddings is None else _tensor(ref_embeddings, y_pred.dtype)
    ref_labels = labels if ref_labels is None else reshape(cast(_tensor(ref_labels), "int32"),
                                                           [-1, 1])
    zero = _const(0.0, y_pred.dtype)
    distances = maximum(1.0 - matmul(y_pred, transpose(ref)), zero)
    positive = equal(labels, transpose(ref_labels))
    if remove_diagonal:
        positive = logical_and(positive, logical_not(cast(
            np.eye(labels.shape[0], ref_labels.shape[0]), "bool")))
    negative = logical_not(equal(labels, transpose(ref_labels)))
    pos_w = maximum((margin + distances) * cast(positive, y_pred.dtype), zero)
    neg_w = maximum((1.0 + margin - distances) * cast(negative, y_pred.dtype), zero)
    pos_dists = -gamma * pos_w * (margin - distances)
    neg_dists = gamma * neg_w * ((1.0 - margin) - distances)
    minus_inf = _const(-np.inf, y_pred.dtype)
    p_loss = reduce_logsumexp(where(positive, pos_dists, minus_inf), 1)
    n_loss = reduce_logsumexp(where(negative, neg_dists, minus_inf), 1)
    return softplus(p_loss + n_loss)


# -- Loss classes (Keras 3's names, defaults and config keys) ---------------------------------
def _loss_class(class_name, fn, default_name, params=()):
    """A LossFunctionWrapper subclass: __init__(*params, reduction, name, dtype)."""
    names = [p for p, _ in params]
    defaults = dict(params)

    def __init__(self, *args, reduction=_SOBS, name=default_name, dtype=None, **kwargs):
        if len(args) > len(names):
            raise TypeError(f"{class_name}() takes at most {len(names)} positional arguments "
                            f"({', '.join(names) or 'none'}), got {len(args)}.")
        unknown = set(kwargs) - set(names)
        if unknown:
            accepted = names + ["reduction", "name", "dtype"]
            raise TypeError(f"{class_name}() got unexpected keyword arguments "
                            f"{sorted(unknown)}; it takes {accepted}.")
        values = {**defaults, **dict(zip(names, args)), **kwargs}
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, dtype=dtype,
                                     **values)

    doc = f"Loss object for keras.losses.{fn.__name__} ({', '.join(names) or 'no options'})."
    return type(class_name, (LossFunctionWrapper,),
                {"__init__": __init__, "__module__": __name__, "__doc__": doc})


Huber = _loss_class("Huber", huber, "huber_loss", [("delta", 1.0)])
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh")
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _loss_class("Poisson", poisson, "poisson")
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity",
                               [("axis", -1)])
Hinge = _loss_class("Hinge", hinge, "hinge")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError",
                                          mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError",
                                          mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error")
BinaryFocalCrossentropy = _loss_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    [("apply_class_balancing", False), ("alpha", 0.25), ("gamma", 2.0), ("from_logits", False),
     ("label_smoothing", 0.0), ("axis", -1)])
CategoricalFocalCrossentropy = _loss_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy,
    "categorical_focal_crossentropy",
    [("alpha", 0.25), ("gamma", 2.0), ("from_logits", False), ("label_smoothing", 0.0),
     ("axis", -1)])

FUNCTIONS = {"huber": huber, "log_cosh": log_cosh, "logcosh": log_cosh,
             "kl_divergence": kl_divergence, "kld": kl_divergence,
             "kullback_leibler_divergence": kl_divergence, "poisson": poisson,
             "cosine_similarity": cosine_similarity, "hinge": hinge,
             "squared_hinge": squared_hinge, "categorical_hinge": categorical_hinge,
             "mean_absolute_percentage_error": mean_absolute_percentage_error,
             "mape": mean_absolute_percentage_error,
             "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
             "msle": mean_squared_logarithmic_error,
             "binary_focal_crossentropy": binary_focal_crossentropy,
             "categorical_focal_crossentropy": categorical_focal_crossentropy}
Dice = _loss_class("Dice", dice, "dice", [("axis", None)])
Tversky = _loss_class("Tversky", tversky, "tversky", [("alpha", 0.5), ("beta", 0.5),
                                                      ("axis", None)])
CTC = _loss_class("CTC", ctc, "ctc")


class Circle(_loss_class("_Circle", circle, "circle",
                         [("gamma", 80.0), ("margin", 0.4), ("remove_diagonal", True)])):
    """Circle loss; like Keras, samples with a zero loss are left out of the mean."""

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True, reduction=_SOBS,
                 name="circle", dtype=None):
        super().__init__(gamma=gamma, margin=margin, remove_diagonal=remove_diagonal,
                         reduction=reduction, name=name, dtype=dtype)

    def __call__(self, y_true, y_pred, sample_weight=None):
        if self._dtype is not None:
            y_pred, y_true = _tensor(y_pred, self._dtype), _tensor(y_true, self._dtype)
        losses = self.call(y_true, y_pred)
        weights = apply_mask(greater(losses, 0.0), sample_weight, self.reduction, losses.dtype)
        return reduce_losses(losses, weights, self.reduction)


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


FUNCTIONS.update({"dice": dice, "tversky": tversky, "ctc": ctc, "circle": circle,
                  "categorical_generalized_cross_entropy":
                  categorical_generalized_cross_entropy})
CLASSES = {cls.__name__: cls for cls in (
    Dice, Tversky, CTC, CategoricalGeneralizedCrossEntropy, Circle,
    Huber, LogCosh, KLDivergence, Poisson, CosineSimilarity, Hinge, SquaredHinge,
    CategoricalHinge, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    BinaryFocalCrossentropy, CategoricalFocalCrossentropy)}
