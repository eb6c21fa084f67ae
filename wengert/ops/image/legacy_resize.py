"""TensorFlow 1's resize ops (tf.compat.v1.image.resize_bilinear, resize_nearest_neighbor,
resize_bicubic, resize_area and resize(..., align_corners=)), as one matrix per spatial axis.

Output pixel j of a side resized from n to m samples the input at s(j), computed in float32
as TensorFlow's kernels do, with
    scale = (n - 1) / (m - 1)  if align_corners (and m > 1),   else n / m
    s(j)  = j * scale                                   (the legacy grid)
    s(j)  = (j + 1/2) * scale - 1/2                     (half_pixel_centers; nearest: no - 1/2)
    bilinear: weights 1 - f, f on max(floor s, 0) and min(ceil s, n - 1), f = s - floor s
    nearest:  the pixel min(floor s, n - 1) (round(s), halves away from 0, if align_corners),
              at least 0 with half_pixel_centers
    bicubic:  Keys' cubic at s's fraction rounded to 1/1024; the legacy grid uses a = -0.75 and
              repeats edge pixels for taps outside the image, half_pixel_centers uses a = -0.5,
              drops those taps and renormalises
    area:     each output pixel averages the input interval [j scale, (j + 1) scale), partial
              pixels weighted by their overlap, indices past the edge clamped
The image is then out = A_h x A_w^T per channel (two einsums), so every method is differentiable
in the image (TensorFlow registers no gradient for ResizeArea). Results are float32, except
nearest, which keeps the dtype.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..creation_ops import constant_value
from ..reshape_ops import expand_dims, squeeze
from ..indexing_ops import gather
from ..einsum_ops import einsum
from .geometry import pad_geometry, pad_to_bounding_box
from .resize import _keys_cubic

__all__ = ["resize_bilinear", "resize_nearest_neighbor", "resize_bicubic", "resize_area",
           "resize", "resize_images", "ResizeMethod", "resize_image_with_pad"]

_F = np.float32


class ResizeMethod:  # noqa: D101 - TensorFlow 1's constants
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_V1_NAMES = {0: "bilinear", 1: "nearest", 2: "bicubic", 3: "area", "bilinear": "bilinear",
             "nearest": "nearest", "bicubic": "bicubic", "area": "area"}


def _scale(n, m, align_corners):
    if align_corners and m > 1:
        return _F(n - 1) / _F(m - 1)
    return _F(n) / _F(m)


def _positions(n, m, align_corners, half_pixel, shift=_F(0.5)):
    j, scale = np.arange(m, dtype=_F), _scale(n, m, align_corners)
    return (j + _F(0.5)) * scale - shift if half_pixel else j * scale


def _bilinear_matrix(n, m, align_corners, half_pixel):
    s = _positions(n, m, align_corners, half_pixel)
    floor = np.floor(s)
    frac = (s - floor).astype(np.float64)
    lower = np.maximum(floor, 0).astype(int)
    upper = np.minimum(np.ceil(s), n - 1).astype(int)
    a, rows = np.zeros((m, n)), np.arange(m)
    np.add.at(a, (rows, lower), 1 - frac)
    np.add.at(a, (rows, upper), frac)
    return a


def _nearest_indices(n, m, align_corners, half_pixel):
    s = _positions(n, m, align_corners, half_pixel, shift=_F(0.0))
    if align_corners:  # roundf: halves away from zero
        index = np.where(np.abs(s - np.trunc(s)) == 0.5, np.trunc(s) + np.sign(s), np.rint(s))
    else:
        index = np.floor(s)
    index = np.minimum(index, n - 1)
    if half_pixel:
        index = np.maximum(index, 0)
    return index.astype(np.int32)


def _bicubic_matrix(n, m, align_corners, half_pixel):
    s = _positions(n, m, align_corners, half_pixel)
    base = np.floor(s)
    t = np.rint((s - base).astype(_F) * _F(1024)) / 1024.0
    cubic_a = -0.5 if half_pixel else -0.75
    a, rows = np.zeros((m, n)), np.arange(m)
    for k in range(-1, 3):
        taps = (base + k).astype(int)
        weight = _keys_cubic(t - k, cubic_a)
        if half_pixel:  # taps outside the image dropped, the rest renormalised below
            weight = np.where((taps >= 0) & (taps <= n - 1), weight, 0.0)
        np.add.at(a, (rows, np.clip(taps, 0, n - 1)), weight)
    return a / a.sum(axis=1, keepdims=True) if half_pixel else a


def _area_matrix(n, m, align_corners):
    scale = _scale(n, m, align_corners)
    a = np.zeros((m, n))
    for j in range(m):
        start, stop = _F(j) * scale, _F(j + 1) * scale
        for p in range(int(np.floor(start)), int(np.ceil(stop))):
            a[j, min(p, n - 1)] += min(stop, p + 1) - max(start, p)
    return a / float(scale)


def _images(images, what, align_corners, half_pixel_centers):
    images = convert_to_tensor(images)
    if images.shape.rank != 4 or None in tuple(images.shape[1:3]):
        raise InvalidArgumentError(f"{what}: images must be 4-dimensional [batch, height, "
                                   f"width, channels] with known height and width, got shape "
                                   f"{images.shape}.")
    if align_corners and half_pixel_centers:
        raise InvalidArgumentError(f"{what}: if half_pixel_centers is True, align_corners must "
                                   f"be False.")
    return images


def _size(size, what):
    """The static [new_height, new_width] (a list, an array, or a constant tensor in a graph)."""
    values = constant_value(convert_to_tensor(size))
    if values is None:
        raise InvalidArgumentError(f"{what}: size must be known when the graph is built (a list "
                                   f"or a constant), got the tensor {size}.")
    values = np.asarray(values).reshape(-1)
    if values.shape != (2,) or np.any(values <= 0):
        raise InvalidArgumentError(f"{what}: size must be two positive integers [new_height, "
                                   f"new_width], got {values.tolist()}.")
    return int(values[0]), int(values[1])


def _apply(images, a_h, a_w):
    x = images if images.dtype is dtypes.float32 else cast(images, dtypes.float32)
    a_h, a_w = a_h.astype(np.float32), a_w.astype(np.float32)
    return einsum("jq,biqc->bijc", a_w, einsum("ip,bpqc->biqc", a_h, x))


def resize_bilinear(images, size, align_corners=False, half_pixel_centers=False, name=None):
    with op_scope(name, "ResizeBilinear"):
        images = _images(images, "resize_bilinear", align_corners, half_pixel_centers)
        (h, w), (height, width) = images.shape[1:3], _size(size, "resize_bilinear")
        return _apply(images, _bilinear_matrix(h, height, align_corners, half_pixel_centers),
                      _bilinear_matrix(w, width, align_corners, half_pixel_centers))


def resize_bicubic(images, size, align_corners=False, half_pixel_centers=False, name=None):
    with op_scope(name, "ResizeBicubic"):
        images = _images(images, "resize_bicubic", align_corners, half_pixel_centers)
        (h, w), (height, width) = images.shape[1:3], _size(size, "resize_bicubic")
        return _apply(images, _bicubic_matrix(h, height, align_corners, half_pixel_centers),
                      _bicubic_matrix(w, width, align_corners, half_pixel_centers))


def resize_area(images, size, align_corners=False, name=None):
    with op_scope(name, "ResizeArea"):
        images = _images(images, "resize_area", align_corners, False)
        (h, w), (height, width) = images.shape[1:3], _size(size, "resize_area")
        return _apply(images, _area_matrix(h, height, align_corners),
                      _area_matrix(w, width, align_corners))


def resize_nearest_neighbor(images, size, align_corners=False, half_pixel_centers=False,
                            name=None):
    with op_scope(name, "ResizeNearestNeighbor"):
        images = _images(images, "resize_nearest_neighbor", align_corners, half_pixel_centers)
        (h, w), (height, width) = images.shape[1:3], _size(size, "resize_nearest_neighbor")
        rows = _nearest_indices(h, height, align_corners, half_pixel_centers)
        cols = _nearest_indices(w, width, align_corners, half_pixel_centers)
        return gather(gather(images, rows, axis=1), cols, axis=2)


_V1_OPS = {"bilinear": resize_bilinear, "nearest": resize_nearest_neighbor,
           "bicubic": resize_bicubic, "area": resize_area}


def resize(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
           preserve_aspect_ratio=False, name=None):
    """TensorFlow 1's resize_images: [batch, h, w, c] or [h, w, c] images resized by one of the
    four TF 1 ops with `align_corners` on the legacy grid (no half-pixel centres). An image
    already of the requested size comes back unchanged."""
    with op_scope(name, "resize"):
        method = getattr(method, "value", method)
        if method not in _V1_NAMES:
            raise ValueError(f"resize: resize method {method!r} is not implemented in "
                             f"tf.compat.v1.image.resize; use ResizeMethod.BILINEAR (0), "
                             f"NEAREST_NEIGHBOR (1), BICUBIC (2) or AREA (3), or tf.image.resize.")
        images = convert_to_tensor(images)
        rank = images.shape.rank
        if rank not in (3, 4):
            raise InvalidArgumentError(f"resize: 'images' must have rank 3 or 4, got shape "
                                       f"{images.shape}.")
        x = expand_dims(images, 0) if rank == 3 else images
        h, w = (int(d) for d in x.shape[1:3])
        height, width = _size(size, "resize")
        if preserve_aspect_ratio:
            scale = min(height / h, width / w)
            height, width = max(int(round(h * scale)), 1), max(int(round(w * scale)), 1)
        if (height, width) == (h, w):
            return images
        out = _V1_OPS[_V1_NAMES[method]](x, [height, width], align_corners=align_corners)
        return squeeze(out, [0]) if rank == 3 else out


resize_images = resize


def resize_image_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                          align_corners=False):
    """TensorFlow 1's resize_image_with_pad: resized by `resize` (above) to fit inside the
    target keeping the aspect ratio, then zero padded to it, centred."""
    image = convert_to_tensor(image)
    if image.shape.rank not in (3, 4) or None in tuple(image.shape[-3:-1]):
        raise InvalidArgumentError(f"resize_image_with_pad: 'image' must have rank 3 or 4 with "
                                   f"known height and width, got shape {image.shape}.")
    h, w = (int(d) for d in image.shape[-3:-1])
    size, top, left = pad_geometry(h, w, target_height, target_width)
    resized = resize(image, size, method=method, align_corners=align_corners)
    return pad_to_bounding_box(resized, top, left, target_height, target_width)
