"""TensorFlow 1's streaming means (`tf.compat.v1.metrics.mean` and the metrics built on it).

`mean` keeps two float32 variables, `total` and `count`. A batch of values x with weights w
(broadcast to x; 1 when absent) adds sum(w x) to total and sum(w) to count, and the metric is
total / count (0 while count is 0). The others are means of a per-element quantity:

    accuracy                  [p == y]                 mean_absolute_error   |p - y|
    mean_squared_error        (y - p)^2                root_mean_squared_error  sqrt(mean (y - p)^2)
    mean_relative_error       |y - p| / n (0 where n = 0, n the normalizer)
    mean_cosine_distance      1 - mean(sum_dim(p y))   (inputs already unit vectors)
    percentage_below          [x < threshold]

`mean_tensor` keeps a total and a count per element, of the values' static shape, and returns
the elementwise mean.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import where
from ..ops.broadcast_ops import ones_like, zeros_like
from ..ops.binary_math_ops import divide_no_nan, squared_difference
from ..ops.cast_ops import cast
from ..ops.math_ops import divide, equal, less, maximum, multiply, subtract
from ..ops.query_ops import size
from ..ops.reduce_ops import reduce_sum
from ..ops.unary_ops import abs as _abs, sqrt
from .metric_inputs import align, broadcast_weights, check_compatible, squeeze_pair
from .metric_variables import finish, graph_only, metric_variable

__all__ = ["mean", "mean_tensor", "accuracy", "mean_absolute_error", "mean_squared_error",
           "root_mean_squared_error", "mean_relative_error", "mean_cosine_distance",
           "percentage_below"]


def _ratio(total, count, name):
    return divide_no_nan(total, maximum(count, 0.0), name=name)


def _mean(values, weights, metrics_collections, updates_collections, name, who):
    """The streaming mean under variable scope `name` (default "mean"), errors naming `who`."""
    with variable_scope(name, "mean", (values, weights)):
        values = cast(convert_to_tensor(values), dtypes.float32)
        if weights is None:
            num_values = cast(size(values), dtypes.float32)
        else:
            values, _, weights = align(values, None, weights, who)
            weights = broadcast_weights(weights, values, who)
            values = multiply(values, weights)
            num_values = reduce_sum(weights)
        total = metric_variable([], dtypes.float32, "total")
        count = metric_variable([], dtypes.float32, "count")
        update_total = total.assign_add(reduce_sum(values))
        update_count = count.assign_add(num_values)
        value = _ratio(total, count, "value")
        update_op = _ratio(update_total, update_count, "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The weighted mean of every value seen: (value, update_op)."""
    graph_only("mean")
    return _mean(values, weights, metrics_collections, updates_collections, name, "mean")


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
    """The elementwise weighted mean of every tensor seen (all of one static shape)."""
    graph_only("mean_tensor")
    with variable_scope(name, "mean", (values, weights)):
        values = cast(convert_to_tensor(values), dtypes.float32)
        if not values.shape.is_fully_defined():
            raise ValueError(f"tf.metrics.mean_tensor: values of shape {values.shape}; the "
                             "shape must be fully known while the graph is built (its "
                             "variables take it).")
        num_values = ones_like(values)
        if weights is not None:
            values, _, weights = align(values, None, weights, "mean_tensor")
            weights = broadcast_weights(weights, values, "mean_tensor")
            values = multiply(values, weights)
            num_values = multiply(num_values, weights)
        total = metric_variable(values.shape.as_list(), dtypes.float32, "total_tensor")
        count = metric_variable(values.shape.as_list(), dtypes.float32, "count_tensor")
        update_total = total.assign_add(values)
        update_count = count.assign_add(num_values)
        value = _ratio(total, count, "value")
        update_op = _ratio(update_total, update_count, "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """How often predictions equal labels (weighted): (value, update_op)."""
    graph_only("accuracy")
    predictions, labels, weights = align(predictions, labels, weights, "accuracy")
    if labels.dtype is not predictions.dtype:
        predictions = cast(predictions, labels.dtype)
    is_correct = cast(equal(predictions, labels), dtypes.float32)
    return _mean(is_correct, weights, metrics_collections, updates_collections,
                 name or "accuracy", "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The weighted mean of |predictions - labels|."""
    graph_only("mean_absolute_error")
    predictions, labels, weights = align(predictions, labels, weights, "mean_absolute_error")
    return _mean(_abs(subtract(predictions, labels)), weights, metrics_collections,
                 updates_collections, name or "mean_absolute_error", "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The weighted mean of (labels - predictions)^2."""
    graph_only("mean_squared_error")
    predictions, labels, weights = align(predictions, labels, weights, "mean_squared_error")
    return _mean(squared_difference(labels, predictions), weights, metrics_collections,
                 updates_collections, name or "mean_squared_error", "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The square root of the streaming mean squared error."""
    graph_only("root_mean_squared_error")
    who = "root_mean_squared_error"
    predictions, labels, weights = align(predictions, labels, weights, who)
    mse, update_mse = _mean(squared_difference(labels, predictions), weights, None, None,
                            name or who, who)
    return finish(sqrt(mse), sqrt(update_mse), metrics_collections, updates_collections)


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The weighted mean of |labels - predictions| / normalizer (0 where normalizer is 0)."""
    graph_only("mean_relative_error")
    who = "mean_relative_error"
    predictions, labels, weights = align(predictions, labels, weights, who)
    normalizer, predictions = squeeze_pair(normalizer, predictions)
    check_compatible(predictions, normalizer, who, ("predictions", "normalizer"))
    relative = where(equal(normalizer, 0.0), zeros_like(labels),
                     divide(_abs(subtract(labels, predictions)), normalizer))
    return _mean(relative, weights, metrics_collections, updates_collections, name or who, who)


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 - the weighted mean over vectors (along axis `dim`) of sum(predictions * labels)."""
    graph_only("mean_cosine_distance")
    who = "mean_cosine_distance"
    predictions, labels, weights = align(predictions, labels, weights, who)
    radial = reduce_sum(multiply(predictions, labels), axis=[dim], keepdims=True)
    value, update_op = _mean(radial, weights, None, None, name or who, who)
    return finish(subtract(1.0, value), subtract(1.0, update_op), metrics_collections,
                  updates_collections)


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The weighted fraction of values below `threshold`."""
    graph_only("percentage_below")
    below = cast(less(values, threshold), dtypes.float32)
    return _mean(below, weights, metrics_collections, updates_collections,
                 name or "percentage_below_threshold", "percentage_below")
