"""AdaptiveAveragePooling1D/2D/3D and AdaptiveMaxPooling1D/2D/3D: outputs against a NumPy loop over
the PyTorch/Keras windows [floor(iL/n), ceil((i+1)L/n)), gradients against finite differences in
float64, configs and `.keras` files round-tripped, training under fit, bad arguments refused, and
every layer against TensorFlow 2.21's Keras (outputs and gradients)."""
import itertools

import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from keras_layer_lifecycle import check_config_round_trip, check_fit_and_saved_model
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(23)
X3 = RNG.normal(size=(2, 7, 3))
X4 = RNG.normal(size=(2, 7, 5, 3))
X5 = RNG.normal(size=(2, 5, 6, 4, 2))
F64 = {"dtype": "float64"}


def _reference(x, sizes, reduce):
    """Loop over every output cell of a channels_last input."""
    spatial = x.shape[1:-1]
    windows = [[((i * n) // s, -((-(i + 1) * n) // s)) for i in range(s)]
               for n, s in zip(spatial, sizes)]
    out = np.zeros((x.shape[0],) + tuple(sizes) + (x.shape[-1],))
    for cell in itertools.product(*[range(s) for s in sizes]):
        box = (slice(None),) + tuple(slice(*windows[k][i]) for k, i in enumerate(cell))
        block = x[box].reshape(x.shape[0], -1, x.shape[-1])
        out[(slice(None),) + cell] = reduce(block, axis=1)
    return out


@pytest.mark.parametrize("cls, x, size", [
    (L.AdaptiveAveragePooling1D, X3, 3), (L.AdaptiveAveragePooling1D, X3, 10),
    (L.AdaptiveAveragePooling2D, X4, (3, 2)), (L.AdaptiveAveragePooling2D, X4, 4),
    (L.AdaptiveAveragePooling3D, X5, (2, 4, 3)),
    (L.AdaptiveMaxPooling1D, X3, 3), (L.AdaptiveMaxPooling1D, X3, 9),
    (L.AdaptiveMaxPooling2D, X4, (3, 2)), (L.AdaptiveMaxPooling2D, X4, (7, 5)),
    (L.AdaptiveMaxPooling3D, X5, (3, 4, 3))])
def test_matches_numpy(cls, x, size):
    layer = cls(size, **F64)
    sizes = layer.output_size
    reduce = np.mean if "Average" in cls.__name__ else np.max
    out = np.asarray(layer(x))
    np.testing.assert_allclose(out, _reference(x, sizes, reduce), rtol=1e-12, atol=1e-14)
    assert tuple(layer.compute_output_shape((None,) + x.shape[1:])) == (None,) + out.shape[1:]


def test_channels_first_equals_channels_last():
    for cls in (L.AdaptiveAveragePooling2D, L.AdaptiveMaxPooling2D):
        last = np.asarray(cls((3, 2), **F64)(X4))
        first = np.asarray(cls((3, 2), data_format="channels_first", **F64)(
            X4.transpose(0, 3, 1, 2)))
        np.testing.assert_allclose(first, last.transpose(0, 3, 1, 2), rtol=1e-12)


@pytest.mark.parametrize("make, x", [
    (lambda: L.AdaptiveAveragePooling1D(3, **F64), X3[:1]),
    (lambda: L.AdaptiveMaxPooling1D(4, **F64), X3[:1]),
    (lambda: L.AdaptiveAveragePooling2D((2, 3), **F64), X4[:1, :, :, :2]),
    (lambda: L.AdaptiveMaxPooling2D((3, 2), **F64), X4[:1, :, :, :2]),
    (lambda: L.AdaptiveMaxPooling3D(2, **F64), X5[:1, :3, :3, :3, :1])])
def test_gradients(make, x):
    check_layer_gradients(make(), [x])


def test_configs_and_saved_model(tmp_path):
    for layer in (L.AdaptiveAveragePooling1D(3), L.AdaptiveMaxPooling2D((2, 3)),
                  L.AdaptiveAveragePooling3D(2, data_format="channels_first")):
        clone = check_config_round_trip(layer)
        assert clone.output_size == layer.output_size
    check_fit_and_saved_model(lambda: L.AdaptiveMaxPooling2D((2, 2)),
                              X4.astype("float32"), tmp_path, head=L.Dense(3))


def test_bad_arguments():
    with pytest.raises(TypeError, match="output_size"):
        L.AdaptiveAveragePooling2D((2, 2, 2))
    with pytest.raises(TypeError, match="output_size"):
        L.AdaptiveMaxPooling1D("3")
    with pytest.raises(ValueError, match="output_size"):
        L.AdaptiveMaxPooling1D(0)
    with pytest.raises(ValueError, match="data_format"):
        L.AdaptiveAveragePooling1D(2, data_format="NWC")
    with pytest.raises(ValueError, match="rank 4"):
        L.AdaptiveAveragePooling2D(2)(X3)


def _tf_cases():
    f32, x5 = {"dtype": "float32"}, X5.astype("float32")
    return [
        Case("avg1d", L.AdaptiveAveragePooling1D(3, **F64), [X3]),
        Case("avg1d-upsample", L.AdaptiveAveragePooling1D(10, **F64), [X3]),
        Case("avg2d", L.AdaptiveAveragePooling2D((3, 2), **F64), [X4]),
        Case("avg2d-first", L.AdaptiveAveragePooling2D(
            (2, 4), data_format="channels_first", **F64), [X4]),
        Case("avg3d", L.AdaptiveAveragePooling3D((2, 4, 3), **f32), [x5]),
        Case("max1d", L.AdaptiveMaxPooling1D(3, **F64), [X3]),
        Case("max2d", L.AdaptiveMaxPooling2D((3, 2), **F64), [X4]),
        Case("max2d-square", L.AdaptiveMaxPooling2D(4, **F64), [X4]),
        Case("max3d", L.AdaptiveMaxPooling3D((3, 4, 3), **f32), [x5]),
        Case("max3d-first", L.AdaptiveMaxPooling3D(2, data_format="channels_first", **f32),
             [x5]),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:  # TensorFlow's CPU 3-D pools take float32 only
        tol = 1e-5 if "3d" in case.name else 1e-9
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
