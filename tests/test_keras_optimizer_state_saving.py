"""The optimizer's state in `.keras` and `.weights.h5` files, as Keras 3 keeps it: the
iteration count, the learning rate and every slot (Adam's momentum and velocity) under
`optimizer/vars` of the weights file, restored by `load_model` so that training resumes exactly
where it stopped (fit 2 epochs, save, load, fit 1 == fit 3). TensorFlow 2.21's Keras reads
wengert's files with the state and wengert reads TensorFlow's; TensorFlow's side of each
exchange is stored under tests/references/ for runs without it."""
import io
import json
import zipfile

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

h5py = pytest.importorskip("h5py")
keras = tf.keras
L = keras.layers

_RNG = np.random.default_rng(7)
X = _RNG.random((16, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype("float32")
FIT = dict(verbose=0, shuffle=False, batch_size=8)


def _model(optimizer="adam", normalization=False):
    layers = [keras.Input((3,)), L.Dense(4, activation="tanh", name="hidden")]
    layers += [L.BatchNormalization(name="bn")] if normalization else []
    model = keras.Sequential(layers + [L.Dense(1, name="out")], name="net")
    rng = np.random.default_rng(11)
    model.set_weights([rng.normal(size=w.shape).astype("float32") if w.ndim == 2 else w
                       for w in model.get_weights()])
    opt = {"adam": lambda: keras.optimizers.Adam(0.01),
           "sgd": lambda: keras.optimizers.SGD(0.05, momentum=0.9),
           "rmsprop": lambda: keras.optimizers.RMSprop(0.01)}[optimizer]()
    model.compile(optimizer=opt, loss="mse")
    return model


def _members(path):
    with zipfile.ZipFile(path) as z:
        return z.read("config.json"), z.read("model.weights.h5")


def _assemble(path, config, weights):
    """A .keras file from a config and a weights file's bytes."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("metadata.json", json.dumps({"keras_version": "3.15.1",
                                                "date_saved": "2026-01-01@00:00:00"}))
        z.writestr("config.json", bytes(config))
        z.writestr("model.weights.h5", bytes(weights))


@pytest.mark.parametrize("optimizer", ["adam", "sgd", "rmsprop"])
def test_training_resumes_exactly_after_save_and_load(tmp_path, optimizer):
    straight = _model(optimizer, normalization=True)
    straight.fit(X, Y, epochs=3, **FIT)
    resumed = _model(optimizer, normalization=True)
    resumed.fit(X, Y, epochs=2, **FIT)
    resumed.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert int(loaded.optimizer.iterations.numpy()) == 4
    for a, b in zip(resumed.optimizer.variables, loaded.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    loaded.fit(X, Y, epochs=1, **FIT)
    assert int(loaded.optimizer.iterations.numpy()) == 6
    for a, b in zip(straight.get_weights(), loaded.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_weights_file_holds_the_optimizer_state_as_keras_writes_it(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=2, **FIT)
    model.save_weights(tmp_path / "m.weights.h5")
    with h5py.File(tmp_path / "m.weights.h5", "r") as f:
        group = f["optimizer/vars"]
        assert group.attrs["name"] == "adam" and len(group) == 2 + 2 * 4
        assert int(group["0"][()]) == 4
        np.testing.assert_allclose(group["1"][()], 0.01)
        np.testing.assert_array_equal(group["2"][()], model.optimizer.variables[2].numpy())
    built = _model()
    built.optimizer.build(built.trainable_variables)
    built.load_weights(tmp_path / "m.weights.h5")
    assert int(built.optimizer.iterations.numpy()) == 4
    for a, b in zip(model.optimizer.variables, built.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_an_unbuilt_optimizer_skips_the_state_with_a_warning(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=1, **FIT)
    model.save_weights(tmp_path / "m.weights.h5")
    fresh = _model()
    with pytest.warns(UserWarning, match="Skipping variable loading for optimizer"):
        fresh.load_weights(tmp_path / "m.weights.h5")
    assert int(fresh.optimizer.iterations.numpy()) == 0
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)
    uncompiled = keras.Sequential([keras.Input((3,)), L.Dense(4, activation="tanh"),
                                   L.Dense(1)])
    uncompiled.load_weights(tmp_path / "m.weights.h5")
    np.testing.assert_array_equal(uncompiled.get_weights()[0], model.get_weights()[0])


def test_a_mismatched_optimizer_state_changes_nothing(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=1, **FIT)
    model.save(tmp_path / "m.keras")
    config, weights = _members(tmp_path / "m.keras")
    with h5py.File(io.BytesIO(weights), "r") as f, h5py.File(tmp_path / "bad.h5", "w") as g:
        for key in f:
            f.copy(key, g)
        del g["optimizer/vars/2"]
        g["optimizer/vars/2"] = np.zeros((5, 5), np.float32)
    _assemble(tmp_path / "bad.keras", config, (tmp_path / "bad.h5").read_bytes())
    with pytest.raises(ValueError, match=r"optimizer/vars/2 .*\(5, 5\)"):
        keras.models.load_model(tmp_path / "bad.keras")
    target = _model()
    target.optimizer.build(target.trainable_variables)
    before = target.get_weights()
    with pytest.raises(ValueError, match="nothing was loaded"):
        target.load_weights(tmp_path / "bad.h5")
    assert int(target.optimizer.iterations.numpy()) == 0
    for a, b in zip(before, target.get_weights()):
        np.testing.assert_array_equal(a, b)


# -- files exchanged with TensorFlow's Keras --------------------------------------------------
_TF_WRITES = '''
import re, tempfile, zipfile
keras.utils.set_random_seed(3)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh",
                          name="hidden"), keras.layers.Dense(1, name="out")], name="net")
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
fit = dict(verbose=0, shuffle=False, batch_size=8)
model.fit(A["x"], A["y"], epochs=2, **fit)
with tempfile.TemporaryDirectory() as folder:
    model.save(folder + "/m.keras")
    z = zipfile.ZipFile(folder + "/m.keras")
    config = re.sub(rb'"shared_object_id": [0-9]+', b'"shared_object_id": 1',
                    z.read("config.json"))
    out["config"] = np.frombuffer(config, np.uint8)
    out["weights"] = np.frombuffer(z.read("model.weights.h5"), np.uint8)
model.fit(A["x"], A["y"], epochs=1, **fit)
out["iterations"] = np.asarray(model.optimizer.iterations)
for i, w in enumerate(model.get_weights()):
    out[f"w{i}"] = w
'''


def test_wengert_resumes_training_from_tensorflows_file(tmp_path):
    tf_side = tf_eval(_TF_WRITES, {"x": X, "y": Y})
    _assemble(tmp_path / "tf.keras", tf_side["config"], tf_side["weights"])
    model = keras.models.load_model(tmp_path / "tf.keras")
    assert int(model.optimizer.iterations.numpy()) == 4
    with h5py.File(io.BytesIO(bytes(tf_side["weights"])), "r") as f:
        stored = [f["optimizer/vars"][str(i)][()] for i in range(len(f["optimizer/vars"]))]
    assert len(stored) == len(model.optimizer.variables) == 10
    for variable, value in zip(model.optimizer.variables, stored):
        np.testing.assert_array_equal(variable.numpy(), value)
    model.fit(X, Y, epochs=1, **FIT)
    assert int(model.optimizer.iterations.numpy()) == int(tf_side["iterations"]) == 6
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, tf_side[f"w{i}"], rtol=1e-5, atol=1e-6)


_TF_READS = '''
import tempfile, zipfile
with tempfile.TemporaryDirectory() as folder:
    with zipfile.ZipFile(folder + "/m.keras", "w") as z:
        z.writestr("metadata.json", '{"keras_version": "3.15.1", "date_saved": "x"}')
        z.writestr("config.json", A["config"].tobytes())
        z.writestr("model.weights.h5", A["weights"].tobytes())
    model = keras.models.load_model(folder + "/m.keras")
out["iterations"] = np.asarray(model.optimizer.iterations)
for i, v in enumerate(model.optimizer.variables):
    out[f"opt{i}"] = np.asarray(v)
model.fit(A["x"], A["y"], epochs=1, verbose=0, shuffle=False, batch_size=8)
for i, w in enumerate(model.get_weights()):
    out[f"w{i}"] = w
'''


def test_tensorflow_resumes_training_from_wengerts_file(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=2, **FIT)
    model.save(tmp_path / "m.keras")
    config, weights = _members(tmp_path / "m.keras")
    tf_side = tf_eval(_TF_READS, {"x": X, "y": Y,
                                  "config": np.frombuffer(config, np.uint8),
                                  "weights": np.frombuffer(weights, np.uint8)})
    assert int(tf_side["iterations"]) == 4
    for i, variable in enumerate(model.optimizer.variables):
        np.testing.assert_array_equal(tf_side[f"opt{i}"], variable.numpy())
    model.fit(X, Y, epochs=1, **FIT)
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(tf_side[f"w{i}"], w, rtol=1e-5, atol=1e-6)
