"""The regression losses of `keras.losses`, per sample, reduced over the last axis
(eps = keras.backend.epsilon() = 1e-7; e = y_pred - y_true):

    mean_squared_error              mean(e^2)
    mean_absolute_error             mean(|e|)
    mean_absolute_percentage_error  100 mean(|e / max(|y|, eps)|)
    mean_squared_logarithmic_error  mean((log(max(p, eps) + 1) - log(max(y, eps) + 1))^2)
    huber(delta)                    mean(|e| <= delta ? e^2 / 2 : delta |e| - delta^2 / 2)
    log_cosh                        mean(e + softplus(-2 e) - log 2)
    cosine_similarity(axis)         -sum(normalize(y) normalize(p)),  normalize(x) =
                                    x min(rsqrt(sum x^2), 1 / eps)

Labels whose rank differs from the predictions' by a trailing axis of size 1 are squeezed first.
Each is written in wengert ops, so gradients come from the ops' own rules.
"""
import math

from ...ops.array_ops import where
from ...ops.math_ops import less_equal, maximum, minimum, square, subtract
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.unary_ops import abs as abs_, log, rsqrt, softplus
from .loss import LossFunctionWrapper, Reduction, _const, _eps, _loss_class, _pred_and_true

__all__ = ["MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredLogarithmicError", "Huber", "LogCosh", "CosineSimilarity",
           "mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
           "mean_squared_logarithmic_error", "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle",
           "MSLE", "huber", "log_cosh", "logcosh", "cosine_similarity"]


def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred)^2) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return reduce_mean(square(subtract(y_pred, y_true)), -1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return reduce_mean(abs_(subtract(y_pred, y_true)), -1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


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


def _l2_normalize(x, axis):
    """Keras's ops.normalize(order=2): x min(rsqrt(sum x^2), 1 / eps)."""
    inv_norm = rsqrt(reduce_sum(square(x), axis, keepdims=True))
    return x * minimum(inv_norm, _const(1.0 / 1e-7, x.dtype))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine similarity along `axis` (so minimizing it aligns the vectors)."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return -reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis)


# -- Loss classes ------------------------------------------------------------------------------
class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError",
                                          mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError",
                                          mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error")
Huber = _loss_class("Huber", huber, "huber_loss", [("delta", 1.0)])
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh")
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity",
                               [("axis", -1)])
