"""TensorFlow 1's streaming metrics of a multi-class classifier: `mean_per_class_accuracy` and
`mean_iou`. Labels and predictions are class ids in [0, num_classes), flattened.

`mean_per_class_accuracy` keeps per class c a float32 `total` (the weight of the examples
labelled c) and `count` (the weight of those also predicted c); the metric is the mean over
classes of count / total (0 for a class not seen), and the update op returns the per-class
ratios themselves. A label outside [0, num_classes) fails the update when it runs
(InvalidArgumentError), before either sum changes.

`mean_iou` keeps the float64 confusion matrix M (M[i, j]: weight of label i predicted j); the
update op returns M. Per class the intersection over union is M[c, c] / (row_c + col_c - M[c, c])
(in float32); the metric is their mean over the classes whose denominator is not 0.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..graph.graph import control_dependencies
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import where
from ..ops.binary_math_ops import divide_no_nan
from ..ops.broadcast_ops import ones_like
from ..ops.cast_ops import cast
from ..ops.histogram_ops import confusion_matrix
from ..ops.io.checks import assert_greater_equal, assert_less
from ..ops.math_ops import add, divide, equal, greater, maximum, multiply, not_equal, subtract
from ..ops.matrix_ops import diag_part
from ..ops.reduce_ops import reduce_mean, reduce_sum
from ..ops.reshape_ops import reshape
from ..ops.segment_ops import unsorted_segment_sum
from .metric_inputs import check_compatible
from .metric_variables import finish, graph_only, metric_variable

__all__ = ["mean_per_class_accuracy", "mean_iou"]


def _flat(t):
    t = convert_to_tensor(t)
    return reshape(t, [-1]) if t.shape.rank is None or t.shape.rank > 1 else t


def _class_ids_checked(labels, num_classes):
    """Run-time checks that every label lies in [0, num_classes) (InvalidArgumentError)."""
    message = (f"tf.metrics.mean_per_class_accuracy: labels must be class ids in "
               f"[0, {num_classes})")
    checks = [assert_greater_equal(labels, cast(0, labels.dtype), message=message),
              assert_less(labels, cast(num_classes, labels.dtype), message=message)]
    return [c for c in checks if c is not None]


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of the (weighted) accuracy among each class's examples."""
    graph_only("mean_per_class_accuracy")
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = _flat(cast(convert_to_tensor(labels), dtypes.int64))
        predictions = _flat(predictions)
        check_compatible(predictions, labels, "mean_per_class_accuracy")
        total = metric_variable([num_classes], dtypes.float32, "total")
        count = metric_variable([num_classes], dtypes.float32, "count")
        if labels.dtype is not predictions.dtype:
            predictions = cast(predictions, labels.dtype)
        is_correct = cast(equal(predictions, labels), dtypes.float32)
        seen = ones_like(is_correct)
        if weights is not None:
            weights = cast(_flat(weights), dtypes.float32)
            is_correct, seen = multiply(is_correct, weights), multiply(seen, weights)
        with control_dependencies(_class_ids_checked(labels, num_classes)):
            per_total = unsorted_segment_sum(seen, labels, num_classes)
            per_count = unsorted_segment_sum(is_correct, labels, num_classes)
        update_total = total.assign_add(per_total)
        update_count = count.assign_add(per_count)
        per_class = divide_no_nan(count, maximum(total, 0.0))
        value = reduce_mean(per_class, name="mean_accuracy")
        update_op = divide_no_nan(update_count, maximum(update_total, 0.0), name="update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def _mean_iou_of(matrix):
    rows = cast(reduce_sum(matrix, 0), dtypes.float32)
    cols = cast(reduce_sum(matrix, 1), dtypes.float32)
    diagonal = cast(diag_part(matrix), dtypes.float32)
    denominator = subtract(add(rows, cols), diagonal)
    valid = reduce_sum(cast(not_equal(denominator, 0.0), dtypes.float32))
    denominator = where(greater(denominator, 0.0), denominator, ones_like(denominator))
    iou = divide(diagonal, denominator)
    return where(greater(valid, 0.0), divide(reduce_sum(iou, name="mean_iou"), valid), 0.0)


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """The mean intersection over union of the classes seen (update op: the confusion
    matrix)."""
    graph_only("mean_iou")
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
        check_compatible(predictions, labels, "mean_iou")
        matrix = metric_variable([num_classes, num_classes], dtypes.float64,
                                 "total_confusion_matrix")
        labels = _flat(cast(labels, dtypes.int64))
        predictions = _flat(cast(predictions, dtypes.int64))
        if weights is not None:
            weights = _flat(weights)
        current = confusion_matrix(labels, predictions, num_classes, weights=weights,
                                   dtype=dtypes.float64)
        update_op = matrix.assign_add(current)
        value = _mean_iou_of(matrix.read_value())
    return finish(value, update_op, metrics_collections, updates_collections)
