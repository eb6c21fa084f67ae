"""keras.applications' InceptionV3, InceptionResNetV2 and Xception against TensorFlow 2.21's
Keras (keras_applications_checks.py, answers stored through tf_eval): each built with
weights=None at the smallest input Keras accepts (75x75, 75x75, 71x71), compared by parameter
count, layer names (automatic ones included, which needs the same layers made in the same
order) and weights-file layout; InceptionV3 and Xception also run one image with the same
weights moved through a `.weights.h5` file. InceptionResNetV2 compares structure only (its
forward costs about 20 s of NumPy convolutions here); its scaled residual sum is checked
against NumPy below."""
import numpy as np
import pytest

from wengert import keras
from wengert.keras.applications.inception_resnet_v2 import CustomScaleLayer
from keras_applications_checks import build, check_forward, check_structure, tf_structures

SPECS = {
    "inception_v3": ("InceptionV3", {"input_shape": (75, 75, 3), "weights": None,
                                     "classes": 10, "classifier_activation": None}, True),
    "xception": ("Xception", {"input_shape": (71, 71, 3), "weights": None,
                              "include_top": False, "pooling": "avg"}, True),
    "inception_resnet_v2": ("InceptionResNetV2", {"input_shape": (75, 75, 3),
                                                  "weights": None, "include_top": False},
                            False),
}


@pytest.fixture(scope="module")
def images():
    rng = np.random.default_rng(299)
    return {key: rng.uniform(-1, 1, (1,) + kwargs["input_shape"]).astype(np.float32)
            for key, (_, kwargs, forward) in SPECS.items() if forward}


@pytest.fixture(scope="module")
def answers(images):
    return tf_structures(SPECS, images)


@pytest.mark.parametrize("key", sorted(SPECS))
def test_network_matches_keras(key, answers, images, tmp_path):
    fn, kwargs, forward = SPECS[key]
    path = check_structure(build(fn, kwargs), answers, key, tmp_path if forward else None)
    if forward:
        check_forward(fn, kwargs, answers, key, images[key], path)


def test_custom_scale_layer_and_submodules():
    rng = np.random.default_rng(0)
    a, b = (rng.normal(size=(2, 3, 3, 4)).astype(np.float32) for _ in range(2))
    layer = CustomScaleLayer(0.17)
    np.testing.assert_allclose(layer([a, b]).numpy(), a + 0.17 * b, rtol=1e-6)
    assert CustomScaleLayer.from_config(layer.get_config()).scale == 0.17
    apps = keras.applications
    assert apps.inception_v3.InceptionV3 is apps.InceptionV3
    assert apps.inception_resnet_v2.InceptionResNetV2 is apps.InceptionResNetV2
    assert apps.xception.Xception is apps.Xception
    x = np.full((1, 2, 2, 3), 255.0, np.float32)
    for module in (apps.inception_v3, apps.inception_resnet_v2, apps.xception):
        np.testing.assert_allclose(module.preprocess_input(x.copy()), np.ones_like(x))
    with pytest.raises(ValueError, match="at least 75x75"):
        apps.InceptionV3(weights=None, include_top=False, input_shape=(64, 64, 3))
