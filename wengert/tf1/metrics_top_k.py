"""TensorFlow 1's streaming top-k metrics: precision, recall and average precision of the k
classes a model ranks highest, against a set of true classes per example.

Labels are class ids, [..., L] (or [...], one label each) dense or a SparseTensor; predictions
are scores [..., C] (the `*_at_k` names take the top k of them) or the top-k ids themselves
[..., k] (`*_at_top_k`). Per example, with P the predicted ids and Y the labels as sets
(metric_sets.py), tp = |P & Y|, fp = |P - Y|, fn = |Y - P|; with `class_id` both sets keep only
that class. Weighted sums of these accumulate in float64 variables, and

    precision = tp / (tp + fp)       recall = tp / (tp + fn)      (NaN before any count)

Average precision at k of one example scores the ranked predictions p_1..p_k:
sum_i [p_i in Y] precision@i / min(|Y|, k), with precision@i = |{p_1..p_i} & Y| / i and |Y| the
labels >= 0 (dense) or the distinct labels (sparse); labels >= C count as -1 first. The metric
is the weighted mean of it over examples.
"""
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..graph.graph import current_scope_name, name_scope
from ..ops.array_ops import where
from ..ops.binary_math_ops import divide_no_nan
from ..ops.broadcast_ops import ones_like
from ..ops.cast_ops import cast
from ..ops.math_ops import add, divide, greater_equal, minimum, multiply
from ..ops.query_ops import shape, size
from ..ops.reduce_ops import reduce_sum
from ..ops.reshape_ops import expand_dims
from ..ops.scan_ops import cumsum
from ..ops.sort_ops import top_k
from .metric_inputs import broadcast_weights
from .metric_sets import as_set, difference_size, intersection_size, members, select, set_size
from .metric_variables import finish, graph_only, metric_variable

__all__ = ["precision_at_k", "precision_at_top_k", "sparse_precision_at_k", "recall_at_k",
           "recall_at_top_k", "average_precision_at_k", "sparse_average_precision_at_k"]


def _at_k_name(name, k=None, class_id=None):
    name = f"{name}_at_{int(k)}" if k is not None else f"{name}_at_k"
    return name if class_id is None else f"{name}_class{int(class_id)}"


def _label_set(labels, predictions_idx, who):
    """The labels as a set of the predictions' rank (a dense [...] gains a last axis)."""
    ids, present = as_set(labels)
    rank, wanted = ids.shape.rank, predictions_idx.shape.rank
    if rank is not None and wanted is not None and rank != wanted:
        if rank + 1 != wanted:
            raise ValueError(f"Unexpected labels shape {ids.shape} for predictions shape "
                             f"{predictions_idx.shape}: tf.metrics.{who} needs labels of the "
                             "predictions' rank, or one less.")
        ids, present = expand_dims(ids, -1), expand_dims(present, -1)
    return ids, present


def _weighted(counts, weights, who):
    counts = cast(counts, dtypes.float64)
    if weights is None:
        return counts
    broadcast_weights(weights, counts, who, dtypes.float64)
    return multiply(counts, cast(convert_to_tensor(weights), dtypes.float64))


def _accumulator(name, batch_of):
    """(value, update) of a float64 variable `name` adding `batch_of()` (built, with the
    update, under the variable's name as TensorFlow's are)."""
    variable = metric_variable([], dtypes.float64, name)
    with name_scope(current_scope_name() + name + "/"):
        batch = batch_of() if callable(batch_of) else batch_of
        return variable.read_value(), variable.assign_add(batch, name="update")


def _streaming_count(count_of, suffix, k, class_id, weights, who):
    """The accumulator `<suffix>_at_<k>` of the weighted per-example counts."""
    return _accumulator(_at_k_name(suffix, k, class_id),
                        lambda: reduce_sum(_weighted(count_of(), weights, who)))


def _top_k_ratio(who, other, labels, predictions_idx, k, class_id, weights,
                 metrics_collections, updates_collections, name):
    """tp / (tp + other) over the sets of predicted and true ids."""
    with name_scope(name, _at_k_name(who.split("_")[0], k, class_id)) as scope:
        predictions_idx = cast(convert_to_tensor(predictions_idx), dtypes.int64)
        predicted = as_set(predictions_idx)
        truth = _label_set(labels, predictions_idx, who)
        if class_id is not None:
            predicted, truth = select(predicted, class_id), select(truth, class_id)
        tp, tp_update = _streaming_count(lambda: intersection_size(predicted, truth),
                                         "true_positive", k, class_id, weights, who)
        if other == "fp":
            rest, rest_update = _streaming_count(lambda: difference_size(predicted, truth),
                                                 "false_positive", k, class_id, weights, who)
        else:
            rest, rest_update = _streaming_count(lambda: difference_size(truth, predicted),
                                                 "false_negative", k, class_id, weights, who)
        value = divide(tp, add(tp, rest), name=scope)
        update_op = divide(tp_update, add(tp_update, rest_update), name="update")
    return finish(value, update_op, metrics_collections, updates_collections)


def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    """Streaming precision of the given top-k class ids against the labels."""
    graph_only("precision_at_top_k")
    return _top_k_ratio("precision_at_top_k", "fp", labels, predictions_idx, k, class_id,
                        weights, metrics_collections, updates_collections, name)


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                    metrics_collections=None, updates_collections=None, name=None):
    """Streaming recall of the labels by the given top-k class ids."""
    graph_only("recall_at_top_k")
    return _top_k_ratio("recall_at_top_k", "fn", labels, predictions_idx, k, class_id,
                        weights, metrics_collections, updates_collections, name)


def precision_at_k(labels, predictions, k, class_id=None, weights=None,
                   metrics_collections=None, updates_collections=None, name=None):
    """Streaming precision of the k highest-scored classes against the labels."""
    graph_only("precision_at_k", "tf.metrics.sparse_precision_at_k is not supported when "
               "eager execution is enabled.")
    with name_scope(name, _at_k_name("precision", k, class_id)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return precision_at_top_k(labels, top_k_idx, k, class_id, weights, metrics_collections,
                                  updates_collections, scope)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """TensorFlow 1's deprecated name of `precision_at_k`."""
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections,
                          updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """Streaming recall of the labels by the k highest-scored classes."""
    graph_only("recall_at_k")
    with name_scope(name, _at_k_name("recall", k, class_id)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return recall_at_top_k(labels, top_k_idx, k, class_id, weights, metrics_collections,
                               updates_collections, scope)


def _without_out_of_range(labels, num_classes):
    """Labels >= num_classes replaced by -1."""
    def clean(values):
        limit = cast(num_classes, values.dtype)
        return where(greater_equal(values, limit), -1 * ones_like(values), values)
    if isinstance(labels, SparseTensor):
        return SparseTensor(labels.indices, clean(labels.values), labels.dense_shape)
    return clean(convert_to_tensor(labels))


def _num_relevant(labels, truth, k):
    if isinstance(labels, SparseTensor):
        return minimum(set_size(truth), k)
    counted = cast(greater_equal(truth[0], 0), dtypes.int32)
    return minimum(reduce_sum(counted, axis=-1), k)


def _average_precision(labels, predictions_idx, k):
    """Each example's average precision at k (float64, [...])."""
    truth = _label_set(labels, predictions_idx, "average_precision_at_k")
    relevant = cast(members(as_set(predictions_idx), truth), dtypes.float64)
    precision = divide(cumsum(relevant, axis=-1), cumsum(ones_like(relevant), axis=-1))
    total = reduce_sum(multiply(precision, relevant), axis=(-1,))
    return divide(total, cast(_num_relevant(labels, truth, k), dtypes.float64))


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The streaming weighted mean over examples of the average precision at k."""
    graph_only("average_precision_at_k", "tf.metrics.sparse_average_precision_at_k is not "
               "supported when eager execution is enabled.")
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with name_scope(name, _at_k_name("average_precision", k)) as scope:
        predictions = convert_to_tensor(predictions)
        _, predictions_idx = top_k(predictions, k)
        predictions_idx = cast(predictions_idx, dtypes.int64)
        labels = _without_out_of_range(labels, cast(shape(predictions)[-1], dtypes.int64))
        precisions = _average_precision(labels, predictions_idx, k)
        if weights is None:
            batch_count = cast(size(precisions), dtypes.float64)
        else:
            weights = broadcast_weights(weights, precisions, "average_precision_at_k",
                                        dtypes.float64)
            precisions = multiply(precisions, weights)
            batch_count = reduce_sum(weights)
        count, count_update = _accumulator("max", batch_count)
        total, total_update = _accumulator("total", reduce_sum(precisions))
        value = divide_no_nan(total, count, name="mean")
        update_op = divide_no_nan(total_update, count_update, name=scope)
    return finish(value, update_op, metrics_collections, updates_collections)


def sparse_average_precision_at_k(labels, predictions, k, weights=None,
                                  metrics_collections=None, updates_collections=None, name=None):
    """TensorFlow 1's deprecated name of `average_precision_at_k`."""
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections,
                                  updates_collections, name)
