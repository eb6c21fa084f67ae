"""Colour adjustments and image statistics as TensorFlow's tf.image computes them, composed of
wengert's ops (so each is differentiable where TensorFlow's is).

    rgb_to_grayscale:  0.2989 R + 0.5870 G + 0.1140 B (ITU-R 601), keeping a channel axis of 1
    adjust_brightness: x + delta;   adjust_contrast: (x - mean over h, w) * factor + mean
    (integer images are read as [0, 1] floats and written back, as convert_image_dtype does;
    adjust_contrast is differentiable here though TensorFlow's AdjustContrastv2 is not)
    per_image_standardization: (x - mean) / max(stddev, 1 / sqrt(number of elements))
    image_gradients:   forward differences dy, dx, zero in the last row / column
    sobel_edges:       the 3x3 Sobel filters (dy first, then dx) with reflected borders
    total_variation:   sum |x[i+1, j] - x[i, j]| + sum |x[i, j+1] - x[i, j]| per image
    psnr:              20 log10(max_val) - 10 log10(mean squared error), per image
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..array_ops import concat, stack
from ..reshape_ops import expand_dims
from ..einsum_ops import tensordot
from ..math_ops import maximum, minimum
from ..pad_ops import pad
from ..reduce_ops import reduce_mean, reduce_sum
from ..unary_ops import abs as abs_, log, sqrt

__all__ = ["rgb_to_grayscale", "grayscale_to_rgb", "adjust_brightness", "adjust_contrast",
           "per_image_standardization", "convert_image_dtype", "image_gradients", "sobel_edges",
           "total_variation", "psnr"]

_LUMA = np.array([0.2989, 0.5870, 0.1140])


def _float(images):
    images = convert_to_tensor(images)
    return images if images.dtype.is_floating else cast(images, dtypes.float32)


def _as_float(images):
    """Integer images scaled to [0, 1] floats, as TensorFlow's colour functions read them."""
    images = convert_to_tensor(images)
    return images if images.dtype.is_floating else convert_image_dtype(images, dtypes.float32)


def _back(out, dtype, saturate=False):
    return out if dtype.is_floating else convert_image_dtype(out, dtype, saturate=saturate)


def rgb_to_grayscale(images, name=None):
    with op_scope(name, "rgb_to_grayscale"):
        images = convert_to_tensor(images)
        x = _as_float(images)
        gray = expand_dims(tensordot(x, _LUMA.astype(x.dtype.as_numpy_dtype), [[-1], [0]]), -1)
        return _back(gray, images.dtype)


def grayscale_to_rgb(images, name=None):
    with op_scope(name, "grayscale_to_rgb"):
        images = convert_to_tensor(images)
        return concat([images] * 3, -1)


def adjust_brightness(image, delta):
    image = convert_to_tensor(image)
    return _back(_as_float(image) + delta, image.dtype, saturate=True)


def adjust_contrast(images, contrast_factor):
    images = convert_to_tensor(images)
    x = _as_float(images)
    mean = reduce_mean(x, axis=[-3, -2], keepdims=True)
    return _back((x - mean) * contrast_factor + mean, images.dtype, saturate=True)


def per_image_standardization(image):
    x = _float(image)
    if x.shape.rank not in (3, 4) or None in x.shape[-3:]:
        raise InvalidArgumentError("per_image_standardization: the image needs a known [h, w, "
                                   f"c] shape, got {x.shape}.")
    count = float(np.prod(x.shape[-3:]))
    mean = reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    centred = x - mean
    std = sqrt(reduce_mean(centred * centred, axis=[-1, -2, -3], keepdims=True))
    return centred / maximum(std, 1.0 / np.sqrt(count))


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Between integer images (0..max of the type) and float images (0..1), scaling as
    TensorFlow; float to float and integer to integer casts keep the range's meaning."""
    with op_scope(name, "convert_image_dtype"):
        image = convert_to_tensor(image)
        dtype = dtypes.as_dtype(dtype)
        if image.dtype is dtype:
            return image
        src, dst = image.dtype, dtype
        if src.is_floating and dst.is_floating:
            return cast(image, dst)
        if src.is_floating:
            top = float(np.iinfo(dst.as_numpy_dtype).max)
            scaled = image * (top + 0.5)
            if saturate:
                scaled = minimum(maximum(scaled, 0.0), top)
            return cast(scaled, dst)
        top = float(np.iinfo(src.as_numpy_dtype).max)
        if dst.is_floating:
            return cast(image, dst) * (1.0 / top)
        out_top = float(np.iinfo(dst.as_numpy_dtype).max)
        return cast(cast(image, dtypes.float64) * (out_top / top), dst)


def image_gradients(image):
    x = convert_to_tensor(image)
    if x.shape.rank != 4:
        raise InvalidArgumentError(f"image_gradients: expects a 4-D [batch, h, w, c] tensor, "
                                   f"got shape {x.shape}.")
    dy = pad(x[:, 1:] - x[:, :-1], [[0, 0], [0, 1], [0, 0], [0, 0]])
    dx = pad(x[:, :, 1:] - x[:, :, :-1], [[0, 0], [0, 0], [0, 1], [0, 0]])
    return dy, dx


def sobel_edges(image):
    """[batch, h, w, c, 2]: the vertical (dy) then horizontal (dx) Sobel responses."""
    x = _float(image)
    padded = pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    h, w = x.shape[1], x.shape[2]
    ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float64)
    outs = []
    for kernel in (ky, ky.T):
        total = None
        for i in range(3):
            for j in range(3):
                if kernel[i, j]:
                    term = padded[:, i:i + h, j:j + w] * float(kernel[i, j])
                    total = term if total is None else total + term
        outs.append(total)
    return stack(outs, axis=-1)


def total_variation(images, name=None):
    with op_scope(name, "total_variation"):
        x = _float(images)
        axes = [-1, -2, -3]
        return (reduce_sum(abs_(x[..., 1:, :, :] - x[..., :-1, :, :]), axis=axes)
                + reduce_sum(abs_(x[..., :, 1:, :] - x[..., :, :-1, :]), axis=axes))


def psnr(a, b, max_val, name=None):
    with op_scope(name, "PSNR"):
        a, b = _float(a), _float(b)
        mse = reduce_mean((a - b) * (a - b), axis=[-3, -2, -1])
        return 20.0 * np.log10(max_val) - (10.0 / np.log(10.0)) * log(mse)
