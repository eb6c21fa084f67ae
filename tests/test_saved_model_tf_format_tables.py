"""tf.saved_model.save writes tf.lookup tables in TensorFlow's form: each table a resource of the
object graph with "_create_resource", "_initialize" and "_destroy_resource" functions, a
TextFileInitializer's file copied into assets/, a MutableHashTable's (and DenseHashTable's)
contents in the checkpoint under TensorFlow's keys with its "table" saveable, and the functions
taking the tables as resource inputs of HashTableV2, LookupTableFindV2 ... nodes. TensorFlow 2.21
loads wengert's directory (tf.saved_model.load, and TensorFlow 1's loader running the signature)
and its lookups, inserts and sizes equal wengert's; wengert reads the same directory through
TensorFlow's form too (saved_model.json removed). TensorFlow's answers are stored in
tests/references/ for runs without TensorFlow."""
import os
import shutil

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval
from wengert.framework.protos.meta_graph import SavedModel
from wengert.ops.io.lookup_tables import TableStore
from wengert.saved_model.checkpoint_format import CheckpointReader
from wengert.saved_model.tensorflow_tables import dense_buckets

DIR_VARIABLE = "WENGERT_TEST_SAVED_MODEL"
REQUIRE = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
KEYS = np.array([b"a", b"b", b"zz", b"banana", b"", b"apple"], dtype="S6")
IDS = np.array([5, 131077, 21, 7, 29], np.int64)  # 5 and 131077 share a bucket
NEW_KEYS = np.array([b"zz", b"a"], dtype="S6")
NEW_VALUES = np.array([[3.0, 4.0], [5.0, 6.0]], np.float32)


class Tables(tf.Module):
    def __init__(self, vocab):
        super().__init__()
        self.static = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)), -1)
        self.vocab = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b"], tf.constant([0, 1], tf.int64)), 3)
        self.numbers = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant([5, 7], tf.int64), tf.constant([0, 1], tf.int64)), 4)
        self.text = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, 0, tf.int64, 1), -5)
        self.lines = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER, delimiter=" "), -1)
        self.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32,
                                                               [0.0, -1.0])
        self.mutable.insert(["a", "b"], [[1.0, 2.0], [7.0, 8.0]])
        self.dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, -1.0,
                                                           empty_key=-2, deleted_key=-3)
        self.dense.insert(tf.constant([5, 131077, 7], tf.int64), tf.constant([0.5, 1.5, 2.5]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None], tf.int64)])
    def find(self, keys, ids):
        return [self.static.lookup(keys), self.vocab.lookup(keys), self.numbers.lookup(ids),
                self.text.lookup(keys), self.lines.lookup(keys), self.mutable.lookup(keys),
                self.dense.lookup(ids), self.mutable.size(), self.vocab.size()]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None, 2], tf.float32)])
    def put(self, keys, values):
        self.mutable.insert(keys, values)
        self.mutable.remove(tf.constant(["b"]))
        self.dense.insert(tf.constant([21], tf.int64), tf.constant([9.5]))
        self.dense.remove(tf.constant([5], tf.int64))
        return self.mutable.size()


class Serve(tf.Module):
    """A signature over a text-file table and a mutable table (TensorFlow 1's loader runs it)."""

    def __init__(self, vocab):
        super().__init__()
        self.words = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, 0, tf.int64, 1), -5)
        self.scores = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        self.scores.insert(tf.constant(["banana"]), tf.constant([40], tf.int64))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
    def serve(self, words):
        return {"ids": self.words.lookup(words), "scores": self.scores.lookup(words)}


def _vocab(folder):
    path = os.path.join(folder, "vocab.txt")
    with open(path, "w") as f:
        f.write("apple\t7\nbanana\t8\n")
    return path


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """(directory, the same directory without saved_model.json, wengert's answers)."""
    folder = tmp_path_factory.mktemp("tables")
    vocab = _vocab(str(folder))
    module = Tables(vocab)
    path = str(folder / "saved")
    tf.saved_model.save(module, path, options=REQUIRE)
    os.remove(vocab)  # the asset copy is what a load reads
    only_pb = str(folder / "only_pb")
    shutil.copytree(path, only_pb)
    os.remove(os.path.join(only_pb, "saved_model.json"))
    return path, only_pb, _session(module)


def _session(obj):
    """find, put, find again on `obj` (a module or a loaded one), as the TensorFlow script."""
    keys, ids = tf.constant(KEYS), tf.constant(IDS)
    out = {f"loaded_{i}": t.numpy() for i, t in enumerate(obj.find(keys, ids))}
    out["put"] = obj.put(tf.constant(NEW_KEYS), tf.constant(NEW_VALUES)).numpy()
    out.update({f"after_put_{i}": t.numpy() for i, t in enumerate(obj.find(keys, ids))})
    return out


TF_SESSION = """
loaded = tf.saved_model.load(os.environ["WENGERT_TEST_SAVED_MODEL"])
keys, ids = tf.constant(A["keys"]), tf.constant(A["ids"])
for i, t in enumerate(loaded.find(keys, ids)):
    out[f"loaded_{i}"] = t.numpy()
out["put"] = loaded.put(tf.constant(A["new_keys"]), tf.constant(A["new_values"])).numpy()
for i, t in enumerate(loaded.find(keys, ids)):
    out[f"after_put_{i}"] = t.numpy()
fresh = tf.saved_model.load(os.environ["WENGERT_TEST_SAVED_MODEL"])
for i, t in enumerate(fresh.find(keys, ids)):
    out[f"fresh_{i}"] = t.numpy()
"""


def _assert_same(got, want):
    assert sorted(k for k in got if not k.startswith("fresh")) == sorted(want)
    for key in sorted(want):
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_tensorflow_loads_wengerts_tables_and_looks_up_as_wengert(saved, monkeypatch):
    path, _, mine = saved
    monkeypatch.setenv(DIR_VARIABLE, path)
    theirs = tf_eval(TF_SESSION, {"keys": KEYS, "ids": IDS, "new_keys": NEW_KEYS,
                                  "new_values": NEW_VALUES})
    _assert_same(theirs, mine)
    for i in range(9):  # a fresh load starts from the saved contents again
        np.testing.assert_array_equal(theirs[f"fresh_{i}"], mine[f"loaded_{i}"])
    np.testing.assert_array_equal(mine["loaded_0"], [1, 2, -1, -1, -1, -1])
    np.testing.assert_array_equal(mine["loaded_3"], [-5, -5, -5, 8, -5, 7])
    np.testing.assert_array_equal(mine["after_put_6"], [-1.0, 1.5, 9.5, 2.5, -1.0])


def test_wengert_reads_its_tables_back_through_tensorflows_form(saved):
    path, only_pb, mine = saved
    _assert_same(_session(tf.saved_model.load(only_pb)), mine)
    _assert_same(_session(tf.saved_model.load(path)), mine)  # and through its own format


def _meta(path):
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        return SavedModel.FromString(f.read()).meta_graphs[0]


def test_tables_are_resources_made_and_filled_by_their_own_functions(saved):
    path, _, _ = saved
    meta = _meta(path)
    graph = meta.object_graph_def
    root = {c.local_name: c.node_id for c in graph.nodes[0].children}
    for name in ("static", "vocab", "numbers", "text", "lines", "mutable", "dense"):
        node = graph.nodes[root[name]]
        assert node.WhichOneof("kind") == "resource", name
        children = {c.local_name for c in node.children}
        assert {"_create_resource", "_initialize", "_destroy_resource"} <= children, name
        assert ("_initializer" in children) == (name not in ("mutable", "dense")), name
        assert (set(node.saveable_objects) == {"table"}) == (name in ("mutable", "dense"))
    ops = {n.op for f in meta.graph_def.library.function for n in f.node_def}
    assert {"HashTableV2", "MutableHashTableOfTensorsV2", "MutableDenseHashTableV2",
            "LookupTableImportV2", "InitializeTableFromTextFileV2", "LookupTableFindV2",
            "LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableSizeV2",
            "LookupTableExportV2", "StringToHashBucketFast", "AsString"} <= ops
    assert [a.filename for a in meta.asset_file_def] == ["vocab.txt"]  # one copy per file
    assert meta.asset_file_def[0].tensor_info.name == "asset_path_initializer:0"
    with open(os.path.join(path, "assets", "vocab.txt")) as f:
        assert f.read() == "apple\t7\nbanana\t8\n"
    text = graph.nodes[root["text"]]
    init = graph.nodes[{c.local_name: c.node_id for c in text.children}["_initializer"]]
    assert graph.nodes[init.children[0].node_id].WhichOneof("kind") == "asset"
    reader = CheckpointReader(os.path.join(path, "variables", "variables"))
    assert reader.get_tensor("mutable/.ATTRIBUTES/table-keys").tolist() == [b"a", b"b"]
    np.testing.assert_array_equal(reader.get_tensor("mutable/.ATTRIBUTES/table-values"),
                                  [[1.0, 2.0], [7.0, 8.0]])
    buckets = reader.get_tensor("dense/.ATTRIBUTES/table-keys")
    assert buckets.shape == (131072, 1) and sorted(buckets[buckets != -2]) == [5, 7, 131077]


def test_tensorflow_1s_loader_runs_a_signature_over_tables(tmp_path, monkeypatch):
    vocab = _vocab(str(tmp_path))
    module = Serve(vocab)
    path = str(tmp_path / "serve")
    tf.saved_model.save(module, path, options=REQUIRE)
    os.remove(vocab)
    monkeypatch.setenv(DIR_VARIABLE, path)
    words = np.array([b"apple", b"kiwi", b"banana"])
    got = tf_eval("""
with tf.compat.v1.Session(graph=tf.Graph()) as sess:
    meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], os.environ[
        "WENGERT_TEST_SAVED_MODEL"])
    sig = meta.signature_def["serving_default"]
    out.update(sess.run({k: v.name for k, v in sig.outputs.items()},
                        {sig.inputs["words"].name: A["words"]}))
loaded = tf.saved_model.load(os.environ["WENGERT_TEST_SAVED_MODEL"])
for key, value in loaded.signatures["serving_default"](words=tf.constant(A["words"])).items():
    out["v2_" + key] = value.numpy()
""", {"words": words})
    want = module.serve(tf.constant(words))
    for key in ("ids", "scores"):
        np.testing.assert_array_equal(got[key], want[key].numpy())
        np.testing.assert_array_equal(got["v2_" + key], want[key].numpy())
    np.testing.assert_array_equal(got["scores"], [-1, -1, 40])


def test_a_text_file_gone_before_saving_is_written_as_its_contents(tmp_path):
    vocab = _vocab(str(tmp_path))
    module = Serve(vocab)
    os.remove(vocab)
    path = str(tmp_path / "serve")
    tf.saved_model.save(module, path, options=REQUIRE)
    assert not _meta(path).asset_file_def and not os.listdir(os.path.join(path, "assets"))
    os.remove(os.path.join(path, "saved_model.json"))
    loaded = tf.saved_model.load(path)
    words = tf.constant(["banana", "apple", "x"])
    np.testing.assert_array_equal(loaded.serve(words)["ids"].numpy(), [8, 7, -5])


def test_a_table_no_object_holds_is_a_child_of_the_root(tmp_path):
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([1, 2], tf.int64), tf.constant([10.0, 20.0])), -1.0)
    module = tf.Module()
    module.f = tf.function(lambda x: table.lookup(x),
                           input_signature=[tf.TensorSpec([None], tf.int64)])
    path = str(tmp_path / "bare")
    tf.saved_model.save(module, path, options=REQUIRE)
    graph = _meta(path).object_graph_def
    names = [c.local_name for c in graph.nodes[0].children]
    assert "_captured_table_0" in names
    os.remove(os.path.join(path, "saved_model.json"))
    np.testing.assert_array_equal(tf.saved_model.load(path).f(tf.constant([2, 3], tf.int64))
                                  .numpy(), [20.0, -1.0])


DENSE_SCRIPT = """
for name, dtype, keys, empty, deleted in (("ints", tf.int64, A["ints"], -1, -2),
                                          ("strings", tf.string, A["strings"], "", "<d>")):
    table = tf.lookup.experimental.DenseHashTable(dtype, tf.float32, -1.0, empty_key=empty,
                                                  deleted_key=deleted, initial_num_buckets=16)
    table.insert(tf.constant(keys), tf.constant(A["values"][:len(keys)]))
    keys, values = (t.numpy() for t in table.export())
    out[name + "_keys"] = keys.astype("S8") if keys.dtype == object else keys
    out[name + "_values"] = values
"""


def test_dense_buckets_are_tensorflows_layout():
    ints = np.array([5, 21, 37, 3, 16, -7], np.int64)  # 5, 21 and 37 share bucket 5 of 16
    strings = np.array([b"a", b"b", b"banana", b"kiwi", b"zz"])
    values = np.arange(1, 7, dtype=np.float32)
    theirs = tf_eval(DENSE_SCRIPT, {"ints": ints, "strings": strings, "values": values})
    for name, dtype, keys, empty in (("ints", tf.int64, ints, -1),
                                     ("strings", tf.string, strings, b"")):
        store = TableStore(dtype, tf.float32, (), empty_key=empty,
                           deleted_key=-2 if dtype == tf.int64 else b"<d>")
        got_keys, got_values = dense_buckets(store, keys, values[:len(keys)], 16)
        np.testing.assert_array_equal(got_keys.astype(theirs[name + "_keys"].dtype),
                                      theirs[name + "_keys"], err_msg=name)
        np.testing.assert_array_equal(got_values, theirs[name + "_values"], err_msg=name)


def test_tensorflow_serves_a_keras_string_lookup_model(tmp_path, monkeypatch):
    keras = tf.keras
    keras.backend.clear_session()
    inputs = keras.Input(shape=(2,), dtype="string")
    ids = keras.layers.StringLookup(vocabulary=["cat", "dog", "bird"], mask_token="")(inputs)
    x = keras.layers.Flatten()(keras.layers.Embedding(5, 3)(ids))
    model = keras.Model(inputs, keras.layers.Dense(2)(x))
    model.set_weights([np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3),
                       np.linspace(-0.5, 0.7, 12, dtype=np.float32).reshape(6, 2),
                       np.array([0.1, -0.2], np.float32)])
    words = np.array([[b"dog", b"cat"], [b"fish", b""], [b"bird", b"bird"]])
    tf.saved_model.save(model, str(tmp_path / "saved"), options=REQUIRE)
    model.export(str(tmp_path / "export"))
    monkeypatch.setenv(DIR_VARIABLE, str(tmp_path / "saved"))
    monkeypatch.setenv("WENGERT_TEST_EXPORT", str(tmp_path / "export"))
    got = tf_eval("""
saved = tf.saved_model.load(os.environ["WENGERT_TEST_SAVED_MODEL"])
exported = tf.saved_model.load(os.environ["WENGERT_TEST_EXPORT"])
out["call"] = saved(tf.constant(A["words"])).numpy()
out["serve"] = exported.serve(tf.constant(A["words"])).numpy()
""", {"words": words})
    want = model(tf.constant(words)).numpy()
    np.testing.assert_allclose(got["call"], want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got["serve"], want, rtol=1e-6, atol=1e-7)
