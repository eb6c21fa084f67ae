"""TensorFlow 1's streaming counts of a binary classifier and the ratios over them.

Labels y and predictions p are cast to bool; each batch adds the (weighted) number of elements
in one cell of the confusion table to a float32 variable `count`:

    true_positives   y and p          false_positives  not y and p
    true_negatives   not y and not p  false_negatives  y and not p

`precision` keeps true and false positives and is tp / (tp + fp); `recall` keeps true positives
and false negatives and is tp / (tp + fn); each is 0 while its denominator is 0. Weights are a
scalar or of the labels' rank, multiplying each element's count.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import identity, where
from ..ops.cast_ops import cast
from ..ops.math_ops import add, divide, greater, logical_and, logical_not, multiply
from ..ops.reduce_ops import reduce_sum
from .metric_inputs import align
from .metric_variables import finish, graph_only, metric_variable

__all__ = ["true_positives", "false_positives", "true_negatives", "false_negatives",
           "precision", "recall"]


def _as_bool(labels, predictions, weights, who):
    predictions = cast(convert_to_tensor(predictions), dtypes.bool)
    labels = cast(convert_to_tensor(labels), dtypes.bool)
    return align(predictions, labels, weights, who)


def _count(condition, weights, who):
    """(count, update): the streaming weighted number of True elements of `condition`."""
    values = cast(condition, dtypes.float32)
    if weights is not None:
        weights = convert_to_tensor(weights)
        wr, vr = weights.shape.rank, values.shape.rank
        if wr is not None and vr is not None and wr not in (0, vr):
            raise ValueError(f"tf.metrics.{who}: weights of shape {weights.shape} for values "
                             f"of shape {values.shape}; weights must be a scalar or have rank "
                             f"{vr}.")
        values = multiply(values, cast(weights, dtypes.float32))
    count = metric_variable([], dtypes.float32, "count")
    return identity(count.read_value()), count.assign_add(reduce_sum(values))


def _cell(who, label_is, prediction_is):
    def condition(labels, predictions):
        y = labels if label_is else logical_not(labels)
        p = predictions if prediction_is else logical_not(predictions)
        return logical_and(y, p)

    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        graph_only(who)
        with variable_scope(name, who, (predictions, labels, weights)):
            predictions, labels, weights = _as_bool(labels, predictions, weights, who)
            value, update_op = _count(condition(labels, predictions), weights, who)
        return finish(value, update_op, metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = who
    metric.__doc__ = (f"The streaming weighted count of {who.replace('_', ' ')}: labels "
                      f"{label_is}, predictions {prediction_is} (both cast to bool).")
    return metric


true_positives = _cell("true_positives", True, True)
false_positives = _cell("false_positives", False, True)
true_negatives = _cell("true_negatives", False, False)
false_negatives = _cell("false_negatives", True, False)


def _safe_ratio(part, other, name):
    whole = add(part, other)
    return where(greater(whole, 0.0), divide(part, whole), 0.0, name=name)


def _ratio_metric(who, counts, labels, predictions, weights, metrics_collections,
                  updates_collections, name):
    with variable_scope(name, who, (predictions, labels, weights)):
        predictions, labels, weights = _as_bool(labels, predictions, weights, who)
        tp, tp_update = true_positives(labels, predictions, weights)
        other, other_update = counts(labels, predictions, weights)
        value = _safe_ratio(tp, other, "value")
        update_op = _safe_ratio(tp_update, other_update, "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def precision(labels, predictions, weights=None, metrics_collections=None,
              updates_collections=None, name=None):
    """tp / (tp + fp) over every batch seen (0 before any predicted positive)."""
    graph_only("precision")
    return _ratio_metric("precision", false_positives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)


def recall(labels, predictions, weights=None, metrics_collections=None,
           updates_collections=None, name=None):
    """tp / (tp + fn) over every batch seen (0 before any positive label)."""
    graph_only("recall", "tf.metrics.recall is not supported is not supported when eager "
               "execution is enabled.")
    return _ratio_metric("recall", false_negatives, labels, predictions, weights,
                         metrics_collections, updates_collections, name)
