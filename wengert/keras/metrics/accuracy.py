"""The accuracy metrics of `keras.metrics`: running means of per-sample 0/1 matches.

    Accuracy:                       y_pred == y_true
    BinaryAccuracy:                 (y_pred > threshold) == y_true, averaged over the last axis
    CategoricalAccuracy:            argmax(y_pred) == argmax(y_true)   (one-hot labels)
    SparseCategoricalAccuracy:      argmax(y_pred) == y_true           (integer labels)
    TopKCategoricalAccuracy:        argmax(y_true) in the k largest predictions (ties count in)
    SparseTopKCategoricalAccuracy:  y_true in the k largest predictions (or, from_sorted_ids,
                                    among the first k ids of y_pred)
"""
from ...ops.math_ops import cast, equal, greater
from ...ops.reduce_ops import argmax, reduce_max, reduce_mean
from ...ops.reshape_ops import reshape, squeeze
from ...ops.sort_ops import in_top_k
from .. import backend
from ..losses.loss import _squeeze_or_expand
from .metric import _tensor, _wrapper

__all__ = ["Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
           "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "accuracy",
           "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy"]


def accuracy(y_true, y_pred):
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    y_true, y_pred = _squeeze_or_expand(y_true, y_pred)
    if y_true.dtype is not y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    return cast(equal(y_true, y_pred), backend.floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = _tensor(y_pred)
    y_true = _tensor(y_true)
    y_true, y_pred = _squeeze_or_expand(y_true, y_pred)
    predicted = cast(greater(y_pred, cast(threshold, y_pred.dtype)), y_pred.dtype)
    if y_true.dtype is not y_pred.dtype:
        y_true = cast(y_true, y_pred.dtype)
    return reduce_mean(cast(equal(y_true, predicted), backend.floatx()), -1)


def categorical_accuracy(y_true, y_pred):
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    return cast(equal(argmax(y_true, -1), argmax(y_pred, -1)), backend.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    y_true, y_pred = _tensor(y_true), _tensor(y_pred)
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, [-1])
    predicted = argmax(y_pred, -1)
    if y_true.dtype is not predicted.dtype:
        y_true = cast(y_true, predicted.dtype)
    return cast(equal(y_true, predicted), backend.floatx())


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


# -- metric objects -----------------------------------------------------------------------------
Accuracy = _wrapper("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "binary_accuracy", threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy,
                               "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "sparse_categorical_accuracy")


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
