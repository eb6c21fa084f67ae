"""keras.applications EfficientNetV2B0-B3, S, M and L against TensorFlow 2.21's Keras
(keras_tf_eval.tf_eval through keras_applications_tf): the same parameter count, layer names and
weight shapes, and with the same weights (moved through a `.weights.h5` file TensorFlow wrote)
the same output on one 32x32 image in [0, 255]. B0 (with its ImageNet normalization), B1
without preprocessing, and S (with its [-1, 1] rescaling) compare outputs; B2, B3, M and L
compare their structure only (at 32x32 without the top)."""

import numpy as np
import pytest

from wengert.keras.applications import efficientnet_v2
from keras_applications_tf import (build_application, check_output, check_structure,
                                  tf_models)

_RNG = np.random.default_rng(17)
IMAGES = {"pixels": _RNG.uniform(0, 255, (1, 32, 32, 3)).astype("float32"),
          "unit": _RNG.uniform(-1, 1, (1, 32, 32, 3)).astype("float32")}
CASES = [
    ("b0", "EfficientNetV2B0(weights=None, input_shape=(32, 32, 3), classes=10)", "pixels",
     True),
    ("b1_raw", "EfficientNetV2B1(weights=None, input_tensor=keras.Input((32, 32, 3)), "
     "include_preprocessing=False, classes=4, classifier_activation=None)", "unit", True),
    ("s_avg", "EfficientNetV2S(weights=None, input_shape=(32, 32, 3), include_top=False, "
     "pooling='avg')", "pixels", True),
    ("b2", "EfficientNetV2B2(weights=None, input_shape=(32, 32, 3), include_top=False)",
     "pixels", False),
    ("b3", "EfficientNetV2B3(weights=None, input_shape=(32, 32, 3), include_top=False, "
     "pooling='max')", "pixels", False),
    ("m", "EfficientNetV2M(weights=None, input_shape=(32, 32, 3), include_top=False)", "pixels",
     False),
    ("l", "EfficientNetV2L(weights=None, input_shape=(32, 32, 3), include_top=False)", "pixels",
     False),
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
    assert efficientnet_v2.preprocess_input(x) is x


def test_round_filters_as_keras():
    assert efficientnet_v2.round_filters(1280, 1.1, 8, 8) == 1408
    assert efficientnet_v2.round_filters(32, 1.2, 8, 8) == 40
