"""Confusion-matrix metrics, as `keras.metrics` (Keras 3, TensorFlow 2.21): TruePositives,
FalsePositives, TrueNegatives, FalseNegatives, Precision, Recall, AUC and the operating points
(SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision).

Each keeps weighted counts per threshold t: with labels y (cast to bool) and predictions p,
    TP(t) = sum w [y and p > t],   FP(t) = sum w [not y and p > t],
    FN(t) = sum w [y and p <= t],  TN(t) = sum w [not y and p <= t],
over every entry (or per label column with AUC's multi_label). Precision = TP / (TP + FP) and
Recall = TP / (TP + FN) (0 when empty); top_k keeps only each row's k largest predictions,
class_id one column. For evenly spaced thresholds Keras buckets the predictions, clipped to
[0, 1], by ceil(p (T - 1)) - 1 (floored at 0 when the end thresholds are -eps and 1 + eps, as
AUC's are), and counts TP(t) as the reverse cumulative sum of the buckets; so does this module.
AUC sums the ROC (or PR) curve over its num_thresholds points: interpolation uses trapezoid
heights (for PR, Davis & Goadrich's interpolation of precision between the points), minoring /
majoring the smaller / larger neighbour.

The operating points on those curves keep the four counts at num_thresholds evenly spaced
thresholds 0, 1/(n-1), ..., 1 (counted as AUC's are):
    SensitivityAtSpecificity(s)   max TP/(TP+FN) over thresholds where TN/(TN+FP) >= s
    SpecificityAtSensitivity(s)   max TN/(TN+FP) over thresholds where TP/(TP+FN) >= s
    PrecisionAtRecall(r)          max TP/(TP+FP) over thresholds where TP/(TP+FN) >= r
    RecallAtPrecision(p)          max TP/(TP+FN) over thresholds where TP/(TP+FP) >= p
(0 when no threshold qualifies).
"""
import numpy as np

from ...ops.array_ops import where
from ...ops.binary_math_ops import divide_no_nan
from ...ops.broadcast_ops import broadcast_to, ones_like
from ...ops.creation_ops import one_hot
from ...ops.math_ops import cast, greater, greater_equal, logical_and, maximum, minimum, multiply
from ...ops.nn.activations import relu
from ...ops.reduce_ops import reduce_max, reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims, reshape, transpose
from ...ops.scan_ops import cumsum
from ...ops.rounding_ops import ceil
from ...ops.sort_ops import top_k as top_k_op
from ...ops.unary_ops import log, sigmoid
from .. import backend
from .metric import Metric, _same_rank, _tensor

__all__ = ["TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives", "Precision",
           "Recall", "AUC", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
           "PrecisionAtRecall", "RecallAtPrecision"]


NEG_INF = -1e10
TP, FP, TN, FN = "tp", "fp", "tn", "fn"


# -- thresholds -------------------------------------------------------------------------------
def _as_list(x):
    return list(x) if isinstance(x, (list, tuple, np.ndarray)) else [x]


def parse_thresholds(thresholds, default, owner):
    if thresholds is not None:
        bad = [t for t in _as_list(thresholds) if t is None or t < 0 or t > 1]
        if bad:
            raise ValueError(f"{owner}: threshold values must be in [0, 1]. Received: {bad}")
    return [float(t) for t in _as_list(default if thresholds is None else thresholds)]


def evenly_distributed(thresholds):
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return bool(np.allclose(thresholds, even, atol=backend.epsilon()))


# -- the counting -----------------------------------------------------------------------------
def _filter_top_k(x, k):
    """x where it is among the k largest of its row, NEG_INF elsewhere."""
    _, idx = top_k_op(x, k)
    mask = reduce_sum(one_hot(idx, x.shape[-1], dtype=x.dtype), -2)
    return x * mask + NEG_INF * (1.0 - mask)


def update_confusion_variables(variables, y_true, y_pred, thresholds, top_k=None,
                               class_id=None, sample_weight=None, multi_label=False,
                               label_weights=None, evenly=False):
    """Add the batch's weighted TP/FP/TN/FN counts per threshold to `variables` ({key: var})."""
    dtype = next(iter(variables.values())).dtype
    y_true, y_pred = cast(_tensor(y_true), dtype), cast(_tensor(y_pred), dtype)
    y_pred, y_true = _same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = expand_dims(cast(_tensor(sample_weight), dtype), -1)
        _, sample_weight = _same_rank(y_true, sample_weight, expand_rank_1=False)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.shape.rank == 1:
            raise ValueError("update_state: with class_id, y_pred must have shape "
                             f"(num_samples, num_classes); got {tuple(y_pred.shape)}.")
        y_true = y_true[..., class_id:class_id + 1]
        y_pred = y_pred[..., class_id:class_id + 1]
    shape = tuple(y_pred.shape)
    weights = None
    if sample_weight is not None:
        weights = broadcast_to(sample_weight, shape)
    if label_weights is not None and not multi_label:
        lw = broadcast_to(expand_dims(cast(_tensor(label_weights), dtype), 0), shape)
        weights = lw if weights is None else weights * lw
    y_true = cast(cast(y_true, "bool"), dtype)
    if not multi_label:
        y_true, y_pred = reshape(y_true, [-1]), reshape(y_pred, [-1])
        weights = None if weights is None else reshape(weights, [-1])
    true_w = y_true if weights is None else y_true * weights
    false_w = (1.0 - y_true) if weights is None else (1.0 - y_true) * weights
    if evenly:
        counts = _bucket_counts(true_w, false_w, y_pred, thresholds, multi_label)
    else:
        counts = _compare_counts(true_w, false_w, y_pred, thresholds, multi_label)
    for key, variable in variables.items():
        variable.assign_add(counts[key])


def _bucket_counts(true_w, false_w, y_pred, thresholds, multi_label):
    n = len(thresholds)
    with_epsilon = thresholds[0] < 0.0 or thresholds[-1] > 1.0
    p = minimum(maximum(y_pred, cast(0.0, y_pred.dtype)), cast(1.0, y_pred.dtype))
    bucket = ceil(p * float(n - 1)) - 1.0
    if with_epsilon:
        bucket = relu(bucket)
    hot = one_hot(cast(bucket, "int32"), n, dtype=y_pred.dtype)  # [..., n]; -1 -> zeros
    tp_b = reduce_sum(hot * expand_dims(true_w, -1), 0)  # [n] or [labels, n]
    fp_b = reduce_sum(hot * expand_dims(false_w, -1), 0)
    tp, fp = cumsum(tp_b, axis=-1, reverse=True), cumsum(fp_b, axis=-1, reverse=True)
    if multi_label:
        tp, fp = transpose(tp), transpose(fp)
    total_true, total_false = reduce_sum(true_w, 0), reduce_sum(false_w, 0)
    return {TP: tp, FP: fp, FN: total_true - tp, TN: total_false - fp}


def _compare_counts(true_w, false_w, y_pred, thresholds, multi_label):
    t = cast(np.asarray(thresholds), y_pred.dtype)
    t = reshape(t, [-1, 1, 1] if multi_label else [-1, 1])
    positive = cast(greater(expand_dims(y_pred, 0), t), y_pred.dtype)  # [T, entries...]
    negative = 1.0 - positive
    true_w, false_w = expand_dims(true_w, 0), expand_dims(false_w, 0)
    return {TP: reduce_sum(positive * true_w, 1), FP: reduce_sum(positive * false_w, 1),
            FN: reduce_sum(negative * true_w, 1), TN: reduce_sum(negative * false_w, 1)}


# -- counts -----------------------------------------------------------------------------------
class _ConditionCount(Metric):
    _condition = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = parse_thresholds(thresholds, 0.5, type(self).__name__)
        self._evenly = evenly_distributed(self.thresholds)
        self.accumulator = self.add_weight("accumulator", shape=(len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_variables({self._condition: self.accumulator}, y_true, y_pred,
                                   self.thresholds, sample_weight=sample_weight,
                                   evenly=self._evenly)

    def result(self):
        value = self.accumulator.read_value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


def _count_class(class_name, condition, doc):
    return type(class_name, (_ConditionCount,), {"_condition": condition, "__doc__": doc,
                                                "__module__": __name__})


TruePositives = _count_class("TruePositives", TP, "Weighted count of true positives.")
FalsePositives = _count_class("FalsePositives", FP, "Weighted count of false positives.")
TrueNegatives = _count_class("TrueNegatives", TN, "Weighted count of true negatives.")
FalseNegatives = _count_class("FalseNegatives", FN, "Weighted count of false negatives.")


class _PrecisionRecall(Metric):
    _other = None  # FP for precision, FN for recall

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        self.thresholds = parse_thresholds(thresholds, 0.5 if top_k is None else NEG_INF,
                                           type(self).__name__)
        self._evenly = evenly_distributed(self.thresholds)
        n = len(self.thresholds)
        self.true_positives = self.add_weight("true_positives", shape=(n,))
        other = "false_positives" if self._other == FP else "false_negatives"
        self._other_var = self.add_weight(other, shape=(n,))
        setattr(self, other, self._other_var)

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_variables({TP: self.true_positives, self._other: self._other_var},
                                   y_true, y_pred, self.thresholds, top_k=self.top_k,
                                   class_id=self.class_id, sample_weight=sample_weight,
                                   evenly=self._evenly)

    def result(self):
        tp = self.true_positives.read_value()
        value = divide_no_nan(tp, tp + self._other_var.read_value())
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_PrecisionRecall):
    """TP / (TP + FP) per threshold (a scalar for one threshold)."""
    _other = FP


class Recall(_PrecisionRecall):
    """TP / (TP + FN) per threshold (a scalar for one threshold)."""
    _other = FN


# -- AUC --------------------------------------------------------------------------------------
_CURVES = {"roc": "ROC", "pr": "PR"}
_SUMMATIONS = ("interpolation", "minoring", "majoring")


class AUC(Metric):
    """Area under the ROC or PR curve, from counts at num_thresholds thresholds."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        curve_key = str(getattr(curve, "value", curve)).lower()
        if curve_key not in _CURVES:
            raise ValueError(f'AUC: invalid curve "{curve}"; expected "ROC" or "PR".')
        method = str(getattr(summation_method, "value", summation_method)).lower()
        if method not in _SUMMATIONS:
            raise ValueError(f'AUC: invalid summation_method "{summation_method}"; expected '
                             'one of "interpolation", "majoring", "minoring".')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            self.num_thresholds = len(inner) + 2
            self._evenly = evenly_distributed(np.array([0.0] + inner + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError("AUC: `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        eps = backend.epsilon()
        self._thresholds = [0.0 - eps] + inner + [1.0 + eps]
        self.curve, self.summation_method = _CURVES[curve_key], method
        super().__init__(name=name, dtype=dtype)
        self.multi_label, self.num_labels, self._from_logits = multi_label, num_labels, from_logits
        self.label_weights = (None if label_weights is None else
                              np.asarray(label_weights, self._dtype.as_numpy_dtype))
        self._built = False
        if multi_label:
            if num_labels:
                self._build([None, num_labels])
        else:
            if num_labels:
                raise ValueError("AUC: `num_labels` is needed only when `multi_label` is True.")
            self._build(None)

    @property
    def thresholds(self):
        return list(self._thresholds)

    def _build(self, shape):
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError("AUC: `y_pred` must have rank 2 when `multi_label=True`; got "
                                 f"shape {tuple(shape)}.")
            self._num_labels = shape[1]
            var_shape = (self.num_thresholds, self._num_labels)
        else:
            var_shape = (self.num_thresholds,)
        for n in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, n, self.add_weight(n, shape=var_shape))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _tensor(y_pred)
        if not self._built:
            self._build(tuple(y_pred.shape))
        if self._from_logits:
            y_pred = sigmoid(y_pred)
        update_confusion_variables(
            {TP: self.true_positives, TN: self.true_negatives, FP: self.false_positives,
             FN: self.false_negatives}, y_true, y_pred, self._thresholds,
            sample_weight=sample_weight, multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
            evenly=self._evenly)

    def _by_label(self, terms):
        if not self.multi_label:
            return reduce_sum(terms)
        by_label = reduce_sum(terms, 0)
        if self.label_weights is None:
            return reduce_mean(by_label)
        lw = cast(self.label_weights, by_label.dtype)
        return divide_no_nan(reduce_sum(by_label * lw), reduce_sum(lw))

    def _interpolate_pr_auc(self, tp, fp, fn):
        zero = cast(0.0, tp.dtype)
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = divide_no_nan(dtp, maximum(dp, zero))
        intercept = tp[1:] - multiply(slope, p[1:])
        safe_ratio = where(logical_and(greater(p[:-1], zero), greater(p[1:], zero)),
                           divide_no_nan(p[:-1], maximum(p[1:], zero)), ones_like(p[1:]))
        increment = divide_no_nan(slope * (dtp + intercept * log(safe_ratio)),
                                  maximum(tp[1:] + fn[1:], zero))
        return self._by_label(increment)

    def result(self):
        if not self._built:
            return cast(0.0, self._dtype)
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        recall = divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = divide_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, divide_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = minimum(y[:-1], y[1:])
        else:
            heights = maximum(y[:-1], y[1:])
        return self._by_label((x[:-1] - x[1:]) * heights)

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        lw = self.label_weights
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve, "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": None if lw is None else lw.tolist(),
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


# -- operating points on the ROC / PR curves ----------------------------------------------------
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
