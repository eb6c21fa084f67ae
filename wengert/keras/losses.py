"""Loss functions, as `keras.losses`: per-sample losses reduced to a mean over the batch.

With probabilities p (from_logits=False) Keras clips p to [eps, 1 - eps] (eps = 1e-7):
    categorical_crossentropy(y, p)  = -sum_k y_k log(p_k / sum_j p_j)            (last axis)
    sparse_categorical_crossentropy = -log p[label]      (p normalized and clipped as above)
    binary_crossentropy(y, p)       = -mean_k [y log p + (1 - y) log(1 - p)]   (Keras 3: no + eps)
With logits x (from_logits=True) the fused, stable ops are used instead:
softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy_with_logits and
sigmoid_cross_entropy_with_logits (max(x, 0) - x y + log(1 + exp(-|x|))), averaged over the last
axis for the binary loss. mean_squared_error = mean_k (y - p)^2, mean_absolute_error = mean_k |y - p|.
Label smoothing replaces y by y (1 - s) + s / classes (categorical) or y (1 - s) + s / 2 (binary).

Loss objects reduce the per-sample losses as in losses_base (Loss, Reduction,
LossFunctionWrapper live there). Like Keras, labels whose rank differs from the predictions' by a
trailing axis of size 1 are squeezed first. More losses (Huber, the hinges, the focal
cross-entropies, ...) are in losses_more and re-exported here.
"""
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.broadcast_ops import zeros_like
from ..ops.reshape_ops import expand_dims, reshape, squeeze
from ..ops.array_ops import where
from ..ops.nn import losses as loss_ops
from ..ops.math_ops import clip_by_value
from ..ops.math_ops import cast, not_equal, square, subtract
from ..ops.reduce_ops import reduce_mean, reduce_sum
from ..ops.unary_ops import abs as abs_
from ..ops.unary_ops import log
from . import losses_more
from .losses_base import (Loss, LossFunctionWrapper, Reduction, _eps, _pred_and_true,  # noqa
                          _scale_for_distribution, _squeeze_or_expand, _tensor, apply_mask,
                          reduce_losses)
from .losses_more import *  # noqa: F401,F403

__all__ = ["Loss", "Reduction", "LossFunctionWrapper", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "BinaryCrossentropy", "MeanSquaredError",
           "MeanAbsoluteError", "categorical_crossentropy", "sparse_categorical_crossentropy",
           "binary_crossentropy", "mean_squared_error", "mean_absolute_error", "mse", "mae",
           "get", "serialize", "deserialize"]


# -- functions --------------------------------------------------------------------------------
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Cross-entropy between one-hot (or probability) labels and predicted distributions."""
    y_pred = convert_to_tensor(y_pred) if not isinstance(y_pred, Tensor) else y_pred
    y_true = _tensor(y_true, y_pred.dtype)
    if label_smoothing:
        classes = y_pred.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return loss_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    eps = _eps(y_pred.dtype)
    y_pred = y_pred / reduce_sum(y_pred, axis, keepdims=True)
    y_pred = clip_by_value(y_pred, eps, 1.0 - eps)
    return -reduce_sum(y_true * log(y_pred), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1,
                                    ignore_class=None):
    """Cross-entropy between integer class labels and predicted distributions. With
    `ignore_class`, entries labelled with it lose 0 (and a Loss object averages over the rest)."""
    y_pred = convert_to_tensor(y_pred) if not isinstance(y_pred, Tensor) else y_pred
    y_true = _tensor(y_true)
    if not y_true.dtype.is_integer:
        y_true = cast(y_true, "int64")
    rank = y_pred.shape.rank
    if y_true.shape.rank == rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, [-1])
    if axis not in (-1, rank - 1):
        raise NotImplementedError("sparse_categorical_crossentropy: only axis=-1 is available.")
    valid = None
    if ignore_class is not None:
        valid = not_equal(y_true, cast(ignore_class, y_true.dtype))
        y_true = where(valid, y_true, zeros_like(y_true))
        y_pred = where(expand_dims(valid, -1), y_pred, zeros_like(y_pred))
    if not from_logits:
        eps = _eps(y_pred.dtype)
        y_pred = log(clip_by_value(y_pred, eps, 1.0 - eps))  # log_softmax(log p) normalizes p
    if rank is not None and rank > 2:
        batch_shape = tuple(y_pred.shape)[:-1]
        losses = loss_ops.sparse_softmax_cross_entropy_with_logits(
            labels=reshape(y_true, [-1]), logits=reshape(y_pred, [-1, y_pred.shape[-1]]))
        losses = reshape(losses, [-1 if d is None else d for d in batch_shape])
    else:
        losses = loss_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    if valid is not None:
        losses = where(valid, losses, zeros_like(losses))
    return losses


def _ignore_class_weights(y_true, ignore_class, sample_weight, reduction, dtype):
    """The sample weights with Keras's mask of the entries not labelled ignore_class."""
    labels = _tensor(y_true)
    return apply_mask(not_equal(labels, cast(ignore_class, labels.dtype)), sample_weight,
                      reduction, dtype)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy per element, averaged over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        losses = loss_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        eps = _eps(y_pred.dtype)
        p = clip_by_value(y_pred, eps, 1.0 - eps)
        losses = -(y_true * log(p) + (1.0 - y_true) * log(1.0 - p))
    return reduce_mean(losses, axis)


def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred)^2) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return reduce_mean(square(subtract(y_pred, y_true)), -1)


def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|) over the last axis."""
    y_true, y_pred = _pred_and_true(y_true, y_pred)
    return reduce_mean(abs_(subtract(y_pred, y_true)), -1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error

class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction=Reduction.AUTO,
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class)

    def __call__(self, y_true, y_pred, sample_weight=None):
        ignore_class = self._fn_kwargs["ignore_class"]
        if ignore_class is None:
            return super().__call__(y_true, y_pred, sample_weight)
        losses = self.call(y_true, y_pred)
        weights = _ignore_class_weights(y_true, ignore_class, sample_weight, self.reduction,
                                        losses.dtype)
        if weights.shape.rank is not None and weights.shape.rank > losses.shape.rank:
            weights = reshape(weights, [-1 if d is None else d for d in losses.shape])
        return reduce_losses(losses, weights, self.reduction)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


_FUNCTIONS = {"bce": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
              "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
              "binary_crossentropy": binary_crossentropy,
              "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
              "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error}
_CLASSES = {"CategoricalCrossentropy": CategoricalCrossentropy,
            "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy,
            "BinaryCrossentropy": BinaryCrossentropy, "MeanSquaredError": MeanSquaredError,
            "MeanAbsoluteError": MeanAbsoluteError}


__all__ += losses_more.__all__
_FUNCTIONS.update(losses_more.FUNCTIONS)
_CLASSES.update(losses_more.CLASSES)


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
