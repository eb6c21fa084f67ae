"""RMSNormalization: x * rsqrt(mean(x^2 over axis) + epsilon) * scale against NumPy, gradients
against finite differences in float64, config and `.keras` round trips, training under fit, bad
axes refused, and the layer against TensorFlow 2.21's Keras (outputs and gradients)."""
import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from keras_layer_lifecycle import check_config_round_trip, check_fit_and_saved_model
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(31)
X2 = RNG.normal(size=(3, 6))
X4 = RNG.normal(size=(2, 4, 5, 3))
F64 = {"dtype": "float64"}


def _rms(x, axes, scale, epsilon=1e-6):
    return x / np.sqrt(np.mean(x ** 2, axis=tuple(axes), keepdims=True) + epsilon) * scale


def test_matches_numpy():
    layer = L.RMSNormalization(**F64)
    out = np.asarray(layer(X2))
    assert layer.scale.shape == (6,)
    np.testing.assert_allclose(out, _rms(X2, [1], 1.0), rtol=1e-12)
    layer.set_weights([np.linspace(0.5, 2.0, 6)])
    np.testing.assert_allclose(np.asarray(layer(X2)), _rms(X2, [1], np.linspace(0.5, 2.0, 6)),
                               rtol=1e-12)
    several = L.RMSNormalization(axis=[-1, 1], epsilon=1e-3, **F64)
    several(X4)
    scale = RNG.uniform(0.5, 1.5, size=(4, 3))
    several.set_weights([scale])
    np.testing.assert_allclose(np.asarray(several(X4)),
                               _rms(X4, [1, 3], scale[:, None, :], 1e-3), rtol=1e-12)


def test_float16_computes_in_float32():
    out = L.RMSNormalization(dtype="float16")(X2.astype("float16"))
    assert out.dtype == tf.float16
    np.testing.assert_allclose(np.asarray(out, "float64"), _rms(X2, [1], 1.0), rtol=2e-3)


def test_gradients():
    check_layer_gradients(L.RMSNormalization(**F64), [X2])
    check_layer_gradients(L.RMSNormalization(axis=[1, 2], **F64), [X4[:1, :2, :3, :2]])


def test_config_and_saved_model(tmp_path):
    check_config_round_trip(L.RMSNormalization(axis=[1, 2], epsilon=1e-4))
    check_fit_and_saved_model(lambda: L.RMSNormalization(), X4.astype("float32"), tmp_path,
                              head=L.Dense(2))


def test_bad_axis():
    with pytest.raises(ValueError, match="out of bounds"):
        L.RMSNormalization(axis=4)(X2)
    with pytest.raises(TypeError, match="axis"):
        L.RMSNormalization(axis="last")


def test_matches_tensorflow_keras():
    cases = [Case("rms-last", L.RMSNormalization(**F64), [X2]),
             Case("rms-axes", L.RMSNormalization(axis=[2, 3], epsilon=1e-3, **F64), [X4]),
             Case("rms-float32", L.RMSNormalization(dtype="float32"), [X4.astype("float32")])]
    results = run_tf(cases, tf_python())
    for case in cases:
        tol = 1e-5 if "float32" in case.name else 1e-10
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
