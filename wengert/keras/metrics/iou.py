"""The intersection-over-union metrics of `keras.metrics` (Keras 3, TensorFlow 2.21).

IoU / MeanIoU keep a running confusion matrix C (rows true, columns predicted) of the integer
classes: IoU_c = C_cc / (sum_row + sum_col - C_cc + eps), averaged over the target classes with
a nonzero denominator (MeanIoU: all classes). BinaryIoU thresholds the predictions
(y_pred >= threshold) into classes 0 / 1; OneHotIoU / OneHotMeanIoU take one-hot labels (and
probabilities, unless sparse_y_pred), reduced by argmax along `axis`.
"""
import numpy as np

from ...ops.array_ops import where
from ...ops.broadcast_ops import broadcast_to
from ...ops.creation_ops import one_hot
from ...ops.indexing_ops import gather
from ...ops.math_ops import cast, greater, greater_equal, less, logical_and, not_equal
from ...ops.matmul_ops import matmul
from ...ops.matrix_ops import diag_part
from ...ops.reduce_ops import argmax, reduce_sum
from ...ops.reshape_ops import reshape, transpose
from .. import backend
from .metric import Metric, _tensor

__all__ = ["IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"]


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
