"""keras.ops.image (wengert/keras/ops/image.py and the modules it gathers) against Keras 3 on
TensorFlow 2.21 (values, and gradients where TensorFlow's are exact) and, without TensorFlow,
against NumPy and finite differences."""
import numpy as np
import pytest
import scipy.ndimage

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.keras.ops import image as I
from wengert.testing import check_grads

RNG = np.random.default_rng(316)


def img(*shape, dtype=np.float32):
    return RNG.uniform(size=shape).astype(dtype)


def case(name, expr, fn, inputs, wrt=(), rtol=1e-5, atol=1e-5):
    return TFCase(name, expr, fn, inputs, wrt=wrt, rtol=rtol, atol=atol)


AFFINE = np.array([[0.9, 0.2, 1.3, -0.1, 1.1, -0.7, 0.0, 0.0],
                   [1.0, 0.0, -2.5, 0.0, 1.0, 3.2, 0.01, -0.02]], np.float32)
START = np.array([[0, 0], [8, 0], [0, 7], [8, 7]], np.float32)
END = np.array([[1, 0.5], [7, 1], [0, 6], [8, 7.5]], np.float32)
COORDS = (RNG.uniform(-3, 10, size=(2, 3, 4))).astype(np.float32)

CASES = [
    case("rgb_to_grayscale", "keras.ops.image.rgb_to_grayscale(x0)", I.rgb_to_grayscale,
         [img(2, 4, 5, 3)], wrt=[0]),
    case("rgb_to_grayscale_cf_uint8", "keras.ops.image.rgb_to_grayscale(x0, "
         "data_format='channels_first')",
         lambda x: I.rgb_to_grayscale(x, data_format="channels_first"),
         [(img(3, 4, 5) * 255).astype(np.uint8)]),
    case("rgb_to_hsv", "keras.ops.image.rgb_to_hsv(x0)", I.rgb_to_hsv, [img(2, 4, 5, 3)],
         wrt=[0], atol=1e-4),
    case("hsv_to_rgb_cf", "keras.ops.image.hsv_to_rgb(x0, data_format='channels_first')",
         lambda x: I.hsv_to_rgb(x, data_format="channels_first"), [img(2, 3, 4, 5)], atol=1e-4),
    case("resize_bilinear", "keras.ops.image.resize(x0, (5, 7))",
         lambda x: I.resize(x, (5, 7)), [img(2, 8, 9, 3)], wrt=[0]),
    case("resize_nearest_cf", "keras.ops.image.resize(x0, (11, 4), interpolation='nearest', "
         "data_format='channels_first')",
         lambda x: I.resize(x, (11, 4), interpolation="nearest", data_format="channels_first"),
         [img(3, 6, 8)], wrt=[0]),
    case("resize_bicubic_antialias", "keras.ops.image.resize(x0, (3, 4), "
         "interpolation='bicubic', antialias=True)",
         lambda x: I.resize(x, (3, 4), interpolation="bicubic", antialias=True),
         [img(1, 8, 9, 2)], wrt=[0], atol=1e-4),
    case("resize_area", "keras.ops.image.resize(x0, (4, 3), interpolation='area')",
         lambda x: I.resize(x, (4, 3), interpolation="area"), [img(1, 8, 9, 2)]),
    case("resize_lanczos3", "keras.ops.image.resize(x0, (12, 5), interpolation='lanczos3')",
         lambda x: I.resize(x, (12, 5), interpolation="lanczos3"), [img(1, 6, 8, 1)], wrt=[0],
         atol=1e-4),
    case("resize_crop_aspect", "keras.ops.image.resize(x0, (4, 4), crop_to_aspect_ratio=True)",
         lambda x: I.resize(x, (4, 4), crop_to_aspect_ratio=True), [img(2, 6, 9, 3)], wrt=[0]),
    case("resize_pad_aspect", "keras.ops.image.resize(x0, (4, 4), pad_to_aspect_ratio=True, "
         "fill_value=0.5)",
         lambda x: I.resize(x, (4, 4), pad_to_aspect_ratio=True, fill_value=0.5),
         [img(6, 9, 3)], wrt=[0]),
    case("resize_uint8", "keras.ops.image.resize(x0, (5, 3), interpolation='bicubic')",
         lambda x: I.resize(x, (5, 3), interpolation="bicubic"),
         [(img(1, 7, 6, 1) * 255).astype(np.uint8)]),
    case("affine_bilinear", "keras.ops.image.affine_transform(x0, x1)", I.affine_transform,
         [img(2, 8, 9, 3), AFFINE]),
    case("affine_nearest_wrap", "keras.ops.image.affine_transform(x0, x1, "
         "interpolation='nearest', fill_mode='wrap')",
         lambda x, t: I.affine_transform(x, t, interpolation="nearest", fill_mode="wrap"),
         [img(2, 8, 9, 3), AFFINE]),
    case("affine_reflect_single", "keras.ops.image.affine_transform(x0, x1[0], "
         "fill_mode='reflect')",
         lambda x, t: I.affine_transform(x, t[0], fill_mode="reflect"),
         [img(8, 9, 2), AFFINE * np.array([1.5, 1, 3, 1, 1.4, 2, 1, 1], np.float32)]),
    case("affine_nearest_fill_cf", "keras.ops.image.affine_transform(x0, x1, "
         "fill_mode='nearest', data_format='channels_first')",
         lambda x, t: I.affine_transform(x, t, fill_mode="nearest",
                                         data_format="channels_first"),
         [img(2, 3, 8, 9), AFFINE]),
    case("affine_constant_fill", "keras.ops.image.affine_transform(x0, x1, fill_value=0.7)",
         lambda x, t: I.affine_transform(x, t, fill_value=0.7), [img(2, 8, 9, 1), AFFINE * 1.3]),
    case("perspective", "keras.ops.image.perspective_transform(x0, x1, x2)",
         I.perspective_transform, [img(8, 9, 3), START, END], atol=1e-4),
    case("perspective_nearest_batch", "keras.ops.image.perspective_transform(x0, x1, x2, "
         "interpolation='nearest', fill_value=1.0)",
         lambda x, s, e: I.perspective_transform(x, s, e, interpolation="nearest",
                                                 fill_value=1.0),
         [img(2, 8, 9, 1), np.stack([START, START]), np.stack([END, START * 0.8])],
         atol=1e-4),
    case("map_coordinates_linear", "keras.ops.image.map_coordinates(x0, x1, 1)",
         lambda x, c: I.map_coordinates(x, c, 1), [img(8, 9), COORDS], wrt=[0]),
] + [
    case(f"map_coordinates_{mode}_{order}",
         f"keras.ops.image.map_coordinates(x0, x1, {order}, fill_mode={mode!r}, "
         "fill_value=0.25)",
         lambda x, c, mode=mode, order=order: I.map_coordinates(x, c, order, fill_mode=mode,
                                                                fill_value=0.25),
         [img(8, 9), COORDS], wrt=[0])
    for mode in ("constant", "nearest", "wrap", "reflect") for order in (0, 1)
] + [
    case("gaussian_blur", "keras.ops.image.gaussian_blur(x0)", I.gaussian_blur,
         [img(2, 6, 7, 3)], wrt=[0]),
    case("gaussian_blur_rect_cf", "keras.ops.image.gaussian_blur(x0, kernel_size=(5, 3), "
         "sigma=(2.0, 0.5), data_format='channels_first')",
         lambda x: I.gaussian_blur(x, kernel_size=(5, 3), sigma=(2.0, 0.5),
                                   data_format="channels_first"), [img(3, 7, 6)], wrt=[0]),
    case("sobel_edges", "keras.ops.image.sobel_edges(x0)", I.sobel_edges, [img(2, 5, 6, 3)],
         wrt=[0]),
    case("sobel_edges_cf", "keras.ops.image.sobel_edges(x0, data_format='channels_first')",
         lambda x: I.sobel_edges(x, data_format="channels_first"), [img(2, 3, 5, 6)], wrt=[0]),
    case("ssim", "keras.ops.image.ssim(x0, x1, filter_size=5)",
         lambda a, b: I.ssim(a, b, filter_size=5), [img(2, 9, 8, 3), img(2, 9, 8, 3)],
         wrt=[0, 1]),
    case("ssim_single_cf", "keras.ops.image.ssim(x0, x1, max_val=2.0, filter_size=3, "
         "filter_sigma=0.8, data_format='channels_first')",
         lambda a, b: I.ssim(a, b, max_val=2.0, filter_size=3, filter_sigma=0.8,
                             data_format="channels_first"), [img(2, 6, 7), img(2, 6, 7)],
         wrt=[0, 1]),
    case("extract_patches", "keras.ops.image.extract_patches(x0, 3)",
         lambda x: I.extract_patches(x, 3), [img(2, 7, 8, 2)], wrt=[0]),
    case("extract_patches_same_dilated", "keras.ops.image.extract_patches(x0, (2, 3), "
         "strides=(1, 2), dilation_rate=1, padding='same')",
         lambda x: I.extract_patches(x, (2, 3), strides=(1, 2), padding="same"),
         [img(6, 7, 2)], wrt=[0]),
    case("extract_patches_3d", "keras.ops.image.extract_patches_3d(x0, 2)",
         lambda x: I.extract_patches_3d(x, 2), [img(1, 4, 5, 4, 2)], wrt=[0]),
    case("extract_patches_via_3d_size", "keras.ops.image.extract_patches(x0, (2, 2, 3), "
         "strides=1)", lambda x: I.extract_patches(x, (2, 2, 3), strides=1),
         [img(3, 4, 5, 1)], wrt=[0]),
    case("pad_images", "keras.ops.image.pad_images(x0, 1, 2, target_height=7, "
         "target_width=9)", lambda x: I.pad_images(x, 1, 2, target_height=7, target_width=9),
         [img(2, 4, 5, 3)], wrt=[0]),
    case("pad_images_cf", "keras.ops.image.pad_images(x0, bottom_padding=2, right_padding=1, "
         "target_height=6, target_width=6, data_format='channels_first')",
         lambda x: I.pad_images(x, bottom_padding=2, right_padding=1, target_height=6,
                                target_width=6, data_format="channels_first"),
         [img(3, 4, 5)], wrt=[0]),
    case("crop_images", "keras.ops.image.crop_images(x0, 1, 2, bottom_cropping=1, "
         "target_width=3)",
         lambda x: I.crop_images(x, 1, 2, bottom_cropping=1, target_width=3),
         [img(2, 6, 7, 3)], wrt=[0]),
    case("crop_images_cf", "keras.ops.image.crop_images(x0, right_cropping=2, "
         "bottom_cropping=1, target_height=3, target_width=4, data_format='channels_first')",
         lambda x: I.crop_images(x, right_cropping=2, bottom_cropping=1, target_height=3,
                                 target_width=4, data_format="channels_first"),
         [img(3, 6, 7)], wrt=[0]),
] + [
    case(f"scale_and_translate_{method}_{aa}",
         f"keras.ops.image.scale_and_translate(x0, (2, 11, 5, 3), x1, x2, (1, 2), {method!r}, "
         f"antialias={aa})",
         lambda x, s, t, method=method, aa=aa: I.scale_and_translate(
             x, (2, 11, 5, 3), s, t, (1, 2), method, antialias=aa),
         [img(2, 7, 8, 3), np.array([1.6, 0.6], np.float32), np.array([0.5, -1.0], np.float32)],
         wrt=[0], atol=1e-4)
    for method in ("linear", "cubic", "lanczos3") for aa in (True, False)
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("c", CASES, ids=repr)
def test_against_keras(c, tf_results):
    check(c, tf_results[c.name])


# -- without TensorFlow ----------------------------------------------------------------------
def test_values_against_numpy_and_scipy():
    x = img(2, 5, 6, 3, dtype=np.float64)
    np.testing.assert_allclose(I.rgb_to_grayscale(x)[..., 0], x @ [0.2989, 0.5870, 0.1140])
    identity = np.array([1, 0, 0, 0, 1, 0, 0, 0], np.float32)
    np.testing.assert_allclose(I.affine_transform(x, identity), x)
    shift = np.array([1, 0, 2, 0, 1, 1, 0, 0], np.float32)  # output (y, x) reads (y+1, x+2)
    want = np.zeros_like(x)
    want[:, :4, :4] = x[:, 1:, 2:]
    np.testing.assert_allclose(I.affine_transform(x, shift), want)
    plane, coords = x[0, ..., 0], RNG.uniform(-2, 7, size=(2, 4, 3))
    for order, mode in ((0, "nearest"), (1, "nearest"), (1, "wrap")):
        np.testing.assert_allclose(I.map_coordinates(plane, coords, order, fill_mode=mode),
                                   scipy.ndimage.map_coordinates(plane, coords, order=order,
                                                                 mode="grid-wrap" if mode == "wrap"
                                                                 else mode), atol=1e-12)
    patches = np.asarray(I.extract_patches(x, 2))
    np.testing.assert_allclose(patches[0, 1, 2], x[0, 2:4, 4:6].reshape(-1))
    padded = np.asarray(I.pad_images(x, 1, 2, 0, 1))
    np.testing.assert_allclose(padded, np.pad(x, [(0, 0), (1, 0), (2, 1), (0, 0)]))
    np.testing.assert_allclose(I.crop_images(padded, 1, 2, 0, 1), x)
    np.testing.assert_allclose(I.elastic_transform(x, alpha=0.0, seed=3), x, atol=1e-12)
    np.testing.assert_allclose(I.elastic_transform(x, seed=3), I.elastic_transform(x, seed=3))
    same = np.asarray(I.ssim(x, x, filter_size=3))
    np.testing.assert_allclose(same, [1.0, 1.0])
    with pytest.raises(ValueError, match="interpolation"):
        I.resize(x, (2, 2), interpolation="cubic")


@pytest.mark.parametrize("fn, args", [
    (lambda x: I.affine_transform(x, np.array([0.9, 0.2, 0.3, -0.1, 1.1, -0.7, 0.01, 0.0],
                                              np.float32), fill_mode="reflect"),
     [img(1, 4, 5, 1, dtype=np.float64)]),
    (lambda x: I.perspective_transform(x, START / 2, END / 2), [img(4, 5, 1, dtype=np.float64)]),
    (lambda x: I.map_coordinates(x, COORDS.astype(np.float64) / 2, 1),
     [img(4, 5, dtype=np.float64)]),
    (lambda x: I.hsv_to_rgb(x), [img(2, 2, 3, dtype=np.float64) * 0.8 + 0.1]),
    (lambda x, s: I.scale_and_translate(x, (1, 6, 4, 1), s, np.array([0.3, -0.2]), (1, 2),
                                        "cubic"),
     [img(1, 4, 5, 1, dtype=np.float64), np.array([1.4, 0.8])]),
    (lambda a, b: I.ssim(a, b, filter_size=3), [img(1, 4, 4, 2, dtype=np.float64),
                                                img(1, 4, 4, 2, dtype=np.float64)]),
    (lambda x: I.elastic_transform(x, alpha=2.0, sigma=1.0, seed=5),
     [img(1, 5, 5, 1, dtype=np.float64)]),
], ids=["affine", "perspective", "map_coordinates", "hsv_to_rgb",
        "scale_and_translate", "ssim", "elastic"])
def test_gradients_by_finite_differences(fn, args):
    check_grads(fn, args, order=1, rtol=1e-4, atol=1e-6)
