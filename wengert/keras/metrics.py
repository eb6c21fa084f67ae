"""Metrics, as `keras.metrics`: running means of per-sample values over batches.

A metric keeps its state in non-trainable Variables (`total`, `count`): `update_state(...)` adds
a batch, `result()` is total / count (0 before any update), `reset_state()` zeroes it, and
calling the metric does an update and returns the result. The accuracy variants compare
per-sample predictions with labels and average the 0/1 matches:
    Accuracy:                   y_pred == y_true
    BinaryAccuracy:             (y_pred > threshold) == y_true, averaged over the last axis
    CategoricalAccuracy:        argmax(y_pred) == argmax(y_true)   (one-hot labels)
    SparseCategoricalAccuracy:  argmax(y_pred) == y_true           (integer labels)
Metric, Mean, Sum and MeanMetricWrapper live in metrics_base; the confusion-matrix metrics
(Precision, Recall, AUC, ...) in metrics_confusion, top-k accuracy, F1, IoU, RMSE and the
loss-named metrics in metrics_more, and the operating-point, R2, correlation and IoU variants in
metrics_extra; all are re-exported here.
"""
from ..ops.reshape_ops import squeeze
from ..ops.math_ops import cast, equal, greater
from ..ops.reduce_ops import argmax, reduce_mean
from . import backend
from .metrics_base import Mean, MeanMetricWrapper, Metric, Sum, _tensor, _wrapper  # noqa: F401
from . import metrics_confusion, metrics_extra, metrics_more
from .metrics_confusion import *  # noqa: F401,F403
from .metrics_extra import *  # noqa: F401,F403
from .metrics_more import *  # noqa: F401,F403
from .losses import (_squeeze_or_expand, binary_crossentropy, categorical_crossentropy,
                     mean_absolute_error, mean_squared_error, sparse_categorical_crossentropy)

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "BinaryCrossentropy", "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy", "get", "serialize", "deserialize"]
__all__ += metrics_confusion.__all__ + metrics_more.__all__ + metrics_extra.__all__


# -- per-sample functions ---------------------------------------------------------------------
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


# -- metric objects ---------------------------------------------------------------------------
Accuracy = _wrapper("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "binary_accuracy", threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy,
                               "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "sparse_categorical_accuracy")
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy")
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy",
                                         sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy")

_BY_NAME = {"accuracy": Accuracy, "binary_accuracy": BinaryAccuracy,
            "categorical_accuracy": CategoricalAccuracy,
            "sparse_categorical_accuracy": SparseCategoricalAccuracy,
            "mean_squared_error": MeanSquaredError, "mse": MeanSquaredError,
            "mean_absolute_error": MeanAbsoluteError, "mae": MeanAbsoluteError,
            "categorical_crossentropy": CategoricalCrossentropy,
            "sparse_categorical_crossentropy": SparseCategoricalCrossentropy,
            "binary_crossentropy": BinaryCrossentropy}
for _cls in (metrics_confusion.TruePositives, metrics_confusion.FalsePositives,
             metrics_confusion.TrueNegatives, metrics_confusion.FalseNegatives,
             metrics_confusion.Precision, metrics_confusion.Recall, metrics_confusion.AUC,
             metrics_more.IoU, metrics_more.MeanIoU, *metrics_more.CLASSES,
             *metrics_extra.CLASSES, Accuracy,
             BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy, MeanSquaredError,
             MeanAbsoluteError, CategoricalCrossentropy, SparseCategoricalCrossentropy,
             BinaryCrossentropy):
    _BY_NAME.setdefault(_cls.__name__, _cls)
    _BY_NAME.setdefault(backend.to_snake_case(_cls.__name__), _cls)
_BY_NAME.update({"mape": metrics_more.MeanAbsolutePercentageError,
                 "msle": metrics_more.MeanSquaredLogarithmicError,
                 "bce": BinaryCrossentropy, "logcosh": metrics_more.LogCoshError,
                 "kld": metrics_more.KLDivergence, "rmse": metrics_more.RootMeanSquaredError})


def get(identifier):
    """A Metric for a name, class, instance or function (wrapped in a running mean). The
    loss-dependent names "accuracy"/"acc" are resolved by Model.compile, not here."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, dict):  # {"class_name": "AUC", "config": {...}}
        if identifier.get("class_name") == "function":
            return get(identifier.get("config"))
        cls = _BY_NAME.get(identifier.get("class_name"))
        if cls is None:
            raise ValueError(f"Unknown metric class: {identifier.get('class_name')!r}.")
        return cls(**dict(identifier.get("config") or {}))
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier) or _BY_NAME.get(backend.to_snake_case(identifier))
        if cls is None:
            raise ValueError(f"Unknown metric function: {identifier!r}. Known: "
                             f"{', '.join(sorted(_BY_NAME))}, or pass a Metric or a function.")
        return cls(name=identifier)
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise TypeError(f"Could not interpret metric identifier: {identifier!r}.")


def serialize(metric):
    """Keras 3's serialized form of a Metric: its module, class name and config."""
    if not isinstance(metric, Metric):
        raise TypeError(f"serialize: expected a Metric, got {metric!r}.")
    return {"module": "keras.metrics", "class_name": type(metric).__name__,
            "config": metric.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """The Metric of a serialized form (or a name)."""
    if isinstance(config, dict) and custom_objects and config.get("class_name") in \
            custom_objects:
        return custom_objects[config["class_name"]](**(config.get("config") or {}))
    return get(config)
