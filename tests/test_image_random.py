"""tf.image's random augmentations: TensorFlow's argument checks, stateless determinism, and
results inside the documented ranges (the random streams are wengert's, not TensorFlow's)."""
import numpy as np
import pytest

import wengert as tf

RNG = np.random.default_rng(7)
X = RNG.uniform(0.05, 0.95, (4, 5, 6, 3)).astype(np.float32)
SEEDS = [[i, 3 * i + 1] for i in range(12)]


def _flip_kind(out, x, axis):
    if np.array_equal(out, x):
        return "same"
    assert np.array_equal(out, np.flip(x, axis)), "neither the image nor its flip"
    return "flipped"


@pytest.mark.parametrize("name,axis", [("flip_left_right", 1), ("flip_up_down", 0)])
def test_flips_flip_each_image_or_not_and_stateless_ones_repeat(name, axis):
    stateless = getattr(tf.image, f"stateless_random_{name}")
    kinds = set()
    for seed in SEEDS:
        out = stateless(X, seed).numpy()
        np.testing.assert_array_equal(out, stateless(X, seed).numpy())
        kinds.update(_flip_kind(out[b], X[b], axis) for b in range(4))
        kinds.add(_flip_kind(stateless(X[0], seed).numpy(), X[0], axis))
    assert kinds == {"same", "flipped"}
    stateful = getattr(tf.image, f"random_{name}")
    seen = {_flip_kind(stateful(X[1]).numpy(), X[1], axis) for _ in range(30)}
    assert seen == {"same", "flipped"}
    uint8 = (X * 255).astype(np.uint8)
    out = stateless(uint8, SEEDS[0])
    assert out.dtype == tf.uint8 and _flip_kind(out.numpy()[0], uint8[0], axis)


def test_brightness_contrast_saturation_hue_stay_in_their_ranges():
    deltas, factors = [], []
    for seed in SEEDS:
        out = tf.image.stateless_random_brightness(X, 0.3, seed).numpy()
        np.testing.assert_array_equal(out, tf.image.stateless_random_brightness(
            X, 0.3, seed).numpy())
        delta = out - X
        assert np.allclose(delta, delta.flat[0], atol=1e-6) and -0.3 <= delta.flat[0] < 0.3
        deltas.append(delta.flat[0])
        out = tf.image.stateless_random_contrast(X, 0.2, 0.9, seed).numpy()
        mean = X.mean(axis=(1, 2), keepdims=True)
        factor = (out - mean) / (X - mean)
        assert np.allclose(factor, np.median(factor), atol=1e-3) and 0.2 <= np.median(
            factor) < 0.9
        factors.append(np.median(factor))
    assert len(set(np.round(deltas, 6))) > 6 and len(set(np.round(factors, 6))) > 6
    hsv = tf.image.rgb_to_hsv(X).numpy()
    for seed in SEEDS[:4]:
        out_hsv = tf.image.rgb_to_hsv(tf.image.stateless_random_hue(X, 0.2, seed)).numpy()
        shift = (out_hsv[..., 0] - hsv[..., 0] + 0.5) % 1.0 - 0.5
        assert np.allclose(shift, shift.flat[0], atol=1e-4) and abs(shift.flat[0]) <= 0.2
        np.testing.assert_allclose(out_hsv[..., 1:], hsv[..., 1:], atol=1e-5)
        out_hsv = tf.image.rgb_to_hsv(tf.image.stateless_random_saturation(
            X, 0.3, 0.8, seed)).numpy()
        ratio = out_hsv[..., 1] / hsv[..., 1]
        assert np.allclose(ratio, ratio.flat[0], atol=1e-4) and 0.3 <= ratio.flat[0] < 0.8
    out = tf.image.random_brightness(X, 0.1).numpy() - X
    assert np.allclose(out, out.flat[0], atol=1e-6) and abs(out.flat[0]) <= 0.1


def test_stateful_augmentations_repeat_under_the_global_seed():
    def run():
        tf.random.set_seed(11)
        return [f(X).numpy() for f in (
            lambda x: tf.image.random_brightness(x, 0.4, seed=2),
            lambda x: tf.image.random_contrast(x, 0.5, 1.5, seed=2),
            lambda x: tf.image.random_hue(x, 0.3, seed=2),
            lambda x: tf.image.random_saturation(x, 0.5, 1.5, seed=2),
            lambda x: tf.image.random_flip_left_right(x, seed=2),
            lambda x: tf.image.random_crop(x, [2, 3, 3, 3], seed=2))]
    for a, b in zip(run(), run()):
        np.testing.assert_array_equal(a, b)


def _find_block(block, value):
    """The offsets at which `block` sits in `value`."""
    found = []
    for idx in np.ndindex(*(v - b + 1 for v, b in zip(value.shape, block.shape))):
        window = value[tuple(slice(i, i + b) for i, b in zip(idx, block.shape))]
        if np.array_equal(window, block):
            found.append(idx)
    return found


def test_crops_are_blocks_of_the_value_at_varied_offsets():
    offsets = set()
    for seed in SEEDS:
        out = tf.image.stateless_random_crop(X, [2, 3, 4, 3], seed).numpy()
        np.testing.assert_array_equal(out, tf.image.stateless_random_crop(
            X, [2, 3, 4, 3], seed).numpy())
        found = _find_block(out, X)
        assert len(found) == 1
        offsets.add(found[0])
    assert len(offsets) > 4
    out = tf.image.random_crop(X[0], [5, 6, 3]).numpy()
    np.testing.assert_array_equal(out, X[0])  # the whole image is the only crop of its size


def test_gradients_flow_through_the_augmentations():
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        bright = tf.reduce_sum(tf.image.stateless_random_brightness(x, 0.2, [1, 2]))
        flip = tf.reduce_sum(tf.image.stateless_random_flip_up_down(x, [1, 2]) * X)
        crop = tf.reduce_sum(tf.image.stateless_random_crop(x, [4, 5, 6, 3], [4, 5]))
    np.testing.assert_allclose(tape.gradient(bright, x).numpy(), 1.0)
    np.testing.assert_allclose(tape.gradient(crop, x).numpy(), 1.0)
    grad = tape.gradient(flip, x).numpy()
    for b in range(4):
        assert np.array_equal(grad[b], X[b]) or np.array_equal(grad[b], X[b, ::-1])


@pytest.mark.parametrize("call,error,match", [
    (lambda: tf.image.random_contrast(X, 0.9, 0.2), ValueError, "upper must be > lower"),
    (lambda: tf.image.random_contrast(X, -0.5, 0.2), ValueError, "lower must be non-negative"),
    (lambda: tf.image.stateless_random_saturation(X, 1.0, 1.0, [1, 2]), ValueError,
     "upper must be > lower"),
    (lambda: tf.image.random_saturation(X, -1.0, 1.0), ValueError, "non-negative"),
    (lambda: tf.image.random_brightness(X, -0.1), ValueError, "max_delta must be non-neg"),
    (lambda: tf.image.random_hue(X, 0.6), ValueError, r"max_delta must be <= 0.5"),
    (lambda: tf.image.stateless_random_hue(X, -0.1, [1, 2]), ValueError, "non-negative"),
    (lambda: tf.image.random_hue(X[..., :2], 0.1), ValueError, "3 \\(RGB\\) channels"),
    (lambda: tf.image.random_flip_left_right(X[0, 0]), ValueError, "three-dimensional"),
    (lambda: tf.image.stateless_random_flip_up_down(np.zeros((0, 2, 1)), [1, 2]), ValueError,
     "must be > 0"),
    (lambda: tf.image.random_crop(X, [5, 3, 3, 3]), tf.errors.InvalidArgumentError,
     "value.shape >= size"),
    (lambda: tf.image.stateless_random_crop(X, [2, 3, 3], [1, 2]),
     tf.errors.InvalidArgumentError, "one entry per dimension"),
    (lambda: tf.image.stateless_random_brightness(X, 0.1, [1, 2, 3]),
     tf.errors.InvalidArgumentError, "shape \\[2\\]"),
])
def test_bad_arguments_raise_tensorflows_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


BOX = np.array([[[0.1, 0.2, 0.6, 0.7], [0.5, 0.5, 0.9, 0.95]]], np.float32)


def test_sample_distorted_bounding_box_keeps_its_constraints_and_repeats():
    h, w = 40, 60
    pixel_boxes = [(int(b[1] * w), int(b[0] * h), int(b[3] * w), int(b[2] * h)) for b in BOX[0]]
    sizes = set()
    for seed in SEEDS:
        begin, size, bboxes = tf.image.stateless_sample_distorted_bounding_box(
            [h, w, 3], BOX, seed, min_object_covered=0.6, aspect_ratio_range=(0.5, 2.0),
            area_range=(0.1, 0.8))
        again = tf.image.stateless_sample_distorted_bounding_box(
            [h, w, 3], BOX, seed, min_object_covered=0.6, aspect_ratio_range=(0.5, 2.0),
            area_range=(0.1, 0.8))
        assert begin.numpy().tolist() == again[0].numpy().tolist()
        (y, x, z), (ch, cw, minus) = begin.numpy(), size.numpy()
        assert z == 0 and minus == -1 and begin.dtype == tf.int32
        assert 0 <= y and y + ch <= h and 0 <= x and x + cw <= w
        assert 0.1 * h * w <= ch * cw <= 0.8 * h * w
        covered = max(max(0, min(x + cw, b[2]) - max(x, b[0])) * max(0, min(y + ch, b[3])
                      - max(y, b[1])) / ((b[2] - b[0]) * (b[3] - b[1])) for b in pixel_boxes)
        assert covered >= 0.6
        np.testing.assert_allclose(bboxes.numpy()[0, 0], [y / h, x / w, (y + ch) / h,
                                                          (x + cw) / w], rtol=1e-6)
        sizes.add((ch, cw))
        crop = tf.slice(np.zeros((h, w, 3)), begin, size)
        assert crop.shape == (ch, cw, 3)
    assert len(sizes) > 4
    tf.random.set_seed(5)
    first = tf.image.sample_distorted_bounding_box([h, w, 3], BOX, seed=7)[0].numpy()
    tf.random.set_seed(5)
    assert first.tolist() == tf.image.sample_distorted_bounding_box(
        [h, w, 3], BOX, seed=7)[0].numpy().tolist()
    old = tf.compat.v1.image.sample_distorted_bounding_box(tf.constant([h, w, 3], tf.int64),
                                                           BOX, seed=1, seed2=2)
    assert old[0].dtype == tf.int64


def test_sample_distorted_bounding_box_falls_back_to_the_image_and_checks_arguments():
    empty = np.zeros((1, 0, 4), np.float32)
    begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
        [10, 12, 3], empty, [1, 2], use_image_if_no_bounding_boxes=True,
        min_object_covered=1.0, area_range=(1.0, 1.0), aspect_ratio_range=(1.2, 1.2))
    assert begin.numpy().tolist() == [0, 0, 0] and size.numpy().tolist() == [10, 12, -1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="use_image_if_no_bounding_boxes"):
        tf.image.stateless_sample_distorted_bounding_box([10, 12, 3], empty, [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="3 elements"):
        tf.image.stateless_sample_distorted_bounding_box([10, 12], BOX, [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="area_range"):
        tf.image.sample_distorted_bounding_box([10, 12, 3], BOX, area_range=(0.5, 1.5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="3-dimensional"):
        tf.image.sample_distorted_bounding_box([10, 12, 3], BOX[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_attempts"):
        tf.image.sample_distorted_bounding_box([10, 12, 3], BOX, max_attempts=0)


def test_flips_in_a_graph_with_an_unknown_batch_match_eager():
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        images = tf.compat.v1.placeholder(tf.float32, [None, 5, 6, 3])
        flipped = tf.image.stateless_random_flip_left_right(images, [1, 2])
        with tf.compat.v1.Session(graph=graph) as session:
            out = session.run(flipped, {images: X})
    np.testing.assert_array_equal(out, tf.image.stateless_random_flip_left_right(
        X, [1, 2]).numpy())
