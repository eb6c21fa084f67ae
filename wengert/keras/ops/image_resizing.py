"""Keras 3's image colour conversions, resizing, cropping and padding (`keras.ops.image`'s
`rgb_to_grayscale`, `rgb_to_hsv`, `hsv_to_rgb`, `resize`, `crop_images`, `pad_images`,
`scale_and_translate`) over wengert's tf.image ops, for images [h, w, c] or [batch, h, w, c]
(channels-last by default; channels-first is transposed around the channels-last op).

rgb_to_grayscale is 0.2989 R + 0.5870 G + 0.1140 B (Keras's weights), in the input dtype.
resize is tf.image.resize with Keras's interpolation names; crop_to_aspect_ratio first crops the
centred box of the target's aspect ratio, pad_to_aspect_ratio pads with fill_value to it; an
integer image is rounded and saturate-cast back to its dtype. scale_and_translate is JAX's: for
each spatial axis an input-by-output weight matrix w[i, j] = k((i - s_j) / kernel_scale), with
sample point s_j = (j + 0.5 - translation) / scale - 0.5, each column normalised to sum 1 and zero
where s_j falls outside [-0.5, n - 0.5]; kernel_scale = max(1 / scale, 1) with antialiasing.
"""
import numpy as np

from ...ops.array_ops import where
from ...ops.broadcast_ops import ones_like, zeros_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as _range
from ...ops.einsum_ops import tensordot
from ...ops.image.color import rgb_to_grayscale as _grayscale
from ...ops.image.color_spaces import hsv_to_rgb as _hsv_to_rgb, rgb_to_hsv as _rgb_to_hsv
from ...ops.image.resize import resize as _resize
from ...ops.math_ops import clip_by_value, logical_and, maximum
from ...ops.pad_ops import pad
from ...ops.reduce_ops import reduce_max, reduce_min, reduce_sum
from ...ops.reshape_ops import expand_dims, transpose
from ...ops.rounding_ops import round as _round
from ...ops.shape_ops import saturate_cast
from ...ops.slice_ops import slice as _slice
from ...ops.unary_ops import abs as _abs, sin
from .convolution import data_format_of
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb", "resize", "crop_images",
           "pad_images", "scale_and_translate"]

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def images_of(images, what):
    images = convert_to_tensor(images)
    if images.shape.rank not in (3, 4):
        raise ValueError(f"{what}: invalid images rank: expected rank 3 (single image) or rank 4 "
                         f"(batch of images); got images.shape={images.shape}.")
    return images


def channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    return transpose(x, (0, 2, 3, 1) if x.shape.rank == 4 else (1, 2, 0))


def channels_first(x, data_format):
    if data_format == "channels_last":
        return x
    return transpose(x, (0, 3, 1, 2) if x.shape.rank == 4 else (2, 0, 1))


def rgb_to_grayscale(images, data_format=None):
    """One luma channel from RGB (a single channel is returned as it is)."""
    data_format = data_format_of(data_format)
    images = images_of(images, "rgb_to_grayscale")
    axis = -1 if data_format == "channels_last" else -3
    if images.shape[axis] not in (1, 3):
        raise ValueError(f"rgb_to_grayscale: expected 3 (RGB) or 1 (grayscale) channels; got "
                         f"images.shape={images.shape}.")
    if images.shape[axis] == 1:
        return images
    x = cast(images, result_type(images.dtype.name, float))
    weights = cast(np.array([0.2989, 0.5870, 0.1140]), x.dtype)
    gray = expand_dims(tensordot(x, weights, axes=[[images.shape.rank + axis], [0]]), axis)
    return cast(gray, images.dtype)


def _color(fn, images, data_format, what):
    data_format = data_format_of(data_format)
    images = images_of(images, what)
    if not images.dtype.is_floating:
        raise ValueError(f"{what}: invalid images dtype: expected a float dtype; got "
                         f"{images.dtype.name}.")
    return channels_first(fn(channels_last(images, data_format)), data_format)


def rgb_to_hsv(images, data_format=None):
    return _color(_rgb_to_hsv, images, data_format, "rgb_to_hsv")


def hsv_to_rgb(images, data_format=None):
    return _color(_hsv_to_rgb, images, data_format, "hsv_to_rgb")


def _aspect_box(images, size, larger):
    """(height, width, top, left) of the centred box of size's aspect ratio that fits inside
    (larger=False) or around (larger=True) the image."""
    height, width = images.shape[-3], images.shape[-2]
    if height is None or width is None:
        raise ValueError("resize: crop_to_aspect_ratio and pad_to_aspect_ratio need static image "
                         f"sizes; got shape {images.shape}.")
    box_h = int(np.float32(width * size[0]) / np.float32(size[1]))
    box_w = int(np.float32(height * size[1]) / np.float32(size[0]))
    if larger:
        box_h, box_w = max(height, box_h), max(width, box_w)
    else:
        box_h, box_w = max(min(height, box_h), 1), max(min(width, box_w), 1)
    return box_h, box_w, int(abs(height - box_h) / 2), int(abs(width - box_w) / 2)


def _crop_or_pad_to_aspect(images, size, crop, fill_value):
    box_h, box_w, top, left = _aspect_box(images, size, larger=not crop)
    lead = [0] * (images.shape.rank - 3)
    if crop:
        return images[..., top:top + box_h, left:left + box_w, :]
    pads = [[0, 0]] * len(lead) + [[top, top], [left, left], [0, 0]]
    return pad(images, pads, constant_values=fill_value)


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """images resized to size = (height, width) by `interpolation`."""
    data_format = data_format_of(data_format)
    if len(size) != 2 or size[0] <= 0 or size[1] <= 0:
        raise ValueError(f"resize: size must be a tuple of 2 positive integers (height, width); "
                         f"got size={size}.")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"resize: invalid interpolation {interpolation!r}; expected one of "
                         f"{INTERPOLATIONS}.")
    if fill_mode != "constant":
        raise ValueError(f"resize: only fill_mode='constant' is supported; got {fill_mode!r}.")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("resize: only one of pad_to_aspect_ratio and crop_to_aspect_ratio can "
                         "be True.")
    images = images_of(images, "resize")
    x = channels_last(images, data_format)
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        x = _crop_or_pad_to_aspect(x, size, crop_to_aspect_ratio, fill_value)
    out = channels_first(_resize(x, list(size), method=interpolation, antialias=antialias),
                         data_format)
    if out.dtype == images.dtype:
        return out
    if images.dtype.is_integer:
        out = _round(out)
    return saturate_cast(out, images.dtype)


def _edges(images, data_format, what):
    dims = images.shape.as_list()
    height, width = (dims[-3], dims[-2]) if data_format == "channels_last" else (dims[-2],
                                                                                 dims[-1])
    if height is None or width is None:
        raise ValueError(f"{what}: the image height and width must be known; got shape "
                         f"{images.shape}.")
    return height, width


def _two_of(first, second, target, names, what):
    if [first, second, target].count(None) != 1:
        raise ValueError(f"{what}: specify exactly two of {', '.join(names)}; got "
                         f"{names[0]}={first}, {names[1]}={second}, {names[2]}={target}.")
    for name, value in zip(names, (first, second, target)):
        if value is not None and value < 0:
            raise ValueError(f"{what}: {name} must be >= 0; got {name}={value}.")


def _spatial(lead, pair_h, pair_w, data_format, rest):
    inner = [pair_h, pair_w, rest] if data_format == "channels_last" else [rest, pair_h, pair_w]
    return lead + inner


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """images padded with zeros on each side (two of each side's three sizes given)."""
    data_format = data_format_of(data_format)
    images = images_of(images, "pad_images")
    _two_of(top_padding, bottom_padding, target_height,
            ("top_padding", "bottom_padding", "target_height"), "pad_images")
    _two_of(left_padding, right_padding, target_width,
            ("left_padding", "right_padding", "target_width"), "pad_images")
    height, width = _edges(images, data_format, "pad_images")
    top = target_height - bottom_padding - height if top_padding is None else top_padding
    bottom = target_height - top - height if bottom_padding is None else bottom_padding
    left = target_width - right_padding - width if left_padding is None else left_padding
    right = target_width - left - width if right_padding is None else right_padding
    for name, value in (("top_padding", top), ("bottom_padding", bottom),
                        ("left_padding", left), ("right_padding", right)):
        if value < 0:
            raise ValueError(f"pad_images: {name} must be >= 0; got {name}={value}.")
    lead = [[0, 0]] * (images.shape.rank - 3)
    return pad(images, _spatial(lead, [top, bottom], [left, right], data_format, [0, 0]))


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """The box of images left after cropping each side (two of each side's sizes given)."""
    data_format = data_format_of(data_format)
    images = images_of(images, "crop_images")
    _two_of(top_cropping, bottom_cropping, target_height,
            ("top_cropping", "bottom_cropping", "target_height"), "crop_images")
    _two_of(left_cropping, right_cropping, target_width,
            ("left_cropping", "right_cropping", "target_width"), "crop_images")
    height, width = _edges(images, data_format, "crop_images")
    top = height - target_height - bottom_cropping if top_cropping is None else top_cropping
    out_h = height - bottom_cropping - top if target_height is None else target_height
    left = width - target_width - right_cropping if left_cropping is None else left_cropping
    out_w = width - right_cropping - left if target_width is None else target_width
    for name, value in (("top_cropping", top), ("target_height", out_h),
                        ("left_cropping", left), ("target_width", out_w)):
        if value < 0:
            raise ValueError(f"crop_images: {name} must be >= 0; got {name}={value}.")
    lead = [0] * (images.shape.rank - 3)
    sizes = [-1] * (images.shape.rank - 3)
    begin = _spatial(lead, top, left, data_format, 0)
    return _slice(images, begin, _spatial(sizes, out_h, out_w, data_format, -1))


def _triangle(x):
    return maximum(zeros_like(x), 1 - _abs(x))


def _keys_cubic(x):
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return where(x >= 2.0, zeros_like(x), where(x >= 1.0, far, near))


def _lanczos(radius):
    def kernel(x):
        y = radius * sin(np.pi * x) * sin(np.pi * x / radius)
        safe = where(x != 0, np.pi ** 2 * x * x, ones_like(x))
        out = where(x > 1e-3, y / safe, ones_like(x))
        return where(x > radius, zeros_like(x), out)
    return kernel


_KERNELS = {"linear": _triangle, "bilinear": _triangle, "trilinear": _triangle,
            "cubic": _keys_cubic, "bicubic": _keys_cubic, "tricubic": _keys_cubic,
            "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0)}


def _weights(n_in, n_out, scale, translation, kernel, antialias):
    inv = 1.0 / scale
    kernel_scale = maximum(inv, cast(1.0, inv.dtype)) if antialias else 1.0
    sample = (cast(_range(n_out), scale.dtype) + 0.5) * inv - translation * inv - 0.5
    w = kernel(_abs(sample[None, :] - cast(_range(n_in), scale.dtype)[:, None]) / kernel_scale)
    total = reduce_sum(w, axis=0, keepdims=True)
    safe = where(total != 0, total, ones_like(total))
    w = where(_abs(total) > 1000.0 * float(np.finfo(np.float32).eps), w / safe, zeros_like(w))
    inside = logical_and(sample >= -0.5, sample <= n_in - 0.5)[None, :]
    return where(inside, w, zeros_like(w))


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method,
                        antialias=True):
    """JAX's scale_and_translate: each spatial axis resampled by a separable kernel."""
    if method not in _KERNELS:
        raise ValueError(f"scale_and_translate: invalid method {method!r}; expected one of "
                         f"{sorted(_KERNELS)}.")
    x = convert_to_tensor(images)
    scale, translation = convert_to_tensor(scale), convert_to_tensor(translation)
    dtype = result_type(scale.dtype.name, translation.dtype.name)
    scale, translation = cast(scale, dtype), cast(translation, dtype)
    integer = x.dtype.is_integer
    out = cast(x, "float32") if integer else x
    rank = x.shape.rank
    for i, d in enumerate(spatial_dims):
        d = d % rank
        w = cast(_weights(x.shape[d], output_shape[d], scale[i], translation[i],
                          _KERNELS[method], antialias), out.dtype)
        out = tensordot(out, w, axes=[[d], [0]])
        order = list(range(rank - 1))
        order.insert(d, rank - 1)
        out = transpose(out, order)
    if integer:
        out = cast(clip_by_value(_round(out), cast(reduce_min(x), out.dtype),
                                 cast(reduce_max(x), out.dtype)), x.dtype)
    return out
