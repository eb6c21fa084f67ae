"""Keras 3's resampling image ops (`keras.ops.image`'s `affine_transform`,
`perspective_transform`, `map_coordinates`, `elastic_transform`) written in wengert's ops, so the
result is differentiable in the images (exactly: the adjoint of the sampling, where TensorFlow's
projective-transform gradient applies the inverse transform instead).

affine_transform and perspective_transform follow TensorFlow's ImageProjectiveTransformV3: the
output pixel (x, y) (column, row; pixel centres at integers) samples the input at
    ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k),  k = c0 x + c1 y + 1
for the transform [a0, a1, a2, b0, b1, b2, c0, c1] (k = 0 gives fill_value). Points outside
the image are first folded back by fill_mode ("reflect": d c b a | a b c d | d c b a, "wrap",
"nearest": clamp; "constant" leaves them), then read bilinearly (or at the nearest pixel,
rounding halves away from zero) with neighbours outside the image reading fill_value.
perspective_transform solves the 8 x 8 linear system for the homography taking end_points to
start_points. map_coordinates is scipy.ndimage's (order 0 or 1) as Keras's TensorFlow backend
writes it; elastic_transform displaces every pixel by alpha times Gaussian-blurred normal noise
(drawn once from `seed` for both axes, as Keras draws it) and resamples with map_coordinates.
"""
import itertools

import numpy as np

from ...ops.array_ops import stack, unstack, where
from ...ops.broadcast_ops import broadcast_to, zeros_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as _range, shape as dynamic_shape
from ...ops.indexing_ops import gather_nd
from ...ops.linalg.solves import solve
from ...ops.math_ops import clip_by_value, floormod, logical_and
from ...ops.random.stateless import stateless_normal
from ...ops.reduce_ops import reduce_all
from ...ops.reshape_ops import expand_dims, reshape, squeeze
from ...ops.rounding_ops import floor, round as _round
from ...ops.unary_ops import abs as _abs, sign
from .. import backend
from .core import convert_to_tensor
from .image_filters import gaussian_blur
from .image_resizing import channels_first, channels_last, data_format_of, images_of

__all__ = ["affine_transform", "perspective_transform", "map_coordinates",
           "elastic_transform"]

FILL_MODES = ("constant", "nearest", "wrap", "reflect")


def _trunc(v):
    return sign(v) * floor(_abs(v))


def _fold(c, n, fill_mode):
    """TensorFlow's MapCoordinate: coordinates c along an axis of n pixels folded back."""
    if fill_mode == "constant":
        return c
    if fill_mode != "nearest" and n <= 1:
        return zeros_like(c)
    if fill_mode == "reflect":
        span = 2.0 * n
        low = span * _trunc(-c / span) + c
        low = where(low < -n, low + span, -low - 1)
        high = c - span * _trunc(c / span)
        high = where(high >= n, span - high - 1, high)
        c = where(c < 0, low, where(c > n - 1, high, c))
    elif fill_mode == "wrap":
        period = float(n - 1)
        c = where(c < 0, c + n * (_trunc(-c / period) + 1),
                  where(c > n - 1, c - n * _trunc(c / period), c))
    return clip_by_value(c, 0.0, n - 1.0)


def _read(images, batch, rows, cols, fill):
    h, w = images.shape[1], images.shape[2]
    inside = logical_and(logical_and(rows >= 0, rows <= h - 1),
                         logical_and(cols >= 0, cols <= w - 1))
    index = stack([batch, cast(clip_by_value(rows, 0.0, h - 1.0), "int32"),
                   cast(clip_by_value(cols, 0.0, w - 1.0), "int32")], axis=-1)
    return where(expand_dims(inside, -1), gather_nd(images, index), fill)


def project(images, transforms, interpolation, fill_mode, fill_value):
    """images [b, h, w, c] through projective transforms [b or 1, 8] (TensorFlow's V3 op)."""
    h, w = images.shape[1], images.shape[2]
    t = [reshape(v, [-1, 1, 1]) for v in unstack(cast(transforms, "float32"), 8, axis=1)]
    ys = reshape(cast(_range(h), "float32"), [1, h, 1])
    xs = reshape(cast(_range(w), "float32"), [1, 1, w])
    k = t[6] * xs + t[7] * ys + 1.0
    safe = where(k == 0, k + 1.0, k)
    cols = _fold((t[0] * xs + t[1] * ys + t[2]) / safe, w, fill_mode)
    rows = _fold((t[3] * xs + t[4] * ys + t[5]) / safe, h, fill_mode)
    shape = dynamic_shape(rows + cols + zeros_like(images[..., 0], dtype="float32"))
    rows, cols = broadcast_to(rows, shape), broadcast_to(cols, shape)
    batch = broadcast_to(reshape(_range(shape[0]), [-1, 1, 1]), shape)
    fill = cast(fill_value, images.dtype)
    if interpolation == "nearest":
        out = _read(images, batch, sign(rows) * floor(_abs(rows) + 0.5),
                    sign(cols) * floor(_abs(cols) + 0.5), fill)
    else:
        r0, c0 = floor(rows), floor(cols)
        out = None
        for dr, dc in itertools.product((0.0, 1.0), repeat=2):
            weight = (1.0 - _abs(rows - (r0 + dr))) * (1.0 - _abs(cols - (c0 + dc)))
            term = _read(images, batch, r0 + dr, c0 + dc, fill) * expand_dims(
                cast(weight, images.dtype), -1)
            out = term if out is None else out + term
    return where(expand_dims(broadcast_to(k == 0, shape), -1), fill + zeros_like(out), out)


def _check(interpolation, fill_mode, what):
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(f"{what}: invalid interpolation {interpolation!r}; expected 'nearest' "
                         "or 'bilinear'.")
    if fill_mode not in FILL_MODES:
        raise ValueError(f"{what}: invalid fill_mode {fill_mode!r}; expected one of "
                         f"{FILL_MODES}.")


def _batched(images, data_format):
    single = images.shape.rank == 3
    x = expand_dims(images, 0) if single else images
    return channels_last(x, data_format), single


def _unbatched(x, single, data_format):
    x = channels_first(x, data_format)
    return squeeze(x, [0]) if single else x


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """images resampled through projective transforms [8] or [batch, 8]."""
    data_format = data_format_of(data_format)
    _check(interpolation, fill_mode, "affine_transform")
    images, transform = images_of(images, "affine_transform"), convert_to_tensor(transform)
    if transform.shape.rank not in (1, 2):
        raise ValueError(f"affine_transform: invalid transform rank: expected 1 or 2; got "
                         f"transform.shape={transform.shape}.")
    x, single = _batched(images, data_format)
    transform = expand_dims(transform, 0) if transform.shape.rank == 1 else transform
    return _unbatched(project(x, transform, interpolation, fill_mode, fill_value), single,
                      data_format)


def homography(start_points, end_points):
    """The [batch, 8] transforms taking each end point to its start point."""
    rows, targets = [], []
    for i in range(4):
        sx, sy = start_points[:, i, 0], start_points[:, i, 1]
        ex, ey = end_points[:, i, 0], end_points[:, i, 1]
        one, zero = ex * 0 + 1, ex * 0
        rows.append(stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], axis=-1))
        rows.append(stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], axis=-1))
        targets += [sx, sy]
    return reshape(solve(stack(rows, axis=1), expand_dims(stack(targets, -1), -1)), [-1, 8])


def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0, data_format=None):
    """images warped so that start_points [(batch,) 4, 2] move to end_points."""
    data_format = data_format_of(data_format)
    _check(interpolation, "constant", "perspective_transform")
    images = images_of(images, "perspective_transform")
    start, end = convert_to_tensor(start_points, "float32"), convert_to_tensor(end_points,
                                                                               "float32")
    for name, p in (("start_points", start), ("end_points", end)):
        if p.shape.rank not in (2, 3) or tuple(p.shape[-2:]) != (4, 2):
            raise ValueError(f"perspective_transform: invalid {name} shape: expected (4, 2) or "
                             f"(N, 4, 2); got {p.shape}.")
    if start.shape != end.shape:
        raise ValueError(f"perspective_transform: start_points and end_points must have the same "
                         f"shape; got {start.shape} and {end.shape}.")
    if start.shape.rank == 2:
        start, end = expand_dims(start, 0), expand_dims(end, 0)
    x, single = _batched(images, data_format)
    out = project(x, homography(start, end), interpolation, "constant", fill_value)
    return _unbatched(out, single, data_format)


def _fix(index, size, fill_mode):
    if fill_mode == "constant":
        return clip_by_value(index, 0, size - 1), logical_and(index >= 0, index < size)
    if fill_mode == "nearest":
        return clip_by_value(index, 0, size - 1), None
    if fill_mode == "wrap":
        return floormod(index, size), None
    index = _abs(index)
    folded = floormod(index, 2 * size)
    under = folded < size
    index = where(under, folded, 2 * size - folded)
    return (where(under, index, index - 1) if fill_mode == "reflect" else index), None


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """inputs sampled at coordinates [rank, ...] by nearest (order 0) or linear (order 1)."""
    x, coords = convert_to_tensor(inputs), convert_to_tensor(coordinates)
    if coords.shape.rank < 2 or coords.shape[0] != x.shape.rank:
        raise ValueError(f"map_coordinates: coordinates must have rank >= 2 and a first "
                         f"dimension equal to the rank of inputs; got {coords.shape} for inputs "
                         f"of shape {x.shape}.")
    if fill_mode not in FILL_MODES + ("mirror",):
        raise ValueError(f"map_coordinates: invalid fill_mode {fill_mode!r}.")
    if order not in (0, 1):
        raise NotImplementedError(f"map_coordinates: order must be 0 or 1; got {order} (as on "
                                  "Keras's TensorFlow backend).")
    axes = []
    for c, size in zip(unstack(coords, axis=0), x.shape.as_list()):
        if order == 0:
            nodes = [(cast(c if c.dtype.is_integer else _round(c), "int32"), None)]
        else:
            low = floor(c)
            nodes = [(cast(low, "int32"), 1 - (c - low)), (cast(low, "int32") + 1, c - low)]
        axes.append([_fix(i, size, fill_mode) + (w,) for i, w in nodes])
    total = None
    for combo in itertools.product(*axes):
        index = stack([i for i, _, _ in combo], axis=-1)
        value = cast(gather_nd(x, index), coords.dtype if coords.dtype.is_floating else x.dtype)
        valid = [v for _, v, _ in combo if v is not None]
        if valid:
            value = where(reduce_all(stack(valid), axis=0), value,
                          cast(fill_value, value.dtype) + zeros_like(value))
        for _, _, w in combo:
            value = value if w is None else value * w
        total = value if total is None else total + value
    if x.dtype.is_integer:
        total = _round(total)
    return cast(total, x.dtype)


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None, data_format=None):
    """images resampled at pixels displaced by alpha * blur_sigma(normal noise)."""
    data_format = data_format_of(data_format)
    _check(interpolation, fill_mode, "elastic_transform")
    images = images_of(images, "elastic_transform")
    x, single = _batched(images, data_format)
    batch, height, width, channels = x.shape.as_list()
    if None in (batch, height, width, channels):
        raise ValueError(f"elastic_transform: the image shape must be static; got {x.shape}.")
    seed = [backend.next_seed() if seed is None else int(seed), 0]
    noise = stateless_normal([batch, height, width, 1], seed=seed, dtype=x.dtype) * sigma
    size = 6 * int(sigma) | 1
    shift = alpha * squeeze(gaussian_blur(noise, (size, size), (sigma, sigma)), [-1])
    ys, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    rows, cols = ys.astype(x.dtype.as_numpy_dtype) + shift, xs.astype(
        x.dtype.as_numpy_dtype) + shift
    order = ("nearest", "bilinear").index(interpolation)
    out = stack([stack([map_coordinates(x[b, ..., c], stack([rows[b], cols[b]]), order,
                                        fill_mode, fill_value) for b in range(batch)])
                 for c in range(channels)], axis=-1)
    return _unbatched(cast(out, x.dtype), single, data_format)
