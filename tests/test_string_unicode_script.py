"""tf.strings.unicode_script against TensorFlow 2.21: wengert's script table
(wengert/ops/io/data/unicode_scripts.npz) is written from TensorFlow itself by
tests/references/unicode_scripts.py; here a sample of code points (the first and last of every
range in the table, every 257th code point, and values that are not code points) is compared
with TensorFlow's answers (stored in tests/references/), as are the shapes and dtypes TensorFlow
takes."""
import pathlib

import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

TABLE = pathlib.Path(tf.__file__).parent / "ops" / "io" / "data" / "unicode_scripts.npz"


def _sample():
    with np.load(TABLE, allow_pickle=False) as table:
        starts = table["starts"].astype(np.int64)
    codes = np.concatenate([starts, starts - 1, np.arange(0, 0x110000, 257),
                            [-1, -0x80000000, 0x110000, 0x7FFFFFFF, 0xD800, 0xDFFF, 0x10FFFF]])
    return np.unique(codes).astype(np.int32)


SAMPLE = _sample()
CASES = [
    TFCase("sample", "tf.strings.unicode_script(x0)", tf.strings.unicode_script, [SAMPLE]),
    TFCase("matrix", "tf.strings.unicode_script(x0)", tf.strings.unicode_script,
           [np.array([[97, 0x4E2D], [0x110000, -5]], np.int32)]),
    TFCase("scalar", "tf.strings.unicode_script(x0)", tf.strings.unicode_script,
           [np.array(0x0915, np.int32)]),
    TFCase("ragged", "tf.strings.unicode_script(tf.RaggedTensor.from_row_splits(x0, [0, 2, 3]))"
           ".flat_values", lambda x: tf.strings.unicode_script(
               tf.RaggedTensor.from_row_splits(x, [0, 2, 3])).flat_values,
           [np.array([65, 0x3B1, 0x5D0], np.int32)]),
]


@pytest.fixture(scope="module")
def theirs():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_matches_tensorflow(case, theirs):
    check(case, theirs[case.name])


def test_table_is_ranges_from_zero():
    with np.load(TABLE, allow_pickle=False) as table:
        starts, scripts = table["starts"], table["scripts"]
    assert starts[0] == 0 and np.all(np.diff(starts) > 0) and starts[-1] <= 0x10FFFF
    assert len(starts) == len(scripts) and np.all(scripts[1:] != scripts[:-1])


def test_only_int32_code_points():
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 tensor but is a int64"):
        tf.strings.unicode_script(tf.constant([97], tf.int64))
