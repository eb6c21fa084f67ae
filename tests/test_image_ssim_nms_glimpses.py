"""tf.image's MS-SSIM, glimpses, box drawing, combined NMS and Soft-NMS against TensorFlow 2.21
when it is installed, and their documented properties otherwise."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(18)


def img(*shape, dtype=np.float32):
    return RNG.uniform(0, 1, shape).astype(dtype)


def _smooth(*shape):
    """Images with structure at several scales, so every MS-SSIM term is well away from 0."""
    base = img(*shape)
    y, x = np.meshgrid(np.linspace(0, 1, shape[-3]), np.linspace(0, 1, shape[-2]),
                       indexing="ij")
    return (0.5 * base + 0.5 * (np.sin(6 * y) * np.cos(5 * x))[..., None] ** 2).astype(
        np.float32)


_A, _B = _smooth(2, 45, 50, 3), _smooth(2, 45, 50, 3)
_B = (0.7 * _A + 0.3 * _B).astype(np.float32)
_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                   [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
_CBOXES = RNG.uniform(0, 1, (2, 7, 1, 4)).astype(np.float32)
_CBOXES[..., 2:] = _CBOXES[..., :2] + RNG.uniform(0.1, 0.6, (2, 7, 1, 2))
_CBOXES_Q = np.concatenate([_CBOXES, _CBOXES[:, :, :, ::-1] * 1.1, _CBOXES * 0.9], axis=2)
_CSCORES = RNG.permutation(42).reshape(2, 7, 3).astype(np.float32) / 42


def _glimpse(size, offsets, centered, normalized):
    return TFCase(f"glimpse_{size[0]}x{size[1]}_{centered}_{normalized}_{offsets[0][0]}",
                  f"tf.image.extract_glimpse(x0, {list(size)}, x1, centered={centered}, "
                  f"normalized={normalized}, noise='zero')",
                  lambda x, o: tf.image.extract_glimpse(x, size, o, centered=centered,
                                                        normalized=normalized, noise="zero"),
                  [img(2, 7, 9, 3), np.array(offsets, np.float32)])


def _glimpse_v1(offsets, centered, normalized):
    return TFCase(f"glimpse_v1_{centered}_{normalized}_{offsets[0][0]}",
                  f"tf.compat.v1.image.extract_glimpse(x0, [4, 6], x1, centered={centered}, "
                  f"normalized={normalized})",
                  lambda x, o: tf.compat.v1.image.extract_glimpse(
                      x, [4, 6], o, centered=centered, normalized=normalized),
                  [img(2, 20, 30, 2), np.array(offsets, np.float32)])


CASES = [_glimpse_v1(o, c, n) for c, n, o in (
    (True, True, [[0.0, 0.0], [0.5, -0.3]]), (True, False, [[0.5, 0.5], [-3.2, 5.0]]),
    (False, True, [[0.5, 0.5], [0.2, 0.7]]), (False, False, [[3.0, 5.0], [10.5, 20.2]]))] + [
    TFCase("msssim_3", "tf.image.ssim_multiscale(x0, x1, 1.0, power_factors=(0.2, 0.3, 0.5), "
           "filter_size=7, filter_sigma=1.2)",
           lambda a, b: tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.2, 0.3, 0.5),
                                                 filter_size=7, filter_sigma=1.2),
           [_A, _B], wrt=(0, 1), rtol=1e-4, atol=1e-6),
    TFCase("msssim_k", "tf.image.ssim_multiscale(x0, x1, 2.0, power_factors=(0.5, 0.5), "
           "filter_size=5, k1=0.02, k2=0.05)",
           lambda a, b: tf.image.ssim_multiscale(a, b, 2.0, power_factors=(0.5, 0.5),
                                                 filter_size=5, k1=0.02, k2=0.05),
           [_A[0], _B[0]], wrt=(0, 1), rtol=1e-4, atol=1e-6),
    TFCase("msssim_default", "tf.image.ssim_multiscale(x0, x1, 1.0)",
           lambda a, b: tf.image.ssim_multiscale(a, b, 1.0),
           [_smooth(1, 176, 181, 1), _smooth(1, 176, 181, 1)], wrt=(0,), rtol=1e-4, atol=1e-6),
    TFCase("msssim_uint8", "tf.image.ssim_multiscale(x0, x1, 255, power_factors=(0.6, 0.4), "
           "filter_size=5)",
           lambda a, b: tf.image.ssim_multiscale(a, b, 255, power_factors=(0.6, 0.4),
                                                 filter_size=5),
           [(_A * 255).astype(np.uint8), (_B * 255).astype(np.uint8)], rtol=1e-4),
    _glimpse((3, 4), [[0.0, 0.0], [0.5, -0.9]], True, True),
    _glimpse((5, 3), [[0.2, 0.9], [1.0, 0.0]], False, True),
    _glimpse((4, 6), [[1.5, -2.0], [-3.7, 3.2]], True, False),
    _glimpse((4, 4), [[2.0, 3.0], [6.5, 8.9]], False, False),
    _glimpse((9, 11), [[0.1, 0.1], [-0.3, 0.4]], True, True),
    TFCase("draw_default", "tf.image.draw_bounding_boxes(x0, x1, np.zeros((0, 4), np.float32))",
           lambda i, b: tf.image.draw_bounding_boxes(i, b, np.zeros((0, 4), np.float32)),
           [img(2, 9, 11, 3), np.array([[[0.1, 0.2, 0.8, 0.7], [-0.2, 0.5, 0.5, 1.4]],
                                        [[0.5, 0.5, 0.2, 0.9], [0.0, 0.0, 1.0, 1.0]]],
                                       np.float32)]),  # TensorFlow registers no gradient
    TFCase("draw_colors", "tf.image.draw_bounding_boxes(x0, x1, np.array([[0.2, 0.4, 0.6, 1], "
           "[1, 0, 0.5, 1]], np.float32))",
           lambda i, b: tf.image.draw_bounding_boxes(
               i, b, np.array([[0.2, 0.4, 0.6, 1], [1, 0, 0.5, 1]], np.float32)),
           [img(1, 8, 8, 4), np.array([[[0.1, 0.1, 0.5, 0.5], [0.3, 0.2, 0.9, 0.95],
                                        [1.2, 0.0, 1.5, 1.0]]], np.float32)]),
    TFCase("draw_gray", "tf.image.draw_bounding_boxes(x0, x1, np.zeros((0, 4), np.float32))",
           lambda i, b: tf.image.draw_bounding_boxes(i, b, np.zeros((0, 4), np.float32)),
           [img(1, 6, 7, 1), np.array([[[0.2, 0.2, 0.7, 0.6], [0.0, 0.0, 0.5, 0.5]]],
                                      np.float32)]),
    TFCase("soft_nms", "tf.image.non_max_suppression_with_scores(x0, x1, 5, 0.5, 0.1, "
           "soft_nms_sigma=0.5)",
           lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 5, 0.5, 0.1,
                                                                 soft_nms_sigma=0.5),
           [_BOXES, _SCORES]),
    TFCase("soft_nms_all", "tf.image.non_max_suppression_with_scores(x0, x1, 10, 0.5, "
           "soft_nms_sigma=0.2)",
           lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 10, 0.5,
                                                                 soft_nms_sigma=0.2),
           [_BOXES, _SCORES], rtol=1e-5),
    TFCase("combined", "tf.image.combined_non_max_suppression(x0, x1, 3, 6, 0.3, 0.1)",
           lambda b, s: tf.image.combined_non_max_suppression(b, s, 3, 6, 0.3, 0.1),
           [_CBOXES, _CSCORES]),
    TFCase("combined_q_pad", "tf.image.combined_non_max_suppression(x0, x1, 2, 20, 0.5, "
           "pad_per_class=True, clip_boxes=False)",
           lambda b, s: tf.image.combined_non_max_suppression(b, s, 2, 20, 0.5,
                                                              pad_per_class=True,
                                                              clip_boxes=False),
           [_CBOXES_Q, _CSCORES]),
    TFCase("combined_pad_cut", "tf.image.combined_non_max_suppression(x0, x1, 4, 5, 0.6, "
           "0.5, pad_per_class=True)",
           lambda b, s: tf.image.combined_non_max_suppression(b, s, 4, 5, 0.6, 0.5,
                                                              pad_per_class=True),
           [_CBOXES_Q, _CSCORES]),
]




def _legacy(method, size, align, half):
    op = f"resize_{method}"
    extra = "" if method == "area" else f", half_pixel_centers={half}"
    return TFCase(f"v1_{op}_{size[0]}x{size[1]}_{align}_{half}",
                  f"tf.compat.v1.image.{op}(x0, {list(size)}, align_corners={align}{extra})",
                  lambda x: getattr(tf.compat.v1.image, op)(
                      x, size, align_corners=align,
                      **({} if method == "area" else {"half_pixel_centers": half})),
                  [img(2, 7, 9, 3)], wrt=() if method == "area" else (0,), rtol=1e-4,
                  atol=2e-6)


CASES += [_legacy(m, s, a, h) for m in ("bilinear", "nearest_neighbor", "bicubic", "area")
          for s in ((14, 18), (3, 4), (10, 5), (1, 1), (7, 9))
          for a, h in ((False, False), (True, False), (False, True))
          if not (m == "area" and h)] + [
    TFCase("v1_resize_align", "tf.compat.v1.image.resize(x0, [11, 6], align_corners=True)",
           lambda x: tf.compat.v1.image.resize(x, [11, 6], align_corners=True),
           [img(5, 8, 2)], wrt=(0,), rtol=1e-4, atol=2e-6),
    TFCase("v1_resize_bicubic", "tf.compat.v1.image.resize(x0, [4, 13], method=2)",
           lambda x: tf.compat.v1.image.resize(x, [4, 13], method=2),
           [img(2, 5, 8, 2)], wrt=(0,), rtol=1e-4, atol=2e-6),
    TFCase("v1_resize_nearest_uint8", "tf.compat.v1.image.resize(x0, [9, 3], "
           "method=tf.compat.v1.image.ResizeMethod.NEAREST_NEIGHBOR, align_corners=True)",
           lambda x: tf.compat.v1.image.resize(
               x, [9, 3], method=tf.compat.v1.image.ResizeMethod.NEAREST_NEIGHBOR,
               align_corners=True), [(img(5, 8, 2) * 255).astype(np.uint8)]),
    TFCase("v1_resize_area_aspect", "tf.compat.v1.image.resize(x0, [10, 10], method='area', "
           "preserve_aspect_ratio=True)",
           lambda x: tf.compat.v1.image.resize(x, [10, 10], method="area",
                                               preserve_aspect_ratio=True),
           [img(1, 6, 8, 2)], rtol=1e-4, atol=2e-6),
    TFCase("v1_resize_with_pad", "tf.compat.v1.image.resize_image_with_pad(x0, 9, 7, "
           "align_corners=True)",
           lambda x: tf.compat.v1.image.resize_image_with_pad(x, 9, 7, align_corners=True),
           [img(2, 5, 8, 2)], wrt=(0,), rtol=1e-4, atol=2e-6),
    TFCase("resize_with_pad_float32", "tf.image.resize_with_pad(x0, 9, 7)",
           lambda x: tf.image.resize_with_pad(x, 9, 7), [img(2, 5, 8, 2)], wrt=(0,), rtol=1e-4,
           atol=2e-6),
    TFCase("v1_crop_and_resize", "tf.compat.v1.image.crop_and_resize(x0, x1, box_ind=[1, 0], "
           "crop_size=[3, 4])",
           lambda i, b: tf.compat.v1.image.crop_and_resize(i, b, box_ind=[1, 0],
                                                           crop_size=[3, 4]),
           [img(2, 6, 7, 3), np.array([[0.1, 0.2, 0.8, 0.7], [0.0, 0.0, 1.0, 1.0]],
                                      np.float32)], wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("yiq", "tf.image.rgb_to_yiq(x0)", tf.image.rgb_to_yiq, [img(2, 3, 4, 3)], wrt=(0,)),
    TFCase("yiq_back", "tf.image.yiq_to_rgb(x0)", tf.image.yiq_to_rgb,
           [img(3, 4, 3).astype(np.float64)], wrt=(0,)),
    TFCase("nms_overlaps", "tf.image.non_max_suppression_overlaps(x0, x1, 4, 0.5, 0.2)",
           lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 4, 0.5, 0.2),
           [np.array([[1, 0.7, 0.1, 0.6, 0.0], [0.7, 1, 0.4, 0.2, 0.3], [0.1, 0.4, 1, 0.55, 0.2],
                      [0.6, 0.2, 0.55, 1, 0.1], [0.0, 0.3, 0.2, 0.1, 1]], np.float32),
            np.array([0.9, 0.8, 0.7, 0.6, 0.1], np.float32)]),
    TFCase("v1_patches", "tf.compat.v1.image.extract_image_patches(x0, ksizes=[1, 2, 3, 1], "
           "strides=[1, 1, 2, 1], rates=[1, 1, 1, 1], padding='SAME')",
           lambda x: tf.compat.v1.image.extract_image_patches(
               x, ksizes=[1, 2, 3, 1], strides=[1, 1, 2, 1], rates=[1, 1, 1, 1], padding="SAME"),
           [img(1, 5, 6, 2)], wrt=(0,)),
    TFCase("v1_transpose", "tf.compat.v1.image.transpose_image(x0)",
           tf.compat.v1.image.transpose_image, [img(3, 5, 2)]),
    TFCase("v1_resize_same", "tf.compat.v1.image.resize(x0, [6, 8])",
           lambda x: tf.compat.v1.image.resize(x, [6, 8]), [img(1, 6, 8, 2)]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-6)


def test_ssim_multiscale_of_an_image_with_itself_is_one_and_differentiable():
    x = tf.constant(_A)
    assert np.allclose(tf.image.ssim_multiscale(x, x, 1.0, (0.3, 0.7), 7).numpy(), 1.0)
    y = tf.constant(_B)
    with tf.GradientTape() as tape:
        tape.watch(y)
        score = tf.reduce_sum(tf.image.ssim_multiscale(x, y, 1.0, (0.3, 0.7), 7))
    grad = tape.gradient(score, y).numpy()
    assert grad.shape == _B.shape and np.all(np.isfinite(grad)) and np.abs(grad).max() > 0
    eps, k = 1e-2, (0, 10, 12, 1)
    bumped = _B.copy()
    bumped[k] += eps
    moved = float(tf.reduce_sum(tf.image.ssim_multiscale(x, bumped, 1.0, (0.3, 0.7), 7)))
    assert abs((moved - float(score)) / eps - grad[k]) < 0.05 * abs(grad[k]) + 1e-4
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller than the"):
        tf.image.ssim_multiscale(_A, _B, 1.0)  # five scales need 176 pixels a side


def test_glimpse_noise_fills_only_outside_the_image():
    x = img(1, 6, 6, 2)
    tf.random.set_seed(3)
    out = tf.image.extract_glimpse(x, [4, 4], [[-2.0, -2.0]], centered=False, normalized=False,
                                   noise="uniform").numpy()
    np.testing.assert_array_equal(out[0, 2:, 2:], x[0, :2, :2])  # window from (-2, -2)
    assert x.min() <= out[0, :2].min() and out[0, :2].max() <= x.max()
    gauss = tf.image.extract_glimpse(x, [4, 4], [[-2.0, -2.0]], centered=False,
                                     normalized=False, noise="gaussian").numpy()
    np.testing.assert_array_equal(gauss[0, 2:, 2:], x[0, :2, :2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="noise must be one of"):
        tf.image.extract_glimpse(x, [4, 4], [[0.0, 0.0]], noise="pink")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[batch, 2\]"):
        tf.image.extract_glimpse(x, [4, 4], [[0.0, 0.0, 1.0]])


def test_soft_nms_keeps_hard_nms_when_sigma_is_zero_and_checks_arguments():
    idx, sc = tf.image.non_max_suppression_with_scores(_BOXES, _SCORES, 4, 0.4)
    assert idx.numpy().tolist() == tf.image.non_max_suppression(_BOXES, _SCORES, 4,
                                                                0.4).numpy().tolist()
    np.testing.assert_array_equal(sc.numpy(), _SCORES[idx.numpy()])
    idx, sc = tf.image.non_max_suppression_with_scores(_BOXES, _SCORES, 6, soft_nms_sigma=0.5)
    assert len(idx.numpy()) == 6 and np.all(np.diff(sc.numpy()) <= 0)
    assert np.all(sc.numpy() <= _SCORES[idx.numpy()])
    with pytest.raises(tf.errors.InvalidArgumentError, match="soft_nms_sigma"):
        tf.image.non_max_suppression_with_scores(_BOXES, _SCORES, 4, soft_nms_sigma=-1.0)


def test_combined_nms_shapes_and_bad_arguments():
    boxes, scores, classes, valid = tf.image.combined_non_max_suppression(
        _CBOXES, _CSCORES, 2, 4, 0.5, 0.9)
    assert boxes.shape == (2, 4, 4) and scores.shape == (2, 4) and classes.shape == (2, 4)
    assert valid.dtype == tf.int32
    for b in range(2):
        n = int(valid[b])
        assert np.all(scores.numpy()[b, :n] > 0.9) and np.all(scores.numpy()[b, n:] == 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_boxes, q, 4"):
        tf.image.combined_non_max_suppression(_CBOXES[:, :, 0], _CSCORES, 2, 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="iou_threshold"):
        tf.image.combined_non_max_suppression(_CBOXES, _CSCORES, 2, 4, 1.5)


def test_draw_bounding_boxes_passes_gradients_to_unpainted_pixels_and_checks_colors():
    x = tf.constant(img(1, 5, 5, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.image.draw_bounding_boxes(x, [[[0.25, 0.25, 0.75, 0.75]]], [[1.0, 0, 0, 1]])
        total = tf.reduce_sum(out)
    grad = tape.gradient(total, x).numpy()[0, :, :, 0]
    painted = np.zeros((5, 5))
    painted[1:4, 1:4], painted[2, 2] = 1, 0
    np.testing.assert_array_equal(grad, 1 - painted)
    np.testing.assert_array_equal(out.numpy()[0, 1, 1:4], [[1, 0, 0]] * 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="colors"):
        tf.image.draw_bounding_boxes(img(1, 4, 4, 3), np.zeros((1, 1, 4), np.float32),
                                     np.ones((2, 2), np.float32))


def test_legacy_resize_checks_arguments_and_matches_tf2_with_half_pixel_centres():
    x = img(1, 5, 7, 2)
    for method in ("bilinear", "bicubic"):
        old = getattr(tf.compat.v1.image, f"resize_{method}")(x, [9, 4], half_pixel_centers=True)
        np.testing.assert_allclose(old.numpy(), tf.image.resize(x, [9, 4], method).numpy(),
                                   rtol=1e-5, atol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="align_corners must be False"):
        tf.compat.v1.image.resize_bilinear(x, [3, 3], align_corners=True,
                                           half_pixel_centers=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="4-dimensional"):
        tf.compat.v1.image.resize_area(x[0], [3, 3])
    with pytest.raises(ValueError, match="not implemented"):
        tf.compat.v1.image.resize(x, [3, 3], method="lanczos3")
    assert tf.compat.v1.image.resize_bilinear(x.astype(np.float64), [3, 3]).dtype == tf.float32


def test_second_order_gradients_of_ssim_multiscale_and_legacy_resize():
    from wengert.testing import check_grads
    a = RNG.uniform(0.2, 0.8, (1, 12, 13, 2))
    b = np.clip(a + RNG.normal(0, 0.05, a.shape), 0, 1)
    check_grads(lambda y: tf.image.ssim_multiscale(tf.constant(a), y, 1.0, (0.4, 0.6), 5),
                [b], order=2, rtol=2e-3, atol=1e-6, eps=1e-4)
    check_grads(lambda x: tf.cast(tf.reduce_sum(tf.compat.v1.image.resize_bicubic(
        tf.cast(x, tf.float32), [7, 5], align_corners=True) ** 2), tf.float64),
        [RNG.uniform(0, 1, (1, 4, 6, 2))], order=2, rtol=2e-2, atol=2e-3, eps=1e-3)
