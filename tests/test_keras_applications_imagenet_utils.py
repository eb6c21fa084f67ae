"""keras.applications' shared pieces against TensorFlow 2.21's Keras and NumPy: preprocess_input
in its three modes and two layouts (arrays, tensors, symbolic inputs), decode_predictions from a
class index in Keras's cache (and its offline error), obtain_input_shape's checks, and the
`weights` argument (None, a file Keras wrote, "imagenet" offline)."""
import json

import h5py
import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras.applications import imagenet_utils
from keras_tf_eval import tf_eval

MODES = ("caffe", "tf", "torch")
FORMATS = ("channels_last", "channels_first")


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(27)
    return {"batch": rng.uniform(0, 255, (2, 4, 5, 3)).astype(np.float32),
            "single": rng.uniform(0, 255, (3, 4, 5)).astype(np.float32),
            "ints": rng.integers(0, 256, (1, 3, 3, 3)).astype(np.uint8)}


@pytest.fixture(scope="module")
def tf_preprocessed(images):
    script = """
from keras.applications import imagenet_utils as iu
for mode in ("caffe", "tf", "torch"):
    for fmt in ("channels_last", "channels_first"):
        for key in ("batch", "single", "ints"):
            out[f"{mode}_{fmt}_{key}"] = iu.preprocess_input(A[key].copy(), fmt, mode)
    out[f"{mode}_tensor"] = np.asarray(iu.preprocess_input(tf.constant(A["batch"]), None, mode))
"""
    return tf_eval(script, images)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_preprocess_input_arrays_match_keras(images, tf_preprocessed, mode, fmt):
    for key, x in images.items():
        got = imagenet_utils.preprocess_input(x.copy(), fmt, mode)
        want = tf_preprocessed[f"{mode}_{fmt}_{key}"]
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_preprocess_input_tensors_and_symbolic_inputs(images, tf_preprocessed, mode):
    want = tf_preprocessed[f"{mode}_tensor"]
    got = imagenet_utils.preprocess_input(tf.constant(images["batch"]), mode=mode)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-5)
    inputs = keras.Input((4, 5, 3))
    model = keras.Model(inputs, imagenet_utils.preprocess_input(inputs, mode=mode))
    np.testing.assert_allclose(model(images["batch"]).numpy(), want, rtol=1e-6, atol=1e-5)


def test_preprocess_input_caffe_by_numpy(images):
    x = images["batch"]
    want = x[..., ::-1] - np.array([103.939, 116.779, 123.68], np.float32)
    np.testing.assert_allclose(imagenet_utils.preprocess_input(x.copy()), want, rtol=1e-6)
    copy = x.copy()
    imagenet_utils.preprocess_input(copy, mode="tf")
    np.testing.assert_allclose(copy, x / 127.5 - 1, rtol=1e-6, atol=1e-6)


def test_preprocess_input_bad_arguments():
    with pytest.raises(ValueError, match="mode must be one of"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), mode="bgr")
    with pytest.raises(ValueError, match="data_format"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), data_format="nhwc")


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    return tmp_path


def test_decode_predictions_reads_the_cached_class_index(keras_home):
    (keras_home / "models").mkdir()
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    (keras_home / "models" / "imagenet_class_index.json").write_text(json.dumps(index))
    preds = np.random.default_rng(1).random((2, 1000)).astype(np.float32)
    decoded = keras.applications.resnet50.decode_predictions(preds, top=3)
    for row, pred in zip(decoded, preds):
        best = np.argsort(pred)[::-1][:3]
        assert [r[:2] for r in row] == [tuple(index[str(i)]) for i in best]
        np.testing.assert_array_equal([r[2] for r in row], pred[best])


def test_decode_predictions_offline_error_and_shape_check(keras_home):
    with pytest.raises(FileNotFoundError, match="imagenet_class_index.json.*download"):
        imagenet_utils.decode_predictions(np.zeros((1, 1000)))
    with pytest.raises(ValueError, match=r"shape \(samples, 1000\).*\(1, 10\)"):
        imagenet_utils.decode_predictions(np.zeros((1, 10)))


def test_obtain_input_shape_checks_like_keras():
    shape = imagenet_utils.obtain_input_shape
    assert shape(None, 224, 32, "channels_last", True) == (224, 224, 3)
    assert shape(None, 224, 32, "channels_last", False) == (None, None, 3)
    assert shape((64, 48, 3), 224, 32, "channels_last", True) == (64, 48, 3)
    with pytest.raises(ValueError, match="at least 32x32"):
        shape((16, 64, 3), 224, 32, "channels_last", False)
    with pytest.raises(ValueError, match="static `input_shape`"):
        shape((None, None, 3), 224, 32, "channels_last", True)
    with pytest.raises(ValueError, match=r"should be \(224, 224, 3\)"):
        shape((64, 64, 3), 224, 32, "channels_last", True, weights="imagenet")
    with pytest.raises(ValueError, match="3 channels"):
        shape((64, 64, 1), 224, 32, "channels_last", False, weights="imagenet")
    with pytest.warns(UserWarning, match="1 or 3 input channels"):
        shape((64, 64, 5), 224, 32, "channels_last", False)


def test_weights_argument_errors_before_building(keras_home):
    with pytest.raises(ValueError, match="weights.*not an existing file"):
        keras.applications.ResNet50(weights="/nonexistent/resnet.weights.h5")
    with pytest.raises(ValueError, match="`classes` should be 1000"):
        keras.applications.ResNet50(weights="imagenet", classes=10)
    url = ("https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
           "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5")
    with pytest.raises(FileNotFoundError, match=url.replace(".", r"\.")):
        keras.applications.ResNet50(weights="imagenet", include_top=False)
    with pytest.raises(ValueError, match="Only `None` and `softmax`"):
        _small(weights=str(_saved(keras_home)), include_top=True, classes=10,
               classifier_activation="relu")


def _small(weights=None, **kwargs):
    kwargs = {"include_top": False, "pooling": "avg", **kwargs}
    return keras.applications.VGG16(weights=weights, input_shape=(32, 32, 3), **kwargs)


def _saved(folder):
    model = _small()
    path = folder / "vgg16.weights.h5"
    model.save_weights(str(path))
    return path


def test_weights_from_a_keras3_file_and_a_keras2_h5_file(tmp_path):
    source = _small()
    rng = np.random.default_rng(3)
    source.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.05
                        for w in source.get_weights()])
    x = rng.uniform(0, 255, (1, 32, 32, 3)).astype(np.float32)
    want = source(x).numpy()
    new_format = tmp_path / "m.weights.h5"
    source.save_weights(str(new_format))
    old_format = tmp_path / "m.h5"
    with h5py.File(old_format, "w") as f:
        with_weights = [layer for layer in source.layers if layer.weights]
        f.attrs["layer_names"] = [layer.name.encode() for layer in with_weights]
        for layer in with_weights:
            group = f.create_group(layer.name)
            variables = layer.trainable_weights + layer.non_trainable_weights
            names = [f"{layer.name}/{v.name.split('/')[-1]}" for v in variables]
            group.attrs["weight_names"] = [n.encode() for n in names]
            for name, v in zip(names, variables):
                group.create_dataset(name, data=v.numpy())
    for path in (new_format, old_format):
        np.testing.assert_allclose(_small(weights=str(path))(x).numpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="nothing was loaded"):
        keras.applications.VGG19(weights=str(old_format), include_top=False,
                                 input_shape=(32, 32, 3))


def test_input_tensor_becomes_the_models_input():
    inputs = keras.Input((32, 32, 3))
    rescaling = keras.layers.Rescaling(1 / 255.0)
    model = keras.applications.VGG16(weights=None, input_tensor=rescaling(inputs),
                                     include_top=False, pooling="max")
    assert model.inputs[0] is inputs and model.layers[1] is rescaling
    assert tuple(model.output.shape) == (None, 512)
    with pytest.raises(ValueError, match="input_tensor"):
        keras.applications.ResNet50(weights=None, input_tensor=np.zeros((1, 32, 32, 3)))
