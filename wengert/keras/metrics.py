"""Metrics, as `keras.metrics`: running means of per-sample values over batches.

A metric keeps its state in non-trainable Variables (`total`, `count`): `update_state(...)` adds
a batch, `result()` is total / count (0 before any update), `reset_state()` zeroes it, and
calling the metric does an update and returns the result. The accuracy variants compare
per-sample predictions with labels and average the 0/1 matches:
    Accuracy:                   y_pred == y_true
    BinaryAccuracy:             (y_pred > threshold) == y_true, averaged over the last axis
    CategoricalAccuracy:        argmax(y_pred) == argmax(y_true)   (one-hot labels)
    SparseCategoricalAccuracy:  argmax(y_pred) == y_true           (integer labels)
Metrics are not Layers: a model does not count their state among its weights.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor, constant
from ..framework.variables import Variable
from ..ops.array_ops import squeeze
from ..ops.binary_math_ops import divide_no_nan
from ..ops.math_ops import cast, equal, greater, multiply
from ..ops.reduce_ops import argmax, reduce_mean, reduce_sum
from . import backend
from .losses import (_squeeze_or_expand, binary_crossentropy, categorical_crossentropy,
                     mean_absolute_error, mean_squared_error, sparse_categorical_crossentropy)

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "BinaryCrossentropy", "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy", "get"]


def _tensor(x):
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor(None)
    return constant(np.asarray(x))


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
class Metric:
    """Base class: `update_state`, `result`, `reset_state`; state in non-trainable Variables."""

    def __init__(self, name=None, dtype=None):
        self.name = name or backend.to_snake_case(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._variables = []

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def variables(self):
        return list(self._variables)

    non_trainable_variables = variables

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        if initializer != "zeros":
            raise NotImplementedError("Metric.add_weight: only zeros-initialized state.")
        dtype = dtypes.as_dtype(dtype or self._dtype)
        variable = Variable(np.zeros(shape, dtype.as_numpy_dtype), trainable=False,
                            name=f"{self.name}/{name}")
        self._variables.append(variable)
        return variable

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def reset_state(self):
        for v in self._variables:
            v.assign(np.zeros(v.shape, v.dtype.as_numpy_dtype))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r}>"


class _Reduce(Metric):
    def __init__(self, name=None, dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_weight("total")
        self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = _tensor(values)
        if values.dtype is not self._dtype:
            values = cast(values, self._dtype)
        if sample_weight is None:
            self.total.assign_add(reduce_sum(values))
            self.count.assign_add(np.asarray(_size(values), self._dtype.as_numpy_dtype))
            return
        weights = _tensor(sample_weight)
        if weights.dtype is not self._dtype:
            weights = cast(weights, self._dtype)
        while weights.shape.rank > values.shape.rank and weights.shape[-1] == 1:
            weights = squeeze(weights, [-1])
        weighted = multiply(values, weights)
        self.total.assign_add(reduce_sum(weighted))
        self.count.assign_add(reduce_sum(multiply(weights, _ones_like(values))))


def _size(t):
    n = 1
    for d in t.shape:
        n *= d
    return n


def _ones_like(t):
    return constant(np.ones(tuple(t.shape), t.dtype.as_numpy_dtype))


class Mean(_Reduce):
    """The (weighted) mean of all values given to update_state."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name, dtype)

    def result(self):
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class Sum(_Reduce):
    """The (weighted) sum of all values given to update_state."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)

    def result(self):
        return self.total.read_value()


class MeanMetricWrapper(Mean):
    """The running mean of fn(y_true, y_pred, **kwargs) over samples."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or fn.__name__, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)


def _wrapper(class_name, fn, default_name, **defaults):
    def __init__(self, name=default_name, dtype=None, **kwargs):
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **{**defaults, **kwargs})
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__module__": __name__,
                                                  "__doc__": f"Running mean of {fn.__name__}."})


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


def get(identifier):
    """A Metric for a name, class, instance or function (wrapped in a running mean). The
    loss-dependent names "accuracy"/"acc" are resolved by Model.compile, not here."""
    if isinstance(identifier, Metric):
        return identifier
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



