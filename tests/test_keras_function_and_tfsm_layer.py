"""keras.Function (function.py) and keras.layers.TFSMLayer (layers/tfsm_layer.py); the expected
values are Keras 3.15's on TensorFlow 2.21 for the same programs."""
import os
import subprocess

import numpy as np
import pytest

import wengert as tf
from tf_reference import tf_python

K = tf.keras
X = np.ones((2, 3), "float32")


def _graph():
    a, b = K.Input((3,), name="a"), K.Input((3,), name="b")
    h = K.layers.Dense(2, kernel_initializer="ones")(a)
    out = K.layers.Add()([h, K.layers.Dense(2, kernel_initializer="ones")(b)])
    return a, b, h, out


def test_function_replays_the_graph_in_the_structures_given():
    a, b, h, out = _graph()
    f = K.Function([a, b], out, name="fn")
    assert f.name == "fn" and len(f.operations) == 5
    np.testing.assert_allclose(f([X, 2 * X]).numpy(), np.full((2, 2), 9.0))
    g = K.Function({"a": a, "b": b}, {"o": out, "h": h})
    result = g({"a": X, "b": X})
    np.testing.assert_allclose(result["o"].numpy(), np.full((2, 2), 6.0))
    np.testing.assert_allclose(result["h"].numpy(), np.full((2, 2), 3.0))
    np.testing.assert_allclose(K.Function(a, h)(X).numpy(), np.full((2, 2), 3.0))
    spec = f.compute_output_spec([K.KerasTensor((None, 3)), K.KerasTensor((None, 3))])
    assert spec.shape.as_list() == [None, 2] and spec.dtype.name == "float32"
    assert f.compute_output_shape([(None, 3), (None, 3)]) == (None, 2)
    with pytest.raises(NotImplementedError):
        f.get_config()
    symbolic = f.symbolic_call([K.Input((3,)), K.Input((3,))])
    assert symbolic.shape.as_list() == [None, 2]
    assert f.rematerialized_call(len) is len
    with pytest.raises(ValueError, match="not connected"):
        K.Function(b, h)


def test_tfsm_layer_wraps_an_exported_model(tmp_path):
    model = K.Sequential([K.Input((3,)), K.layers.Dense(2, kernel_initializer="ones")])
    path = os.path.join(tmp_path, "exported")
    model.export(path, verbose=False)
    layer = K.layers.TFSMLayer(path)
    np.testing.assert_allclose(layer(X).numpy(), np.full((2, 2), 3.0))
    assert len(layer.trainable_weights) == 2 and layer.non_trainable_weights == []
    config = layer.get_config()
    assert (config["filepath"], config["call_endpoint"], config["call_training_endpoint"]) == (
        path, "serve", None)
    assert layer(K.Input((3,))).shape.as_list() == [None, 2]
    with pytest.raises(ValueError, match="Available endpoints for this SavedModel"):
        K.layers.TFSMLayer(path, call_endpoint="nope")
    with pytest.raises(ValueError, match="disallowed by default"):
        K.layers.TFSMLayer.from_config(config)
    assert K.layers.TFSMLayer.from_config(config, safe_mode=False).filepath == path


class _Scaled(tf.Module):
    def __init__(self):
        self.v = tf.Variable([1.0, 2.0])
        self.c = tf.Variable(3.0, trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return x * self.v + self.c


def test_tfsm_layer_calls_a_signature_and_an_attribute(tmp_path):
    path = os.path.join(tmp_path, "module")
    tf.saved_model.save(_Scaled(), path)
    by_signature = K.layers.TFSMLayer(path, call_endpoint="serving_default")
    out = by_signature(tf.constant([[1.0, 1.0]]))
    np.testing.assert_allclose(out["output_0"].numpy(), [[4.0, 5.0]])
    assert len(by_signature.trainable_weights) == 1
    assert len(by_signature.non_trainable_weights) == 1
    by_call = K.layers.TFSMLayer(path, call_endpoint="__call__")
    np.testing.assert_allclose(by_call(tf.constant([[1.0, 1.0]])).numpy(), [[4.0, 5.0]])


_TF_EXPORT = """
import os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import keras
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
model.export(sys.argv[1], verbose=False)
"""


def test_tfsm_layer_wraps_a_model_tensorflow_exported(tmp_path):
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow 2.21 is not installed (TF_PYTHON): it writes this SavedModel")
    path = str(tmp_path / "tf_exported")
    done = subprocess.run([python, "-c", _TF_EXPORT, path], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    layer = K.layers.TFSMLayer(path)
    np.testing.assert_allclose(layer(X).numpy(), np.full((2, 2), 3.0))
    assert len(layer.weights) == 2
    by_signature = K.layers.TFSMLayer(path, call_endpoint="serving_default")
    np.testing.assert_allclose(by_signature(X)["output_0"].numpy(), np.full((2, 2), 3.0))
