"""The hinge losses of `keras.losses` (maximum-margin classification), per sample:

    hinge              mean(max(1 - y p, 0)) over the last axis
    squared_hinge      mean(max(1 - y p, 0)^2) over the last axis
    categorical_hinge  max(max((1 - y) p) - sum(y p) + 1, 0)

hinge and squared_hinge take labels in {-1, 1}; labels that are all 0 or 1 become -1 / 1 first
(Keras's rule). Gradients come from the ops (maximum sends the gradient to the larger side).
"""
from ...ops.math_ops import cast, equal, logical_or, maximum, square
from ...ops.reduce_ops import reduce_all, reduce_max, reduce_mean, reduce_sum
from .loss import _const, _convert, _loss_class

__all__ = ["Hinge", "SquaredHinge", "CategoricalHinge", "hinge", "squared_hinge",
           "categorical_hinge"]


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


Hinge = _loss_class("Hinge", hinge, "hinge")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
