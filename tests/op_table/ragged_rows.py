"""Op-table rows for ops/ragged/'s own ops: RaggedCross (forward only, no gradient; the expected
hashes are TensorFlow 2.21's tf.ragged.cross_hashed) and RaggedTensorToTensor (to_tensor, with
its gradients with respect to the values and the default value)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

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

_SPLITS2 = np.array([0, 2, 2, 3], np.int64)


def _to_tensor(values, default):
    return tf.RaggedTensor.from_row_splits(values, _SPLITS2).to_tensor(default_value=default,
                                                                        shape=[4, 2])


def _to_tensor_ref(values, default):
    out = np.full((4, 2), 0 if default is None else default, values.dtype)  # None: TF's 0
    out[0, :2], out[2, 0] = values[:2], values[2]
    return out


ROWS.append(OpInfo("ragged_to_tensor", _to_tensor, _to_tensor_ref,
                   [Sample((rand(3), np.array(0.5)))]))
