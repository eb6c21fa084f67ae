"""The names a Keras loss is known by, and `keras.losses.get / serialize / deserialize`.

A loss is given to `compile` (or to `get`) as a function name ('categorical_crossentropy',
'mse', ... any case), a class name ('CategoricalCrossentropy', built with its defaults), a
config dict ({"class_name": "Huber", "config": {...}}, as Keras 3 writes it), a Loss class or
instance, or any callable. `serialize` writes Keras 3's form (module "keras.losses", the class
name and its config; a function by name), which TensorFlow's Keras reads too. The three
functions are keras/registry.py's, over this module's table of names.

"crossentropy" and "ce" (which Keras 3's compile takes) are the cross-entropy the shapes call
for, chosen at each call as Keras chooses it: binary when the predictions have one column,
sparse categorical when the targets have fewer axes than the predictions (or one column
against several), categorical otherwise.
"""
from ..registry import Registry, lower
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


def crossentropy(y_true, y_pred):
    """The cross-entropy the shapes of y_true and y_pred call for (see the module docstring)."""
    t_shape, p_shape = tuple(y_true.shape), tuple(y_pred.shape)
    p_last = p_shape[-1] if p_shape else None
    if p_last == 1:
        return binary_crossentropy(y_true, y_pred)
    t_last = t_shape[-1] if t_shape else None
    if len(t_shape) < len(p_shape) or (t_last == 1 and p_last is not None and p_last > 1):
        return sparse_categorical_crossentropy(y_true, y_pred)
    return categorical_crossentropy(y_true, y_pred)


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
              "categorical_generalized_cross_entropy": categorical_generalized_cross_entropy,
              "crossentropy": crossentropy, "ce": crossentropy}
_CLASSES = {cls.__name__: cls for cls in (
    CategoricalCrossentropy, SparseCategoricalCrossentropy, BinaryCrossentropy,
    MeanSquaredError, MeanAbsoluteError, Dice, Tversky, CTC, CategoricalGeneralizedCrossEntropy,
    Circle, Huber, LogCosh, KLDivergence, Poisson, CosineSimilarity, Hinge, SquaredHinge,
    CategoricalHinge, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    BinaryFocalCrossentropy, CategoricalFocalCrossentropy)}
_REGISTRY = Registry("loss function", "keras.losses", {**_FUNCTIONS, **_CLASSES}, base=Loss,
                     folds=(lower,), hint="pass a Loss or a function")
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
