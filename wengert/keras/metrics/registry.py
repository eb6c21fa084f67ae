"""The names a Keras metric is known by, and `keras.metrics.get / serialize / deserialize`.

A metric is given to `compile` (or to `get`) as a name ('mse', 'binary_accuracy', 'AUC',
'auc', ...: a class name or its snake_case form, or one of Keras's short aliases), a config dict
({"class_name": "AUC", "config": {...}}), a Metric class or instance, or a function of
(y_true, y_pred), which becomes the running mean of its values. The loss-dependent names
"accuracy"/"acc" are resolved by Model.compile. `serialize` writes Keras 3's form (module
"keras.metrics", class name and config). The three functions are keras/registry.py's,
over this module's table of names.
"""
from .. import backend
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

__all__ = ["get", "serialize", "deserialize"]

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
            "logcosh": LogCoshError, "kld": KLDivergence, "rmse": RootMeanSquaredError}


def _by_name():
    """{class name, its snake_case name, or Keras's alias: class}; the first class to claim a
    name keeps it."""
    table = {}
    for cls in _CLASSES:
        table.setdefault(cls.__name__, cls)
        table.setdefault(backend.to_snake_case(cls.__name__), cls)
    table.update(_ALIASES)
    return table


_BY_NAME = _by_name()
_REGISTRY = Registry("metric function", "keras.metrics", _BY_NAME, base=Metric,
                     folds=(snake_case,), default=REFUSE, make=lambda cls, name: cls(name=name),
                     wrap=MeanMetricWrapper, hint="pass a Metric or a function")
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
