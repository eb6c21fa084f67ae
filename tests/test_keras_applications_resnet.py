"""keras.applications' ResNet50/101/152 and their V2 variants against TensorFlow 2.21's Keras
(keras_applications_checks.py, answers stored through tf_eval): each built with weights=None
at 32x32 (the smallest input Keras accepts), compared by parameter count, layer names and
weights-file layout; ResNet50 (with its top) and ResNet50V2 (pooled features) also run one
image with the same weights moved through a `.weights.h5` file. The 101- and 152-layer
networks compare structure only: their forward adds time (about 30 s each on a busy machine)
and no layer the 50-layer ones lack."""
import numpy as np
import pytest

from wengert import keras
from keras_applications_checks import build, check_forward, check_structure, tf_structures

TOP = {"input_shape": (32, 32, 3), "weights": None, "classes": 10,
       "classifier_activation": None}
NOTOP = {"input_shape": (32, 32, 3), "weights": None, "include_top": False, "pooling": "avg"}
SPECS = {
    "resnet50": ("ResNet50", TOP, True),
    "resnet101": ("ResNet101", NOTOP, False),
    "resnet152": ("ResNet152", NOTOP, False),
    "resnet50v2": ("ResNet50V2", dict(NOTOP, pooling="max"), True),
    "resnet101v2": ("ResNet101V2", dict(NOTOP, pooling="max"), False),
    "resnet152v2": ("ResNet152V2", NOTOP, False),
}


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(50)
    return {key: rng.uniform(-1, 1, (1, 32, 32, 3)).astype(np.float32)
            for key, (_, _, forward) in SPECS.items() if forward}


@pytest.fixture(scope="module")
def answers(images):
    return tf_structures(SPECS, images)


@pytest.mark.parametrize("key", sorted(SPECS))
def test_network_matches_keras(key, answers, images, tmp_path):
    fn, kwargs, forward = SPECS[key]
    path = check_structure(build(fn, kwargs), answers, key, tmp_path if forward else None)
    if forward:
        check_forward(fn, kwargs, answers, key, images[key], path)


def test_submodules_and_preprocessing():
    apps = keras.applications
    assert apps.resnet50.ResNet50 is apps.ResNet50 is apps.resnet.ResNet50
    assert apps.resnet_v2.ResNet152V2 is apps.ResNet152V2
    x = np.full((1, 2, 2, 3), 255.0, np.float32)
    np.testing.assert_allclose(apps.resnet_v2.preprocess_input(x.copy()), np.ones_like(x))
    np.testing.assert_allclose(apps.resnet.preprocess_input(x.copy())[0, 0, 0],
                               255.0 - np.array([103.939, 116.779, 123.68]), rtol=1e-6)
