"""More `keras.metrics`, as Keras 3 (TensorFlow 2.21) computes them.

    RootMeanSquaredError          sqrt(running weighted mean of per-sample mean((y - p)^2))
    TopKCategoricalAccuracy       argmax(y_true) in the k largest predictions (ties count in)
    SparseTopKCategoricalAccuracy y_true in the k largest predictions
    FBetaScore / F1Score          per class, with predictions binarized (p > threshold, or the
                                  row's maxima when threshold is None):
                                  P = TP / (TP + FP + eps), R = TP / (TP + FN + eps),
                                  F = (1 + b^2) P R / (b^2 P + R + eps); averaged per `average`
                                  (None: per class; micro: from pooled counts; macro: mean;
                                  weighted: weighted by each class's true count)
    IoU / MeanIoU                 from the running confusion matrix C (rows true, columns
                                  predicted): IoU_c = C_cc / (sum_row + sum_col - C_cc + eps),
                                  averaged over target classes with a nonzero denominator
and running means of the per-sample losses under Keras's metric names: KLDivergence, Poisson,
CosineSimilarity (the similarity itself, not its negative), Hinge, SquaredHinge,
CategoricalHinge, LogCoshError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError.
"""
import numpy as np

from ..ops.broadcast_ops import broadcast_to
from ..ops.reshape_ops import reshape
from ..ops.reshape_ops import transpose
from ..ops.array_ops import where
from ..ops.matmul_ops import matmul
from ..ops.math_ops import cast, equal, greater, greater_equal, less, logical_and, not_equal
from ..ops.creation_ops import one_hot
from ..ops.indexing_ops import gather
from ..ops.matrix_ops import diag_part
from ..ops.reduce_ops import argmax, reduce_max, reduce_mean, reduce_sum
from ..ops.sort_ops import in_top_k
from ..ops.unary_ops import abs as abs_
from ..ops.unary_ops import sqrt
from . import backend
from . import losses_more
from .losses_base import _squeeze_or_expand
from .metrics_base import Mean, Metric, _tensor, _wrapper

__all__ = ["RootMeanSquaredError", "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy",
           "FBetaScore", "F1Score", "IoU", "MeanIoU", "KLDivergence", "Poisson",
           "CosineSimilarity", "Hinge", "SquaredHinge", "CategoricalHinge", "LogCoshError",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy"]


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


# -- top-k accuracy ---------------------------------------------------------------------------
def _top_k_matches(labels, y_pred, k):
    shape = tuple(labels.shape)
    if y_pred.shape.rank > 2:
        y_pred = reshape(y_pred, [-1, y_pred.shape[-1]])
    if labels.shape.rank > 1:
        labels = reshape(labels, [-1])
    matches = cast(in_top_k(cast(labels, "int32"), y_pred, k), backend.floatx())
    return reshape(matches, list(shape)) if len(shape) > 1 else matches


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where argmax(y_true) is among the k largest predictions."""
    y_pred = _tensor(y_pred)
    return _top_k_matches(argmax(_tensor(y_true), -1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1 where the integer label is among the k largest predictions (or, from_sorted_ids,
    among the first k ids of y_pred)."""
    y_pred, y_true = _tensor(y_pred), _tensor(y_true)
    if from_sorted_ids:
        if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
            y_true = reshape(y_true, [-1])
        hit = equal(reshape(cast(y_true, y_pred.dtype), [-1, 1]), y_pred[:, :k])
        return cast(reduce_max(cast(hit, "int32"), 1), backend.floatx())
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1 \
            and y_pred.shape.rank == 2:
        y_true = reshape(y_true, [-1])
    return _top_k_matches(y_true, y_pred, k)


class TopKCategoricalAccuracy(_wrapper("_TopK", top_k_categorical_accuracy,
                                       "top_k_categorical_accuracy")):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(name=name, dtype=dtype, k=k)
        self.k = k

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "k": self.k}


class SparseTopKCategoricalAccuracy(_wrapper("_SparseTopK", sparse_top_k_categorical_accuracy,
                                             "sparse_top_k_categorical_accuracy")):
    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None,
                 from_sorted_ids=False):
        super().__init__(name=name, dtype=dtype, k=k, from_sorted_ids=from_sorted_ids)
        self.k, self.from_sorted_ids = k, from_sorted_ids

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype, "k": self.k}
        if self.from_sorted_ids:
            config["from_sorted_ids"] = True
        return config


# -- F-scores ---------------------------------------------------------------------------------
class FBetaScore(Metric):
    """F-beta score per class, or averaged ("micro", "macro", "weighted")."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("FBetaScore: invalid `average`; expected one of None, 'micro', "
                             f"'macro', 'weighted'. Received: average={average!r}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError(f"FBetaScore: `beta` must be a Python float > 0. Received: {beta!r}")
        if threshold is not None and (not isinstance(threshold, float)
                                      or not 0.0 < threshold <= 1.0):
            raise ValueError("FBetaScore: `threshold` must be a Python float with "
                             f"0 < threshold <= 1. Received: {threshold!r}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2 or pred_shape[-1] is None:
            raise ValueError("FBetaScore expects 2D inputs with shape (batch_size, output_dim)."
                             f" Received y_pred.shape={pred_shape}, y_true.shape={true_shape}.")
        shape = () if self.average == "micro" else (pred_shape[-1],)
        for n in ("true_positives", "false_positives", "false_negatives",
                  "intermediate_weights"):
            setattr(self, n, self.add_weight(n, shape=shape))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(_tensor(y_true), self._dtype)
        y_pred = cast(_tensor(y_pred), self._dtype)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            top = reduce_max(y_pred, -1, keepdims=True)
            y_pred = logical_and(greater_equal(y_pred, top),
                                 greater(abs_(y_pred), cast(1e-9, self._dtype)))
        else:
            y_pred = greater(y_pred, cast(self.threshold, self._dtype))
        y_pred = cast(y_pred, self._dtype)
        weights = None if sample_weight is None else reshape(
            cast(_tensor(sample_weight), self._dtype), [-1, 1])

        def weighted_sum(value):
            return reduce_sum(value if weights is None else value * weights, self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1.0 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1.0 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self._built:
            return cast(0.0, self._dtype)
        eps = backend.epsilon()
        tp = self.true_positives.read_value()
        precision = tp / (tp + self.false_positives.read_value() + eps)
        recall = tp / (tp + self.false_negatives.read_value() + eps)
        b2 = self.beta ** 2
        f = precision * recall / (b2 * precision + recall + eps) * (1.0 + b2)
        if self.average == "weighted":
            w = self.intermediate_weights.read_value()
            return reduce_sum(f * (w / (reduce_sum(w) + eps)))
        if self.average is not None:
            return reduce_mean(f)
        return f

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """FBetaScore with beta = 1."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config


# -- IoU --------------------------------------------------------------------------------------
class IoU(Metric):
    """Intersection over union of the target classes, from a running confusion matrix."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype="float32" if dtype is None else dtype)
        # Keras keeps the matrix in dtype, "int" by default: float weights are truncated then
        self._int_weights = dtype is None or self._dtype.is_integer
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"IoU: target class id {max(target_class_ids)} is out of range, "
                             f"which is [0, {num_classes}).")
        self.num_classes, self.target_class_ids = num_classes, list(target_class_ids)
        self.ignore_class, self.axis = ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = self.add_weight("total_confusion_matrix",
                                        shape=(num_classes, num_classes), dtype="float64")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _tensor(y_true), _tensor(y_pred)
        if not self.sparse_y_true:
            y_true = argmax(y_true, self.axis)
        if not self.sparse_y_pred:
            y_pred = argmax(y_pred, self.axis)
        y_true = reshape(cast(y_true, "int64"), [-1])
        y_pred = reshape(cast(y_pred, "int64"), [-1])
        weights = 1.0 if sample_weight is None else _tensor(sample_weight)
        if self._int_weights:
            weights = cast(weights, "int64")
        weights = cast(weights, "float64")
        weights = broadcast_to(reshape(weights, [-1]), tuple(y_true.shape))
        n = np.int64(self.num_classes)
        zero = np.int64(0)
        valid = logical_and(logical_and(greater_equal(y_true, zero), less(y_true, n)),
                            logical_and(greater_equal(y_pred, zero), less(y_pred, n)))
        if self.ignore_class is not None:
            valid = logical_and(valid, not_equal(y_true, np.int64(self.ignore_class)))
        weights = where(valid, weights, weights * 0.0)
        rows = one_hot(y_true, self.num_classes, dtype="float64") * reshape(weights, [-1, 1])
        cols = one_hot(y_pred, self.num_classes, dtype="float64")
        self.total_cm.assign_add(matmul(transpose(rows), cols))

    def result(self):
        cm = self.total_cm.read_value()
        tp = diag_part(cm)
        denominator = reduce_sum(cm, 0) + reduce_sum(cm, 1) - tp
        ids = np.asarray(self.target_class_ids)
        tp = gather(tp, ids)
        denominator = gather(denominator, ids)
        valid = cast(greater(denominator, 1e-9), "float64")
        iou = where(greater(valid, 0.0), tp / (denominator + backend.epsilon()), valid * 0.0)
        value = reduce_sum(iou, self.axis) / (reduce_sum(valid) + backend.epsilon())
        return cast(value, "float32" if self._dtype.is_integer else self._dtype)

    def reset_state(self):
        self.total_cm.assign(np.zeros(self.total_cm.shape, np.float64))

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class MeanIoU(IoU):
    """IoU averaged over all num_classes classes."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["target_class_ids"]
        return config


# -- running means of the losses --------------------------------------------------------------
def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine similarity along `axis` (the loss's negative)."""
    return -losses_more.cosine_similarity(y_true, y_pred, axis=axis)


KLDivergence = _wrapper("KLDivergence", losses_more.kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", losses_more.poisson, "poisson")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity", axis=-1)
Hinge = _wrapper("Hinge", losses_more.hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", losses_more.squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", losses_more.categorical_hinge,
                            "categorical_hinge")
LogCoshError = _wrapper("LogCoshError", losses_more.log_cosh, "logcosh")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       losses_more.mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError",
                                       losses_more.mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")

CLASSES = [RootMeanSquaredError, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy,
           FBetaScore, F1Score, KLDivergence, Poisson, CosineSimilarity, Hinge, SquaredHinge,
           CategoricalHinge, LogCoshError, MeanAbsolutePercentageError,
           MeanSquaredLogarithmicError]
