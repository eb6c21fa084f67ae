"""Colour spaces and tone adjustments, as TensorFlow's tf.image computes them (compositions of
wengert's ops, differentiable in the image):

    rgb_to_yuv / yuv_to_rgb: the 3 x 3 matrices of TensorFlow (BT.601 Y, scaled U and V)
    rgb_to_yiq / yiq_to_rgb: TensorFlow's NTSC matrices, in the images' own dtype
    rgb_to_hsv: v = max(r, g, b), s = (v - min) / v (0 when v = 0), h from the channel that is
        largest: ((g - b) / d, 2 + (b - r) / d or 4 + (r - g) / d) / 6, wrapped into [0, 1)
    hsv_to_rgb: each channel (1 - s + s f_k(6h)) v with TensorFlow's clamped ramps f_k
    adjust_saturation: s scaled by `factor` and clipped to [0, 1]; adjust_hue: h + delta mod 1
    adjust_gamma: gain * x ** gamma
Integer images are read as [0, 1] floats and written back (convert_image_dtype).
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..array_ops import stack, unstack, where
from ..math_ops import clip_by_value
from ..einsum_ops import tensordot
from ..math_ops import floormod, maximum, minimum
from ..unary_ops import abs as abs_
from .color import _as_float, _back

__all__ = ["rgb_to_yuv", "yuv_to_rgb", "rgb_to_yiq", "yiq_to_rgb", "rgb_to_hsv", "hsv_to_rgb",
           "adjust_saturation", "adjust_hue", "adjust_gamma"]

_RGB_TO_YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                        [0.114, 0.43601035, -0.10001026]])
_YUV_TO_RGB = np.array([[1, 1, 1], [0, -0.394642334, 2.03206185],
                        [1.13988303, -0.58062185, 0]])

_RGB_TO_YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                        [0.114, -0.32134392, 0.31119955]])
_YIQ_TO_RGB = np.array([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
                        [0.6208248, -0.64720424, 1.70423049]])


def _mix(images, matrix):
    x = _as_float(convert_to_tensor(images))
    return tensordot(x, matrix.astype(x.dtype.as_numpy_dtype), [[-1], [0]])


def rgb_to_yuv(images):
    return _mix(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    return _mix(images, _YUV_TO_RGB)


def rgb_to_yiq(images):
    images = convert_to_tensor(images)  # TensorFlow mixes in the images' dtype, unconverted
    return tensordot(images, _RGB_TO_YIQ.astype(images.dtype.as_numpy_dtype), [[-1], [0]])


def yiq_to_rgb(images):
    images = convert_to_tensor(images)
    return tensordot(images, _YIQ_TO_RGB.astype(images.dtype.as_numpy_dtype), [[-1], [0]])


def rgb_to_hsv(images, name=None):
    with op_scope(name, "rgb_to_hsv"):
        x = _as_float(convert_to_tensor(images))
        r, g, b = unstack(x, 3, axis=-1)
        v = maximum(maximum(r, g), b)
        delta = v - minimum(minimum(r, g), b)
        safe_v = where(v > 0, v, 1.0)
        s = where(v > 0, delta / safe_v, 0.0)
        d = where(delta > 0, delta, 1.0)
        h = where(r >= v, (g - b) / d, where(g >= v, 2.0 + (b - r) / d, 4.0 + (r - g) / d)) / 6.0
        h = where(delta > 0, where(h < 0, h + 1.0, h), 0.0)
        return stack([h, s, v], axis=-1)


def hsv_to_rgb(images, name=None):
    with op_scope(name, "hsv_to_rgb"):
        x = _as_float(convert_to_tensor(images))
        h, s, v = unstack(x, 3, axis=-1)
        dh = h * 6.0
        ramps = (clip_by_value(abs_(dh - 3.0) - 1.0, 0.0, 1.0),
                 clip_by_value(2.0 - abs_(dh - 2.0), 0.0, 1.0),
                 clip_by_value(2.0 - abs_(dh - 4.0), 0.0, 1.0))
        return stack([(1.0 - s + s * f) * v for f in ramps], axis=-1)


def adjust_saturation(image, saturation_factor, name=None):
    with op_scope(name, "adjust_saturation"):
        image = convert_to_tensor(image)
        h, s, v = unstack(rgb_to_hsv(image), 3, axis=-1)
        s = clip_by_value(s * saturation_factor, 0.0, 1.0)
        return _back(hsv_to_rgb(stack([h, s, v], axis=-1)), image.dtype)


def adjust_hue(image, delta, name=None):
    with op_scope(name, "adjust_hue"):
        if not -1.0 <= delta <= 1.0:
            raise ValueError(f"adjust_hue: delta must be in [-1, 1], got {delta}.")
        image = convert_to_tensor(image)
        h, s, v = unstack(rgb_to_hsv(image), 3, axis=-1)
        h = floormod(h + delta, 1.0)
        return _back(hsv_to_rgb(stack([h, s, v], axis=-1)), image.dtype)


def adjust_gamma(image, gamma=1, gain=1):
    if gamma < 0:
        raise ValueError(f"adjust_gamma: gamma must be non-negative, got {gamma}.")
    image = convert_to_tensor(image)
    return _back(gain * _as_float(image) ** gamma, image.dtype)
