"""TensorFlow 1's `tf.compat.v1.string_split` (a vector of strings split at any character of a
delimiter into a SparseTensor or a RaggedTensor), run as a TF 1 program in wengert and in
TensorFlow 2.21 with eager execution disabled (tf1_scenarios.py, answers stored; the pieces as
text)."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "string_split": '''
lines = tf.placeholder(tf.string, [None])
feed = {lines: ["hello  world", "a,b;c", "", "x"]}
cases = {"default": tf.string_split(lines), "sep": tf.string_split(lines, sep=","),
         "delimiters": tf.string_split(lines, delimiter=",;"),
         "keep_empty": tf.string_split(lines, skip_empty=False),
         "bytes": tf.string_split(lines, sep="")}
ragged = tf.string_split(lines, result_type="RaggedTensor")
with tf.Session() as sess:
    for key, sp in cases.items():
        got = sess.run(sp, feed)
        out[key + "_indices"] = got.indices
        out[key + "_values"] = [v.decode() for v in got.values]
        out[key + "_shape"] = got.dense_shape
    values, splits = sess.run([ragged.values, ragged.row_splits], feed)
    out["ragged_values"] = [v.decode() for v in values]
    out["ragged_splits"] = splits
out["both"] = error_of(lambda: tf.string_split(lines, sep=",", delimiter=","))
out["matrix"] = error_of(lambda: tf.string_split(tf.constant([["a"]]))).split(":")[0]
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_eager_string_split():
    sp = v1.string_split(["a b", "c"])
    assert sp.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert sp.values.numpy().tolist() == [b"a", b"b", b"c"]
    assert sp.dense_shape.numpy().tolist() == [2, 2]
