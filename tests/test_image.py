"""tf.image against TensorFlow 2.21 (values and gradients) when it is installed, against NumPy
otherwise, and second-order gradients by finite differences."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

RNG = np.random.default_rng(5)


def img(*shape, dtype=np.float32):
    return RNG.uniform(0, 1, shape).astype(dtype)


def _resize_case(method, size, antialias=False):
    name = f"resize_{method}_{size[0]}x{size[1]}" + ("_aa" if antialias else "")
    return TFCase(name, f"tf.image.resize(x0, {list(size)}, method='{method}', "
                        f"antialias={antialias})",
                  lambda x: tf.image.resize(x, size, method=method, antialias=antialias),
                  [img(2, 7, 9, 3)], wrt=() if method in ("nearest", "area") else (0,), rtol=1e-4,
                  atol=2e-6)


CASES = [_resize_case(m, s, aa) for m in ("bilinear", "nearest", "bicubic", "area", "lanczos3",
                                          "lanczos5", "gaussian", "mitchellcubic")
         for s in ((14, 18), (3, 4), (10, 9)) for aa in (False, True)
         if not (aa and m in ("nearest", "area"))] + [
    TFCase("flip_left_right", "tf.image.flip_left_right(x0)", tf.image.flip_left_right,
           [img(2, 3, 4, 3)], wrt=(0,)),
    TFCase("flip_up_down_3d", "tf.image.flip_up_down(x0)", tf.image.flip_up_down,
           [img(3, 4, 3)], wrt=(0,)),
    TFCase("rot90_k3", "tf.image.rot90(x0, 3)", lambda x: tf.image.rot90(x, 3), [img(2, 3, 4, 1)],
           wrt=(0,)),
    TFCase("transpose", "tf.image.transpose(x0)", tf.image.transpose, [img(3, 5, 2)], wrt=(0,)),
    TFCase("crop", "tf.image.crop_to_bounding_box(x0, 1, 2, 3, 2)",
           lambda x: tf.image.crop_to_bounding_box(x, 1, 2, 3, 2), [img(2, 5, 6, 3)], wrt=(0,)),
    TFCase("pad", "tf.image.pad_to_bounding_box(x0, 1, 2, 7, 9)",
           lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 7, 9), [img(5, 6, 3)], wrt=(0,)),
    TFCase("central_crop", "tf.image.central_crop(x0, 0.5)",
           lambda x: tf.image.central_crop(x, 0.5), [img(2, 7, 9, 3)], wrt=(0,)),
    TFCase("crop_or_pad", "tf.image.resize_with_crop_or_pad(x0, 4, 9)",
           lambda x: tf.image.resize_with_crop_or_pad(x, 4, 9), [img(2, 7, 6, 3)], wrt=(0,)),
    TFCase("grayscale", "tf.image.rgb_to_grayscale(x0)", tf.image.rgb_to_grayscale,
           [img(2, 4, 4, 3)], wrt=(0,)),
    TFCase("grayscale_uint8", "tf.image.rgb_to_grayscale(x0)", tf.image.rgb_to_grayscale,
           [(img(4, 4, 3) * 255).astype(np.uint8)]),
    TFCase("brightness_uint8", "tf.image.adjust_brightness(x0, 0.3)",
           lambda x: tf.image.adjust_brightness(x, 0.3), [(img(4, 4, 3) * 255).astype(np.uint8)]),
    TFCase("to_rgb", "tf.image.grayscale_to_rgb(x0)", tf.image.grayscale_to_rgb,
           [img(2, 4, 4, 1)], wrt=(0,)),
    TFCase("brightness", "tf.image.adjust_brightness(x0, 0.2)",
           lambda x: tf.image.adjust_brightness(x, 0.2), [img(4, 4, 3)], wrt=(0,)),
    TFCase("contrast", "tf.image.adjust_contrast(x0, 1.7)",
           lambda x: tf.image.adjust_contrast(x, 1.7), [img(2, 4, 5, 3)]),  # TF: no gradient
    TFCase("standardization", "tf.image.per_image_standardization(x0)",
           tf.image.per_image_standardization, [img(2, 4, 5, 3)], wrt=(0,), rtol=1e-4),
    TFCase("convert_uint8_float", "tf.image.convert_image_dtype(x0, tf.float32)",
           lambda x: tf.image.convert_image_dtype(x, tf.float32),
           [(img(4, 4, 3) * 255).astype(np.uint8)]),
    TFCase("convert_float_uint8", "tf.image.convert_image_dtype(x0, tf.uint8)",
           lambda x: tf.image.convert_image_dtype(x, tf.uint8), [img(4, 4, 3)]),
    TFCase("image_gradients", "tf.image.image_gradients(x0)", tf.image.image_gradients,
           [img(2, 4, 5, 3)], wrt=(0,)),
    TFCase("sobel", "tf.image.sobel_edges(x0)", tf.image.sobel_edges, [img(2, 5, 6, 3)],
           wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("total_variation", "tf.image.total_variation(x0)", tf.image.total_variation,
           [img(2, 4, 5, 3)], wrt=(0,), rtol=1e-4),
    TFCase("yuv", "tf.image.rgb_to_yuv(x0)", tf.image.rgb_to_yuv, [img(2, 3, 4, 3)], wrt=(0,)),
    TFCase("yuv_back", "tf.image.yuv_to_rgb(x0)", tf.image.yuv_to_rgb, [img(3, 4, 3)],
           wrt=(0,)),
    TFCase("hsv", "tf.image.rgb_to_hsv(x0)", tf.image.rgb_to_hsv, [img(2, 3, 4, 3)], rtol=1e-4,
           atol=1e-5),
    TFCase("hsv_back", "tf.image.hsv_to_rgb(x0)", tf.image.hsv_to_rgb, [img(2, 3, 4, 3)],
           rtol=1e-4, atol=1e-5),  # TensorFlow registers no gradient for HSVToRGB
    TFCase("saturation", "tf.image.adjust_saturation(x0, 1.7)",
           lambda x: tf.image.adjust_saturation(x, 1.7), [img(3, 4, 3)], rtol=1e-4, atol=1e-5),
    TFCase("hue", "tf.image.adjust_hue(x0, 0.3)", lambda x: tf.image.adjust_hue(x, 0.3),
           [img(3, 4, 3)], rtol=1e-4, atol=1e-5),
    TFCase("gamma", "tf.image.adjust_gamma(x0, 2.2, 0.8)",
           lambda x: tf.image.adjust_gamma(x, 2.2, 0.8), [img(3, 4, 3)], wrt=(0,), rtol=1e-4),
    TFCase("resize_with_pad", "tf.image.resize_with_pad(x0, 8, 8)",
           lambda x: tf.image.resize_with_pad(x, 8, 8), [img(2, 5, 9, 3)], wrt=(0,), rtol=1e-4,
           atol=1e-6),
    TFCase("ssim", "tf.image.ssim(x0, x1, 1.0)", lambda a, b: tf.image.ssim(a, b, 1.0),
           [img(2, 16, 14, 3), img(2, 16, 14, 3)], wrt=(0, 1), rtol=1e-4, atol=1e-6),
    TFCase("patches_valid", "tf.image.extract_patches(x0, [1, 3, 2, 1], [1, 2, 1, 1], "
           "[1, 1, 2, 1], 'VALID')", lambda x: tf.image.extract_patches(
               x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "VALID"), [img(2, 7, 6, 3)],
           wrt=(0,)),
    TFCase("patches_same", "tf.image.extract_patches(x0, [1, 4, 3, 1], [1, 3, 2, 1], "
           "[1, 1, 1, 1], 'SAME')", lambda x: tf.image.extract_patches(
               x, [1, 4, 3, 1], [1, 3, 2, 1], [1, 1, 1, 1], "SAME"), [img(1, 7, 8, 2)],
           wrt=(0,)),
    TFCase("nms", "tf.image.non_max_suppression(x0, x1, 4, 0.4)",
           lambda b, s: tf.image.non_max_suppression(b, s, 4, 0.4),
           [np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                      [0, 10.1, 1, 11.1], [1, 0, 0, 1], [0, 100, 1, 101]], np.float32),
            np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.3], np.float32)]),
    TFCase("nms_scores", "tf.image.non_max_suppression_with_scores(x0, x1, 3, 0.5, 0.35)",
           lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 3, 0.5, 0.35),
           [np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11], [0, 20, 1, 21]],
                     np.float32), np.array([0.9, 0.8, 0.3, 0.7], np.float32)]),
    TFCase("crop_and_resize", "tf.image.crop_and_resize(x0, x1, [1, 0, 1], [4, 3])",
           lambda i, b: tf.image.crop_and_resize(i, b, [1, 0, 1], [4, 3]),
           [img(2, 6, 7, 3), np.array([[0.1, 0.2, 0.8, 0.7], [0.0, 0.0, 1.0, 1.0],
                                        [-0.2, 0.3, 0.5, 1.3]], np.float32)],
           wrt=(0, 1), rtol=1e-4, atol=1e-5),
    TFCase("crop_and_resize_nearest", "tf.image.crop_and_resize(x0, x1, [0, 0], [3, 1], "
           "method='nearest', extrapolation_value=0.5)",
           lambda i, b: tf.image.crop_and_resize(i, b, [0, 0], [3, 1], method="nearest",
                                                 extrapolation_value=0.5),
           [img(1, 5, 5, 2), np.array([[0.1, 0.2, 0.9, 0.6], [0.5, -0.5, 1.5, 0.5]],
                                      np.float32)]),
    TFCase("psnr", "tf.image.psnr(x0, x1, 1.0)", lambda a, b: tf.image.psnr(a, b, 1.0),
           [img(2, 4, 5, 3), img(2, 4, 5, 3)], wrt=(0, 1), rtol=1e-4),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-6)


def test_resize_keeps_constants_and_identity_sizes():
    x = np.full((1, 5, 7, 2), 0.3, np.float32)
    for method in ("bilinear", "bicubic", "area", "nearest"):
        out = tf.image.resize(x, [9, 4], method=method).numpy()
        np.testing.assert_allclose(out, 0.3, rtol=1e-6)
    y = img(1, 5, 7, 2)
    np.testing.assert_allclose(tf.image.resize(y, [5, 7]).numpy(), y, rtol=1e-6)
    assert tf.image.resize(y.astype(np.float64), [3, 3]).dtype == tf.float32  # TF's rule
    assert tf.image.resize((y * 9).astype(np.int32), [3, 3], "nearest").dtype == tf.int32


@pytest.mark.parametrize("method", ["bilinear", "bicubic", "area"])
def test_resize_gradients_to_second_order(method):
    def f(x):
        return tf.reduce_sum(tf.image.resize(x, [3, 5], method=method) ** 2)
    check_grads(lambda x: tf.cast(f(tf.cast(x, tf.float32)), tf.float64),
                [RNG.uniform(0, 1, (1, 4, 6, 2))], order=2, rtol=2e-2, atol=2e-3, eps=1e-3)


def test_image_functions_check_their_arguments():
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 3 or 4"):
        tf.image.resize(np.ones((4, 4), np.float32), [2, 2])
    with pytest.raises(ValueError, match="method"):
        tf.image.resize(np.ones((4, 4, 1), np.float32), [2, 2], method="lanczos7")
    with pytest.raises(tf.errors.InvalidArgumentError, match="inside the image"):
        tf.image.crop_to_bounding_box(np.ones((4, 4, 1), np.float32), 2, 2, 3, 3)
    with pytest.raises(ValueError, match="central_fraction"):
        tf.image.central_crop(np.ones((4, 4, 1), np.float32), 0.0)


def test_non_max_suppression_padded_and_bad_boxes():
    boxes = np.array([[0, 0, 1, 1], [0, 0.05, 1, 1.05], [0, 5, 1, 6]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    indices, valid = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.5,
                                                         pad_to_max_output_size=True)
    assert indices.numpy().tolist() == [0, 2, 0, 0, 0] and int(valid) == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[N, 4\]"):
        tf.image.non_max_suppression(boxes[:, :3], scores, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[1, rows, cols, 1\]"):
        tf.image.extract_patches(img(1, 4, 4, 1), [2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
