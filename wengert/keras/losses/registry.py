"""The names a Keras loss is known by, and `keras.losses.get / serialize / deserialize`.

A loss is given to `compile` (or to `get`) as a function name ('categorical_crossentropy',
'mse', ... any case), a class name ('CategoricalCrossentropy', built with its defaults), a
config dict ({"class_name": "Huber", "config": {...}}, as Keras 3 writes it), a Loss class or
instance, or any callable. `serialize` writes Keras 3's form (module "keras.losses", the class
name and its config; a function by name), which TensorFlow's Keras reads too.
"""
from .loss import Loss
from .margin import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .probabilistic import (CTC, BinaryCrossentropy, BinaryFocalCrossentropy,
                            CategoricalCrossentropy, CategoricalFocalCrossentropy,
                            CategoricalGeneralizedCrossEntropy, KLDivergence, Poisson,
                            SparseCategoricalCrossentropy, binary_crossentropy,
                            binary_focal_crossentropy, categorical_crossentropy,
                            categorical_focal_crossentropy, categorical_generalized_cross_entropy,
                            ctc, kl_divergence, poisson, sparse_categorical_crossentropy)
from .regression import (CosineSimilarity, Huber, LogCosh, MeanAbsoluteError,
                         MeanAbsolutePercentageError, MeanSquaredError,
                         MeanSquaredLogarithmicError, cosine_similarity, huber, log_cosh,
                         mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
                         mean_squared_logarithmic_error)
from .segmentation import Dice, Tversky, dice, tversky
from .similarity import Circle, circle

__all__ = ["get", "serialize", "deserialize"]

_FUNCTIONS = {"bce": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
              "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
              "binary_crossentropy": binary_crossentropy,
              "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
              "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error,
              "huber": huber, "log_cosh": log_cosh, "logcosh": log_cosh,
              "kl_divergence": kl_divergence, "kld": kl_divergence,
              "kullback_leibler_divergence": kl_divergence, "poisson": poisson,
              "cosine_similarity": cosine_similarity, "hinge": hinge,
              "squared_hinge": squared_hinge, "categorical_hinge": categorical_hinge,
              "mean_absolute_percentage_error": mean_absolute_percentage_error,
              "mape": mean_absolute_percentage_error,
              "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
              "msle": mean_squared_logarithmic_error,
              "binary_focal_crossentropy": binary_focal_crossentropy,
              "categorical_focal_crossentropy": categorical_focal_crossentropy,
              "dice": dice, "tversky": tversky, "ctc": ctc, "circle": circle,
              "categorical_generalized_cross_entropy": categorical_generalized_cross_entropy}
_CLASSES = {cls.__name__: cls for cls in (
    CategoricalCrossentropy, SparseCategoricalCrossentropy, BinaryCrossentropy,
    MeanSquaredError, MeanAbsoluteError, Dice, Tversky, CTC, CategoricalGeneralizedCrossEntropy,
    Circle, Huber, LogCosh, KLDivergence, Poisson, CosineSimilarity, Hinge, SquaredHinge,
    CategoricalHinge, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    BinaryFocalCrossentropy, CategoricalFocalCrossentropy)}


def get(identifier):
    """A loss function or Loss for a name ('categorical_crossentropy', 'mse', ...,
    'CategoricalCrossentropy'), a config dict ({"class_name": "Huber", "config": {...}}), a Loss
    instance, or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        if identifier.get("class_name") == "function":
            return get(identifier.get("config"))
        cls = _CLASSES.get(identifier.get("class_name"))
        if cls is None:
            raise ValueError(f"Unknown loss class: {identifier.get('class_name')!r}. Known: "
                             f"{', '.join(sorted(_CLASSES))}.")
        return cls.from_config(dict(identifier.get("config") or {}))
    if isinstance(identifier, str):
        if identifier in _CLASSES:
            return _CLASSES[identifier]()
        fn = _FUNCTIONS.get(identifier.lower())
        if fn is None:
            raise ValueError(f"Unknown loss function: {identifier!r}. Known: "
                             f"{', '.join(sorted(_FUNCTIONS))}.")
        return fn
    if isinstance(identifier, type) and issubclass(identifier, Loss):
        return identifier()
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret loss identifier: {identifier!r}.")


def serialize(loss):
    """Keras 3's serialized form: a config dict for a Loss, a function's record for a function."""
    if isinstance(loss, Loss):
        return {"module": "keras.losses", "class_name": type(loss).__name__,
                "config": loss.get_config(), "registered_name": None}
    name = getattr(loss, "__name__", None)
    if name is None:
        raise TypeError(f"serialize: cannot serialize {loss!r}; pass a Loss or a function.")
    return {"module": "keras.losses", "class_name": "function", "config": name,
            "registered_name": name}


def deserialize(config, custom_objects=None):
    """The loss of a serialized form (or a name)."""
    if isinstance(config, str) and custom_objects and config in custom_objects:
        return custom_objects[config]
    if isinstance(config, dict) and custom_objects and config.get("class_name") in \
            custom_objects:
        return custom_objects[config["class_name"]].from_config(config.get("config") or {})
    return get(config)
