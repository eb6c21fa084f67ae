"""keras.applications ConvNeXtTiny-XLarge against TensorFlow 2.21's Keras (keras_tf_eval.tf_eval
through keras_applications_tf): the same parameter count, layer names (nested downsampling
Sequentials entered; the residual sums, Keras operation nodes, left out) and weight shapes,
and with the same weights (moved through a `.weights.h5` file TensorFlow wrote, LayerScale's
gamma included) the same output on one 32x32 image in [0, 255]. Tiny compares outputs, Small
and Base their structure only; Large and XLarge (200 and 350 million parameters) are built from
the same code with the widths of MODEL_CONFIGS, which is compared with Keras's table instead.

ConvNeXt's 7x7 depthwise convolutions are Conv2D layers with groups = channels; while wengert's
Conv2D lacks groups > 1 the model tests skip (their TensorFlow answers are stored)."""
import types

import numpy as np
import pytest

import wengert.keras as wk
from wengert.keras import applications
from wengert.keras.applications import convnext
from keras_applications_tf import check_output, check_structure, tf_models
from keras_tf_eval import tf_eval

_RNG = np.random.default_rng(19)
IMAGES = {"pixels": _RNG.uniform(0, 255, (1, 32, 32, 3)).astype("float32")}
CASES = [
    ("tiny", "ConvNeXtTiny(weights=None, input_shape=(32, 32, 3), classes=10)", "pixels", True),
    ("tiny_features", "ConvNeXtTiny(weights=None, input_tensor=keras.Input((32, 32, 3)), "
     "include_top=False, include_preprocessing=False, pooling='avg')", "pixels", True),
    ("small", "ConvNeXtSmall(weights=None, input_shape=(32, 32, 3), include_top=False)",
     "pixels", False),
    ("base", "ConvNeXtBase(weights=None, input_shape=(32, 32, 3), include_top=False, "
     "pooling='max')", "pixels", False),
]


def _build(expression):
    wk.backend.clear_session()
    names = {"keras": types.SimpleNamespace(applications=applications, Input=wk.Input)}
    try:
        return eval("keras.applications." + expression, names)  # the test's own fixed text
    except NotImplementedError as err:
        pytest.skip(f"wengert lacks a layer ConvNeXt needs: {err}")


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


def test_model_configs_are_keras_configs():
    script = """
from keras.src.applications.convnext import MODEL_CONFIGS
for key, config in MODEL_CONFIGS.items():
    out[key + "_depths"] = np.array(config["depths"])
    out[key + "_dims"] = np.array(config["projection_dims"])
"""
    want = tf_eval(script)
    for key, config in convnext.MODEL_CONFIGS.items():
        np.testing.assert_array_equal(config["depths"], want[key + "_depths"])
        np.testing.assert_array_equal(config["projection_dims"], want[key + "_dims"])


def test_layer_scale_and_stochastic_depth():
    x = np.arange(12, dtype="float32").reshape(2, 2, 3)
    scale = convnext.LayerScale(0.5, 3, name="scale")
    np.testing.assert_allclose(scale(x).numpy(), x * 0.5)
    assert [w.name.split("/")[-1].split(":")[0] for w in scale.weights] == ["variable"]
    drop = convnext.StochasticDepth(0.5, name="drop")
    np.testing.assert_array_equal(drop(x, training=False).numpy(), x)
    kept = drop(np.ones((64, 2, 3), "float32"), training=True).numpy()
    per_sample = kept.reshape(64, -1)
    assert set(np.unique(per_sample)) <= {0.0, 2.0}
    assert all(len(set(row)) == 1 for row in per_sample)


def test_preprocess_input_is_the_identity():
    x = np.arange(6.0).reshape(1, 1, 2, 3)
    assert convnext.preprocess_input(x) is x
