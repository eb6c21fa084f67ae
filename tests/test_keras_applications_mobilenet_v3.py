"""keras.applications MobileNetV3Small and MobileNetV3Large against TensorFlow 2.21's Keras
(keras_tf_eval.tf_eval through keras_applications_tf): the same parameter count, layer names
(Keras's operation nodes x + 3 and * 1/6, which Keras does not list among `model.layers`, left
out) and weight shapes, and with the same weights (moved through a `.weights.h5` file
TensorFlow wrote) the same output on one 32x32 image in [0, 255]. The default 224x224,
1000-class models compare their structure only."""

import numpy as np
import pytest

from wengert.keras import applications
from wengert.keras.applications import mobilenet_v3
from keras_applications_tf import (build_application, check_output, check_structure,
                                  tf_models)

_RNG = np.random.default_rng(11)
IMAGES = {"pixels": _RNG.uniform(0, 255, (1, 32, 32, 3)).astype("float32")}
CASES = [
    ("small", "MobileNetV3Small(weights=None, input_shape=(32, 32, 3), alpha=0.75, classes=10)",
     "pixels", True),
    ("small_minimal", "MobileNetV3Small(weights=None, input_shape=(32, 32, 3), "
     "minimalistic=True, include_top=False, pooling='avg')", "pixels", True),
    ("small_wide", "MobileNetV3Small(weights=None, input_tensor=keras.Input((32, 32, 3)), "
     "alpha=1.25, classes=5, classifier_activation=None, dropout_rate=0.0, "
     "include_preprocessing=False)", "pixels", True),
    ("large", "MobileNetV3Large(weights=None, input_shape=(32, 32, 3), alpha=0.5, classes=10)",
     "pixels", True),
    ("large_minimal", "MobileNetV3Large(weights=None, input_shape=(32, 32, 3), "
     "minimalistic=True, alpha=0.75, include_top=False, pooling='max')", "pixels", True),
    ("large_features", "MobileNetV3Large(weights=None, input_shape=(32, 32, 3), "
     "include_top=False)", "pixels", True),
    ("small_default", "MobileNetV3Small(weights=None)", "pixels", False),
    ("large_default", "MobileNetV3Large(weights=None)", "pixels", False),
]


@pytest.fixture(scope="module")
def reference():
    cases = [(key, "keras.applications." + expr, image, out) for key, expr, image, out in CASES]
    return tf_models(cases, IMAGES)


@pytest.mark.parametrize("key,expression,image,compare", CASES, ids=[c[0] for c in CASES])
def test_same_model_as_keras(reference, key, expression, image, compare):
    want, folder = reference
    model = build_application(expression)
    check_structure(model, want[key])
    if compare:
        check_output(model, key, want[key], IMAGES[image], folder)


def test_preprocess_input_is_the_identity():
    x = np.arange(6.0).reshape(1, 1, 2, 3)
    assert mobilenet_v3.preprocess_input(x) is x


def test_small_inputs_are_refused_before_building():
    with pytest.raises(ValueError, match="at least 32x32"):
        applications.MobileNetV3Small(weights=None, input_shape=(16, 16, 3))
