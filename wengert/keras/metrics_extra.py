"""The rest of Keras 3's `keras.metrics` (TensorFlow 2.21):

    SensitivityAtSpecificity(s)   max TP/(TP+FN) over thresholds where TN/(TN+FP) >= s
    SpecificityAtSensitivity(s)   max TN/(TN+FP) over thresholds where TP/(TP+FN) >= s
    PrecisionAtRecall(r)          max TP/(TP+FP) over thresholds where TP/(TP+FN) >= r
    RecallAtPrecision(p)          max TP/(TP+FN) over thresholds where TP/(TP+FP) >= p
        (0 when no threshold qualifies; thresholds 0, 1/(n-1), ..., 1 counted as AUC's are)
    R2Score                       1 - SS_res / SS_tot per output column from running weighted
                                  sums, averaged uniformly or by variance; adjusted for
                                  num_regressors p as 1 - (1 - R2)(n - 1)/(n - p - 1)
    PearsonCorrelation            running mean of per-sample mean(z(y) z(p)) along `axis`
    ConcordanceCorrelation        running mean of per-sample 2 cov / (var_y + var_p + (mean_y -
                                  mean_p)^2 + eps), with Keras's covariance (y - mean_p)(p - mean_p)
    BinaryIoU                     IoU of the classes of y_true and (y_pred >= threshold)
    OneHotIoU / OneHotMeanIoU     IoU / MeanIoU of one-hot labels (argmax along `axis`)
"""
import warnings

import numpy as np

from ..framework.context import state
from ..ops.broadcast_ops import broadcast_to
from ..ops.reshape_ops import expand_dims
from ..ops.array_ops import where
from ..ops.binary_math_ops import divide_no_nan
from ..ops.math_ops import cast, greater_equal, less, maximum
from ..ops.reduce_ops import reduce_max, reduce_mean, reduce_std, reduce_sum
from ..ops.reduce_ops import reduce_variance
from ..ops.rounding_ops import is_inf
from ..ops.query_ops import size
from . import backend
from .metrics_base import Metric, _same_rank, _tensor, _wrapper
from .metrics_confusion import FN, FP, TN, TP, update_confusion_variables
from .metrics_more import IoU, MeanIoU

__all__ = ["SensitivityAtSpecificity", "SpecificityAtSensitivity", "PrecisionAtRecall",
           "RecallAtPrecision", "R2Score", "PearsonCorrelation", "ConcordanceCorrelation",
           "BinaryIoU", "OneHotIoU", "OneHotMeanIoU", "pearson_correlation",
           "concordance_correlation"]


# -- operating points on the ROC / PR curves --------------------------------------------------
class _AtConstraint(Metric):
    _arg = None  # the constructor's value argument ("specificity", "recall", ...)

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if not 0 <= value <= 1:
            raise ValueError(f"{type(self).__name__}: argument `{self._arg}` must be in the "
                             f"range [0, 1]. Received: {self._arg}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"{type(self).__name__}: `num_thresholds` must be an integer > "
                             f"0. Received: num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        setattr(self, self._arg, value)
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0] + inner + [1.0], True
        n = len(self.thresholds)
        for v in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, v, self.add_weight(v, shape=(n,)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_variables(
            {TP: self.true_positives, TN: self.true_negatives, FP: self.false_positives,
             FN: self.false_negatives}, y_true, y_pred, self.thresholds,
            class_id=self.class_id, sample_weight=sample_weight, evenly=self._evenly)

    def _rates(self):
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        return {"sensitivity": divide_no_nan(tp, tp + fn), "recall": divide_no_nan(tp, tp + fn),
                "specificity": divide_no_nan(tn, tn + fp), "precision": divide_no_nan(tp, tp + fp)}

    def result(self):
        rates = self._rates()
        constrained, dependent = rates[self._constrained], rates[self._dependent]
        feasible = greater_equal(constrained, cast(self.value, constrained.dtype))
        best = reduce_max(where(feasible, dependent, dependent * 0.0))
        return maximum(best, cast(0.0, best.dtype))

    def get_config(self):
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._arg: self.value}


def _at_class(class_name, arg, constrained, dependent, doc):
    def __init__(self, *args, **kwargs):
        if arg in kwargs:
            kwargs["value"] = kwargs.pop(arg)
        _AtConstraint.__init__(self, *args, **kwargs)
    return type(class_name, (_AtConstraint,), {
        "__init__": __init__, "_arg": arg, "_constrained": constrained,
        "_dependent": dependent, "__doc__": doc, "__module__": __name__})


SensitivityAtSpecificity = _at_class("SensitivityAtSpecificity", "specificity", "specificity",
                                     "sensitivity", "Best sensitivity with specificity >= s.")
SpecificityAtSensitivity = _at_class("SpecificityAtSensitivity", "sensitivity", "sensitivity",
                                     "specificity", "Best specificity with sensitivity >= s.")
PrecisionAtRecall = _at_class("PrecisionAtRecall", "recall", "recall", "precision",
                              "Best precision with recall >= r.")
RecallAtPrecision = _at_class("RecallAtPrecision", "precision", "precision", "recall",
                              "Best recall with precision >= p.")


# -- R2 ---------------------------------------------------------------------------------------
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


# -- correlations -----------------------------------------------------------------------------
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


# -- IoU variants -----------------------------------------------------------------------------
class BinaryIoU(IoU):
    """IoU of binary labels and predictions thresholded at `threshold` (>=)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name,
                         dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(_tensor(y_true), "int64")  # Keras casts labels to its int dtype
        y_pred = cast(greater_equal(cast(_tensor(y_pred), "float32"),
                                    cast(self.threshold, "float32")), "int64")
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class OneHotIoU(IoU):
    """IoU with one-hot labels (and probabilities, unless sparse_y_pred)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """MeanIoU with one-hot labels (and probabilities, unless sparse_y_pred)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


CLASSES = [SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall,
           RecallAtPrecision, R2Score, PearsonCorrelation, ConcordanceCorrelation, BinaryIoU,
           OneHotIoU, OneHotMeanIoU]
