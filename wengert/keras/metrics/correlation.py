"""The correlation metrics of `keras.metrics` (Keras 3, TensorFlow 2.21):

    PearsonCorrelation            running mean of per-sample mean(z(y) z(p)) along `axis`
    ConcordanceCorrelation        running mean of per-sample 2 cov / (var_y + var_p + (mean_y -
                                  mean_p)^2 + eps), with Keras's covariance (y - mean_p)(p - mean_p)
z standardizes with the population standard deviation.
"""
from ...ops.math_ops import cast
from ...ops.reduce_ops import reduce_mean, reduce_std, reduce_variance
from .. import backend
from .metric import _same_rank, _tensor, _wrapper

__all__ = ["PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
           "concordance_correlation"]


def _pair(y_true, y_pred):
    y_pred = _tensor(y_pred)
    y_true = cast(_tensor(y_true), y_pred.dtype)
    return _same_rank(y_true, y_pred)


def pearson_correlation(y_true, y_pred, axis=-1):
    """mean(z(y_true) z(y_pred)) along axis, z standardizing with the population std."""
    y_true, y_pred = _pair(y_true, y_pred)
    t = y_true - reduce_mean(y_true, axis, keepdims=True)
    p = y_pred - reduce_mean(y_pred, axis, keepdims=True)
    t = t / reduce_std(t, axis, keepdims=True)
    p = p / reduce_std(p, axis, keepdims=True)
    return reduce_mean(t * p, axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation as Keras 3 computes it, along axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    t_mean = reduce_mean(y_true, axis, keepdims=True)
    p_mean = reduce_mean(y_pred, axis, keepdims=True)
    t_var = reduce_variance(y_true - t_mean, axis, keepdims=True)
    p_var = reduce_variance(y_pred - p_mean, axis, keepdims=True)
    covar = (y_true - p_mean) * (y_pred - p_mean)
    norm = t_var + p_var + (t_mean - p_mean) * (t_mean - p_mean)
    return reduce_mean(2.0 * covar / (norm + backend.epsilon()), axis)


PearsonCorrelation = _wrapper("PearsonCorrelation", pearson_correlation, "pearson_correlation",
                              axis=-1)
ConcordanceCorrelation = _wrapper("ConcordanceCorrelation", concordance_correlation,
                                  "concordance_correlation", axis=-1)
