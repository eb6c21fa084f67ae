"""Keras 3's AugMix and RandAugment: a fixed transformation is its operations applied as Keras
composes them, the draws, configs, traced steps and training."""
import numpy as np
import pytest

import wengert as tf

L = tf.keras.layers
RNG = np.random.default_rng(9)
IMAGES = RNG.uniform(0, 255, (3, 8, 8, 3)).astype(np.float32)


def test_randaugment_applies_the_chosen_operations_in_turn():
    layer = L.RandAugment(num_ops=2, factor=0.5, seed=1)
    t = layer.get_random_transformation(IMAGES)
    assert set(t["transforms"]) == set(L.RandAugment._NAMES)
    names = list(L.RandAugment._NAMES)
    t["layer_idxes"] = np.array([names.index("random_brightness"), names.index("solarization")])
    expected = layer.operations["random_brightness"].transform_images(
        IMAGES, t["transforms"]["random_brightness"])
    expected = layer.operations["solarization"].transform_images(
        expected, t["transforms"]["solarization"])
    np.testing.assert_allclose(layer.transform_images(IMAGES, t), expected, rtol=1e-5)
    indices = [np.asarray(L.RandAugment(num_ops=3, seed=s).get_random_transformation(IMAGES)[
        "layer_idxes"]) for s in range(40)]
    indices = np.concatenate(indices)
    assert indices.min() == 0 and indices.max() == 10
    np.testing.assert_array_equal(layer(IMAGES, training=False).numpy(), IMAGES)


def test_augmix_mixes_its_chains():
    layer = L.AugMix(num_chains=2, chain_depth=2, seed=3)
    t = layer.get_random_transformation(IMAGES)
    weights = np.asarray(t["chain_mixing_weights"])
    assert weights.shape == (2,) and abs(weights.sum() - 1) < 1e-5
    t["weight_sample"] = np.float32(0.3)
    t["chain_transforms"] = [
        [{"layer_name": "random_contrast", "transformation": layer.operations[
            "random_contrast"].get_random_transformation(IMAGES)}],
        [{"layer_name": "equalization", "transformation": None},
         {"layer_name": "random_sharpness", "transformation": layer.operations[
             "random_sharpness"].get_random_transformation(IMAGES)}]]
    first = layer.operations["random_contrast"].transform_images(
        IMAGES, t["chain_transforms"][0][0]["transformation"])
    second = layer.operations["random_sharpness"].transform_images(
        layer.operations["equalization"].transform_images(IMAGES, None),
        t["chain_transforms"][1][1]["transformation"])
    mixed = 0.3 * IMAGES + 0.7 * (weights[0] * first.numpy() + weights[1] * second.numpy())
    np.testing.assert_allclose(layer.transform_images(IMAGES, t), np.clip(mixed, 0, 255),
                               rtol=1e-4, atol=1e-3)
    assert "random_brightness" not in L.AugMix(all_ops=False).operations
    names = {step["layer_name"] for s in range(30) for chain in L.AugMix(seed=s)
             .get_random_transformation(IMAGES)["chain_transforms"] for step in chain}
    assert len(names) >= 8


def test_policies_errors_and_masks():
    with pytest.raises(ValueError, match="factor"):
        L.RandAugment(factor=1.5)
    with pytest.raises(ValueError, match="factor"):
        L.AugMix(factor=-0.2)
    masks = (IMAGES[..., :1] > 128).astype(np.float32)
    out = L.RandAugment(seed=2)({"images": IMAGES, "segmentation_masks": masks})
    assert out["segmentation_masks"].shape == masks.shape


@pytest.mark.parametrize("make", [lambda: L.AugMix(value_range=(0, 1), seed=1),
                                  lambda: L.RandAugment(value_range=(0, 1), seed=1)],
                         ids=["AugMix", "RandAugment"])
def test_policies_in_models(make, tmp_path):
    layer = make()
    assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()
    step = tf.function(lambda x: layer(x, training=True))
    x = tf.constant(IMAGES / 255.0)
    assert step(x).shape == IMAGES.shape
    model = tf.keras.Sequential([L.Input((8, 8, 3)), make(), L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam", loss="mse")
    assert np.isfinite(model.fit(IMAGES / 255, np.ones((3, 2)), verbose=0).history["loss"]).all()
    model.save(tmp_path / "policy.keras")
    loaded = tf.keras.models.load_model(tmp_path / "policy.keras")
    np.testing.assert_allclose(loaded.predict(IMAGES / 255, verbose=0),
                               model.predict(IMAGES / 255, verbose=0), rtol=1e-5)
