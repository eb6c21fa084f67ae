"""TensorFlow 1's arithmetic under its old names and arguments:

    div(x, y)            Python 2's `/`: floor division for integers, true division otherwise
    floor_div(x, y)      floor(x / y)
    arg_max / arg_min    argmax / argmin along `dimension`
    clip_by_average_norm t * clip_norm / max(||t||_2 / size(t), clip_norm)
    batch_gather         gather(params, indices, batch_dims=rank(indices) - 1)
    bincount, confusion_matrix   TensorFlow 2's, with TensorFlow 1's argument order
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..ops import math_ops
from ..ops.cast_ops import cast
from ..ops.histogram_ops import bincount as _bincount, confusion_matrix as _confusion_matrix
from ..ops.indexing_ops import gather
from ..ops.linalg.norms import norm
from ..ops.math_ops import maximum
from ..ops.query_ops import size
from ..ops.reduce_ops import argmax, argmin

__all__ = ["arg_max", "arg_min", "batch_gather", "bincount", "clip_by_average_norm", "confusion_matrix",
           "div",
           "floor_div"]


def div(x, y, name=None):
    """x / y with Python 2's semantics: floor division when both are integers."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_integer:
        return math_ops.floordiv(x, y, name=name)
    return math_ops.divide(x, y, name=name)


def floor_div(x, y, name=None):
    """floor(x / y) elementwise."""
    return math_ops.floordiv(x, y, name=name)


def arg_max(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    """The index of the largest entry along `dimension`."""
    return argmax(input, axis=dimension, output_type=output_type, name=name)


def arg_min(input, dimension, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    """The index of the smallest entry along `dimension`."""
    return argmin(input, axis=dimension, output_type=output_type, name=name)


def clip_by_average_norm(t, clip_norm, name=None):
    """t scaled so that its L2 norm divided by its number of elements is at most clip_norm."""
    t = convert_to_tensor(t)
    clip_norm = cast(clip_norm, t.dtype)
    average = norm(t) / cast(size(t), t.dtype)
    return math_ops.multiply(t, clip_norm / maximum(average, clip_norm), name=name)


def batch_gather(params, indices, name=None):
    """params gathered along the first axis after indices' leading (batch) axes."""
    indices = convert_to_tensor(indices)
    return gather(params, indices, batch_dims=indices.shape.rank - 1, name=name)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32):
    """Counts of each value of the non-negative ints `arr` (weighted sums with `weights`)."""
    return _bincount(arr, weights=weights, minlength=minlength, maxlength=maxlength, dtype=dtype)


def confusion_matrix(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None,
                     weights=None):
    """Counts of (label, prediction) pairs: row = true label, column = prediction."""
    return _confusion_matrix(labels, predictions, num_classes=num_classes, weights=weights,
                             dtype=dtype, name=name)
