"""keras.applications' VGG16/VGG19 and DenseNet121/169/201 against TensorFlow 2.21's Keras
(keras_applications_checks.py, answers stored through tf_eval): each built with weights=None
at 32x32 (the smallest input Keras accepts), compared by parameter count, layer names and
weights-file layout; VGG16 and DenseNet121 (with their tops) also run one image with the same
weights moved through a `.weights.h5` file. VGG19, DenseNet169 and DenseNet201 compare
structure only: their forward adds time and no layer VGG16 or DenseNet121 lacks."""
import numpy as np
import pytest

from wengert import keras
from keras_applications_checks import build, check_forward, check_structure, tf_structures

TOP = {"input_shape": (32, 32, 3), "weights": None, "classes": 10,
       "classifier_activation": None}
NOTOP = {"input_shape": (32, 32, 3), "weights": None, "include_top": False, "pooling": "avg"}
SPECS = {
    "vgg16": ("VGG16", TOP, True),
    "vgg19": ("VGG19", dict(NOTOP, pooling="max"), False),
    "densenet121": ("DenseNet121", TOP, True),
    "densenet169": ("DenseNet169", NOTOP, False),
    "densenet201": ("DenseNet201", dict(NOTOP, pooling=None), False),
}


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(16)
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
    assert apps.vgg16.VGG16 is apps.VGG16 and apps.vgg19.VGG19 is apps.VGG19
    assert apps.densenet.DenseNet201 is apps.DenseNet201
    x = np.full((1, 2, 2, 3), 255.0, np.float32)
    want = (1.0 - np.array([0.485, 0.456, 0.406])) / np.array([0.229, 0.224, 0.225])
    np.testing.assert_allclose(apps.densenet.preprocess_input(x.copy())[0, 0, 0], want,
                               rtol=1e-6)
    np.testing.assert_allclose(apps.vgg19.preprocess_input(x.copy())[0, 0, 0],
                               255.0 - np.array([103.939, 116.779, 123.68]), rtol=1e-6)
