"""model.export and keras.export.ExportArchive against TensorFlow 2.21's Keras 3: the exported
SavedModel loads with tf.saved_model.load, serves "serve" and "serving_default" with Keras's
input names and "output_0", and answers what the model answers; plus custom endpoints,
variable collections and the errors."""
import os
import tempfile

import numpy as np
import pytest

import wengert as tf
from wengert import keras

from keras_tf_eval import tf_eval

SCRIPT = '''
import tempfile
a = keras.Input((3,), name="feat_a")
b = keras.Input((2,), name="feat_b")
hidden = keras.layers.Dense(4, activation="tanh")(keras.layers.Concatenate()([a, b]))
model = keras.Model([a, b], keras.layers.Dense(2)(hidden))
for layer, key in ((model.layers[3], "w1"), (model.layers[4], "w2")):
    layer.set_weights([A[key + "_k"], A[key + "_b"]])
path = os.path.join(tempfile.mkdtemp(), "exported")
model.export(path, verbose=False)
loaded = tf.saved_model.load(path)
signature = loaded.signatures["serving_default"]
out["signatures"] = np.array(sorted(loaded.signatures))
out["inputs"] = np.array(sorted(signature.structured_input_signature[1]))
served = signature(feat_a=tf.constant(A["xa"]), feat_b=tf.constant(A["xb"]))
out["outputs"] = np.array(sorted(served))
out["served"] = np.asarray(served["output_0"])
out["serve"] = np.asarray(loaded.serve([A["xa"], A["xb"]]))
out["predict"] = model.predict([A["xa"], A["xb"]], verbose=0)
out["variables"] = np.array(len(loaded.variables))
'''


def _arrays():
    rng = np.random.default_rng(8)
    return {"w1_k": rng.normal(size=(5, 4)).astype("float32"),
            "w1_b": rng.normal(size=(4,)).astype("float32"),
            "w2_k": rng.normal(size=(4, 2)).astype("float32"),
            "w2_b": rng.normal(size=(2,)).astype("float32"),
            "xa": rng.normal(size=(6, 3)).astype("float32"),
            "xb": rng.normal(size=(6, 2)).astype("float32")}


@pytest.fixture(scope="module")
def answers():
    arrays, ours = _arrays(), {}
    exec(SCRIPT, {"tf": tf, "keras": keras, "np": np, "os": os, "A": arrays, "out": ours})
    return ours, tf_eval("import os\n" + SCRIPT, arrays)


@pytest.mark.parametrize("key", ["signatures", "inputs", "outputs", "served", "serve",
                                 "predict", "variables"])
def test_matches_keras(answers, key):
    ours, theirs = np.asarray(answers[0][key]), np.asarray(answers[1][key])
    assert ours.shape == theirs.shape
    if ours.dtype.kind == "f":
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    else:
        assert ours.tolist() == theirs.tolist()


def _sequential():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
    return model, np.random.default_rng(1).normal(size=(2, 4)).astype("float32")


def test_export_archive_endpoints_and_collections(tmp_path):
    model, x = _sequential()
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("call", lambda inputs: model(inputs, training=False),
                         input_signature=[tf.TensorSpec((None, 4), tf.float32, name="x")])
    archive.add_endpoint("doubled", lambda inputs: 2.0 * model(inputs, training=False),
                         input_signature=[tf.TensorSpec((None, 4), tf.float32, name="x")])
    archive.add_variable_collection("my_vars", model.weights)
    archive.write_out(str(tmp_path / "archive"), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "archive"))
    assert sorted(loaded.signatures) == ["call", "doubled", "serving_default"]
    expected = model.predict(x, verbose=0)
    np.testing.assert_allclose(loaded.call(x).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(loaded.doubled(x).numpy(), 2 * expected, rtol=1e-6)
    np.testing.assert_allclose(
        loaded.signatures["serving_default"](x=tf.constant(x))["output_0"].numpy(), expected,
        rtol=1e-6)
    assert len(loaded.my_vars) == 2


def test_export_errors(tmp_path):
    archive = keras.export.ExportArchive()
    with pytest.raises(ValueError, match="no endpoints"):
        archive.write_out(str(tmp_path / "a"))
    with pytest.raises(ValueError, match="not yet been built"):
        archive.track(keras.layers.Dense(2))
    with pytest.raises(ValueError, match="input_signature"):
        archive.add_endpoint("f", lambda x: x)
    model, _ = _sequential()
    with pytest.raises(NotImplementedError, match="tf_saved_model"):
        model.export(str(tmp_path / "m"), format="onnx")
    with pytest.raises(ValueError, match="format"):
        model.export(str(tmp_path / "m"), format="zip")
    with pytest.raises(ValueError, match="built"):
        keras.Sequential([keras.layers.Dense(2)]).export(str(tmp_path / "u"), verbose=False)
