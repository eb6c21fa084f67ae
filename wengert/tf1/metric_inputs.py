"""How TensorFlow 1's streaming metrics line up their inputs before they count anything.

Labels and predictions whose ranks differ by one lose the extra size-1 last axis (a [n, 1]
column against a [n] vector), then must have compatible static shapes: otherwise a ValueError
names both shapes. Weights are a scalar, or of the predictions' rank (a weight tensor one axis
longer loses its last axis, one axis shorter gains one), and broadcast to the values: each of
their dimensions is 1 or the values' dimension, else a ValueError names both shapes. Where a
rank is unknown while the graph is built, the same axis is dropped or added when it runs (a
reshape to the shape with its last entry cut, or with a 1 appended, chosen by the ranks then).
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import concat
from ..ops.broadcast_ops import ones_like
from ..ops.cast_ops import cast
from ..ops.creation_ops import fill
from ..ops.math_ops import equal, multiply, subtract
from ..ops.query_ops import rank, shape, size
from ..ops.reshape_ops import expand_dims, reshape, squeeze
from ..ops.slice_ops import slice as _slice

__all__ = ["check_compatible", "squeeze_pair", "align", "broadcast_weights"]


def check_compatible(a, b, who, names=("predictions", "labels")):
    """ValueError naming both static shapes when `a` and `b` cannot have one shape."""
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible: tf.metrics.{who} "
                         f"needs {names[0]} (shape {a.shape}) and {names[1]} (shape {b.shape}) "
                         "of one shape.")


def _last_is_one(shape):
    return shape[-1] is None or shape[-1] == 1


def _drop_last_when(t, flag):
    """`t` without its last axis where the bool scalar `flag` holds when the graph runs."""
    dims = shape(t)
    keep = subtract(size(dims), cast(flag, dtypes.int32))
    return reshape(t, _slice(dims, [0], reshape(keep, [1])))


def _add_last_when(t, flag):
    """`t` with a size-1 last axis appended where `flag` holds when the graph runs."""
    ones = fill(reshape(cast(flag, dtypes.int32), [1]), 1)
    return reshape(t, concat([shape(t), ones], 0))


def _rank_gap(a, b):
    return subtract(rank(a), rank(b))


def squeeze_pair(labels, predictions):
    """Drop a size-1 last axis from whichever of the two is one rank longer."""
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    lr, pr = labels.shape.rank, predictions.shape.rank
    if lr is None or pr is None:
        gap = _rank_gap(predictions, labels)
        return _drop_last_when(labels, equal(gap, -1)), _drop_last_when(predictions,
                                                                        equal(gap, 1))
    if pr - lr == 1 and _last_is_one(predictions.shape):
        predictions = squeeze(predictions, [-1])
    elif lr - pr == 1 and _last_is_one(labels.shape):
        labels = squeeze(labels, [-1])
    return labels, predictions


def align(predictions, labels, weights, who):
    """TensorFlow's `_remove_squeezable_dimensions`, then the shape check: (predictions,
    labels, weights) with labels and predictions of one rank and weights scalar or theirs."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = squeeze_pair(labels, predictions)
        check_compatible(predictions, labels, who)
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    wr, pr = weights.shape.rank, predictions.shape.rank
    if wr != 0 and (wr is None or pr is None):
        gap = _rank_gap(weights, predictions)
        weights = _add_last_when(_drop_last_when(weights, equal(gap, 1)), equal(gap, -1))
    elif wr is not None and pr is not None and wr != 0:
        if wr - pr == 1:
            weights = squeeze(weights, [-1])
        elif pr - wr == 1:
            weights = expand_dims(weights, -1)
    return predictions, labels, weights


def broadcast_weights(weights, values, who, dtype=dtypes.float32):
    """`weights` (cast to `dtype`) times ones of `values`' shape, after TensorFlow's check that
    they broadcast: a scalar, or the values' rank with each dimension 1 or the values'."""
    weights = cast(convert_to_tensor(weights), dtype)
    w, v = weights.shape, values.shape
    if w.rank is not None and v.rank is not None and w.rank != 0:
        if w.rank != v.rank:
            raise ValueError(f"tf.metrics.{who}: weights can not be broadcast to values. "
                             f"values.rank={v.rank}. weights.rank={w.rank}. values.shape={v}. "
                             f"weights.shape={w}. Give a scalar weight or weights of the "
                             "values' rank.")
        for i, (a, b) in enumerate(zip(w.as_list(), v.as_list())):
            if a is not None and b is not None and a not in (1, b):
                raise ValueError(f"tf.metrics.{who}: weights can not be broadcast to values. "
                                 f"Mismatch at dim {i}. values.shape={v}, weights.shape={w}; "
                                 "each dimension of weights must be 1 or the values'.")
    if w.is_fully_defined() and v.is_fully_defined() and w == v:
        return weights
    return multiply(weights, ones_like(values, dtype=dtype))
