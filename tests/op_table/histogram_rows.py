"""Op-table rows for ops/histogram_ops.py: bincount, histograms, confusion_matrix.

Counts have no gradient (DenseBincount's weights raise LookupError, as in TensorFlow); a
confusion matrix of float weights is a scatter-add, differentiated in its row.
"""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

_ARR = np.array([1, 1, 3, 0, 7, 3, 3], np.int32)
_ROWS2 = np.array([[1, 2, 2], [0, 0, 4]], np.int32)
_VALUES = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 4.99, 5.0, 7.0])


def _bincount(arr, weights=None, minlength=0, maxlength=None, binary_output=False, **_):
    size = max(int(arr.max()) + 1 if arr.size else 0, minlength or 0)
    size = size if maxlength is None else min(size, maxlength)
    keep = arr < size
    out = np.bincount(arr[keep], None if weights is None else weights[keep], minlength=size)
    out = (out > 0).astype(np.int32) if binary_output else out
    return out.astype(np.int32) if weights is None else out


def _bins(values, value_range, nbins):
    lo, hi = value_range
    return np.clip(np.floor(nbins * (values - lo) / (hi - lo)), 0, nbins - 1).astype(np.int32)


def _confusion(labels, predictions, weights=None, num_classes=None, dtype=None):
    n = num_classes or max(labels.max(), predictions.max()) + 1
    out = np.zeros((n, n))
    np.add.at(out, (labels, predictions), 1.0 if weights is None else weights)
    return out if weights is not None else out.astype(np.int32)


ROWS = [
    OpInfo("bincount", tf.math.bincount, _bincount,
           [Sample((_ARR,)), Sample((_ARR,), {"minlength": 10}, name="minlength"),
            Sample((_ARR,), {"maxlength": 3}, name="maxlength"),
            Sample((_ARR,), {"binary_output": True}, name="binary")], grad=False),
    OpInfo("bincount_weights", lambda a, w: tf.math.bincount(a, weights=w),
           lambda a, w: _bincount(a, w), [Sample((_ARR, rand(7)))], grad=False),
    OpInfo("bincount_rows", lambda a: tf.math.bincount(a, axis=-1),
           lambda a: np.stack([np.bincount(r, minlength=5) for r in a]).astype(np.int32),
           [Sample((_ROWS2,))], grad=False),
    OpInfo("histogram_fixed_width", tf.histogram_fixed_width,
           lambda v, r, nbins: np.bincount(_bins(v, r, nbins), minlength=nbins).astype(np.int32),
           [Sample((_VALUES, np.array([0.0, 5.0])), {"nbins": 5})], grad=False),
    OpInfo("histogram_fixed_width_bins", tf.histogram_fixed_width_bins, _bins,
           [Sample((_VALUES, np.array([0.0, 5.0])), {"nbins": 5})], grad=False),
    OpInfo("confusion_matrix", tf.math.confusion_matrix, _confusion,
           [Sample((np.array([1, 2, 4, 2]), np.array([2, 2, 4, 0])))], grad=False),
    OpInfo("confusion_matrix_weights",
           lambda w: tf.math.confusion_matrix([0, 1, 1, 2], [0, 2, 2, 1], weights=w,
                                              dtype=tf.float64),
           lambda w: _confusion(np.array([0, 1, 1, 2]), np.array([0, 2, 2, 1]), w),
           [Sample((rand(4),))], float32=False),
]
