"""The names a Keras metric is known by, and `keras.metrics.get / serialize / deserialize`.

A metric is given to `compile` (or to `get`) as a name ('mse', 'binary_accuracy', 'AUC',
'auc', ...: a class name or its snake_case form, or one of Keras's short aliases), a config dict
({"class_name": "AUC", "config": {...}}), a Metric class or instance, or a function of
(y_true, y_pred), which becomes the running mean of its values. The loss-dependent names
"accuracy"/"acc" are resolved by Model.compile. `serialize` writes Keras 3's form (module
"keras.metrics", class name and config). The three functions are keras/registry.py's,
over this module's table of names.

`get(name)` builds the metric with its default name, as Keras 3 does (get("mse").name is
"mean_squared_error"); `named(name)`, compile's form, names it as given, so the History key is
the string the user wrote ("mse"). The loss functions Keras 2 took as metrics
(binary_focal_crossentropy, categorical_focal_crossentropy, huber, log_cosh,
kullback_leibler_divergence) are known too, as the running mean of the function.
"""
import inspect

from .. import backend
from ..losses import (binary_focal_crossentropy, categorical_focal_crossentropy, huber,
                      kl_divergence, log_cosh)
from ..registry import REFUSE, Registry, snake_case
from .accuracy import (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
                       SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy)
from .confusion import (AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall,
                        RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity,
                        TrueNegatives, TruePositives)
from .correlation import ConcordanceCorrelation, PearsonCorrelation
from .f_score import F1Score, FBetaScore
from .iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from .margin import CategoricalHinge, Hinge, SquaredHinge
from .metric import MeanMetricWrapper, Metric
from .probabilistic import (BinaryCrossentropy, CategoricalCrossentropy, KLDivergence, Poisson,
                            SparseCategoricalCrossentropy)
from .regression import (CosineSimilarity, LogCoshError, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, R2Score, RootMeanSquaredError)

__all__ = ["get", "serialize", "deserialize", "named"]

_CLASSES = (TruePositives, FalsePositives, TrueNegatives, FalseNegatives, Precision, Recall, AUC,
            IoU, MeanIoU, RootMeanSquaredError, TopKCategoricalAccuracy,
            SparseTopKCategoricalAccuracy, FBetaScore, F1Score, KLDivergence, Poisson,
            CosineSimilarity, Hinge, SquaredHinge, CategoricalHinge, LogCoshError,
            MeanAbsolutePercentageError, MeanSquaredLogarithmicError, SensitivityAtSpecificity,
            SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision, R2Score,
            PearsonCorrelation, ConcordanceCorrelation, BinaryIoU, OneHotIoU, OneHotMeanIoU,
            Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
            MeanSquaredError, MeanAbsoluteError, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, BinaryCrossentropy)
_ALIASES = {"mse": MeanSquaredError, "mae": MeanAbsoluteError, "mape": MeanAbsolutePercentageError,
            "msle": MeanSquaredLogarithmicError, "bce": BinaryCrossentropy,
            "logcosh": LogCoshError, "kld": KLDivergence, "rmse": RootMeanSquaredError,
            "BCE": BinaryCrossentropy, "MSE": MeanSquaredError, "MAE": MeanAbsoluteError,
            "MAPE": MeanAbsolutePercentageError, "MSLE": MeanSquaredLogarithmicError}
_FUNCTIONS = {"binary_focal_crossentropy": binary_focal_crossentropy,
              "categorical_focal_crossentropy": categorical_focal_crossentropy, "huber": huber,
              "log_cosh": log_cosh, "kullback_leibler_divergence": kl_divergence}


def _by_name():
    """{class name, its snake_case name, or Keras's alias: class}; the first class to claim a
    name keeps it."""
    table = {}
    for cls in _CLASSES:
        table.setdefault(cls.__name__, cls)
        table.setdefault(backend.to_snake_case(cls.__name__), cls)
    table.update(_ALIASES)
    for name, fn in _FUNCTIONS.items():
        table.setdefault(name, fn)
    return table


class _MetricRegistry(Registry):
    """keras/registry.py's Registry, whose names may also stand for a loss function (built as
    the running mean of it)."""

    def _built(self, obj, name):
        if inspect.isclass(obj):
            return self.make(obj, name)
        return MeanMetricWrapper(obj, name=self.make(None, name))


def _registry(make):
    return _MetricRegistry("metric function", "keras.metrics", _BY_NAME, base=Metric,
                           folds=(snake_case,), default=REFUSE, make=make,
                           wrap=MeanMetricWrapper, hint="pass a Metric or a function")


def _default_name(cls, name):
    return cls() if cls is not None else name


def _given_name(cls, name):
    return cls(name=name) if cls is not None else name


_BY_NAME = _by_name()
_REGISTRY = _registry(_default_name)
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
_NAMED = _registry(_given_name)


def named(identifier):
    """compile's metric for `identifier`: as `get`, but a metric given by name carries that
    name ("mse" logs as "mse")."""
    return _NAMED.get(identifier)
