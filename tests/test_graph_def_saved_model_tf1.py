"""`tf.compat.v1.saved_model.loader.load` (wengert/saved_model/tf1_loader.py) of a TensorFlow 1
SavedModel that TensorFlow 2.21 wrote (tests/fixtures/saved_models/tf1_mlp, by
write_saved_models.py): its graph imported into a Session, its variables restored from
TensorFlow's checkpoint, its signature run to TensorFlow's outputs (tf1_mlp_expected.npz); and
bad input: tags it does not have, a missing directory, an op type wengert lacks."""
import os
import shutil
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import NotFoundError
from wengert.framework.protos.meta_graph import SavedModel

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
EXPORT = os.path.join(HERE, "saved_models", "tf1_mlp")
sys.path.insert(0, os.path.join(HERE, "graph_defs"))
import mlp_graph  # noqa: E402

v1 = tf.compat.v1


def test_tensorflow_saved_model_loads_and_serves_its_signature():
    expected = np.load(os.path.join(HERE, "saved_models", "tf1_mlp_expected.npz"))
    with v1.Session(graph=tf.Graph()) as sess:
        meta = v1.saved_model.loader.load(sess, [v1.saved_model.tag_constants.SERVING], EXPORT)
        signature = meta.signature_def["serving_default"]
        assert signature.method_name == "tensorflow/serving/predict"
        feeds = {signature.inputs["x"].name: mlp_graph.X}
        probs, label = sess.run([signature.outputs["probs"].name,
                                 signature.outputs["label"].name], feeds)
        np.testing.assert_allclose(probs, expected["probs"], rtol=1e-5, atol=1e-7)
        np.testing.assert_array_equal(label, expected["label"])
        assert sess.graph.get_operation_by_name("dense1/MatMul").type == "MatMul"
        assert not [op for op in sess.graph.get_operations() if op.name.startswith("save/")]


def test_import_scope_prefixes_the_graph():
    with v1.Session(graph=tf.Graph()) as sess:
        v1.saved_model.load(sess, ["serve"], EXPORT, import_scope="model")
        out = sess.run("model/probs:0", {"model/x:0": mlp_graph.X[:1]})
    assert out.shape == (1, 2)


def test_saved_model_bytes_round_trip():
    with open(os.path.join(EXPORT, "saved_model.pb"), "rb") as f:
        data = f.read()
    assert SavedModel.FromString(data).SerializeToString() == data


def test_bad_input_is_tensorflows_error(tmp_path):
    with v1.Session(graph=tf.Graph()) as sess:
        with pytest.raises(RuntimeError, match=r"MetaGraphDef associated with tags \['train'\] "
                                               "could not be found in SavedModel"):
            v1.saved_model.loader.load(sess, ["train"], EXPORT)
        with pytest.raises(OSError, match="SavedModel file does not exist at"):
            v1.saved_model.loader.load(sess, ["serve"], str(tmp_path / "nothing"))
        assert not sess.graph.get_operations()
    broken = tmp_path / "broken"
    shutil.copytree(EXPORT, broken)
    model = SavedModel.FromString((broken / "saved_model.pb").read_bytes())
    node = next(n for n in model.meta_graphs[0].graph_def.node if n.name == "dense1/Relu")
    node.op = "FancyRelu"
    (broken / "saved_model.pb").write_bytes(model.SerializeToString())
    with v1.Session(graph=tf.Graph()) as sess:
        with pytest.raises(NotFoundError, match="node 'dense1/Relu' has op type 'FancyRelu'"):
            v1.saved_model.loader.load(sess, ["serve"], str(broken))
        assert not sess.graph.get_operations()


def test_tensorflow_2_load_of_a_tensorflow_1_saved_model():
    expected = np.load(os.path.join(HERE, "saved_models", "tf1_mlp_expected.npz"))
    loaded = tf.saved_model.load(EXPORT)
    signature = loaded.signatures["serving_default"]
    out = signature(x=tf.constant(mlp_graph.X))
    np.testing.assert_allclose(out["probs"].numpy(), expected["probs"], rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(out["label"].numpy(), expected["label"])
    names = sorted(v.name for v in loaded.variables)
    assert names == ["dense1/bias:0", "dense1/kernel:0", "dense2/kernel:0"]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(signature(x=tf.constant(mlp_graph.X))["probs"][:, 0])
    grads = tape.gradient(loss, loaded.variables)
    assert all(g is not None for g in grads)
    kernel = next(v for v in loaded.variables if v.name == "dense2/kernel:0")
    kernel.assign(tf.zeros_like(kernel))  # fine-tuning changes what the signature computes
    np.testing.assert_allclose(signature(x=tf.constant(mlp_graph.X))["probs"].numpy(), 0.5)
