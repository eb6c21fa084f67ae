"""Keras 3's MixUp, CutMix, Pipeline and MaxNumBoundingBoxes, and the Keras split of
RandomFlip / RandomRotation / RandomZoom / RandomTranslation: fixed transformations against TensorFlow 2.21's
Keras, labels, draws, configs and training."""
import numpy as np
import pytest

import wengert as tf
from augmentation_reference import FixedCase, tf_outputs

L = tf.keras.layers
RNG = np.random.default_rng(8)
IMAGES = RNG.uniform(0, 255, (3, 6, 7, 3)).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)
ORDER = np.array([2, 0, 1])
BOX = np.zeros((3, 6, 7, 3), bool)
BOX[0, 1:3, 2:6] = True
BOX[2, :4, 3:] = True

CASES = [
    FixedCase("mixup", ("MixUp", {}), IMAGES,
              {"mix_weight": np.array([0.2, 0.9, 0.5], np.float32),
               "permutation_order": ORDER}),
    FixedCase("mixup_labels", ("MixUp", {}), LABELS,
              {"mix_weight": np.array([0.2, 0.9, 0.5], np.float32),
               "permutation_order": ORDER}, method="transform_labels"),
    FixedCase("cutmix", ("CutMix", {}), IMAGES,
              {"permutation_order": ORDER, "batch_masks": BOX,
               "mix_weight": np.array([0.8, 1.0, 0.6], np.float32).reshape(3, 1, 1, 1)}),
    FixedCase("cutmix_labels", ("CutMix", {}), LABELS,
              {"permutation_order": ORDER, "batch_masks": BOX,
               "mix_weight": np.array([0.8, 1.0, 0.6], np.float32).reshape(3, 1, 1, 1)},
              method="transform_labels"),
    FixedCase("translation", ("RandomTranslation", {"height_factor": 0.3,
                                                    "width_factor": 0.3}), IMAGES,
              {"translations": np.array([[1.5, -1.0], [0.0, 2.0], [-2.2, 0.7]], np.float32)}),
    FixedCase("translation_constant", ("RandomTranslation", {
        "height_factor": 0.3, "width_factor": 0.3, "fill_mode": "constant", "fill_value": 4.0}),
        IMAGES, {"translations": np.array([[2.0, -1.0], [0.0, 3.0], [-2.0, 1.0]], np.float32)}),
    FixedCase("zoom", ("RandomZoom", {"height_factor": 0.3}), IMAGES,
              {"height_zoom": np.array([[0.8], [1.2], [1.0]], np.float32),
               "width_zoom": np.array([[0.7], [1.3], [0.9]], np.float32)}),
    FixedCase("zoom_nearest", ("RandomZoom", {"height_factor": 0.3, "fill_mode": "nearest",
                                              "interpolation": "nearest"}), IMAGES,
              {"height_zoom": np.array([[1.25], [0.75], [1.0]], np.float32),
               "width_zoom": np.array([[1.25], [0.5], [2.0]], np.float32)}),
    FixedCase("flip", ("RandomFlip", {}), IMAGES,
              {"flips": np.array([True, False, True]).reshape(3, 1, 1, 1)}),
    FixedCase("flip_vertical_first", ("RandomFlip", {"mode": "vertical",
                                                     "data_format": "channels_first"}),
              np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2)),
              {"flips": np.array([False, True, True]).reshape(3, 1, 1, 1)}),
]


@pytest.fixture(scope="module")
def reference():
    return tf_outputs(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixed_transformations_match_keras(case, reference):
    np.testing.assert_allclose(case.run_wengert(), reference[case.name], rtol=1e-4, atol=2e-3)


def test_mixup_against_numpy_and_its_draws():
    t = {"mix_weight": np.array([0.2, 0.9, 0.5], np.float32), "permutation_order": ORDER}
    w = t["mix_weight"].reshape(-1, 1, 1, 1)
    np.testing.assert_allclose(L.MixUp().transform_images(IMAGES, t),
                               w * IMAGES + (1 - w) * IMAGES[ORDER], rtol=1e-5)
    draws = L.MixUp(alpha=0.5, seed=3).get_random_transformation(np.zeros((2000, 1, 1, 1)))
    weights = np.asarray(draws["mix_weight"])
    assert abs(weights.mean() - 0.5) < 0.03 and abs(weights.var() - 0.125) < 0.02
    assert sorted(np.asarray(draws["permutation_order"])) == list(range(2000))
    out = L.MixUp(seed=1)({"images": IMAGES, "labels": LABELS})
    np.testing.assert_allclose(np.asarray(out["labels"]).sum(axis=1), 1.0, rtol=1e-5)
    with pytest.raises(ValueError, match="alpha"):
        L.MixUp(alpha=0.0)


def test_cutmix_boxes_and_label_shares():
    layer = L.CutMix(seed=2)
    t = layer.get_random_transformation(np.zeros((500, 10, 10, 1), np.float32))
    masks = np.asarray(t["batch_masks"])[..., 0]
    kept = 1 - masks.mean(axis=(1, 2))
    np.testing.assert_allclose(np.asarray(t["mix_weight"]).ravel(), kept, atol=0.25)
    assert layer.get_random_transformation(IMAGES[0]) is None
    np.testing.assert_array_equal(layer(IMAGES[0]).numpy(), IMAGES[0])
    out = layer({"images": IMAGES, "labels": LABELS})
    np.testing.assert_allclose(np.asarray(out["labels"]).sum(axis=1), 1.0, rtol=1e-5)


def test_spatial_layers_split_the_keras_way():
    rotation = L.RandomRotation(0.25, seed=1)
    t = rotation.get_random_transformation(IMAGES)
    angles = np.asarray(t["angle"])
    assert angles.shape == (3,) and np.all(np.abs(angles) <= 90)
    np.testing.assert_allclose(rotation.transform_images(IMAGES, t),
                               rotation.transform_images(IMAGES, t))
    quarter = {"angle": np.full([1], 90.0, np.float32)}
    grid = np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1)
    np.testing.assert_allclose(rotation.transform_images(grid, quarter)[0, :, :, 0],
                               np.rot90(grid[0, :, :, 0], 1), atol=1e-4)
    zoom = L.RandomZoom((-0.3, 0.2), seed=2).get_random_transformation(np.zeros((500, 4, 4, 1)))
    heights = np.asarray(zoom["height_zoom"])
    assert 0.7 <= heights.min() and heights.max() <= 1.2
    np.testing.assert_array_equal(heights, np.asarray(zoom["width_zoom"]))
    shift = L.RandomTranslation(0.5, (0.0, 0.25), seed=3).get_random_transformation(
        np.zeros((500, 4, 8, 1)))["translations"]
    shift = np.asarray(shift)
    assert 0 <= shift[:, 0].min() and shift[:, 0].max() <= 2 and np.abs(shift[:, 1]).max() <= 2
    first = L.RandomTranslation(0.2, 0.2, data_format="channels_first")
    t = {"translations": np.array([[1.0, 2.0]] * 3, np.float32)}
    last = L.RandomTranslation(0.2, 0.2).transform_images(IMAGES, t).numpy()
    np.testing.assert_allclose(first.transform_images(IMAGES.transpose(0, 3, 1, 2), t).numpy(),
                               last.transpose(0, 3, 1, 2), rtol=1e-5)


def test_pipeline_runs_its_layers_and_serializes(tmp_path):
    pipe = L.Pipeline([L.RandomBrightness(0.2, seed=1), L.RandomContrast(0.3, seed=2)])
    np.testing.assert_array_equal(pipe(IMAGES, training=False).numpy(), IMAGES)
    assert not np.allclose(pipe(IMAGES).numpy(), IMAGES)
    clone = L.Pipeline.from_config(pipe.get_config())
    assert [type(x).__name__ for x in clone.layers] == ["RandomBrightness", "RandomContrast"]
    with pytest.raises(ValueError, match="layers"):
        L.Pipeline.from_config({"name": "p"})
    model = tf.keras.Sequential([L.Input((6, 7, 3)), L.Pipeline([L.RandomFlip(seed=1),
                                                                 L.Rescaling(1 / 255.0)]),
                                 L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    assert np.isfinite(model.fit(IMAGES, LABELS[:, :2], verbose=0).history["loss"]).all()
    model.save(tmp_path / "pipeline.keras")
    loaded = tf.keras.models.load_model(tmp_path / "pipeline.keras")
    np.testing.assert_allclose(loaded.predict(IMAGES, verbose=0), model.predict(IMAGES,
                                                                                verbose=0),
                               rtol=1e-5)


def test_max_num_bounding_boxes():
    layer = L.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
    boxes = {"boxes": RNG.random((2, 5, 4)).astype(np.float32),
             "labels": np.arange(10, dtype=np.float32).reshape(2, 5)}
    out = layer({"images": IMAGES[:2], "bounding_boxes": boxes})
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"], boxes["boxes"][:, :3])
    padded = L.MaxNumBoundingBoxes(7, fill_value=-2).transform_bounding_boxes(boxes)
    assert padded["boxes"].shape == (2, 7, 4)
    np.testing.assert_array_equal(np.asarray(padded["labels"])[:, 5:], -2)
    single = layer({"images": IMAGES[0], "bounding_boxes": {
        "boxes": boxes["boxes"][0, :2], "labels": boxes["labels"][0, :2]}})
    assert single["bounding_boxes"]["boxes"].shape == (3, 4)
    with pytest.raises(ValueError, match="bounding_box_format"):
        L.MaxNumBoundingBoxes(3)({"images": IMAGES, "bounding_boxes": boxes})
    assert L.RandomBrightness(0.1, bounding_box_format="xyxy")(
        {"images": IMAGES[:2], "bounding_boxes": boxes})["bounding_boxes"] is not None
    assert L.MaxNumBoundingBoxes.from_config(layer.get_config()).max_number == 3


@pytest.mark.parametrize("make", [lambda: L.MixUp(seed=1), lambda: L.CutMix(seed=1)],
                         ids=["MixUp", "CutMix"])
def test_mixing_layers_in_models(make, tmp_path):
    layer = make()
    assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()
    model = tf.keras.Sequential([L.Input((6, 7, 3)), make(), L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    assert np.isfinite(model.fit(IMAGES / 255, LABELS[:, :2], verbose=0).history["loss"]).all()
    model.save(tmp_path / "mix.keras")
    loaded = tf.keras.models.load_model(tmp_path / "mix.keras")
    np.testing.assert_allclose(loaded.predict(IMAGES / 255, verbose=0),
                               model.predict(IMAGES / 255, verbose=0), rtol=1e-5)


def test_flip_draws_one_choice_per_image():
    t = L.RandomFlip(seed=4).get_random_transformation(np.zeros((1000, 2, 2, 1)))
    flips = np.asarray(t["flips"])
    assert flips.shape == (1000, 1, 1, 1) and abs(flips.mean() - 0.5) < 0.05
    both = L.RandomFlip().transform_images(IMAGES, {"flips": np.ones((3, 1, 1, 1), bool)})
    np.testing.assert_array_equal(both, IMAGES[:, ::-1, ::-1])
    masks = np.arange(3 * 6 * 7, dtype=np.float32).reshape(3, 6, 7, 1)
    out = L.RandomFlip("horizontal", seed=1)({"images": IMAGES, "segmentation_masks": masks})
    assert set(map(float, np.asarray(out["segmentation_masks"]).ravel())) == set(masks.ravel())
