"""Keras 3's histogram layers (AutoContrast, Equalization, ContrastLimitedAdaptiveHistogram-
Equalization) against TensorFlow 2.21's Keras and NumPy, with configs and training."""
import numpy as np
import pytest

import wengert as tf
from augmentation_reference import FixedCase, tf_outputs

L = tf.keras.layers
RNG = np.random.default_rng(61)
IMAGES = RNG.uniform(0, 255, (2, 10, 13, 3)).astype(np.float32)
DULL = (60 + 40 * RNG.random((2, 8, 8, 3))).astype(np.float32)
DULL[1, ..., 2] = 77.0
UNIT = DULL / 255.0
INTS = np.floor(IMAGES)

CASES = [
    FixedCase("autocontrast", ("AutoContrast", {}), DULL, None),
    FixedCase("autocontrast_unit", ("AutoContrast", {"value_range": (0, 1)}), UNIT, None),
    FixedCase("equalization", ("Equalization", {}), INTS, None),
    FixedCase("equalization_bins", ("Equalization", {"bins": 16}), DULL, None),
    FixedCase("equalization_unit", ("Equalization", {"value_range": (0, 1)}), UNIT, None),
    FixedCase("clahe", ("ContrastLimitedAdaptiveHistogramEqualization",
                        {"tile_grid_size": (2, 2)}), DULL, None),
    FixedCase("clahe_padded", ("ContrastLimitedAdaptiveHistogramEqualization",
                               {"tile_grid_size": (3, 4), "clip_limit": 2.0}), IMAGES, None),
    FixedCase("clahe_unclipped", ("ContrastLimitedAdaptiveHistogramEqualization",
                                  {"tile_grid_size": (4, 3), "clip_limit": 0.0,
                                   "value_range": (0, 1)}), UNIT, None),
    FixedCase("clahe_first", ("ContrastLimitedAdaptiveHistogramEqualization",
                              {"tile_grid_size": (2, 3), "data_format": "channels_first"}),
              np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2)), None),
]


@pytest.fixture(scope="module")
def reference():
    return tf_outputs(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_keras(case, reference):
    np.testing.assert_allclose(case.run_wengert(), reference[case.name], rtol=1e-4, atol=2e-3)


def test_autocontrast_against_numpy():
    out = L.AutoContrast()(DULL, training=False).numpy()
    low = DULL.min(axis=(1, 2), keepdims=True)
    high = DULL.max(axis=(1, 2), keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.clip((DULL - low) * (255.0 / (high - low)), 0, 255)
    expected = np.where(np.isnan(expected), DULL, expected)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-3)
    assert np.all(out[1, ..., 2] == 77.0)


def test_equalization_against_numpy_and_inference():
    channel = INTS[..., 0]
    hist = np.bincount(channel.astype(int).ravel(), minlength=256)
    cdf = np.cumsum(hist)
    first = cdf[np.nonzero(cdf)[0][0]]
    table = np.clip(np.round((cdf - first) * 255 / (cdf[-1] - first)), 0, 255)
    out = L.Equalization()(INTS, training=True).numpy()
    np.testing.assert_allclose(out[..., 0], table[channel.astype(int)])
    np.testing.assert_array_equal(L.Equalization()(INTS, training=False).numpy(), INTS)
    flat = np.full((1, 4, 4, 3), 9.0, np.float32)
    np.testing.assert_array_equal(L.Equalization()(flat).numpy(), flat)


def test_clahe_errors_and_single_images():
    with pytest.raises(ValueError, match="tile_grid_size"):
        L.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(0, 2))
    layer = L.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2))
    np.testing.assert_allclose(layer(DULL[0]).numpy(), layer(DULL).numpy()[0], rtol=1e-5)


ALL = [lambda: L.AutoContrast(value_range=(0, 1)), lambda: L.Equalization(value_range=(0, 1)),
       lambda: L.ContrastLimitedAdaptiveHistogramEqualization((0, 1), tile_grid_size=(2, 2))]


@pytest.mark.parametrize("make", ALL, ids=lambda m: type(m()).__name__)
def test_configs_round_trip_and_models_train_and_save(make, tmp_path):
    layer = make()
    assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()
    model = tf.keras.Sequential([L.Input((8, 8, 3)), make(), L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(UNIT, np.array([0, 1]), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    model.save(tmp_path / "histogram.keras")
    loaded = tf.keras.models.load_model(tmp_path / "histogram.keras")
    np.testing.assert_allclose(loaded.predict(UNIT, verbose=0), model.predict(UNIT, verbose=0),
                               rtol=1e-5)
