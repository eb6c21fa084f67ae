"""Op-table rows for ops/ragged/ (the one op of its own, RaggedCross: forward only, no
gradient). The expected hashes are TensorFlow 2.21's (tf.ragged.cross_hashed)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample

_VALUES = np.array([1, 2, 3], np.int64)
_SPLITS = np.array([0, 1, 3], np.int64)
_HASHES = np.array([5199413699614396413, 5167850198417433268, 1424184489956106035], np.int64)


def _hashed(values, splits):
    return tf.ragged.cross_hashed([tf.RaggedTensor.from_row_splits(values, splits)]).flat_values


def _crossed(values, splits):
    rt = tf.RaggedTensor.from_row_splits(values, splits)
    return tf.ragged.cross([rt, rt]).flat_values


ROWS = [
    OpInfo("ragged_cross_hashed", _hashed, lambda v, s: _HASHES,
           [Sample((_VALUES, _SPLITS))], grad=False, float32=False),
    OpInfo("ragged_cross", _crossed,
           lambda v, s: np.array([b"1_X_1", b"2_X_2", b"2_X_3", b"3_X_2", b"3_X_3"], object),
           [Sample((_VALUES, _SPLITS))], grad=False, float32=False),
]
