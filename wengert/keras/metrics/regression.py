"""The regression metrics of `keras.metrics`, as Keras 3 (TensorFlow 2.21) computes them:

    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, LogCoshError
                                  running means of the per-sample losses (losses/regression.py)
    CosineSimilarity              running mean of the cosine similarity (not its negative)
    RootMeanSquaredError          sqrt(running weighted mean of per-sample mean((y - p)^2))
    R2Score                       1 - SS_res / SS_tot per output column from running weighted
                                  sums, averaged uniformly or by variance; adjusted for
                                  num_regressors p as 1 - (1 - R2)(n - 1)/(n - p - 1)
"""
import warnings

import numpy as np

from ...framework.context import state
from ...ops.array_ops import where
from ...ops.binary_math_ops import divide_no_nan
from ...ops.broadcast_ops import broadcast_to
from ...ops.math_ops import cast, less
from ...ops.query_ops import size
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims
from ...ops.rounding_ops import is_inf
from ...ops.unary_ops import sqrt
from ..losses.loss import _squeeze_or_expand
from ..losses.regression import (cosine_similarity as cosine_loss, log_cosh, mean_absolute_error,
                                 mean_absolute_percentage_error, mean_squared_error,
                                 mean_squared_logarithmic_error)
from .metric import Mean, Metric, _same_rank, _tensor, _wrapper

__all__ = ["MeanSquaredError", "MeanAbsoluteError", "RootMeanSquaredError",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "LogCoshError",
           "CosineSimilarity", "R2Score"]


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
LogCoshError = _wrapper("LogCoshError", log_cosh, "logcosh")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError",
                                       mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine similarity along `axis` (the loss's negative)."""
    return -cosine_loss(y_true, y_pred, axis=axis)


CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity", axis=-1)


class RootMeanSquaredError(Mean):
    """sqrt of the running (weighted) mean squared error."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(_tensor(y_true), self._dtype)
        y_pred = cast(_tensor(y_pred), self._dtype)
        y_true, y_pred = _squeeze_or_expand(y_true, y_pred)
        error_sq = (y_pred - y_true) * (y_pred - y_true)
        if error_sq.shape.rank and error_sq.shape.rank > 1:
            error_sq = reduce_mean(error_sq, list(range(1, error_sq.shape.rank)))
        super().update_state(error_sq, sample_weight)

    def result(self):
        return sqrt(super().result())


# -- R2 -----------------------------------------------------------------------------------------
class R2Score(Metric):
    """Coefficient of determination per output, aggregated per `class_aggregation`."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in (None, "uniform_average", "variance_weighted_average"):
            raise ValueError("R2Score: invalid `class_aggregation`; expected one of None, "
                             "'uniform_average', 'variance_weighted_average'. Received: "
                             f"{class_aggregation!r}")
        if num_regressors < 0:
            raise ValueError(f"R2Score: `num_regressors` must be >= 0. Received: "
                             f"{num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_weight("num_samples")
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2 or pred_shape[-1] is None:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received y_pred.shape={pred_shape}, y_true.shape={true_shape}.")
        k = pred_shape[-1]
        self.squared_sum = self.add_weight("squared_sum", shape=(k,))
        self.sum = self.add_weight("sum", shape=(k,))
        self.total_mse = self.add_weight("residual", shape=(k,))
        self.count = self.add_weight("count", shape=(k,))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(_tensor(y_true), self._dtype)
        y_pred = cast(_tensor(y_pred), self._dtype)
        y_true, y_pred = _same_rank(y_true, y_pred)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        w = cast(_tensor(1.0 if sample_weight is None else sample_weight), self._dtype)
        if w.shape.rank == 1:
            w = expand_dims(w, 1)
        w = broadcast_to(w, tuple(y_true.shape))
        weighted = y_true * w
        self.sum.assign_add(reduce_sum(weighted, 0))
        self.squared_sum.assign_add(reduce_sum(y_true * weighted, 0))
        self.total_mse.assign_add(reduce_sum((y_true - y_pred) * (y_true - y_pred) * w, 0))
        self.count.assign_add(reduce_sum(w, 0))
        self.num_samples.assign_add(cast(size(y_true), self._dtype))

    def result(self):
        if not self._built:
            return cast(np.nan, self._dtype)
        s = self.sum.read_value()
        mean = s / self.count.read_value()
        total = self.squared_sum.read_value() - s * mean
        raw = 1.0 - self.total_mse.read_value() / total
        raw = where(is_inf(raw), raw * 0.0, raw)
        if self.class_aggregation == "uniform_average":
            r2 = reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            r2 = reduce_sum(total * raw) / reduce_sum(total)
        else:
            r2 = raw
        if self.num_regressors:
            n = self.num_samples.read_value()
            p = cast(float(self.num_regressors), n.dtype)
            if state.graph is None and float(p) >= float(n) - 1:
                warnings.warn("R2Score: at least as many regressors as data points - 1; "
                              "falling back to the standard R2 score.", stacklevel=2)
            adjusted = 1.0 - (1.0 - r2) * divide_no_nan(n - 1.0, n - p - 1.0)
            r2 = where(less(p, n - 1.0), adjusted, r2)
        return r2

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
