"""Keras's random spatial augmentations (Keras 3 semantics), active only while training:

    RandomRotation(factor):       a rotation by an angle drawn from factor * [-2 pi, 2 pi] (or
                                  [lower, upper] * 2 pi), counter-clockwise when positive
    RandomZoom(height_factor, width_factor): each side scaled by 1 + a draw from the factor's
                                  range (positive zooms out, negative zooms in); width follows
                                  height when width_factor is None
    RandomTranslation(height_factor, width_factor): a shift by a draw times the side (positive
                                  moves the image down / right)
Each output pixel (y, x) samples the input at the transformed point around the image centre
c = ((h - 1) / 2, (w - 1) / 2), bilinearly (or at the nearest pixel); points outside the image
are folded back as `fill_mode` says (reflect, wrap, nearest) or take `fill_value` (constant).
The sampling is written in wengert's ops (coordinates, floor, gather_nd), so a traced training
step draws fresh transforms on every run, and the result is differentiable in the image.
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .base import Layer
from .noise import _uniform

__all__ = ["RandomRotation", "RandomZoom", "RandomTranslation"]

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _range(factor, what, symmetric=True):
    if isinstance(factor, (list, tuple)):
        lower, upper = float(factor[0]), float(factor[1])
    else:
        lower, upper = (-abs(float(factor)), abs(float(factor))) if symmetric else (0.0, factor)
    if lower > upper:
        raise ValueError(f"{what}: factor's lower bound {lower} is above its upper bound "
                         f"{upper}.")
    return lower, upper


def _fold(coord, size, fill_mode):
    """Coordinates folded back into [0, size - 1] as fill_mode says (tensors)."""
    if fill_mode == "reflect":
        period = 2.0 * size
        c = K.floormod(coord + 0.5, period) - 0.5
        return K.where(c > size - 0.5, period - 1.0 - c, c)
    if fill_mode == "wrap":
        return K.floormod(coord + 0.5, float(size)) - 0.5
    if fill_mode == "nearest":
        return K.clip_by_value(coord, 0.0, size - 1.0)
    return coord


def sample(images, rows, cols, fill_mode, fill_value, interpolation):
    """images [b, h, w, c] at the points (rows, cols) [b, h, w] (float32 tensors)."""
    b, h, w = (K.shape(images)[0], int(images.shape[1]), int(images.shape[2]))
    rows, cols = _fold(rows, h, fill_mode), _fold(cols, w, fill_mode)
    if interpolation == "nearest":
        rows, cols = K.floor(rows + 0.5), K.floor(cols + 0.5)
    r0, c0 = K.floor(rows), K.floor(cols)
    batch = K.broadcast_to(K.reshape(K.range(b), [-1, 1, 1]), K.shape(K.cast(rows, "int32")))
    total, weights = None, None
    for dr in (0.0, 1.0):
        for dc in (0.0, 1.0):
            rr, cc = r0 + dr, c0 + dc
            weight = (1.0 - K.abs(rows - rr)) * (1.0 - K.abs(cols - cc))
            inside = K.logical_and(K.logical_and(rr >= 0.0, rr <= h - 1.0),
                                   K.logical_and(cc >= 0.0, cc <= w - 1.0))
            weight = K.where(inside, weight, K.zeros_like(weight))
            index = K.stack([batch, K.cast(K.clip_by_value(rr, 0.0, h - 1.0), "int32"),
                             K.cast(K.clip_by_value(cc, 0.0, w - 1.0), "int32")], axis=-1)
            term = K.gather_nd(images, index) * K.expand_dims(K.cast(weight, images.dtype), -1)
            total = term if total is None else total + term
            weights = weight if weights is None else weights + weight
    if fill_mode == "constant" and fill_value:
        total = total + K.expand_dims(K.cast(fill_value * (1.0 - weights), images.dtype), -1)
    return total


class _Transform(Layer):
    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(**kwargs)
        if fill_mode not in _FILL_MODES:
            raise ValueError(f"{type(self).__name__}: fill_mode {fill_mode!r} is unknown; use "
                             f"one of {list(_FILL_MODES)}.")
        if interpolation not in ("bilinear", "nearest"):
            raise ValueError(f"{type(self).__name__}: interpolation {interpolation!r} is "
                             "unknown; use 'bilinear' or 'nearest'.")
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.seed, self.fill_value = seed, fill_value

    def _draw(self, batch, lower, upper):
        u = _uniform(self, K.stack([batch]), K.cast(0.0, "float32").dtype)
        return lower + (upper - lower) * u

    def call(self, inputs, training=True):
        x = convert_to_tensor(inputs)
        if not training:
            return x
        batched = x.shape.rank == 4
        images = x if batched else K.expand_dims(x, 0)
        h, w = int(images.shape[1]), int(images.shape[2])
        ys = K.reshape(K.cast(K.range(h), "float32"), [1, h, 1]) - (h - 1) / 2.0
        xs = K.reshape(K.cast(K.range(w), "float32"), [1, 1, w]) - (w - 1) / 2.0
        rows, cols = self._source(K.shape(images)[0], ys, xs, h, w)
        rows = rows + K.zeros_like(cols) + (h - 1) / 2.0  # both [batch, h, w]
        cols = cols + K.zeros_like(rows) + (w - 1) / 2.0
        out = sample(images, rows, cols, self.fill_mode, self.fill_value, self.interpolation)
        return out if batched else K.squeeze(out, [0])

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(fill_mode=self.fill_mode, interpolation=self.interpolation,
                      seed=self.seed, fill_value=self.fill_value)
        return config


def _per_image(values):
    return K.reshape(values, [-1, 1, 1])


class RandomRotation(_Transform):
    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.factor = factor
        self._bounds = _range(factor, "RandomRotation")

    def _source(self, batch, ys, xs, h, w):
        angle = _per_image(self._draw(batch, *self._bounds) * (2.0 * np.pi))
        cos, sin = K.cos(angle), K.sin(angle)   # the inverse rotation, in (row, col) terms
        return cos * ys + sin * xs, cos * xs - sin * ys

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor)
        return config


class RandomZoom(_Transform):
    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "RandomZoom")
        self._w = None if width_factor is None else _range(width_factor, "RandomZoom")

    def _source(self, batch, ys, xs, h, w):
        zoom_h = 1.0 + self._draw(batch, *self._h)
        zoom_w = zoom_h if self._w is None else 1.0 + self._draw(batch, *self._w)
        return _per_image(zoom_h) * ys, _per_image(zoom_w) * xs

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config


class RandomTranslation(_Transform):
    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "RandomTranslation")
        self._w = _range(width_factor, "RandomTranslation")

    def _source(self, batch, ys, xs, h, w):
        dy = _per_image(self._draw(batch, *self._h) * h)
        dx = _per_image(self._draw(batch, *self._w) * w)
        return ys - dy, xs - dx

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config
