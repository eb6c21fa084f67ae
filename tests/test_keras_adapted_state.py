"""Adapted preprocessing state kept as Keras 3 keeps it: Normalization's mean, variance and
count are non-trainable weights (get_weights, count_params, `.keras` files reload without
adapt()); an adapted lookup vocabulary comes back from a `.keras` file (from the config, or from
`assets/<layer path>/vocabulary.txt` where TensorFlow's Keras writes it); Discretization's learned
boundaries sit in its config beside num_bins. Files move both ways with TensorFlow 2.21's Keras;
its side is stored under tests/references/."""
import json
import zipfile

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

pytest.importorskip("h5py")
keras = tf.keras
L = keras.layers

DATA = np.arange(12.0, dtype=np.float32).reshape(4, 3) ** 1.5
WORDS = np.array(["a", "b", "b", "c", "c", "c"])
TEXTS = np.array(["the cat sat", "the dog ran far"])
INTS = np.array([5, 5, 7])
VALUES = np.arange(10.0, dtype=np.float32).reshape(-1, 1)
CALL = [np.array(["a", "b", "q"]), np.array(["the cat", "dog x", "far"]), np.array([5, 7, 3]),
        np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3),
        np.array([[1.0], [4.0], [8.0]], np.float32)]


def test_normalization_state_is_weights():
    layer = L.Normalization()
    layer.adapt(DATA)
    assert [v.name for v in layer.weights] == ["mean", "variance", "count"]
    mean, variance, count = layer.get_weights()
    np.testing.assert_allclose(mean, DATA.mean(0), rtol=1e-6)
    np.testing.assert_allclose(variance, DATA.var(0), rtol=1e-5)
    assert count == 0 and count.dtype == np.int64
    assert layer.count_params() == 7 and layer.trainable_weights == []
    np.testing.assert_allclose(np.asarray(layer(DATA)),
                               (DATA - DATA.mean(0)) / DATA.std(0), rtol=1e-4, atol=1e-5)
    twin = L.Normalization()
    twin.build((None, 3))
    twin.set_weights(layer.get_weights())
    np.testing.assert_allclose(np.asarray(twin(DATA)), np.asarray(layer(DATA)), rtol=1e-6)


def test_normalization_axes_and_given_statistics():
    images = np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2)
    per_row = L.Normalization(axis=(1, 3))
    per_row.adapt(images)
    assert per_row.adapt_mean.shape == (3, 2)
    want = (images - images.mean((0, 2), keepdims=True)) / images.std((0, 2), keepdims=True)
    np.testing.assert_allclose(np.asarray(per_row(images)), want, rtol=1e-4, atol=1e-5)
    everything = L.Normalization(axis=None)
    everything.adapt(images)
    assert everything.adapt_mean.shape == () and everything.mean.shape == (1, 1, 1, 1)
    given = L.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])
    np.testing.assert_allclose(np.asarray(given(np.ones((1, 2), np.float32))), [[0.0, -1 / 3]],
                               rtol=1e-6)
    assert given.weights == []
    with pytest.raises(ValueError, match="given"):
        given.adapt(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="does not fit"):
        per_row.adapt(np.ones((2, 5, 4, 2), np.float32))


def test_normalization_state_restored_by_checkpoints_and_savedmodels(tmp_path):
    layer = L.Normalization()
    layer.adapt(DATA)
    model = keras.Sequential([keras.Input((3,)), layer], name="norm_model")
    want = np.asarray(model(DATA))
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt" / "c"))
    for built in (True, False):
        again = keras.Sequential(([keras.Input((3,))] if built else []) + [L.Normalization()])
        tf.train.Checkpoint(model=again).restore(path)
        np.testing.assert_allclose(np.asarray(again(DATA)), want, rtol=1e-6)
    model.save(str(tmp_path / "saved"))
    loaded = keras.models.load_model(str(tmp_path / "saved"))
    np.testing.assert_allclose(np.asarray(loaded(DATA)), want, rtol=1e-6)


def _preprocessing_model():
    layers = [L.StringLookup(name="words"), L.TextVectorization(max_tokens=10,
              output_sequence_length=4, name="text"), L.IntegerLookup(name="ints"),
              L.Normalization(name="norm"), L.Discretization(num_bins=3, name="bins")]
    for layer, data in zip(layers, (WORDS, TEXTS, INTS, DATA, VALUES)):
        layer.adapt(data)
    inputs = [keras.Input((), dtype="string", name="w"), keras.Input((), dtype="string",
              name="t"), keras.Input((), dtype="int64", name="i"), keras.Input((3,), name="x"),
              keras.Input((1,), name="v")]
    return keras.Model(inputs, [layer(x) for layer, x in zip(layers, inputs)], name="prep")


def _outputs(model):
    return [np.asarray(o) for o in model(CALL)]


def test_adapted_model_reloads_without_adapting(tmp_path):
    model = _preprocessing_model()
    model.save(tmp_path / "prep.keras")
    loaded = keras.models.load_model(tmp_path / "prep.keras")
    for got, want in zip(_outputs(loaded), _outputs(model)):
        np.testing.assert_array_equal(got, want)
    assert loaded.get_layer("norm").count_params() == 7
    assert loaded.get_layer("words").get_vocabulary() == ["[UNK]", "c", "b", "a"]
    assert loaded.get_layer("bins").bin_boundaries == model.get_layer("bins").bin_boundaries


def test_discretization_config_with_learned_boundaries():
    layer = L.Discretization(num_bins=3)
    layer.adapt(VALUES)
    config = layer.get_config()
    assert config["num_bins"] == 3 and len(config["bin_boundaries"]) == 2
    again = L.Discretization.from_config(config)
    np.testing.assert_array_equal(np.asarray(again(VALUES)), np.asarray(layer(VALUES)))


def test_rescaling_with_array_scale_round_trips_its_config():
    layer = L.Rescaling(np.array([1.0, 2.0, 3.0]), offset=0.5)
    config = layer.get_config()
    assert config["scale"]["class_name"] == "__numpy__"
    again = L.Rescaling.from_config(config, custom_objects={})
    np.testing.assert_array_equal(np.asarray(again(np.ones((1, 3), np.float32))),
                                  [[1.5, 2.5, 3.5]])


# -- exchange with TensorFlow's Keras -------------------------------------------------------
_ARRAYS = {"words": WORDS, "texts": TEXTS, "ints": INTS, "data": DATA, "values": VALUES,
           "c0": CALL[0], "c1": CALL[1], "c2": CALL[2], "c3": CALL[3], "c4": CALL[4]}

_TF_WRITES = '''
import json, re, tempfile, zipfile
L = keras.layers
layers = [L.StringLookup(name="words"), L.TextVectorization(max_tokens=10,
          output_sequence_length=4, name="text"), L.IntegerLookup(name="ints"),
          L.Normalization(name="norm"), L.Discretization(num_bins=3, name="bins")]
for layer, key in zip(layers, ("words", "texts", "ints", "data", "values")):
    layer.adapt(A[key])
inputs = [keras.Input((), dtype="string", name="w"), keras.Input((), dtype="string", name="t"),
          keras.Input((), dtype="int64", name="i"), keras.Input((3,), name="x"),
          keras.Input((1,), name="v")]
model = keras.Model(inputs, [layer(x) for layer, x in zip(layers, inputs)], name="prep")
with tempfile.TemporaryDirectory() as folder:
    model.save(folder + "/m.keras")
    z = zipfile.ZipFile(folder + "/m.keras")
    config = re.sub(rb'"shared_object_id": [0-9]+', b'"shared_object_id": 1',
                    z.read("config.json"))
    out["config"] = np.frombuffer(config, np.uint8)
    out["weights"] = np.frombuffer(z.read("model.weights.h5"), np.uint8)
    assets = {n: z.read(n).decode() for n in sorted(z.namelist()) if n.startswith("assets/")}
    out["assets"] = np.frombuffer(json.dumps(assets).encode(), np.uint8)
for i, o in enumerate(model([A[f"c{k}"] for k in range(5)])):
    out[f"out{i}"] = np.asarray(o)
'''


def test_wengert_reads_tensorflows_adapted_layers(tmp_path):
    tf_side = tf_eval(_TF_WRITES, _ARRAYS)
    assets = json.loads(bytes(tf_side["assets"]).decode())
    assert "assets/layers/string_lookup/vocabulary.txt" in assets
    with zipfile.ZipFile(tmp_path / "tf.keras", "w") as z:
        z.writestr("metadata.json", json.dumps({"keras_version": "3.15.1"}))
        z.writestr("config.json", bytes(tf_side["config"]))
        z.writestr("model.weights.h5", bytes(tf_side["weights"]))
        for name, text in assets.items():
            z.writestr(name, text)
    model = keras.models.load_model(tmp_path / "tf.keras")
    for i, got in enumerate(_outputs(model)):
        np.testing.assert_allclose(got, tf_side[f"out{i}"], rtol=1e-5, atol=1e-6)
    assert model.get_layer("text").get_vocabulary()[:3] == ["", "[UNK]", "the"]
    assert model.get_layer("norm").count_params() == 7
    for i, got in enumerate(_outputs(_preprocessing_model())):  # the same adapt() here
        np.testing.assert_allclose(got, tf_side[f"out{i}"], rtol=1e-5, atol=1e-6)


def test_discretization_adapts_as_keras_estimates_quantiles():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(1000, 2)).astype(np.float32)
    tf_side = tf_eval('''
for i, data in enumerate([A["small"], A["values"],
                          tf.data.Dataset.from_tensor_slices(A["values"]).batch(128)]):
    layer = keras.layers.Discretization(num_bins=4)
    layer.adapt(data)
    out[f"b{i}"] = np.asarray(layer.bin_boundaries)
''', {"small": np.arange(10.0), "values": values})
    batches = tf.data.Dataset.from_tensor_slices(values).batch(128)
    for i, data in enumerate([np.arange(10.0), values, batches]):
        layer = L.Discretization(num_bins=4)
        layer.adapt(data)
        np.testing.assert_allclose(layer.bin_boundaries, tf_side[f"b{i}"], rtol=1e-6)


_TF_READS = '''
import tempfile, zipfile
with tempfile.TemporaryDirectory() as folder:
    with zipfile.ZipFile(folder + "/m.keras", "w") as z:
        z.writestr("metadata.json", '{"keras_version": "3.15.1", "date_saved": "x"}')
        z.writestr("config.json", A["config"].tobytes())
        z.writestr("model.weights.h5", A["weights"].tobytes())
    model = keras.models.load_model(folder + "/m.keras")
for i, o in enumerate(model([A[f"c{k}"] for k in range(5)])):
    out[f"out{i}"] = np.asarray(o)
out["norm_params"] = np.asarray(model.get_layer("norm").count_params())
'''


def test_tensorflow_reads_wengerts_adapted_layers(tmp_path):
    model = _preprocessing_model()
    model.save(tmp_path / "prep.keras")
    with zipfile.ZipFile(tmp_path / "prep.keras") as z:
        config, weights = z.read("config.json"), z.read("model.weights.h5")
    arrays = dict(_ARRAYS, config=np.frombuffer(config, np.uint8),
                  weights=np.frombuffer(weights, np.uint8))
    tf_side = tf_eval(_TF_READS, arrays)
    for i, want in enumerate(_outputs(model)):
        np.testing.assert_allclose(tf_side[f"out{i}"], want, rtol=1e-5, atol=1e-6)
    assert int(tf_side["norm_params"]) == 7
