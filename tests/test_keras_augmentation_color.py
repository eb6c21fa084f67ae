"""Keras 3's colour augmentation layers: fixed transformations against TensorFlow 2.21's Keras
and NumPy, the random draws' ranges and seeds, factor forms and errors, configs, and training."""
import numpy as np
import pytest

import wengert as tf
from augmentation_reference import FixedCase, tf_outputs

L = tf.keras.layers
RNG = np.random.default_rng(27)
IMAGES = RNG.uniform(0, 255, (2, 5, 6, 3)).astype(np.float32)
UNIT = (IMAGES / 255.0).astype(np.float32)
FIRST = np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2))


def col(*values):
    return np.array(values, np.float32).reshape(-1, 1, 1, 1)


def vec(*values):
    return np.array(values, np.float32)


CASES = [
    FixedCase("brightness", ("RandomBrightness", {"factor": 0.5}), IMAGES,
              {"rgb_delta": col(60.0, -200.0)}),
    FixedCase("brightness_unit", ("RandomBrightness", {"factor": 0.5, "value_range": (0, 1)}),
              UNIT, {"rgb_delta": col(0.3, -0.1)}),
    FixedCase("contrast", ("RandomContrast", {"factor": 0.5}), IMAGES,
              {"contrast_factor": col(1.4, 0.3)}),
    FixedCase("contrast_first", ("RandomContrast", {"factor": 0.5,
                                                    "data_format": "channels_first"}),
              FIRST, {"contrast_factor": col(1.4, 0.3)}),
    FixedCase("grayscale", ("RandomGrayscale", {"factor": 0.5}), IMAGES,
              np.array([True, False]).reshape(2, 1, 1, 1)),
    FixedCase("grayscale_first", ("RandomGrayscale", {"data_format": "channels_first"}), FIRST,
              np.array([False, True]).reshape(2, 1, 1, 1)),
    FixedCase("invert", ("RandomInvert", {}), IMAGES, {"apply_inversion": np.array([True, False])}),
    FixedCase("hue", ("RandomHue", {"factor": 0.5}), IMAGES, {"factor": vec(0.2, -0.35)}),
    FixedCase("hue_unit", ("RandomHue", {"factor": 0.5, "value_range": (0, 1)}), UNIT,
              {"factor": vec(-0.1, 0.45)}),
    FixedCase("saturation", ("RandomSaturation", {"factor": 0.5, "value_range": (0, 1)}), UNIT,
              {"factor": vec(0.5, 2.5)}),
    FixedCase("saturation_first", ("RandomSaturation", {"factor": 0.5, "value_range": (0, 1),
                                                        "data_format": "channels_first"}),
              np.ascontiguousarray(UNIT.transpose(0, 3, 1, 2)), {"factor": vec(0.2, 1.7)}),
    FixedCase("degeneration", ("RandomColorDegeneration", {"factor": 0.5}), IMAGES,
              {"factor": col(0.7, -0.4)}),
    FixedCase("posterization", ("RandomPosterization", {"factor": (2, 6)}), IMAGES,
              {"shift_factor": np.array([6, 3], np.uint8)}),
    FixedCase("posterization_unit", ("RandomPosterization", {"factor": 4, "value_range": (0, 1)}),
              UNIT, {"shift_factor": np.array([4, 5], np.uint8)}),
    FixedCase("sharpness", ("RandomSharpness", {"factor": 0.5}), IMAGES,
              {"factor": vec(0.1, 0.9)}),
    FixedCase("sharpness_first", ("RandomSharpness", {"factor": 0.5,
                                                      "data_format": "channels_first"}),
              FIRST, {"factor": vec(0.8, 0.0)}),
    FixedCase("solarization", ("Solarization", {"addition_factor": 0.5, "threshold_factor": 0.5}),
              IMAGES, {"additions": col(30.0, 0.0), "thresholds": col(100.0, 200.0)}),
    FixedCase("solarization_unit", ("Solarization", {"value_range": (0, 1)}), UNIT,
              {"additions": col(10.0, 60.0), "thresholds": col(128.0, 50.0)}),
]


@pytest.fixture(scope="module")
def reference():
    return tf_outputs(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixed_transformations_match_keras(case, reference):
    np.testing.assert_allclose(case.run_wengert(), reference[case.name], rtol=1e-4, atol=2e-3)


def test_fixed_transformations_match_numpy():
    contrast = L.RandomContrast(0.5).transform_images(IMAGES, {"contrast_factor": col(1.4, 0.3)})
    mean = IMAGES.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(contrast, np.clip((IMAGES - mean) * col(1.4, 0.3) + mean, 0, 255),
                               rtol=1e-5, atol=1e-3)
    inverted = L.RandomInvert().transform_images(IMAGES, {"apply_inversion": np.array([1, 0]) > 0})
    np.testing.assert_allclose(inverted, np.stack([255 - IMAGES[0], IMAGES[1]]))
    poster = L.RandomPosterization(4).transform_images(IMAGES, {"shift_factor": vec(4, 6)})
    expected = np.floor(np.floor(IMAGES) / col(16, 64)) * col(16, 64)
    np.testing.assert_allclose(poster, expected)
    luma = IMAGES @ np.array([0.2989, 0.587, 0.114], np.float32)
    degenerate = L.RandomColorDegeneration(1.0).transform_images(IMAGES, {"factor": col(1, 1)})
    np.testing.assert_allclose(degenerate, np.repeat(luma[..., None], 3, -1), rtol=1e-5)


def test_training_false_and_single_images():
    for layer in [L.RandomBrightness(0.5, seed=1), L.RandomHue(0.3, seed=1),
                  L.RandomSharpness(0.4, seed=1), L.Solarization(0.5, 0.5, seed=1)]:
        np.testing.assert_array_equal(layer(IMAGES, training=False).numpy(), IMAGES)
        assert layer(IMAGES[0], training=True).shape == (5, 6, 3)
        assert not np.allclose(layer(IMAGES, training=True).numpy(), IMAGES)


@pytest.mark.parametrize("make,key,low,high", [
    (lambda s: L.RandomBrightness((-0.2, 0.4), seed=s), "rgb_delta", -0.2 * 255, 0.4 * 255),
    (lambda s: L.RandomContrast(0.3, seed=s), "contrast_factor", 1.0, 1.3),
    (lambda s: L.RandomHue(0.4, seed=s), "factor", -0.2, 0.2),
    (lambda s: L.RandomColorDegeneration((0.1, 0.6), seed=s), "factor", 0.1, 0.6),
    (lambda s: L.RandomSharpness(0.7, seed=s), "factor", 0.0, 0.7),
    (lambda s: L.RandomPosterization((3, 7), seed=s), "shift_factor", 2, 5),
    (lambda s: L.Solarization(0.2, 0.6, seed=s), "thresholds", 0.0, 0.6 * 255),
], ids=["brightness", "contrast", "hue", "degeneration", "sharpness", "posterization",
        "solarization"])
def test_random_draws_ranges_and_seeds(make, key, low, high):
    batch = np.zeros((400, 2, 2, 3), np.float32)
    draws = np.asarray(make(3).get_random_transformation(batch)[key]).ravel()
    assert draws.shape == (400,) and draws.min() >= low - 1e-6 and draws.max() <= high + 1e-6
    assert draws.max() - draws.min() > 0.8 * (high - low)
    again = np.asarray(make(3).get_random_transformation(batch)[key]).ravel()
    np.testing.assert_array_equal(draws, again)
    layer = make(None)
    first = np.asarray(layer.get_random_transformation(batch, seed=11)[key])
    np.testing.assert_array_equal(first, layer.get_random_transformation(batch, seed=11)[key])
    assert not np.array_equal(first, layer.get_random_transformation(batch)[key])


def test_grayscale_and_invert_probabilities():
    batch = np.zeros((2000, 1, 1, 3), np.float32)
    gray = np.asarray(L.RandomGrayscale(0.3, seed=0).get_random_transformation(batch))
    assert gray.shape == (2000, 1, 1, 1) and abs(gray.mean() - 0.3) < 0.05
    never = L.RandomInvert((0.0, 0.0), seed=0).get_random_transformation(batch)
    assert not np.asarray(never["apply_inversion"]).any()
    half = L.RandomInvert(1.0, seed=0).get_random_transformation(batch)["apply_inversion"]
    assert abs(np.asarray(half).mean() - 0.5) < 0.05


def test_factor_forms_and_errors():
    assert L.RandomBrightness(0.3).factor == (-0.3, 0.3)
    assert L.RandomBrightness([0.4, -0.2]).factor == (-0.2, 0.4)
    assert L.RandomContrast(0.3).factor == (0, 0.3)
    assert L.RandomPosterization(5).factor == (1, 5)
    assert L.Solarization(0.4, (0.1, 0.2)).threshold_factor == (0.1, 0.2)
    for make in [lambda: L.RandomBrightness(1.5), lambda: L.RandomBrightness((0.1, 0.2, 0.3)),
                 lambda: L.RandomContrast(-0.5), lambda: L.RandomHue("big"),
                 lambda: L.RandomPosterization(9)]:
        with pytest.raises(ValueError, match="factor"):
            make()
    with pytest.raises(ValueError, match="value_range"):
        L.RandomSaturation(0.5, value_range=5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        L.RandomGrayscale(1.5)
    with pytest.raises(ValueError, match="addition_factor"):
        L.Solarization(addition_factor=2.0)
    with pytest.raises(ValueError, match="rank 3"):
        L.RandomBrightness(0.2)(np.zeros((2, 3), np.float32))


def test_dict_inputs_share_one_transformation():
    layer = L.RandomColorDegeneration(0.5, seed=2)
    masks = np.ones((2, 5, 6, 1), np.float32)
    out = layer({"images": IMAGES, "labels": np.array([1.0, 0.0]), "segmentation_masks": masks})
    assert out["images"].shape == IMAGES.shape
    np.testing.assert_array_equal(np.asarray(out["segmentation_masks"]), masks)
    single = layer({"images": IMAGES[0], "labels": np.array(1.0)})
    assert single["images"].shape == (5, 6, 3)


def test_color_jitter_is_its_steps_in_order():
    jitter = L.RandomColorJitter(brightness_factor=0.2, contrast_factor=0.3,
                                 saturation_factor=0.4, hue_factor=0.2, seed=4)
    t = jitter.get_random_transformation(IMAGES)
    assert set(t) == {"brightness", "contrast", "saturation", "hue"}
    out = IMAGES
    for name, layer in [("brightness", L.RandomBrightness(0.2)), ("contrast", L.RandomContrast(0.3)),
                        ("saturation", L.RandomSaturation(0.4)), ("hue", L.RandomHue(0.2))]:
        out = layer.transform_images(out, t[name])
    np.testing.assert_allclose(jitter.transform_images(IMAGES, t), out, rtol=1e-5)
    assert np.isfinite(jitter(IMAGES).numpy()).all()


ALL = [lambda: L.RandomBrightness(0.2, seed=1), lambda: L.RandomContrast(0.3, seed=1),
       lambda: L.RandomGrayscale(0.5, seed=1), lambda: L.RandomInvert(0.5, seed=1),
       lambda: L.RandomHue(0.2, value_range=(0, 1), seed=1),
       lambda: L.RandomSaturation(0.3, value_range=(0, 1), seed=1),
       lambda: L.RandomColorDegeneration(0.3, value_range=(0, 1), seed=1),
       lambda: L.RandomPosterization((2, 5), value_range=(0, 1), seed=1),
       lambda: L.RandomSharpness(0.3, value_range=(0, 1), seed=1),
       lambda: L.Solarization(0.2, 0.5, value_range=(0, 1), seed=1),
       lambda: L.RandomColorJitter((0, 1), 0.1, 0.2, 0.3, 0.1, seed=1)]


@pytest.mark.parametrize("make", ALL, ids=lambda m: type(m()).__name__)
def test_configs_round_trip_and_models_train_and_save(make, tmp_path):
    layer = make()
    clone = type(layer).from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    model = tf.keras.Sequential([L.Input((5, 6, 3)), make(), L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(UNIT, np.array([0, 1]), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    path = tmp_path / "color.keras"
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(UNIT, verbose=0), model.predict(UNIT, verbose=0),
                               rtol=1e-5)


def test_traced_steps_draw_afresh_and_gradients_flow():
    layer = L.RandomBrightness(0.4, value_range=(0, 1), seed=5)
    step = tf.function(lambda x: layer(x, training=True))
    x = tf.constant(UNIT * 0.5)
    assert not np.allclose(step(x).numpy(), step(x).numpy())
    contrast = L.RandomContrast(0.5, value_range=(-10, 10))
    factor = {"contrast_factor": col(1.3, 0.6)}
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(contrast.transform_images(x, factor) * UNIT)
    grad = tape.gradient(total, x).numpy()
    expected = (UNIT - UNIT.mean(axis=(1, 2), keepdims=True)) * col(1.3, 0.6) \
        + UNIT.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(grad, expected, rtol=1e-4, atol=1e-5)
