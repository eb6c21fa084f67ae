"""Keras 3's geometric augmentation layers (RandomCrop, RandomShear, RandomPerspective,
RandomGaussianBlur, RandomErasing, RandomElasticTransform): fixed transformations against
TensorFlow 2.21's Keras and NumPy, draws, errors, masks, configs and training."""
import numpy as np
import pytest

import wengert as tf
from augmentation_reference import FixedCase, tf_outputs

L = tf.keras.layers
RNG = np.random.default_rng(6)
IMAGES = RNG.uniform(0, 255, (2, 6, 7, 3)).astype(np.float32)
FIRST = np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2))
SMALL = IMAGES[:, :2, :3]
BOX = np.zeros((2, 6, 7, 3), bool)
BOX[0, 1:4, 2:6] = True
BOX[1, 3:, :2] = True
FILL = RNG.uniform(0, 255, (2, 6, 7, 3)).astype(np.float32)
CORNERS = np.array([[[0, 0], [6, 0], [0, 5], [6, 5]]] * 2, np.float32)
MOVED = CORNERS * (1 + np.array([[[0.1, 0.2], [-0.1, 0.05], [0.2, -0.15], [-0.05, -0.1]],
                                 [[0.0, 0.1], [0.1, 0.0], [-0.2, 0.1], [0.05, 0.05]]],
                                np.float32))

CASES = [
    FixedCase("crop", ("RandomCrop", {"height": 3, "width": 4}), IMAGES, np.array([2, 1])),
    FixedCase("crop_first", ("RandomCrop", {"height": 3, "width": 4,
                                            "data_format": "channels_first"}),
              FIRST, np.array([3, 3])),
    FixedCase("crop_small", ("RandomCrop", {"height": 3, "width": 4}), SMALL, np.array([0, 0])),
    FixedCase("shear", ("RandomShear", {"x_factor": 0.5, "y_factor": 0.5}), IMAGES,
              {"shear_factor": np.array([[0.3, -0.2], [-0.1, 0.4]], np.float32)}),
    FixedCase("shear_constant", ("RandomShear", {"x_factor": 0.5, "fill_mode": "constant",
                                                 "fill_value": 9.0}), IMAGES,
              {"shear_factor": np.array([[0.5, 0.0], [-0.4, 0.0]], np.float32)}),
    FixedCase("shear_nearest_wrap", ("RandomShear", {"y_factor": 0.5, "fill_mode": "wrap",
                                                     "interpolation": "nearest"}), IMAGES,
              {"shear_factor": np.array([[0.0, 0.35], [0.0, -0.45]], np.float32)}),
    FixedCase("perspective", ("RandomPerspective", {}), IMAGES,
              {"apply_perspective": np.array([True, True]), "start_points": CORNERS,
               "end_points": MOVED}),
    FixedCase("perspective_some", ("RandomPerspective", {"fill_value": 3.0}), IMAGES,
              {"apply_perspective": np.array([False, True]), "start_points": CORNERS,
               "end_points": MOVED}),
    FixedCase("blur", ("RandomGaussianBlur", {}), IMAGES,
              {"should_apply_blur": np.array([True, False]),
               "blur_factor": np.array([0.7, 1.3], np.float32)}),
    FixedCase("blur_wide", ("RandomGaussianBlur", {"kernel_size": 5}), IMAGES,
              {"should_apply_blur": np.array([True, True]),
               "blur_factor": np.array([1.5, 0.4], np.float32)}),
    FixedCase("blur_first", ("RandomGaussianBlur", {"data_format": "channels_first"}), FIRST,
              {"should_apply_blur": np.array([True, True]),
               "blur_factor": np.array([0.9, 0.9], np.float32)}),
    FixedCase("erasing", ("RandomErasing", {}), IMAGES,
              {"apply_erasing": np.array([True, False]), "batch_masks": BOX,
               "fill_value": FILL}),
]


@pytest.fixture(scope="module")
def reference():
    return tf_outputs(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixed_transformations_match_keras(case, reference):
    np.testing.assert_allclose(case.run_wengert(), reference[case.name], rtol=1e-4, atol=2e-3)


def test_crop_window_and_inference_centre():
    crop = L.RandomCrop(3, 4)
    np.testing.assert_array_equal(crop.transform_images(IMAGES, (2, 1)), IMAGES[:, 2:5, 1:5])
    centre = L.RandomCrop(2, 7)(IMAGES, training=False).numpy()
    np.testing.assert_allclose(centre, IMAGES[:, 2:4, :], rtol=1e-5)
    assert crop.compute_output_shape((None, 6, 7, 3)) == (None, 3, 4, 3)
    starts = np.array([[int(v) for v in L.RandomCrop(3, 4, seed=s).get_random_transformation(
        IMAGES)] for s in range(60)])
    assert starts[:, 0].min() == 0 and starts[:, 0].max() == 3
    assert starts[:, 1].min() == 0 and starts[:, 1].max() == 3


def test_shear_and_perspective_at_identity_and_numpy():
    shear = L.RandomShear(0.5, 0.5)
    zero = {"shear_factor": np.zeros((2, 2), np.float32)}
    np.testing.assert_allclose(shear.transform_images(IMAGES, zero), IMAGES, atol=1e-4)
    grid = np.arange(35, dtype=np.float32).reshape(1, 5, 7, 1)
    out = L.RandomShear(1.0, fill_mode="nearest").transform_images(
        grid, {"shear_factor": np.array([[1.0, 0.0]], np.float32)}).numpy()[0, :, :, 0]
    expected = grid[0, np.arange(5)[:, None], np.minimum(np.arange(7)[None] + np.arange(5)[:, None],
                                                         6), 0]
    np.testing.assert_allclose(out, expected, atol=1e-4)
    same = {"apply_perspective": np.array([True, True]), "start_points": CORNERS,
            "end_points": CORNERS}
    np.testing.assert_allclose(L.RandomPerspective().transform_images(IMAGES, same), IMAGES,
                               atol=1e-3)


def test_erasing_blur_and_elastic_draws():
    batch = np.zeros((300, 10, 10, 1), np.float32)
    erase = L.RandomErasing(scale=(0.25, 0.25), fill_value=5.0, seed=1)
    t = erase.get_random_transformation(batch)
    areas = np.asarray(t["batch_masks"]).sum(axis=(1, 2, 3))
    assert areas.min() >= 16 and areas.max() <= 36
    assert abs(np.asarray(t["apply_erasing"]).mean() - 0.5) < 0.1
    np.testing.assert_array_equal(np.asarray(t["fill_value"]), 5.0)
    noise = L.RandomErasing(seed=1).get_random_transformation(batch)["fill_value"]
    assert 0 <= np.asarray(noise).min() and np.asarray(noise).max() <= 255
    blur = L.RandomGaussianBlur(factor=(1.0, 1.0), sigma=(0.3, 0.6), seed=2)
    t = blur.get_random_transformation(batch)
    assert np.asarray(t["should_apply_blur"]).all()
    assert 0.3 <= np.asarray(t["blur_factor"]).min() <= np.asarray(t["blur_factor"]).max() < 0.6
    elastic = L.RandomElasticTransform(seed=3)
    assert L.RandomElasticTransform(scale=0.0).get_random_transformation(IMAGES) is None
    out = elastic(IMAGES).numpy()
    assert out.shape == IMAGES.shape and 0 <= out.min() and out.max() <= 255
    np.testing.assert_array_equal(elastic(IMAGES, training=False).numpy(), IMAGES)
    t = elastic.get_random_transformation(IMAGES, seed=7)
    assert t["seed"] == elastic.get_random_transformation(IMAGES, seed=7)["seed"]


def test_errors():
    with pytest.raises(ValueError, match="x_factor"):
        L.RandomShear(x_factor=1.5)
    with pytest.raises(NotImplementedError, match="fill_mode"):
        L.RandomShear(0.1, fill_mode="mirror")
    with pytest.raises(ValueError, match="scale"):
        L.RandomPerspective(scale=2.0)
    with pytest.raises(ValueError, match="odd"):
        L.RandomGaussianBlur(kernel_size=4)
    with pytest.raises(ValueError, match="fill_value"):
        L.RandomErasing(fill_value=(1, 2))
    with pytest.raises(ValueError, match="factor"):
        L.RandomPerspective(factor=-0.5)
    with pytest.raises(NotImplementedError, match="interpolation"):
        L.RandomElasticTransform(interpolation="bicubic")


def test_segmentation_masks_follow_the_geometry():
    masks = (IMAGES[..., :1] > 128).astype(np.float32)
    shear = L.RandomShear(0.5, seed=4)
    data = shear({"images": IMAGES, "segmentation_masks": masks})
    assert set(np.unique(np.asarray(data["segmentation_masks"]))) <= {0.0, 1.0}
    crop = L.RandomCrop(3, 4, seed=4)({"images": IMAGES, "segmentation_masks": masks})
    assert crop["segmentation_masks"].shape == (2, 3, 4, 1)


ALL = [lambda: L.RandomCrop(4, 5, seed=1), lambda: L.RandomShear(0.2, 0.2, seed=1),
       lambda: L.RandomPerspective(0.5, 0.3, seed=1), lambda: L.RandomGaussianBlur(seed=1),
       lambda: L.RandomErasing(0.5, value_range=(0, 1), seed=1),
       lambda: L.RandomElasticTransform(0.5, 0.5, value_range=(0, 1), seed=1)]


@pytest.mark.parametrize("make", ALL, ids=lambda m: type(m()).__name__)
def test_configs_round_trip_and_models_train_and_save(make, tmp_path):
    layer = make()
    assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()
    model = tf.keras.Sequential([L.Input((6, 7, 3)), make(), L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(IMAGES / 255.0, np.array([0, 1]), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    model.save(tmp_path / "geometry.keras")
    loaded = tf.keras.models.load_model(tmp_path / "geometry.keras")
    np.testing.assert_allclose(loaded.predict(IMAGES / 255.0, verbose=0),
                               model.predict(IMAGES / 255.0, verbose=0), rtol=1e-5)


def test_traced_steps_draw_afresh_and_gradients_flow():
    layer = L.RandomShear(0.4, 0.4, seed=5)
    step = tf.function(lambda x: layer(x, training=True))
    x = tf.constant(IMAGES)
    assert not np.allclose(step(x).numpy(), step(x).numpy())
    crop = L.RandomCrop(3, 4, seed=5)
    crop_step = tf.function(lambda x: crop(x, training=True))
    assert crop_step(x).shape == (2, 3, 4, 3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(L.RandomPerspective(scale=0.3, seed=1)(x, training=True))
    assert np.isfinite(tape.gradient(total, x).numpy()).all()


def test_point_helpers():
    shear = L.RandomShear(0.5)
    x, y = shear.get_transformed_x_y(np.float32(2.0), np.float32(3.0),
                                     np.array([1, 0.5, 1, 0.2, 1, -1, 0, 0], np.float32))
    assert np.allclose([float(x), float(y)], [4.5, 2.4])
    boxes = shear.get_shifted_bbox({"boxes": np.array([[1.0, 2.0, 5.0, 6.0]], np.float32)},
                                   np.array([1.0], np.float32), np.array([2.0], np.float32))
    np.testing.assert_allclose(boxes["boxes"], [[0, 0, 4, 4]])
    assert L.RandomElasticTransform().get_elastic_transform_params(10, 20, 0.5) == (1.0, 0.25)
