"""The names a Keras metric is known by, and `keras.metrics.get / serialize / deserialize`.

A metric is given to `compile` (or to `get`) as a name ('mse', 'binary_accuracy', 'AUC',
'auc', ...: a class name or its snake_case form, or one of Keras's short aliases), a config dict
({"class_name": "AUC", "config": {...}}), a Metric class or instance, or a function of
(y_true, y_pred), which becomes the running mean of its values. The loss-dependent names
"accuracy"/"acc" are resolved by Model.compile. `serialize` writes Keras 3's form (module
"keras.metrics", class name and config).
"""
from .. import backend
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
