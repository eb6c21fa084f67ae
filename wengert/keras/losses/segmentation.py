"""The overlap losses of `keras.losses` for segmentation masks, over `axis` (all axes by
default), eps = 1e-7:

    dice(axis)                      1 - 2 sum(y p) / (sum y + sum p + eps)
    tversky(alpha, beta, axis)      1 - sum(y p) / (sum(y p) + alpha sum((1 - p) y)
                                    + beta sum(p (1 - y)) + eps)

Dice is Tversky with alpha = beta = 1/2. Gradients come from the ops.
"""
from ...ops.reduce_ops import reduce_sum
from .loss import _convert, _eps, _loss_class

__all__ = ["Dice", "Tversky", "dice", "tversky"]


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


Dice = _loss_class("Dice", dice, "dice", [("axis", None)])
Tversky = _loss_class("Tversky", tversky, "tversky", [("alpha", 0.5), ("beta", 0.5),
                                                      ("axis", None)])
