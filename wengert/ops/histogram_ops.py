"""Counting: bincount, histogram_fixed_width, histogram_fixed_width_bins, confusion_matrix.

bincount(arr)[i] is the number of entries of arr equal to i (or the sum of their weights); the
output has max(arr) + 1 entries, raised to `minlength` and cut to `maxlength` (entries at or
beyond the size are dropped). It is TensorFlow's DenseBincount op, which has no gradient there:
differentiating through the weights raises LookupError, as in TensorFlow.

histogram_fixed_width(values, [lo, hi], nbins) counts values in nbins equal bins of [lo, hi];
a value v falls in bin floor((max(v, lo) - lo) / step), step = (hi - lo) / nbins, capped at
nbins - 1, so values below lo count in the first bin and values at or above hi in the last, as
TensorFlow's kernel does. histogram_fixed_width_bins returns each value's bin instead.

confusion_matrix(labels, predictions)[i, j] counts (or sums the weights of) the examples with
label i predicted as j: a scatter-add of the weights into an n x n matrix, so float weights get
their gradient from the scatter (a gather of the incoming gradient).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.context import op_scope
from .broadcast_ops import ones_like
from .reshape_ops import reshape
from .array_ops import stack
from .math_ops import clip_by_value
from .creation_ops import constant_value, size
from .indexing_ops import scatter_nd
from .math_ops import cast, maximum, minimum
from .reduce_ops import reduce_max
from .rounding_ops import floor

__all__ = ["bincount", "histogram_fixed_width", "histogram_fixed_width_bins",
           "confusion_matrix"]


# -- bincount ---------------------------------------------------------------------------------
def _dense_bincount_kernel(arr, size, weights, binary_output):
    size = int(size)
    if arr.size and arr.min() < 0:
        raise ValueError(f"bincount needs non-negative values, got {arr.min()}")
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim == 2 else arr.reshape(1, -1)
    weight_rows = None if weights.size == 0 else weights.reshape(rows.shape)
    out = np.zeros((rows.shape[0], size), weights.dtype)
    for r, row in enumerate(rows):
        keep = row < size
        w = None if weight_rows is None else weight_rows[r][keep]
        counts = np.bincount(row[keep], weights=w, minlength=size)
        out[r] = (counts > 0) if binary_output else counts
    return out if arr.ndim == 2 else out[0]


def _dense_bincount_rule(arr, size, weights, binary_output):
    if not arr.dtype.is_integer:
        raise InvalidArgumentError(f"bincount needs integer values, got {arr.dtype.name}.")
    known = constant_value(size)
    length = None if known is None else int(known)
    if arr.shape.rank == 2:
        return TensorShape([arr.shape[0], length]), weights.dtype
    if arr.shape.rank not in (1, None):
        raise InvalidArgumentError(f"bincount takes a 1-d or 2-d input, got shape {arr.shape}.")
    return TensorShape([length]), weights.dtype


# TensorFlow registers no gradient for DenseBincount.
DENSE_BINCOUNT = defop("DenseBincount", _dense_bincount_kernel, shape=_dense_bincount_rule,
                       raw=lambda input, size, weights, binary_output=False, name=None: execute(
                           DENSE_BINCOUNT, tuple(convert_to_tensor(t) for t in (
                               input, size, weights)), {"binary_output": bool(binary_output)},
                           name))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """Counts of each value 0, 1, ... in `arr` (sums of `weights` if given): along all axes
    (axis=None or 0), or per row of a 2-d `arr` (axis=-1)."""
    arr = convert_to_tensor(arr)
    if weights is not None and binary_output:
        raise ValueError("bincount: binary_output and weights are mutually exclusive; give "
                         "only one.")
    if not arr.dtype.is_integer:
        arr = cast(arr, dtypes.int32)
    if axis not in (None, 0, -1):
        raise ValueError(f"bincount: axis must be None, 0 or -1, got {axis}.")
    nonempty = cast(size(arr) > 0, arr.dtype)
    length = nonempty * (reduce_max(arr) + 1) if arr.shape.num_elements() != 0 else \
        convert_to_tensor(np.zeros((), arr.dtype.as_numpy_dtype))
    if minlength is not None:
        length = maximum(length, convert_to_tensor(minlength, dtype=arr.dtype))
    if maxlength is not None:
        length = minimum(length, convert_to_tensor(maxlength, dtype=arr.dtype))
    if axis in (None, 0):
        arr = reshape(arr, [-1])
        weights = None if weights is None else reshape(weights, [-1])
    weights = (convert_to_tensor(np.zeros((0,), dtypes.as_dtype(dtype).as_numpy_dtype))
               if weights is None else convert_to_tensor(weights))
    return execute(DENSE_BINCOUNT, (arr, length, weights), {"binary_output": bool(binary_output)},
                   name)


# -- histograms ---------------------------------------------------------------------------------
def _histogram_kernel(values, value_range, nbins, dtype):
    lo, hi = value_range[0], value_range[1]
    nbins = int(nbins)
    if nbins <= 0:
        raise ValueError(f"nbins must be positive, got {nbins}")
    step = float(hi - lo) / nbins
    position = (np.maximum(values, lo) - lo).astype(np.float64) / step
    bins = np.minimum(position, nbins - 1).astype(np.int64).reshape(-1)
    return np.bincount(bins, minlength=nbins).astype(dtype)


def _histogram_rule(values, value_range, nbins, dtype):
    known = constant_value(nbins)
    return TensorShape([None if known is None else int(known)]), dtypes.as_dtype(dtype)


HISTOGRAM_FIXED_WIDTH = defop("HistogramFixedWidth", _histogram_kernel, shape=_histogram_rule,
                              grad=None, raw=lambda values, value_range, nbins, dtype=dtypes.int32,
                              name=None: histogram_fixed_width(values, value_range, nbins, dtype,
                                                               name))


def _check_range(value_range, values):
    value_range = convert_to_tensor(value_range, dtype=values.dtype)
    if value_range.shape.rank not in (1, None) or value_range.shape[0] not in (2, None):
        raise ValueError(f"value_range must be a [lo, hi] pair, got shape {value_range.shape}.")
    known = constant_value(value_range)
    if known is not None and not known[0] < known[1]:
        raise InvalidArgumentError(f"value_range must have lo < hi, got {known.tolist()}.")
    return value_range


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of `values` in `nbins` equal bins spanning value_range = [lo, hi] (values outside
    count in the first or last bin)."""
    values = convert_to_tensor(values)
    value_range = _check_range(value_range, values)
    nbins = convert_to_tensor(nbins, dtype=dtypes.int32)
    return execute(HISTOGRAM_FIXED_WIDTH, (values, value_range, nbins),
                   {"dtype": dtypes.as_dtype(dtype).as_numpy_dtype}, name)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each value among `nbins` equal bins of value_range = [lo, hi] (clipped to
    [0, nbins - 1]), as an int32 tensor of values' shape. TensorFlow 2.21 returns int32 whatever
    `dtype` says (its implementation never reads it), and so does this."""
    del dtype
    with op_scope(name, "histogram_fixed_width_bins"):
        values = convert_to_tensor(values)
        value_range = _check_range(value_range, values)
        nbins_float = cast(convert_to_tensor(nbins, dtype=dtypes.int32), values.dtype)
        scaled = (values - value_range[0]) / (value_range[1] - value_range[0])
        indices = floor(nbins_float * scaled)
        return cast(clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)


# -- confusion matrix ---------------------------------------------------------------------------
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """The [n, n] matrix whose entry [i, j] counts the examples with label i and prediction j
    (or sums their `weights`); n = num_classes, or 1 + the largest label or prediction."""
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    for what, t in (("labels", labels), ("predictions", predictions)):
        if not t.dtype.is_integer:
            raise TypeError(f"confusion_matrix: {what} must be integers, got {t.dtype.name}.")
    known = [constant_value(t) for t in (labels, predictions)]
    if num_classes is None:
        if any(k is None for k in known):
            raise ValueError("confusion_matrix: give num_classes when labels or predictions are "
                             "computed while the graph runs.")
        num_classes = max([int(k.max()) + 1 for k in known if k.size] + [0])
    n = constant_value(convert_to_tensor(num_classes, dtype=dtypes.int64))
    if n is None:
        raise ValueError("confusion_matrix: num_classes must be known while the graph is built.")
    for what, k in zip(("labels", "predictions"), known):
        if k is not None and k.size and (k.min() < 0 or k.max() >= n):
            raise InvalidArgumentError(f"confusion_matrix: {what} must lie in [0, {int(n)}), got "
                                       f"values from {k.min()} to {k.max()}.")
    labels = cast(reshape(labels, [-1]), dtypes.int64)
    predictions = cast(reshape(predictions, [-1]), dtypes.int64)
    if weights is None:
        updates = ones_like(labels, dtype=dtype)
    else:
        updates = cast(reshape(convert_to_tensor(weights), [-1]), dtype)
    indices = stack([labels, predictions], axis=1)
    return scatter_nd(indices, updates, (int(n), int(n)), name=name)

