"""Keras preprocessing layers (layers/preprocessing.py): values as Keras 3 computes them (checked
against TensorFlow 2.21's Keras when writing them), gradients, and configs."""
import numpy as np
import pytest

import wengert as tf

L = tf.keras.layers
X = np.random.default_rng(0).uniform(0, 255, (2, 8, 10, 3)).astype(np.float32)


def test_rescaling_and_its_gradient():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = L.Rescaling(1 / 127.5, offset=-1.0)(x)
        total = tf.reduce_sum(y)
    np.testing.assert_allclose(y.numpy(), X / 127.5 - 1, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(total, x).numpy(), 1 / 127.5, rtol=1e-6)
    assert L.Rescaling(0.5)(np.ones((1, 2, 2, 1), np.uint8)).dtype == tf.float32


def test_resizing_and_center_crop_are_tf_image():
    np.testing.assert_allclose(L.Resizing(5, 7)(X).numpy(),
                               tf.image.resize(X, [5, 7]).numpy(), rtol=1e-6)
    crop = L.CenterCrop(4, 6)(X).numpy()
    np.testing.assert_array_equal(crop, X[:, 2:6, 2:8])
    assert L.Resizing(4, 4, crop_to_aspect_ratio=True)(X).shape == (2, 4, 4, 3)
    # smaller than the target: the largest centred window of 9:12 (7 x 10 rows 0..6), resized
    up = L.CenterCrop(9, 12)(X).numpy()
    np.testing.assert_allclose(up, tf.image.resize(X[:, 0:7], [9, 12]).numpy(), rtol=1e-5)


def test_normalization_adapt_and_invert():
    layer = L.Normalization()
    layer.adapt(X)
    y = layer(X).numpy()
    np.testing.assert_allclose(y.mean(axis=(0, 1, 2)), 0, atol=1e-5)
    np.testing.assert_allclose(y.std(axis=(0, 1, 2)), 1, rtol=1e-4)
    batches = tf.data.Dataset.from_tensor_slices(X).batch(1)
    streamed = L.Normalization()
    streamed.adapt(batches)  # accumulated over batches: the same statistics
    np.testing.assert_allclose(streamed(X).numpy(), y, rtol=1e-4, atol=1e-5)
    inverse = L.Normalization(mean=3.0, variance=4.0, invert=True)
    np.testing.assert_allclose(inverse(np.ones((1, 2), np.float32)).numpy(), 5.0)
    with pytest.raises(ValueError, match="adapt"):
        L.Normalization()(X)
    with pytest.raises(ValueError, match="both"):
        L.Normalization(mean=1.0)


def test_random_flip_only_while_training():
    flip = L.RandomFlip("horizontal", seed=3)
    np.testing.assert_array_equal(flip(X, training=False).numpy(), X)
    out = flip(np.concatenate([X] * 8), training=True).numpy()
    flipped = [np.array_equal(o, x[:, ::-1]) for o, x in zip(out, np.concatenate([X] * 8))]
    kept = [np.array_equal(o, x) for o, x in zip(out, np.concatenate([X] * 8))]
    assert all(f or k for f, k in zip(flipped, kept)) and any(flipped) and any(kept)
    with pytest.raises(ValueError, match="mode"):
        L.RandomFlip("diagonal")


def test_a_model_with_preprocessing_trains():
    model = tf.keras.Sequential([L.Rescaling(1 / 255.0, input_shape=(8, 10, 3)),
                                 L.RandomFlip("horizontal", seed=0), L.Resizing(4, 5),
                                 L.Flatten(), L.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(X, np.array([0, 1]), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    assert L.Resizing.from_config(L.Resizing(3, 4).get_config()).height == 3


GRID = np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1)


@pytest.mark.parametrize("layer,expected", [
    (lambda: L.RandomRotation((0.25, 0.25)), np.rot90(GRID[0, :, :, 0], 1)),
    (lambda: L.RandomZoom((0.5, 0.5)),
     [[0, 0.5, 2, 3.5, 4], [2.5, 3, 4.5, 6, 6.5], [10, 10.5, 12, 13.5, 14],
      [17.5, 18, 19.5, 21, 21.5], [20, 20.5, 22, 23.5, 24]]),
    (lambda: L.RandomTranslation((0.2, 0.2), (-0.2, -0.2)),
     [[1, 2, 3, 4, 4], [1, 2, 3, 4, 4], [6, 7, 8, 9, 9], [11, 12, 13, 14, 14],
      [16, 17, 18, 19, 19]]),
    (lambda: L.RandomZoom((-0.4, -0.4), fill_mode="constant"),
     12 + 3 * np.arange(-2, 3)[:, None] + 0.6 * np.arange(-2, 3)[None, :]),
], ids=["rotate-90", "zoom-out-reflect", "translate", "zoom-in"])
def test_spatial_augmentations_match_keras_at_fixed_draws(layer, expected):
    # values taken from TensorFlow 2.21's Keras with the same degenerate ranges
    out = layer()(GRID, training=True).numpy()[0, :, :, 0]
    np.testing.assert_allclose(out, expected, atol=1e-4)
    np.testing.assert_array_equal(layer()(GRID, training=False).numpy(), GRID)


def test_augmentations_draw_afresh_inside_a_traced_step_and_pass_gradients():
    layer = L.RandomRotation(0.2, seed=1)
    step = tf.function(lambda x: layer(x, training=True))
    x = tf.constant(X)
    first, second = step(x).numpy(), step(x).numpy()
    assert not np.allclose(first, second)  # a fresh angle on every run
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(L.RandomZoom(0.2, seed=2)(x, training=True))
    assert np.isfinite(tape.gradient(total, x).numpy()).all()
    with pytest.raises(ValueError, match="fill_mode"):
        L.RandomZoom(0.1, fill_mode="mirror")
