"""TensorFlow 1's streaming metrics over the curves of a scored classifier: `auc`,
`sensitivity_at_specificity` and `specificity_at_sensitivity`.

Each keeps the four confusion counts at T thresholds (metrics_thresholds.py): by default
-1e-7, 1/(T-1), ..., (T-2)/(T-1), 1 + 1e-7 (the last is 1 - 1e-7 for specificity_at_sensitivity),
so the extremes classify every score as positive and as negative. With e = 1e-6,

    recall  r = (tp + e) / (tp + fn + e)     fp rate  f = fp / (fp + tn + e)
    precision q = (tp + e) / (tp + fp + e)

The ROC curve is r against f, the PR curve q against r; `auc` sums the areas between
consecutive thresholds i, i+1 as (x_i - x_i+1) times (y_i + y_i+1) / 2 ('trapezoidal'), their
minimum ('minoring') or maximum ('majoring'); PR with 'trapezoidal' logs TensorFlow's warning
that it misestimates. PR with 'careful_interpolation' integrates
precision exactly between thresholds, taking tp linear in the predicted positives P = tp + fp:
with slope s = dtp / dP and intercept c = tp_i+1 - s P_i+1, each interval adds
s (dtp + c log(P_i / P_i+1)) / (tp_i+1 + fn_i+1).

`sensitivity_at_specificity` finds the threshold whose specificity tn / (tn + fp + 1e-7) is
closest to the one asked (the first of ties) and returns tp / (tp + fn + 1e-7) there;
`specificity_at_sensitivity` the reverse, taking the last of ties.
"""
from ..framework import dtypes
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import where
from ..ops.binary_math_ops import divide_no_nan
from ..ops.broadcast_ops import ones_like
from ..ops.cast_ops import cast
from ..ops.indexing_ops import gather
from ..ops.math_ops import (add, divide, equal, greater, logical_and, maximum, minimum,
                            multiply, subtract)
from ..ops.reduce_ops import argmax, argmin, reduce_min, reduce_sum
from ..ops.scan_ops import cumsum
from ..ops.unary_ops import abs as _abs, log
from ..util import tf_logging
from .metric_variables import finish, graph_only
from .metrics_thresholds import confusion_at_thresholds

__all__ = ["auc", "sensitivity_at_specificity", "specificity_at_sensitivity"]

_SUMMATIONS = ("trapezoidal", "careful_interpolation", "minoring", "majoring")


def _grid(num_thresholds, top=1.0 + 1e-7):
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - 1e-7] + inner + [top]


def _careful_pr(tp, fp, fn, n):
    dtp = subtract(tp[:n - 1], tp[1:])
    p = add(tp, fp)
    slope = divide_no_nan(dtp, maximum(subtract(p[:n - 1], p[1:]), 0.0), name="prec_slope")
    intercept = subtract(tp[1:], multiply(slope, p[1:]))
    ratio = where(logical_and(greater(p[:n - 1], 0.0), greater(p[1:], 0.0)),
                  divide_no_nan(p[:n - 1], maximum(p[1:], 0.0), name="recall_relative_ratio"),
                  ones_like(p[1:]))
    increments = divide_no_nan(multiply(slope, add(dtp, multiply(intercept, log(ratio)))),
                               maximum(add(tp[1:], fn[1:]), 0.0), name="pr_auc_increment")
    return reduce_sum(increments, name="interpolate_pr_auc")


def _area(counts, curve, summation_method, n, name):
    tp, fn, tn, fp = counts["tp"], counts["fn"], counts["tn"], counts["fp"]
    if curve == "PR" and summation_method == "careful_interpolation":
        return _careful_pr(tp, fp, fn, n)
    eps = 1e-6
    rec = divide(add(tp, eps), add(add(tp, fn), eps))
    if curve == "ROC":
        x, y = divide(fp, add(add(fp, tn), eps)), rec
    else:
        x, y = rec, divide(add(tp, eps), add(add(tp, fp), eps))
    width = subtract(x[:n - 1], x[1:])
    if summation_method == "minoring":
        height = minimum(y[:n - 1], y[1:])
    elif summation_method == "majoring":
        height = maximum(y[:n - 1], y[1:])
    else:
        height = divide(add(y[:n - 1], y[1:]), 2.0)
    return reduce_sum(multiply(width, height), name=name)


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """The area under the ROC or PR curve over every batch seen, at `num_thresholds`
    thresholds spread over [0, 1] or at the given `thresholds` (plus the two extremes)."""
    graph_only("auc")
    if curve not in ("ROC", "PR"):
        raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
    if summation_method not in _SUMMATIONS:
        raise ValueError(f"Invalid summation_method: {summation_method} summation_method should "
                         "be 'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'.")
    if curve == "PR" and summation_method == "trapezoidal":
        tf_logging.warning("Trapezoidal rule is known to produce incorrect PR-AUCs; please "
                           "switch to \"careful_interpolation\" instead.")
    if thresholds is not None:
        inner = sorted(thresholds)
        num_thresholds = len(inner) + 2
        grid = [0.0 - 1e-7] + inner + [1.0 + 1e-7]
    else:
        grid = _grid(num_thresholds)
    with variable_scope(name, "auc", (labels, predictions, weights)):
        values, updates = confusion_at_thresholds(labels, predictions, grid, weights,
                                                  who="auc")
        value = _area(values, curve, summation_method, num_thresholds, "value")
        update_op = _area(updates, curve, summation_method, num_thresholds, "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def _check_fraction(what, value):
    if value < 0 or value > 1:
        raise ValueError(f"`{what}` must be in the range [0, 1]. Currently, `{what}` "
                         f"{'got' if what == 'specificity' else 'is'} {value}.")


def _sensitivity_at(c, specificity, name):
    specificities = divide(c["tn"], add(add(c["tn"], c["fp"]), 1e-7))
    index = cast(argmin(_abs(subtract(specificities, specificity)), 0), dtypes.int32)
    tp, fn = gather(c["tp"], index), gather(c["fn"], index)
    return divide(tp, add(add(tp, fn), 1e-7), name=name)


def _specificity_at(c, sensitivity, name):
    gaps = _abs(subtract(divide(c["tp"], add(add(c["tp"], c["fn"]), 1e-7)), sensitivity))
    at_min = cast(equal(gaps, reduce_min(gaps)), dtypes.int64)
    index = cast(argmax(cumsum(at_min), 0), dtypes.int32)
    tn, fp = gather(c["tn"], index), gather(c["fp"], index)
    return divide(tn, add(add(tn, fp), 1e-7), name=name)


def _at_rate(who, pick, target, labels, predictions, weights, num_thresholds,
             metrics_collections, updates_collections, name, top):
    with variable_scope(name, who, (predictions, labels, weights)):
        values, updates = confusion_at_thresholds(labels, predictions,
                                                  _grid(num_thresholds, top), weights, who=who)
        value = pick(values, target, "value")
        update_op = pick(updates, target, "update_op")
    return finish(value, update_op, metrics_collections, updates_collections)


def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The recall at the threshold whose specificity is closest to `specificity`."""
    graph_only("sensitivity_at_specificity")
    _check_fraction("specificity", specificity)
    return _at_rate("sensitivity_at_specificity", _sensitivity_at, specificity, labels,
                    predictions, weights, num_thresholds, metrics_collections,
                    updates_collections, name, 1.0 + 1e-7)


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The specificity at the (last) threshold whose recall is closest to `sensitivity`."""
    graph_only("specificity_at_sensitivity")
    _check_fraction("sensitivity", sensitivity)
    return _at_rate("specificity_at_sensitivity", _specificity_at, sensitivity, labels,
                    predictions, weights, num_thresholds, metrics_collections,
                    updates_collections, name, 1.0 - 1e-7)
