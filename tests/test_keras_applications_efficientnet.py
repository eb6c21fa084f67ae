"""keras.applications EfficientNetB0-B7 against TensorFlow 2.21's Keras (keras_tf_eval.tf_eval
through keras_applications_tf): the same parameter count, layer names and weight shapes, and
with the same weights (moved through a `.weights.h5` file TensorFlow wrote, the Normalization
layer's mean, variance and count included) the same output on one 32x32 image in [0, 255].
B0 and B1 compare outputs; B2-B7 compare their structure only (at 32x32 without the top: the
same blocks, only more and wider). Until Normalization holds its statistics in variables (as
Keras 3's does) the model tests skip; their TensorFlow answers are stored."""
import types

import numpy as np
import pytest

import wengert.keras as wk
from wengert.keras import applications
from wengert.keras.applications import efficientnet
from keras_applications_tf import check_output, check_structure, tf_models

_RNG = np.random.default_rng(13)
IMAGES = {"pixels": _RNG.uniform(0, 255, (1, 32, 32, 3)).astype("float32")}
CASES = [
    ("b0", "EfficientNetB0(weights=None, input_shape=(32, 32, 3), classes=10)", "pixels", True),
    ("b1_avg", "EfficientNetB1(weights=None, input_shape=(32, 32, 3), include_top=False, "
     "pooling='avg')", "pixels", True),
    ("b0_logits", "EfficientNetB0(weights=None, input_tensor=keras.Input((32, 32, 3)), "
     "classes=4, classifier_activation=None)", "pixels", True),
] + [(f"b{i}", f"EfficientNetB{i}(weights=None, input_shape=(32, 32, 3), include_top=False, "
      "pooling='max')", "pixels", False) for i in range(2, 8)]


def _build(expression):
    probe = wk.layers.Normalization()
    probe.build((None, 3))
    if not probe.weights:
        pytest.skip("wengert's Normalization lacks Keras 3's mean, variance and count "
                    "variables, which EfficientNet's weights and parameter count include")
    wk.backend.clear_session()
    names = {"keras": types.SimpleNamespace(applications=applications, Input=wk.Input)}
    return eval("keras.applications." + expression, names)  # the test's own fixed text


@pytest.fixture(scope="module")
def reference():
    cases = [(key, "keras.applications." + expr, image, out) for key, expr, image, out in CASES]
    return tf_models(cases, IMAGES)


@pytest.mark.parametrize("key,expression,image,compare", CASES, ids=[c[0] for c in CASES])
def test_same_model_as_keras(reference, key, expression, image, compare):
    want, folder = reference
    model = _build(expression)
    check_structure(model, want[key])
    if compare:
        check_output(model, key, want[key], IMAGES[image], folder)


def test_preprocess_input_is_the_identity():
    x = np.arange(6.0).reshape(1, 1, 2, 3)
    assert efficientnet.preprocess_input(x) is x
    with pytest.raises(ValueError, match="data_format"):
        efficientnet.preprocess_input(x, data_format="nhwc")


def test_weights_path_that_does_not_exist_is_refused_before_building():
    with pytest.raises(ValueError, match="weights"):
        applications.EfficientNetB0(weights="/nonexistent/efficientnetb0.weights.h5")
