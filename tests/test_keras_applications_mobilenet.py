"""keras.applications MobileNet (V1) and MobileNetV2 against TensorFlow 2.21's Keras
(keras_tf_eval.tf_eval through keras_applications_tf): the same parameter count, layer names and
weight shapes, and with the same weights (moved through a `.weights.h5` file TensorFlow wrote)
the same output on one 32x32 image. The default 224x224, 1000-class models compare their
structure only (their forward pass adds nothing the small ones do not check)."""

import numpy as np
import pytest

from keras_applications_tf import (build_application, check_output, check_structure,
                                  tf_models)

_RNG = np.random.default_rng(7)
IMAGES = {"unit": _RNG.uniform(-1, 1, (1, 32, 32, 3)).astype("float32")}
CASES = [
    ("v1_small", "MobileNet(weights=None, input_shape=(32, 32, 3), alpha=0.25, classes=10)",
     "unit", True),
    ("v1_notop", "MobileNet(weights=None, input_shape=(32, 32, 3), alpha=0.5, "
     "depth_multiplier=2, include_top=False, pooling='avg')", "unit", True),
    ("v1_logits", "MobileNet(weights=None, input_tensor=keras.Input((32, 32, 3)), alpha=0.25, "
     "classes=7, classifier_activation=None, dropout=0.5)", "unit", True),
    ("v1_default", "MobileNet(weights=None)", "unit", False),
    ("v2_small", "MobileNetV2(weights=None, input_shape=(32, 32, 3), alpha=0.35, classes=10)",
     "unit", True),
    ("v2_wide", "MobileNetV2(weights=None, input_shape=(32, 32, 3), alpha=1.3, "
     "include_top=False, pooling='max')", "unit", True),
    ("v2_logits", "MobileNetV2(weights=None, input_tensor=keras.Input((32, 32, 3)), alpha=0.5, "
     "classes=3, classifier_activation=None)", "unit", True),
    ("v2_default", "MobileNetV2(weights=None)", "unit", False),
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
