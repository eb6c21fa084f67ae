"""tf.saved_model.save writes functions and signatures that return RaggedTensors and
SparseTensors in TensorFlow's form: the FunctionDef returns each composite's components in
TensorFlow's order (flat_values then row_splits from the outermost; indices, values,
dense_shape), the SavedConcreteFunction's output signature holds its RaggedTensorSpec or
SparseTensorSpec (a TypeSpecProto of TensorFlow's state: shape, dtype, ragged_rank,
row_splits_dtype), and a signature's SignatureDef output is a composite_tensor (its TypeSpec and
its components' names) or a coo_sparse. TensorFlow 2.21 loads the directory and gets the same
composites from the functions, from the signatures, and from TensorFlow 1's loader running the
SignatureDef; wengert reads them back through both its own format and TensorFlow's. A function
whose input signature holds a RaggedTensorSpec or SparseTensorSpec is written with that TypeSpec
in its input signature and FunctionSpec (its components the FunctionDef's arguments), and
TensorFlow calls it with a tf.RaggedTensor or tf.SparseTensor. tf.strings.split (wengert's
StringSplitV2 returns the ragged parts) is written as TensorFlow's sparse StringSplitV2 and the
row splits made from its indices, and a search of a vector (a ragged reduction's row ids) as
TensorFlow's search of a one-row matrix (graph/node_compositions.py); a sparse reduction takes
its axes as an input (every axis written out where wengert reduces them all). TensorFlow's
answers are stored in tests/references/ for runs without TensorFlow."""
import os
import shutil

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval_saved_model
from wengert.framework.protos.meta_graph import SavedModel

REQUIRE = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
X = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]], np.float32)
WORDS = np.array([b"a", b"b", b"c", b"d"])
LENGTHS = np.array([1, 2, 3], np.int64)


class Composites(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def rows(self, x):
        return tf.RaggedTensor.from_row_lengths(x, [2, 0, 2])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def sparse(self, x):
        return tf.sparse.from_dense(x)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def mixed(self, x):
        return {"sparse": tf.sparse.from_dense(x), "dense": x * 2.0,
                "ragged": tf.RaggedTensor.from_tensor(x, padding=0.0)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def nested(self, lengths):
        return tf.RaggedTensor.from_nested_row_lengths(
            tf.range(tf.reduce_sum(lengths)), [[2, 1], lengths])


def _array(t):
    a = t.numpy()
    return a.astype("S") if a.dtype == object else a


def _parts(value):
    """name suffix -> component array of a tensor, RaggedTensor or SparseTensor."""
    if isinstance(value, tf.RaggedTensor):
        return {"ragged_values": _array(value.flat_values),
                **{f"ragged_splits_{i}": s.numpy()
                   for i, s in enumerate(value.nested_row_splits)}}
    if isinstance(value, tf.sparse.SparseTensor):
        return {"sparse_indices": value.indices.numpy(), "sparse_values": value.values.numpy(),
                "sparse_shape": value.dense_shape.numpy()}
    return {"dense": value.numpy()}


def _session(obj, signatures=None):
    """name/part -> array of the calls the TensorFlow script makes; `signatures` stands in for
    `obj.signatures` (a module that was not loaded)."""
    signatures = signatures or obj.signatures
    out = {}
    results = {"rows": obj.rows(tf.constant(WORDS)), "sparse": obj.sparse(tf.constant(X)),
               "nested": obj.nested(tf.constant(LENGTHS))}
    results.update({f"mixed_{k}": v for k, v in obj.mixed(tf.constant(X)).items()})
    results.update({f"sig_{k}": v for k, v in signatures["serving_default"](
        x=tf.constant(X[:1])).items()})
    results["sig_rows"] = signatures["rows"](x=tf.constant(WORDS))["output_0"]
    for name, value in results.items():
        out.update({f"{name}/{k}": v for k, v in _parts(value).items()})
    return out


TF_SESSION = """
def array(t):
    a = t.numpy()
    return a.astype("S") if a.dtype == object else a
def parts(value):
    if isinstance(value, tf.RaggedTensor):
        return {"ragged_values": array(value.flat_values),
                **{f"ragged_splits_{i}": s.numpy()
                   for i, s in enumerate(value.nested_row_splits)}}
    if isinstance(value, tf.sparse.SparseTensor):
        return {"sparse_indices": value.indices.numpy(), "sparse_values": value.values.numpy(),
                "sparse_shape": value.dense_shape.numpy()}
    return {"dense": value.numpy()}
results = {"rows": loaded.rows(tf.constant(A["words"])), "sparse": loaded.sparse(A["x"]),
           "nested": loaded.nested(tf.constant(A["lengths"]))}
results.update({f"mixed_{k}": v for k, v in loaded.mixed(A["x"]).items()})
results.update({f"sig_{k}": v for k, v in loaded.signatures["serving_default"](
    x=tf.constant(A["x"][:1])).items()})
results["sig_rows"] = loaded.signatures["rows"](x=tf.constant(A["words"]))["output_0"]
for name, value in results.items():
    out.update({f"{name}/{k}": v for k, v in parts(value).items()})
with tf.compat.v1.Session(graph=tf.Graph()) as sess:
    meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], os.environ[
        "WENGERT_TEST_SAVED_MODEL"])
    sig = meta.signature_def["serving_default"]
    fetch = {k: tf.compat.v1.saved_model.utils.get_tensor_from_tensor_info(v, sess.graph)
             for k, v in sig.outputs.items()}
    got = sess.run(fetch, {sig.inputs["x"].name: A["x"][:1]})
out["v1_ragged_values"], out["v1_ragged_splits"] = got["ragged"].values, got["ragged"].row_splits
out["v1_sparse_indices"], out["v1_sparse_values"] = got["sparse"].indices, got["sparse"].values
out["v1_sparse_shape"], out["v1_dense"] = got["sparse"].dense_shape, got["dense"]
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """(directory, the same directory without saved_model.json, wengert's answers)."""
    folder = tmp_path_factory.mktemp("composite_outputs")
    module = Composites()
    path = str(folder / "saved")
    tf.saved_model.save(module, path, options=REQUIRE,
                        signatures={"serving_default": module.mixed, "rows": module.rows})
    only_pb = str(folder / "only_pb")
    shutil.copytree(path, only_pb)
    os.remove(os.path.join(only_pb, "saved_model.json"))
    signatures = {"serving_default": module.mixed,
                  "rows": lambda x: {"output_0": module.rows(x)}}
    return path, only_pb, _session(module, signatures)


def _assert_same(got, want):
    assert sorted(got) == sorted(want)
    for key in sorted(want):
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_wengerts_composites_are_the_expected_ones(saved):
    _, _, mine = saved
    assert mine["rows/ragged_values"].tolist() == WORDS.tolist()
    np.testing.assert_array_equal(mine["rows/ragged_splits_0"], [0, 2, 2, 4])
    np.testing.assert_array_equal(mine["sparse/sparse_indices"], [[0, 0], [0, 2], [2, 1]])
    np.testing.assert_array_equal(mine["nested/ragged_splits_1"], [0, 1, 3, 6])
    np.testing.assert_array_equal(mine["mixed_ragged/ragged_splits_0"], [0, 3, 3, 5])


def test_tensorflow_gets_the_same_composites(saved, monkeypatch):
    path, _, mine = saved
    theirs = tf_eval_saved_model(path, TF_SESSION, monkeypatch,
                                 {"x": X, "words": WORDS, "lengths": LENGTHS})
    _assert_same({k: v for k, v in theirs.items() if not k.startswith("v1_")}, mine)
    for key in ("ragged_values", "ragged_splits_0", "sparse_indices", "sparse_values",
                "sparse_shape", "dense"):
        np.testing.assert_array_equal(theirs["v1_" + key.replace("_0", "")],
                                      mine[f"sig_{key.split('_')[0]}/{key}"], err_msg=key)


def test_wengert_reads_the_composites_back_from_both_forms(saved):
    path, only_pb, mine = saved
    _assert_same(_session(tf.saved_model.load(only_pb)), mine)
    _assert_same(_session(tf.saved_model.load(path)), mine)


def test_the_signature_def_describes_the_composites(saved):
    path, _, _ = saved
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        meta = SavedModel.FromString(f.read()).meta_graphs[0]
    outputs = meta.signature_def["serving_default"].outputs
    ragged = outputs["ragged"].composite_tensor
    assert ragged.type_spec.type_spec_class_name == "RaggedTensorSpec"
    assert ragged.type_spec.num_flat_components == 2
    assert [c.name.split(":")[1] for c in ragged.components] == ["1", "2"]
    coo = outputs["sparse"].coo_sparse
    assert (coo.indices_tensor_name.split(":")[1], coo.values_tensor_name.split(":")[1],
            coo.dense_shape_tensor_name.split(":")[1]) == ("3", "4", "5")
    assert outputs["dense"].name.endswith(":0")
    rows = meta.signature_def["rows"].outputs
    assert list(rows) == ["output_0"]


class CompositeArguments(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def scale(self, x):
        return x * 2.0

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    def shift(self, x):
        return tf.sparse.SparseTensor(x.indices, x.values + 1.0, x.dense_shape), x.values


RAGGED = ([1.0, 2.0, 3.0], [0, 2, 2, 3])
SPARSE = ([[0, 1], [1, 3]], [1.0, 2.0], [2, 4])


def test_tensorflow_calls_functions_taking_composites(tmp_path, monkeypatch):
    path = str(tmp_path / "arguments")
    tf.saved_model.save(CompositeArguments(), path, options=REQUIRE)
    theirs = tf_eval_saved_model(path, """
scaled = loaded.scale(tf.RaggedTensor.from_row_splits(A["values"], A["splits"]))
out["ragged"], out["splits"] = scaled.flat_values.numpy(), scaled.row_splits.numpy()
shifted, values = loaded.shift(tf.sparse.SparseTensor(A["indices"], A["sparse"], A["shape"]))
out["sparse"], out["indices"] = shifted.values.numpy(), shifted.indices.numpy()
out["shape"], out["values"] = shifted.dense_shape.numpy(), values.numpy()
""", monkeypatch, {"values": np.float32(RAGGED[0]), "splits": np.int64(RAGGED[1]),
                   "indices": np.int64(SPARSE[0]), "sparse": np.float32(SPARSE[1]),
                   "shape": np.int64(SPARSE[2])})
    np.testing.assert_array_equal(theirs["ragged"], [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(theirs["splits"], RAGGED[1])
    np.testing.assert_array_equal(theirs["sparse"], [2.0, 3.0])
    np.testing.assert_array_equal(theirs["indices"], SPARSE[0])
    np.testing.assert_array_equal(theirs["shape"], SPARSE[2])
    np.testing.assert_array_equal(theirs["values"], SPARSE[1])
    os.remove(os.path.join(path, "saved_model.json"))
    loaded = tf.saved_model.load(path)
    scaled = loaded.scale(tf.RaggedTensor.from_row_splits(RAGGED[0], RAGGED[1]))
    assert scaled.to_list() == [[2.0, 4.0], [], [6.0]]
    shifted, values = loaded.shift(tf.sparse.SparseTensor(*SPARSE))
    np.testing.assert_array_equal(shifted.values.numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(values.numpy(), SPARSE[1])


class Strings(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def split(self, x):
        return tf.strings.split(x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def split_commas(self, x):
        return tf.strings.split(x, sep=",", maxsplit=1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def count(self, x):
        return tf.strings.split(x).row_lengths()

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def row_sums(self, x):
        return tf.reduce_sum(x, axis=1)


TEXT = np.array([b"a b", b"", b"c  d e", b" "])
CSV = np.array([b"a,b,c", b"d", b""])


def test_tensorflow_runs_wengerts_string_splits_and_ragged_sums(tmp_path, monkeypatch):
    module = Strings()
    path = str(tmp_path / "strings")
    tf.saved_model.save(module, path, options=REQUIRE)
    theirs = tf_eval_saved_model(path, """
for name, value in (("split", loaded.split(tf.constant(A["text"]))),
                    ("commas", loaded.split_commas(tf.constant(A["csv"])))):
    out[name] = value.flat_values.numpy().astype("S")
    out[name + "_splits"] = value.row_splits.numpy()
out["count"] = loaded.count(tf.constant(A["text"])).numpy()
out["sums"] = loaded.row_sums(tf.RaggedTensor.from_row_splits(A["values"], A["splits"])).numpy()
""", monkeypatch, {"text": TEXT, "csv": CSV, "values": np.float32(RAGGED[0]),
                   "splits": np.int64(RAGGED[1])})
    os.remove(os.path.join(path, "saved_model.json"))
    for obj in (module, tf.saved_model.load(path)):
        split, commas = obj.split(tf.constant(TEXT)), obj.split_commas(tf.constant(CSV))
        assert split.to_list() == [[b"a", b"b"], [], [b"c", b"d", b"e"], []]
        assert commas.to_list() == [[b"a", b"b,c"], [b"d"], [b""]]
        for name, value in (("split", split), ("commas", commas)):
            assert theirs[name].tolist() == value.flat_values.numpy().tolist()
            np.testing.assert_array_equal(theirs[name + "_splits"], value.row_splits.numpy())
        np.testing.assert_array_equal(theirs["count"], obj.count(tf.constant(TEXT)).numpy())
        np.testing.assert_array_equal(theirs["sums"], obj.row_sums(
            tf.RaggedTensor.from_row_splits(RAGGED[0], RAGGED[1])).numpy())
    np.testing.assert_array_equal(theirs["sums"], [3.0, 0.0, 3.0])


class SparseSums(tf.Module):
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    def sums(self, x):
        return tf.sparse.reduce_sum(x, axis=1), tf.sparse.reduce_max(x, axis=0), \
            tf.sparse.reduce_sum(x)


def test_tensorflow_runs_wengerts_sparse_reductions(tmp_path, monkeypatch):
    module = SparseSums()
    path = str(tmp_path / "sparse_sums")
    tf.saved_model.save(module, path, options=REQUIRE)
    sparse = ([[0, 1], [1, 3], [1, 0]], [1.0, 2.0, 5.0], [2, 4])
    theirs = tf_eval_saved_model(path, """
rows, columns, total = loaded.sums(tf.sparse.SparseTensor(A["indices"], A["values"], A["shape"]))
out["rows"], out["columns"], out["total"] = rows.numpy(), columns.numpy(), total.numpy()
""", monkeypatch, {"indices": np.int64(sparse[0]), "values": np.float32(sparse[1]),
                   "shape": np.int64(sparse[2])})
    mine = [t.numpy() for t in module.sums(tf.sparse.SparseTensor(*sparse))]
    for got, want, literal in zip((theirs["rows"], theirs["columns"], theirs["total"]), mine,
                                  ([1.0, 7.0], [5.0, 1.0, 0.0, 2.0], 8.0)):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, literal)
