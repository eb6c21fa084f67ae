"""Keras 3 files (issue 19 item 5): `.keras` archives and `.weights.h5` files, written and read
by wengert and by TensorFlow 2.21's Keras (when installed), configs with custom objects, no
code loaded unless safe_mode=False, atomic writes, bad files refused before any weight moves."""
import json
import os
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import wengert as tf
from tf_reference import tf_python

h5py = pytest.importorskip("h5py")
L = tf.keras.layers
IDS = np.array([[1, 2, 3, 0, 0], [4, 5, 6, 7, 8]])


def _sequence_model():
    inputs = tf.keras.Input((5,), dtype="int32", name="ids")
    x = L.Embedding(20, 8, mask_zero=True)(inputs)
    x = L.LSTM(6, return_sequences=True)(x)
    x = L.Bidirectional(L.GRU(4, return_sequences=True))(x)
    attended = L.MultiHeadAttention(2, 4)(x, x)
    x = L.LayerNormalization()(L.Add()([x, attended]))
    x = L.SimpleRNN(5)(x)
    x = L.Dense(8, activation="relu", kernel_regularizer="l2")(x)
    x = L.BatchNormalization()(x)
    outputs = L.Dense(3, activation="softmax")(L.Dropout(0.2)(x))
    return tf.keras.Model(inputs, outputs)


def _sequential_model():
    model = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(6, activation="tanh"),
                                 L.Dense(6, activation="relu"), L.Dense(2)])
    return model


def _weights_equal(a, b):
    assert len(a.get_weights()) == len(b.get_weights())
    for x, y in zip(a.get_weights(), b.get_weights()):
        np.testing.assert_array_equal(x, y)


def test_functional_model_round_trip(tmp_path):
    model = _sequence_model()
    before = np.asarray(model(IDS))
    path = tmp_path / "model.keras"
    model.save(path)
    with zipfile.ZipFile(path) as z:
        assert sorted(z.namelist()) == ["config.json", "metadata.json", "model.weights.h5"]
        config = json.loads(z.read("config.json"))
    assert config["class_name"] == "Functional"
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_allclose(np.asarray(loaded(IDS)), before, rtol=1e-6)
    _weights_equal(model, loaded)
    assert [type(layer).__name__ for layer in loaded.layers] == [
        type(layer).__name__ for layer in model.layers]
    assert len(loaded.losses) == 1  # the l2 kernel regularizer came back


def test_sequential_model_and_weights_file(tmp_path):
    model = _sequential_model()
    x = np.random.default_rng(0).normal(size=(3, 4)).astype("float32")
    model.compile(optimizer="adam", loss="mse")
    model.save(tmp_path / "s.keras")
    loaded = tf.keras.models.load_model(tmp_path / "s.keras")
    np.testing.assert_allclose(np.asarray(loaded(x)), np.asarray(model(x)), rtol=1e-6)
    assert loaded.optimizer is not None  # compiled from the file's compile_config
    model.save_weights(tmp_path / "s.weights.h5")
    with h5py.File(tmp_path / "s.weights.h5") as f:
        names = []
        f.visit(names.append)
    assert "layers/dense/vars/0" in names and "layers/dense_2/vars/1" in names
    fresh = _sequential_model()
    fresh.load_weights(tmp_path / "s.weights.h5")
    _weights_equal(model, fresh)
    other = _sequential_model()
    other.load_weights(tmp_path / "s.keras")
    _weights_equal(model, other)


def test_nested_models_and_wrappers_paths(tmp_path):
    inner = tf.keras.Sequential([L.Dense(3)], name="inner")
    inputs = tf.keras.Input((2, 4))
    outputs = L.TimeDistributed(inner)(inputs)
    outputs = L.RNN([L.LSTMCell(3), L.GRUCell(2)])(outputs)
    model = tf.keras.Model(inputs, outputs)
    from wengert.keras.saving.h5_weights import walk_saveables
    paths = [p for p, _ in walk_saveables(model)]
    assert "layers/time_distributed/layer" in paths
    assert "layers/time_distributed/layer/layers/dense" in paths
    assert "layers/rnn/cell/cells/lstm_cell" in paths
    model.save(tmp_path / "n.keras")
    x = np.ones((2, 2, 4), "float32")
    loaded = tf.keras.models.load_model(tmp_path / "n.keras")
    np.testing.assert_allclose(np.asarray(loaded(x)), np.asarray(model(x)), rtol=1e-6)


def test_bad_files_change_nothing(tmp_path):
    model = _sequential_model()
    before = model.get_weights()
    (tmp_path / "garbage.weights.h5").write_bytes(b"not an hdf5 file")
    with pytest.raises(ValueError, match="HDF5"):
        model.load_weights(tmp_path / "garbage.weights.h5")
    wider = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(7), L.Dense(6), L.Dense(2)])
    wider.save_weights(tmp_path / "wider.weights.h5")
    with pytest.raises(ValueError, match="shape"):
        model.load_weights(tmp_path / "wider.weights.h5")
    fewer = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(6), L.Dense(2)])
    fewer.save_weights(tmp_path / "fewer.weights.h5")
    with pytest.raises(ValueError, match="does not match"):
        model.load_weights(tmp_path / "fewer.weights.h5")
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)
    (tmp_path / "bad.keras").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ValueError, match="not a valid .keras file"):
        tf.keras.models.load_model(tmp_path / "bad.keras")
    with zipfile.ZipFile(tmp_path / "nojson.keras", "w") as z:
        z.writestr("config.json", "{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        tf.keras.models.load_model(tmp_path / "nojson.keras")


def test_writes_are_atomic(tmp_path):
    model = _sequential_model()
    path = tmp_path / "m.keras"
    model.save(path)
    original = path.read_bytes()

    class Unsaveable(L.Layer):
        def get_config(self):
            raise RuntimeError("cannot describe myself")
    broken = tf.keras.Sequential([tf.keras.Input((4,)), Unsaveable()])
    with pytest.raises(RuntimeError, match="describe"):
        broken.save(path)
    assert path.read_bytes() == original
    assert sorted(os.listdir(tmp_path)) == ["m.keras"]


def test_lambda_needs_safe_mode_false(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.Lambda(lambda t: t * 2.0 + 1.0)])
    model.save(tmp_path / "lambda.keras")
    with pytest.raises(ValueError, match="safe_mode=False"):
        tf.keras.models.load_model(tmp_path / "lambda.keras")
    loaded = tf.keras.models.load_model(tmp_path / "lambda.keras", safe_mode=False)
    np.testing.assert_allclose(np.asarray(loaded(np.ones((1, 3), "float32"))), [[3.0] * 3])


@tf.keras.saving.register_keras_serializable(package="Tests")
class Scale(L.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, inputs):
        return inputs * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class Unregistered(Scale):
    pass


def test_custom_objects(tmp_path):
    x = np.ones((2, 3), "float32")
    for cls, custom in ((Scale, None), (Unregistered, {"Unregistered": Unregistered})):
        model = tf.keras.Sequential([tf.keras.Input((3,)), cls(3.0), L.Dense(2)])
        model.save(tmp_path / "c.keras")
        config = json.loads(zipfile.ZipFile(tmp_path / "c.keras").read("config.json"))
        layer_config = config["config"]["layers"][1]
        assert layer_config["registered_name"] == (
            "Tests>Scale" if cls is Scale else "Unregistered")
        if custom:
            with pytest.raises(TypeError, match="Could not locate class 'Unregistered'"):
                tf.keras.models.load_model(tmp_path / "c.keras")
        loaded = tf.keras.models.load_model(tmp_path / "c.keras", custom_objects=custom)
        np.testing.assert_allclose(np.asarray(loaded(x)), np.asarray(model(x)), rtol=1e-6)
        assert loaded.layers[0].factor == 3.0


def test_config_round_trip_with_custom_objects():
    layer = L.Dense(3, kernel_regularizer=tf.keras.regularizers.L1L2(0.1, 0.2),
                    kernel_constraint=tf.keras.constraints.MaxNorm(2.0))
    config = tf.keras.saving.serialize_keras_object(layer)
    clone = tf.keras.saving.deserialize_keras_object(config)
    assert clone.get_config() == layer.get_config()
    assert isinstance(clone.kernel_regularizer, tf.keras.regularizers.L1L2)


def test_missing_h5py_names_the_extra(monkeypatch, tmp_path):
    import builtins
    real_import = builtins.__import__

    def no_h5py(name, *args, **kwargs):
        if name == "h5py":
            raise ImportError("No module named 'h5py'")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_h5py)
    with pytest.raises(ImportError, match=r"wengert\[h5\]"):
        _sequential_model().save(tmp_path / "x.keras")


# -- TensorFlow's Keras reads wengert's files and wengert reads TensorFlow's ------------------
_TF_SCRIPT = textwrap.dedent('''
    import os, sys
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import numpy as np, keras
    folder = sys.argv[1]
    ids = np.load(os.path.join(folder, "ids.npy"))
    x = np.load(os.path.join(folder, "x.npy"))
    m = keras.models.load_model(os.path.join(folder, "w_func.keras"))
    np.save(os.path.join(folder, "tf_on_w_func.npy"), m.predict(ids, verbose=0))
    s = keras.models.load_model(os.path.join(folder, "w_seq.keras"))
    np.save(os.path.join(folder, "tf_on_w_seq.npy"), s.predict(x, verbose=0))
    s2 = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="tanh"),
                           keras.layers.Dense(6, activation="relu"), keras.layers.Dense(2)])
    s2.load_weights(os.path.join(folder, "w_seq.weights.h5"))
    np.save(os.path.join(folder, "tf_on_w_weights.npy"), s2.predict(x, verbose=0))
    inputs = keras.Input((5,), dtype="int32")
    h = keras.layers.Embedding(20, 8, mask_zero=True)(inputs)
    h = keras.layers.Bidirectional(keras.layers.LSTM(6, return_sequences=True))(h)
    h = keras.layers.GRU(5)(h)
    h = keras.layers.LayerNormalization()(h)
    out = keras.layers.Dense(3, activation="softmax")(h)
    t = keras.Model(inputs, out)
    t.compile("adam", "sparse_categorical_crossentropy")
    t.save(os.path.join(folder, "t_func.keras"))
    t.save_weights(os.path.join(folder, "t_func.weights.h5"))
    np.save(os.path.join(folder, "t_func_pred.npy"), t.predict(ids, verbose=0))
''')


@pytest.mark.skipif(tf_python() is None, reason="TensorFlow (TF_PYTHON) is not installed")
def test_files_move_between_wengert_and_tensorflow(tmp_path):
    folder = str(tmp_path)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4)).astype("float32")
    np.save(tmp_path / "ids.npy", IDS)
    np.save(tmp_path / "x.npy", x)
    func, seq = _sequence_model(), _sequential_model()
    func.save(tmp_path / "w_func.keras")
    seq.save(tmp_path / "w_seq.keras")
    seq.save_weights(tmp_path / "w_seq.weights.h5")
    script = tmp_path / "tf_side.py"
    script.write_text(_TF_SCRIPT)
    done = subprocess.run([tf_python(), str(script), folder], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    np.testing.assert_allclose(np.load(tmp_path / "tf_on_w_func.npy"), np.asarray(func(IDS)),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.load(tmp_path / "tf_on_w_seq.npy"), np.asarray(seq(x)),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.load(tmp_path / "tf_on_w_weights.npy"), np.asarray(seq(x)),
                               rtol=1e-5, atol=1e-6)
    loaded = tf.keras.models.load_model(tmp_path / "t_func.keras")
    want = np.load(tmp_path / "t_func_pred.npy")
    np.testing.assert_allclose(np.asarray(loaded(IDS)), want, rtol=1e-5, atol=1e-6)
    rebuilt = tf.keras.Model.from_config(loaded.get_config())
    rebuilt.load_weights(tmp_path / "t_func.weights.h5")
    np.testing.assert_allclose(np.asarray(rebuilt(IDS)), want, rtol=1e-5, atol=1e-6)
    assert sys.modules.get("tensorflow") is None
