"""`tf.compat.v1.losses`: TensorFlow 1's losses. Each computes per-element losses l (float32),
weighs them by w (broadcast to l's shape) and reduces them by `reduction`:

    NONE                     w * l
    SUM                      sum(w * l)
    MEAN                     sum(w * l) / sum(w)               (0 when sum(w) = 0)
    SUM_OVER_BATCH_SIZE      sum(w * l) / size(l)
    SUM_BY_NONZERO_WEIGHTS   sum(w * l) / count(w != 0)        the default

then casts back to the input's dtype and, in a graph, adds the result to `loss_collection`
(GraphKeys.LOSSES). The per-element losses, with p predictions, y labels, z logits:

    absolute_difference |p - y|        mean_squared_error (p - y)^2
    huber_loss          q^2 / 2 + delta (|p - y| - q), q = min(|p - y|, delta)
    log_loss            -y log(p + eps) - (1 - y) log(1 - p + eps)
    hinge_loss          max(0, 1 - (2y - 1) z)
    cosine_distance     1 - sum_axis(p * y)               (inputs already unit-normalised)
    sigmoid_cross_entropy, softmax_cross_entropy (labels smoothed by label_smoothing),
    sparse_softmax_cross_entropy: the nn ops of the same names.

`mean_pairwise_squared_error` compares the differences d = p - y of every pair of elements in a
sample: per sample 2 sum(d^2) / (n - 1) - 2 (sum d)^2 / (n (n - 1)), n the count of present
elements, weighted and summed. (Executing eagerly with one nonzero scalar weight, TensorFlow
takes n as the count of all elements of the batch, not of the sample; so does this.)
Weights must broadcast to the losses as TensorFlow requires: a scalar, or the losses' rank with
each dimension 1 or equal. `get_total_loss` adds the LOSSES and (by default) the
REGULARIZATION_LOSSES of the graph.
"""
from ..framework import dtypes
from ..framework.context import executing_eagerly
from ..framework.tensor import convert_to_tensor
from ..graph.collections import GraphKeys, add_to_collection, get_collection
from ..graph.graph import name_scope
from ..graph.regularization_losses import get_regularization_loss, get_regularization_losses
from ..ops import math_ops
from ..ops.array_ops import stop_gradient, where
from ..ops.binary_math_ops import divide_no_nan, squared_difference
from ..ops.broadcast_ops import add_n, broadcast_to, ones_like
from ..ops.cast_ops import cast
from ..ops.nn import losses as nn_losses
from ..ops.nn.activations import relu
from ..ops.query_ops import shape, size
from ..ops.reduce_ops import reduce_sum
from ..ops.reshape_ops import squeeze
from ..ops.unary_ops import abs as _abs, log, square

__all__ = ["Reduction", "absolute_difference", "add_loss", "compute_weighted_loss",
           "cosine_distance", "get_losses", "get_regularization_loss",
           "get_regularization_losses", "get_total_loss", "hinge_loss", "huber_loss",
           "log_loss", "mean_pairwise_squared_error", "mean_squared_error",
           "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


class Reduction:
    """How a weighted loss is reduced (see the module docstring)."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


# -- the collection ----------------------------------------------------------------------------
def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Add `loss` to the graph's `loss_collection` (nothing happens eagerly, as in TF 2)."""
    if loss_collection and not executing_eagerly():
        add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """The losses in `loss_collection` whose names match `scope`."""
    return get_collection(loss_collection, scope)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the graph's losses and (by default) its regularization losses."""
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    if not losses:
        raise ValueError("No losses found: add one with a tf.compat.v1.losses function or "
                         "add_loss, or give variables a regularizer.")
    return add_n(losses, name=name)


# -- weighting and reduction -------------------------------------------------------------------
def _num_present(losses, weights, per_batch=False):
    if per_batch and executing_eagerly() and weights.shape.rank == 0 and float(weights) != 0:
        return cast(size(losses), dtypes.float32)  # TF's eager shortcut: the whole count
    present = broadcast_to(cast(math_ops.not_equal(weights, 0.0), dtypes.float32),
                           shape(losses))
    if per_batch:
        return reduce_sum(present, axis=list(range(1, losses.shape.rank)), keepdims=True)
    return reduce_sum(present)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """`losses` weighted by `weights` and reduced by `reduction`, in losses' dtype."""
    Reduction.validate(reduction)
    with name_scope(scope, "weighted_loss", (losses, weights)):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = cast(losses, dtypes.float32)
        weights = cast(weights, dtypes.float32)
        _check_broadcastable(weights, losses)
        weighted = math_ops.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = divide_no_nan(loss, reduce_sum(ones_like(losses) * weights))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = divide_no_nan(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = divide_no_nan(loss, cast(size(losses), dtypes.float32))
        loss = cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _check_broadcastable(weights, values):
    """TensorFlow's ValueError unless `weights` is a scalar or has `values`' rank with every
    dimension 1 or equal (checked on the static shapes)."""
    w, v = weights.shape, values.shape
    if w.rank is None or v.rank is None or w.rank == 0:
        return
    if w.rank != v.rank:
        raise ValueError(f"weights can not be broadcast to values. values.rank={v.rank}. "
                         f"weights.rank={w.rank}. values.shape={v}. weights.shape={w}.")
    for a, b in zip(w.as_list(), v.as_list()):
        if a not in (None, 1) and b is not None and a != b:
            raise ValueError(f"weights can not be broadcast to values. weights.shape={w}, "
                             f"values.shape={v}.")


def _pair(labels, predictions, names=("labels", "predictions")):
    _not_none(labels, names[0], predictions, names[1])
    predictions = cast(predictions, dtypes.float32)
    labels = cast(labels, dtypes.float32)
    predictions.shape.merge_with(labels.shape)
    return labels, predictions


# -- the losses --------------------------------------------------------------------------------
def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted |predictions - labels|."""
    with name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        return compute_weighted_loss(_abs(predictions - labels), weights, scope,
                                     loss_collection, reduction=reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted (predictions - labels)^2."""
    with name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        return compute_weighted_loss(squared_difference(predictions, labels), weights, scope,
                                     loss_collection, reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted Huber loss: quadratic within `delta` of the label, linear beyond."""
    with name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        error = _abs(predictions - labels)
        quadratic = math_ops.minimum(error, delta)
        losses = 0.5 * square(quadratic) + delta * (error - quadratic)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted binary cross-entropy of probabilities `predictions`."""
    with name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        losses = (-labels * log(predictions + epsilon)
                  - (1 - labels) * log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted max(0, 1 - s z) for labels 0/1 mapped to signs s = -1/+1."""
    with name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
        labels, logits = _pair(labels, logits, ("labels", "logits"))
        losses = relu(1.0 - (2.0 * labels - 1.0) * logits)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """Weighted 1 - <predictions, labels> along `axis` (inputs unit-normalised by the caller)."""
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'.")
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    with name_scope(scope, "cosine_distance_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        losses = 1 - reduce_sum(predictions * labels, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted sigmoid cross-entropy; labels smoothed towards 1/2 by `label_smoothing`."""
    _not_none(multi_class_labels, "multi_class_labels", logits, "logits")
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    (logits, multi_class_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        labels = cast(multi_class_labels, logits.dtype)
        logits.shape.merge_with(labels.shape)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn_losses.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                             name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted softmax cross-entropy; labels smoothed towards uniform by `label_smoothing`."""
    _not_none(onehot_labels, "onehot_labels", logits, "logits")
    with name_scope(scope, "softmax_cross_entropy_loss",
                    (logits, onehot_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        labels = cast(onehot_labels, logits.dtype)
        logits.shape.merge_with(labels.shape)
        if label_smoothing > 0:
            classes = cast(shape(labels)[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        losses = nn_losses.softmax_cross_entropy_with_logits(
            labels=stop_gradient(labels), logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """Weighted softmax cross-entropy of integer class `labels`."""
    _not_none(labels, "labels", logits, "logits")
    with name_scope(scope, "sparse_softmax_cross_entropy_loss",
                    (logits, labels, weights)) as scope:
        labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
        weights = convert_to_tensor(weights)
        if labels.shape.rank == logits.shape.rank and labels.shape[-1] == 1:
            labels = squeeze(labels, [-1])
        if weights.shape.rank == labels.shape.rank + 1:
            weights = squeeze(weights, [-1])
        losses = nn_losses.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=GraphKeys.LOSSES):
    """Weighted mean of the squared differences between every pair of per-element errors of a
    sample (see the module docstring)."""
    with name_scope(scope, "mean_pairwise_squared_error",
                    (predictions, labels, weights)) as scope:
        labels, predictions = _pair(labels, predictions)
        weights = cast(weights, dtypes.float32)
        _check_broadcastable(weights, labels)
        diffs = predictions - labels
        axis = list(range(1, diffs.shape.rank))
        present = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * divide_no_nan(reduce_sum(square(diffs), axis=axis, keepdims=True),
                                    math_ops.maximum(present - 1, 0))
        term2 = 2.0 * divide_no_nan(square(reduce_sum(diffs, axis=axis, keepdims=True)),
                                    math_ops.maximum(present * (present - 1), 0))
        loss = reduce_sum((term1 - term2) * weights)
        loss = where(reduce_sum(present) > 0, loss, 0.0 * loss)
        add_loss(loss, loss_collection)
        return loss


def _not_none(first, first_name, second, second_name):
    for value, label in ((first, first_name), (second, second_name)):
        if value is None:
            raise ValueError(f"Argument `{label}` must not be None.")
