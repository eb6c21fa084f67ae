"""TensorFlow 1's streaming confusion counts of a scored classifier at a list of thresholds.

Predictions are scores in [0, 1] (float32; a run with one outside raises InvalidArgumentError
"predictions must be in [0, 1]"), labels are cast to bool. At threshold t an element is
predicted positive when p > t, so for each of the T thresholds each batch adds to float32
variables of shape [T] the weighted counts

    tp[t] = sum w [y and p > t]        fn[t] = sum w [y and p <= t]
    tn[t] = sum w [not y and p <= t]   fp[t] = sum w [not y and p > t]

(`confusion_at_thresholds`, which also serves the curves). The metrics `*_at_thresholds` return
one of these vectors; `precision_at_thresholds` is tp / (1e-7 + tp + fp) and
`recall_at_thresholds` tp / (1e-7 + tp + fn), per threshold.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..graph.graph import control_dependencies
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import identity
from ..ops.cast_ops import cast
from ..ops.creation_ops import constant
from ..ops.io.checks import assert_greater_equal, assert_less_equal
from ..ops.math_ops import add, divide, greater, logical_and, logical_not, multiply
from ..ops.reduce_ops import reduce_sum
from ..ops.reshape_ops import reshape
from .metric_inputs import align, broadcast_weights
from .metric_variables import finish, graph_only, metric_variable

__all__ = ["confusion_at_thresholds", "true_positives_at_thresholds",
           "false_negatives_at_thresholds", "true_negatives_at_thresholds",
           "false_positives_at_thresholds", "precision_at_thresholds", "recall_at_thresholds"]

_CELLS = {"tp": ("true_positives", True, True), "fn": ("false_negatives", True, False),
          "tn": ("true_negatives", False, False), "fp": ("false_positives", False, True)}


def _checked_scores(predictions):
    """The predictions as float32, behind run-time checks that they lie in [0, 1]."""
    predictions = convert_to_tensor(predictions)
    message = "predictions must be in [0, 1]"
    checks = [assert_greater_equal(predictions, cast(0.0, predictions.dtype), message=message),
              assert_less_equal(predictions, cast(1.0, predictions.dtype), message=message)]
    with control_dependencies([c for c in checks if c is not None]):
        return identity(cast(predictions, dtypes.float32), name="checked_predictions")


def confusion_at_thresholds(labels, predictions, thresholds, weights=None,
                            includes=("tp", "fn", "tn", "fp"), who="auc"):
    """({cell: value}, {cell: update}) for the cells named in `includes`, each a float32
    variable of shape [len(thresholds)] made in the current variable scope."""
    for cell in includes:
        if cell not in _CELLS:
            raise ValueError(f"Invalid key: {cell}; the cells are tp, fn, tn and fp.")
    labels = cast(convert_to_tensor(labels), dtypes.bool)
    predictions, labels, weights = align(_checked_scores(predictions), labels, weights, who)
    count = len(thresholds)
    above = greater(reshape(predictions, [1, -1]),
                    reshape(constant(np.asarray(thresholds, np.float32)), [count, 1]))
    positive = reshape(labels, [1, -1])
    if weights is not None:
        weights = reshape(broadcast_weights(weights, predictions, who), [1, -1])
    values, updates = {}, {}
    for cell in ("tp", "fn", "tn", "fp"):
        if cell in includes:
            name, label_is, prediction_is = _CELLS[cell]
            y = positive if label_is else logical_not(positive)
            p = above if prediction_is else logical_not(above)
            hits = cast(logical_and(y, p), dtypes.float32)
            if weights is not None:
                hits = multiply(hits, weights)
            variable = metric_variable([count], dtypes.float32, name)
            values[cell] = variable.read_value()
            updates[cell] = variable.assign_add(reduce_sum(hits, 1))
    return values, updates


def _cell_metric(cell):
    who = _CELLS[cell][0] + "_at_thresholds"

    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        graph_only(who)
        with variable_scope(name, _CELLS[cell][0], (predictions, labels, weights)):
            values, updates = confusion_at_thresholds(labels, predictions, thresholds, weights,
                                                      (cell,), who)
            value = identity(values[cell])
        return finish(value, updates[cell], metrics_collections, updates_collections)
    metric.__name__ = metric.__qualname__ = who
    metric.__doc__ = (f"The streaming weighted count of {_CELLS[cell][0].replace('_', ' ')} "
                      "at each threshold (a prediction p counts as positive when p > t).")
    return metric


true_positives_at_thresholds = _cell_metric("tp")
false_negatives_at_thresholds = _cell_metric("fn")
true_negatives_at_thresholds = _cell_metric("tn")
false_positives_at_thresholds = _cell_metric("fp")


def _ratio_at_thresholds(who, other, labels, predictions, thresholds, weights,
                         metrics_collections, updates_collections, name):
    prefix = who.split("_")[0]
    with variable_scope(name, who, (predictions, labels, weights)):
        values, updates = confusion_at_thresholds(labels, predictions, thresholds, weights,
                                                  ("tp", other), who)

        def ratio(tp, rest, suffix):
            return divide(tp, add(add(1e-7, tp), rest), name=f"{prefix}_{suffix}")
        value = ratio(values["tp"], values[other], "value")
        update_op = ratio(updates["tp"], updates[other], "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def precision_at_thresholds(labels, predictions, thresholds, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """tp / (1e-7 + tp + fp) at each threshold, over every batch seen."""
    graph_only("precision_at_thresholds")
    return _ratio_at_thresholds("precision_at_thresholds", "fp", labels, predictions,
                                thresholds, weights, metrics_collections, updates_collections,
                                name)


def recall_at_thresholds(labels, predictions, thresholds, weights=None,
                         metrics_collections=None, updates_collections=None, name=None):
    """tp / (1e-7 + tp + fn) at each threshold, over every batch seen."""
    graph_only("recall_at_thresholds")
    return _ratio_at_thresholds("recall_at_thresholds", "fn", labels, predictions, thresholds,
                                weights, metrics_collections, updates_collections, name)
