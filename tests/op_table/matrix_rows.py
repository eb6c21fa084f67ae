"""Op-table rows for ops/matrix_ops.py: diagonals with TensorFlow's V3 semantics (k offsets,
num_rows/num_cols, padding_value, align), band_part, tensor_diag(_part) and cross. The references
are written index by index from TensorFlow's documentation, independently of the kernels."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand


def _diag_len(m, n, d):
    return min(m + min(0, d), n - max(0, d))


def _offset(d, width, length, align):
    left = align.startswith("LEFT") if d >= 0 else align.endswith("_LEFT")
    return 0 if left else width - length


def _pairs(k):
    return (k, k) if np.ndim(k) == 0 else tuple(k)


def _diag_part_ref(x, k=0, padding_value=0, align="RIGHT_LEFT"):
    k0, k1 = _pairs(k)
    m, n = x.shape[-2:]
    width = min(m + min(0, k1), n - max(0, k0))
    out = np.full(x.shape[:-2] + (k1 - k0 + 1, width), float(padding_value))
    for row, d in enumerate(range(k1, k0 - 1, -1)):
        length = _diag_len(m, n, d)
        start = _offset(d, width, length, align)
        for t in range(length):
            out[..., row, start + t] = x[..., t - min(0, d), t + max(0, d)]
    return out[..., 0, :] if k0 == k1 else out


def _diag_ref(diagonal, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    k0, k1 = _pairs(k)
    values = diagonal[..., None, :] if k0 == k1 else diagonal
    width = values.shape[-1]
    min_rows, min_cols = width - min(k1, 0), width + max(k0, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    num_rows = min_rows if num_rows == -1 else num_rows
    num_cols = min_cols if num_cols == -1 else num_cols
    out = np.full(values.shape[:-2] + (num_rows, num_cols), float(padding_value))
    for row, d in enumerate(range(k1, k0 - 1, -1)):
        length = _diag_len(num_rows, num_cols, d)
        start = _offset(d, width, length, align)
        for t in range(length):
            out[..., t - min(0, d), t + max(0, d)] = values[..., row, start + t]
    return out


def _set_diag_ref(x, diagonal, k=0, align="RIGHT_LEFT"):
    k0, k1 = _pairs(k)
    values = diagonal[..., None, :] if k0 == k1 else diagonal
    m, n = x.shape[-2:]
    width = values.shape[-1]
    out = x.copy()
    for row, d in enumerate(range(k1, k0 - 1, -1)):
        length = _diag_len(m, n, d)
        start = _offset(d, width, length, align)
        for t in range(length):
            out[..., t - min(0, d), t + max(0, d)] = values[..., row, start + t]
    return out


def _band_ref(x, num_lower, num_upper):
    m, n = x.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    return np.where(keep, x, 0.0)


ROWS = [
    OpInfo("diag_part", tf.linalg.diag_part, _diag_part_ref, [
        Sample((rand(3, 3),), name="square"),
        Sample((rand(2, 3, 4),), name="wide-batch"),
        Sample((rand(4, 2),), name="tall"),
        Sample((rand(3, 4),), {"k": 1}, name="superdiagonal"),
        Sample((rand(2, 4, 3),), {"k": (-1, 2), "padding_value": 0.5}, name="band-right-left"),
        Sample((rand(3, 4),), {"k": (-2, 1), "align": "LEFT_RIGHT"}, name="band-left-right"),
        Sample((rand(4, 4),), {"k": (-1, 1), "align": "LEFT_LEFT"}, name="left-left"),
        Sample((rand(4, 3),), {"k": (-2, -1), "align": "RIGHT_RIGHT"}, name="subdiagonals")]),
    OpInfo("diag", tf.linalg.diag, _diag_ref, [
        Sample((rand(3),), name="vector"),
        Sample((rand(2, 3),), name="batch"),
        Sample((rand(3),), {"k": 1}, name="superdiagonal"),
        Sample((rand(3),), {"k": -1, "num_cols": 5}, name="subdiagonal-wide"),
        Sample((rand(2, 3),), {"k": (0, 1), "num_rows": 4, "padding_value": 9.0},
               name="band-padding"),
        Sample((rand(2, 3, 3),), {"k": (-2, 0), "align": "LEFT_RIGHT"}, name="band-left-right")]),
    OpInfo("set_diag", tf.linalg.set_diag, _set_diag_ref, [
        Sample((rand(3, 3), rand(3)), name="square"),
        Sample((rand(2, 4, 3), rand(2, 3)), name="tall-batch"),
        Sample((rand(3, 4), rand(2, 3)), {"k": (0, 1)}, name="band"),
        Sample((rand(3, 4), rand(3, 3)), {"k": (-2, 0), "align": "LEFT_LEFT"}, name="left-left"),
        Sample((rand(4, 3), rand(3)), {"k": -1}, name="subdiagonal")]),
    OpInfo("band_part", tf.linalg.band_part, _band_ref, [
        Sample((rand(4, 4), -1, 0), name="lower"),
        Sample((rand(2, 3, 5), 0, -1), name="upper-batch"),
        Sample((rand(4, 3), 1, 1), name="tridiagonal"),
        Sample((rand(3, 4), 0, 0), name="diagonal")]),
    OpInfo("tensor_diag", tf.linalg.tensor_diag,
           lambda d: np.diag(d.reshape(-1)).reshape(d.shape + d.shape),
           [Sample((rand(3),)), Sample((rand(2, 3),), name="rank2")]),
    OpInfo("tensor_diag_part", tf.linalg.tensor_diag_part,
           lambda x: np.diagonal(x.reshape(int(np.sqrt(x.size)), -1)).reshape(
               x.shape[:x.ndim // 2]),
           [Sample((rand(3, 3),)), Sample((rand(2, 3, 2, 3),), name="rank4")]),
    OpInfo("cross", tf.linalg.cross, np.cross,
           [Sample((rand(3), rand(3))), Sample((rand(2, 4, 3), rand(2, 4, 3)), name="batch")]),
]
