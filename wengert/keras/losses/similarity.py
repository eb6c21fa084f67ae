"""The circle loss of `keras.losses` (Sun et al. 2020): a loss of embeddings that pulls pairs
with the same label together and pushes pairs with different labels apart.

With cosine distances d = max(1 - p r^T, 0) between the (normalized) embeddings p and the
reference embeddings r (p itself by default), margin m and scale gamma, per sample

    softplus(logsumexp_pos(-gamma max(m + d, 0) (m - d))
             + logsumexp_neg(gamma max(1 + m - d, 0) (1 - m - d)))

over the pairs with the same / another label (self pairs left out with remove_diagonal). Like
Keras, the Loss object leaves samples whose loss is zero out of the mean.
"""
import numpy as np

from ...framework.tensor import Tensor, convert_to_tensor
from ...ops.array_ops import where
from ...ops.math_ops import cast, equal, greater, logical_and, logical_not, maximum
from ...ops.matmul_ops import matmul
from ...ops.reduce_ops import reduce_logsumexp
from ...ops.reshape_ops import reshape, transpose
from ...ops.unary_ops import softplus
from .loss import _SOBS, _const, _loss_class, _tensor, apply_mask, reduce_losses

__all__ = ["Circle", "circle"]


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
