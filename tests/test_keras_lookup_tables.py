"""Keras's lookup layers over tf.lookup tables, against TensorFlow 2.21 + Keras 3 (answers stored
in tests/references/test_keras_lookup_tables.npz): one script, run by TensorFlow and by wengert,
uses StringLookup / IntegerLookup with several OOV indices (hash buckets, floormod), mask
tokens, inverted lookups, a vocabulary file, and the layers (with TextVectorization and
Hashing) inside tf.data.Dataset.map and tf.function, and the vocabulary in their configs as plain
Python values; a tf.lookup table given as the vocabulary is refused (Keras 3 fails on one too)."""
import linecache

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

SCRIPT = """
import os, tempfile
L = keras.layers
words = tf.constant(A["words"])
out["oov3"] = L.StringLookup(vocabulary=["a", "b"], num_oov_indices=3)(words)
out["oov3_mask"] = L.StringLookup(vocabulary=["a", "b"], num_oov_indices=3,
                                  mask_token="")(words)
out["int_oov4"] = L.IntegerLookup(vocabulary=[5, 7], num_oov_indices=4)(
    tf.constant(A["ints"]))
out["int_mask"] = L.IntegerLookup(vocabulary=[5, 7], num_oov_indices=2, mask_token=0)(
    tf.constant(A["ints"]))
out["invert_mask"] = L.StringLookup(vocabulary=["a", "b"], mask_token="", invert=True)(
    tf.constant([0, 1, 2, 3, 7]))
out["int_invert"] = L.IntegerLookup(vocabulary=[5, 7], invert=True)(tf.constant([0, 1, 2, 9]))
path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
with open(path, "w") as f:
    f.write("a\\nb\\n")
from_file = L.StringLookup(vocabulary=path)
out["vocab_file"] = from_file(words)
out["vocab_file_tokens"] = np.array(from_file.get_vocabulary())
out["vocab_file_text"] = L.TextVectorization(vocabulary=path)(tf.constant(["b a q", "a"]))
lookup = L.StringLookup(vocabulary=["a", "b"])
out["map"] = np.array([int(x) for x in
                       tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).map(lookup)])
ints = L.IntegerLookup(vocabulary=[1, 4])
out["map_int"] = np.stack([x.numpy() for x in tf.data.Dataset.from_tensor_slices(
    tf.constant([[1, 2], [3, 4]], tf.int64)).map(ints)])
vectorize = L.TextVectorization(vocabulary=["x", "y"], output_sequence_length=3)
out["map_text"] = np.stack([x.numpy() for x in tf.data.Dataset.from_tensor_slices(
    ["x y z", "y"]).batch(2).map(vectorize)])
out["map_hashing"] = np.array([x.numpy() for x in tf.data.Dataset.from_tensor_slices(
    ["x", "y", "zz"]).map(L.Hashing(num_bins=5))])
traced = tf.function(lambda w: lookup(w))
out["traced"] = traced(words)
out["traced_shape"] = np.array(traced.get_concrete_function(
    tf.TensorSpec([None, 3], tf.string)).structured_outputs.shape.as_list(), dtype=object)
out["config"] = np.array([repr(L.IntegerLookup(vocabulary=[3, 4]).get_config()["vocabulary"]),
                          repr(L.StringLookup(vocabulary=np.array(["a", "b"])).get_config()[
                              "vocabulary"])])
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
    ["a", "b"], tf.constant([1, 2], tf.int64)), 0)
try:
    L.StringLookup(vocabulary=table)
    out["table"] = np.array("accepted")
except Exception:
    out["table"] = np.array("refused")


def text(a):
    a = np.asarray(a)
    if a.dtype != object:
        return a
    flat = [x.decode() if isinstance(x, bytes) else str(x) for x in a.reshape(-1).tolist()]
    return np.array(flat, dtype=str).reshape(a.shape)


out = {k: text(v) for k, v in out.items()}
"""

ARRAYS = {"words": np.array([[b"a", b"zz", b"q"], [b"b", b"", b"hello"]]),
          "ints": np.array([5, 9, -3, 7, 12, 0], np.int64)}


def _in_wengert(script, arrays):
    """`script` run with wengert as `tf` (and its keras), as tf_eval runs it in TensorFlow."""
    name = f"<keras lookup script {len(linecache.cache)}>"
    linecache.cache[name] = (len(script), None, script.splitlines(True), name)
    scope = {"tf": tf, "keras": tf.keras, "np": np, "A": arrays, "out": {}}
    exec(compile(script, name, "exec"), scope)  # the test's own script, not user input
    return scope["out"]


@pytest.fixture(scope="module")
def answers():
    return _in_wengert(SCRIPT, dict(ARRAYS)), tf_eval(SCRIPT, dict(ARRAYS))


def test_lookup_layers_on_tables_give_keras_answers(answers):
    mine, theirs = answers
    assert sorted(mine) == sorted(theirs)
    for key in sorted(theirs):
        got, want = mine[key], theirs[key]
        if want.dtype.kind in "OSU":
            got = np.array([v.decode() if isinstance(v, bytes) else str(v)
                            for v in got.reshape(-1).tolist()], object).reshape(got.shape)
            want = np.array([v.decode() if isinstance(v, bytes) else str(v)
                             for v in want.reshape(-1).tolist()], object).reshape(want.shape)
        np.testing.assert_array_equal(got, want, err_msg=key)


def test_a_table_as_vocabulary_is_refused_with_the_fix(answers):
    assert str(answers[1]["table"]) == "refused"
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        ["a"], tf.constant([1], tf.int64)), 0)
    with pytest.raises(TypeError, match=r"table.export\(\)\[0\]"):
        tf.keras.layers.IntegerLookup(vocabulary=table)


def test_a_missing_vocabulary_file_is_keras_value_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        tf.keras.layers.StringLookup(vocabulary=str(tmp_path / "none.txt"))
