"""tf.lookup tables in SavedModels, against TensorFlow 2.21 (answers stored in
tests/references/test_lookup_saved_model.npz): one script, run by TensorFlow and by wengert,
saves a tf.Module holding a StaticHashTable (KeyValueTensorInitializer and TextFileInitializer),
a StaticVocabularyTable, a MutableHashTable with vector values and a DenseHashTable, loads it,
looks keys up through the loaded functions, inserts through them, and loads again (a fresh load
starts from the saved contents). A Keras model with a StringLookup saves and loads the same way.
wengert's own format holds the tables, and TensorFlow's saved_model.pb is written beside it
(tests/test_saved_model_tf_format_tables.py has TensorFlow load it)."""
import linecache
import os
import warnings

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval
from wengert.framework.errors import DataLossError

KEYS = np.array([b"a", b"b", b"zz", b"banana", b""], dtype="S6")
IDS = np.array([5, 6, 7], np.int64)
NEW_KEYS = np.array([b"zz", b"q"], dtype="S6")
NEW_VALUES = np.array([[3.0, 4.0], [5.0, 6.0]], np.float32)

SCRIPT = """
import os, tempfile
folder = tempfile.mkdtemp()
vocab = os.path.join(folder, "vocab.txt")
with open(vocab, "w") as f:
    f.write("apple\\t7\\nbanana\\t8\\n")


class Tables(tf.Module):
    def __init__(self):
        super().__init__()
        self.static = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)), -1)
        self.vocab = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b"], tf.constant([0, 1], tf.int64)), 3)
        self.text = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, 0, tf.int64, 1), -5)
        self.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32,
                                                               [0.0, -1.0])
        self.mutable.insert(["a"], [[1.0, 2.0]])
        self.dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1,
                                                           empty_key=-2, deleted_key=-3)
        self.dense.insert(tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None], tf.int64)])
    def find(self, keys, ids):
        return [self.static.lookup(keys), self.vocab.lookup(keys), self.text.lookup(keys),
                self.mutable.lookup(keys), self.dense.lookup(ids), self.mutable.size(),
                self.vocab.size()]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None, 2], tf.float32)])
    def put(self, keys, values):
        self.mutable.insert(keys, values)
        self.dense.remove(tf.constant([5], tf.int64))
        return self.mutable.size()


tables = Tables()
export = os.path.join(folder, "tables")
tf.saved_model.save(tables, export)
os.remove(vocab)
loaded = tf.saved_model.load(export)
keys, ids = tf.constant(A["keys"]), tf.constant(A["ids"])
for i, t in enumerate(loaded.find(keys, ids)):
    out[f"loaded_{i}"] = t.numpy()
out["put"] = loaded.put(tf.constant(A["new_keys"]), tf.constant(A["new_values"])).numpy()
for i, t in enumerate(loaded.find(keys, ids)):
    out[f"after_put_{i}"] = t.numpy()
fresh = tf.saved_model.load(export)
for i, t in enumerate(fresh.find(keys, ids)):
    out[f"fresh_{i}"] = t.numpy()
"""

KERAS_SCRIPT = """
import os, tempfile
inputs = keras.Input(shape=(2,), dtype="string")
ids = keras.layers.StringLookup(vocabulary=["cat", "dog", "bird"], mask_token="")(inputs)
x = keras.layers.Flatten()(keras.layers.Embedding(5, 3)(ids))
model = keras.Model(inputs, keras.layers.Dense(2)(x))
model.set_weights([A["embedding"], A["kernel"], A["bias"]])


class Serve(tf.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.string)])
    def __call__(self, words):
        return self.model(words)


export = os.path.join(tempfile.mkdtemp(), "keras")
tf.saved_model.save(Serve(model), export)
out["direct"] = model(tf.constant(A["words"])).numpy()
out["loaded"] = tf.saved_model.load(export)(tf.constant(A["words"])).numpy()
"""

KERAS_ARRAYS = {"words": np.array([[b"dog", b"cat"], [b"fish", b""], [b"bird", b"bird"]]),
                "embedding": np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3),
                "kernel": np.linspace(-0.5, 0.7, 12, dtype=np.float32).reshape(6, 2),
                "bias": np.array([0.1, -0.2], np.float32)}


def _in_wengert(script, arrays):
    """`script` run with wengert as `tf` (and its keras), as tf_eval runs it in TensorFlow."""
    name = f"<lookup script {len(linecache.cache)}>"  # AutoGraph reads the source from here
    linecache.cache[name] = (len(script), None, script.splitlines(True), name)
    scope = {"tf": tf, "keras": tf.keras, "np": np, "A": arrays, "out": {}}
    exec(compile(script, name, "exec"), scope)  # the test's own script, not user input
    return {k: np.asarray(v) for k, v in scope["out"].items()}


def _arrays():
    return {"keys": KEYS, "ids": IDS, "new_keys": NEW_KEYS, "new_values": NEW_VALUES}


def _without_fallback(run, *args):
    """run(*args), checking that TensorFlow's form was not left out."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = run(*args)
    assert not [w for w in caught if "Only wengert's format" in str(w.message)]
    return out


@pytest.fixture(scope="module")
def tables_answers():
    mine = _without_fallback(_in_wengert, SCRIPT, _arrays())
    return mine, tf_eval(SCRIPT, _arrays())


def test_loaded_tables_look_up_as_tensorflows(tables_answers):
    mine, theirs = tables_answers
    assert sorted(mine) == sorted(theirs)
    for key in sorted(theirs):
        np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)


def test_loaded_functions_write_the_restored_table_and_a_fresh_load_starts_over(
        tables_answers):
    mine, _ = tables_answers
    assert int(mine["put"]) == 3 and int(mine["fresh_5"]) == 1
    np.testing.assert_array_equal(mine["after_put_3"][2], [3.0, 4.0])
    np.testing.assert_array_equal(mine["after_put_4"], [-1, 60, -1])
    np.testing.assert_array_equal(mine["fresh_4"], [50, 60, -1])


def test_keras_string_lookup_model_saves_and_loads_as_tensorflows():
    mine = _without_fallback(_in_wengert, KERAS_SCRIPT, dict(KERAS_ARRAYS))
    theirs = tf_eval(KERAS_SCRIPT, dict(KERAS_ARRAYS))
    np.testing.assert_allclose(mine["direct"], theirs["direct"], rtol=1e-6)
    np.testing.assert_allclose(mine["loaded"], theirs["loaded"], rtol=1e-6)


class _Held(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.string, "none")
        self.table.insert(tf.constant([1, 2], tf.int64), tf.constant(["one", "two"]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def find(self, ids):
        return self.table.lookup(ids)


def test_a_held_table_is_restored_as_a_table_sharing_the_functions_contents(tmp_path):
    tf.saved_model.save(_Held(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert isinstance(loaded.table, tf.lookup.experimental.MutableHashTable)
    loaded.table.insert(tf.constant([3], tf.int64), tf.constant(["three"]))
    assert loaded.find(tf.constant([3, 1, 9], tf.int64)).numpy().tolist() == \
        [b"three", b"one", b"none"]
    checkpoint = tf.train.Checkpoint(held=loaded)
    path = checkpoint.write(str(tmp_path / "ckpt"))
    loaded.table.remove(tf.constant([3], tf.int64))
    checkpoint.read(path)
    assert int(loaded.table.size()) == 3


def test_tensorflow_format_required_writes_the_tables(tmp_path):
    path = str(tmp_path / "out")
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    tf.saved_model.save(_Held(), path, options=options)
    assert sorted(os.listdir(path)) == ["assets", "saved_model.json", "saved_model.pb",
                                        "variables"]


def test_a_table_inside_control_flow_is_written_in_tensorflows_form(tmp_path):
    class Branch(_Held):
        @tf.function(input_signature=[tf.TensorSpec([], tf.int64)])
        def pick(self, i):
            return tf.cond(i > 0, lambda: self.table.lookup(i), lambda: tf.constant("neg"))

    path = str(tmp_path / "out")
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    tf.saved_model.save(Branch(), path, options=options)
    os.remove(os.path.join(path, "saved_model.json"))  # read through TensorFlow's form
    loaded = tf.saved_model.load(path)
    assert [loaded.pick(tf.constant(i, tf.int64)).numpy() for i in (1, -1, 9)] == \
        [b"one", b"neg", b"none"]


def test_a_table_reference_out_of_range_is_data_loss(tmp_path):
    tf.saved_model.save(_Held(), str(tmp_path))
    json_path = tmp_path / "saved_model.json"
    text = json_path.read_text()
    json_path.write_text(text.replace('{"table":0}', '{"table":7}'))
    with pytest.raises(DataLossError, match="table reference 7"):
        tf.saved_model.load(str(tmp_path))
