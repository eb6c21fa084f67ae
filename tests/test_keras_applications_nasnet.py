"""keras.applications' NASNetMobile and NASNetLarge against TensorFlow 2.21's Keras
(keras_applications_checks.py, answers stored through tf_eval): each built with weights=None at
32x32 (the smallest input Keras accepts), compared by parameter count, layer names (automatic
ones included, which needs the same layers made in the same order) and weights-file layout;
NASNetMobile also runs one image with the same weights moved through a `.weights.h5` file.
NASNetLarge compares structure only (85 million parameters: its weights file alone is 340 MB)."""
import numpy as np
import pytest

from wengert import keras
from keras_applications_checks import build, check_forward, check_structure, tf_structures

SPECS = {
    "nasnet_mobile": ("NASNetMobile", {"input_shape": (32, 32, 3), "weights": None,
                                       "classes": 10, "classifier_activation": None}, True),
    "nasnet_large": ("NASNetLarge", {"input_shape": (32, 32, 3), "weights": None,
                                     "include_top": False, "pooling": "max"}, False),
}


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(331)
    return {"nasnet_mobile": rng.uniform(-1, 1, (1, 32, 32, 3)).astype(np.float32)}


@pytest.fixture(scope="module")
def answers(images):
    return tf_structures(SPECS, images)


@pytest.mark.parametrize("key", sorted(SPECS))
def test_network_matches_keras(key, answers, images, tmp_path):
    fn, kwargs, forward = SPECS[key]
    path = check_structure(build(fn, kwargs), answers, key, tmp_path if forward else None)
    if forward:
        check_forward(fn, kwargs, answers, key, images[key], path)


def test_defaults_errors_and_submodule(tmp_path, monkeypatch):
    apps = keras.applications
    assert apps.nasnet.NASNetMobile is apps.NASNetMobile
    assert apps.nasnet.NASNetLarge is apps.NASNetLarge
    x = np.full((1, 2, 2, 3), 255.0, np.float32)
    np.testing.assert_allclose(apps.nasnet.preprocess_input(x.copy()), np.ones_like(x))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"nasnet_mobile_no_top.*NASNet-mobile-no-top\.h5"):
        apps.NASNetMobile(include_top=False)
    with pytest.raises(ValueError, match="static"):
        apps.NASNetLarge(include_top=False, input_shape=(None, None, 3), weights="imagenet")
