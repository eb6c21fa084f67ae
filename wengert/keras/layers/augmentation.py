"""Keras's random spatial augmentations (Keras 3 semantics), active only while training:

    RandomFlip(mode):             with probability 1/2 per image, the image mirrored left-right
                                  and/or up-down as mode says (both together for
                                  "horizontal_and_vertical": one draw, as Keras draws it)
    RandomRotation(factor):       a rotation by an angle drawn from factor * [-2 pi, 2 pi] (or
                                  [lower, upper] * 2 pi), counter-clockwise when positive
    RandomZoom(height_factor, width_factor): each side scaled by 1 + a draw from the factor's
                                  range (positive zooms out, negative zooms in); width follows
                                  height when width_factor is None
    RandomTranslation(height_factor, width_factor): a shift by a draw times the side (positive
                                  moves the image down / right)
Each output pixel (x, y) samples the input at the transformed point around the image centre
c = ((w - 1) / 2, (h - 1) / 2): for a rotation by t, (x_in, y_in) - c = R(t) ((x, y) - c); for a
zoom, (x_in - c_x, y_in - c_y) = (z_w (x - c_x), z_h (y - c_y)); for a shift, (x - t_x, y - t_y).
The point goes to keras.ops.image.affine_transform as the transform [a0, a1, a2, b0, b1, b2, 0, 0]
(TensorFlow's ImageProjectiveTransformV3: bilinear or nearest, points outside folded back by
fill_mode or given fill_value), written in wengert's ops, so a traced training step draws fresh
transforms on every run, and the result is differentiable in the image.
Each layer splits the Keras 3 way (augmentation_layer.py): get_random_transformation draws
Keras's parameters ({"angle"} in degrees, {"height_zoom", "width_zoom"}, {"translations"} in
pixels, x then y) and transform_images applies given ones.
"""
import numpy as np

from .. import backend_ops as K
from ..ops.image_sampling import affine_transform
from .augmentation_layer import GeometricAugmentationLayer

__all__ = ["RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation"]

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


class _Transform(GeometricAugmentationLayer):
    """Keras's split: get_random_transformation draws each image's parameters (Keras's keys),
    transform_images samples every output pixel at its source point."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if fill_mode not in _FILL_MODES:
            raise ValueError(f"{type(self).__name__}: fill_mode {fill_mode!r} is unknown; use "
                             f"one of {list(_FILL_MODES)}.")
        if interpolation not in ("bilinear", "nearest"):
            raise ValueError(f"{type(self).__name__}: interpolation {interpolation!r} is "
                             "unknown; use 'bilinear' or 'nearest'.")
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.fill_value = fill_value

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        h, w = self.image_size(data)
        return self._parameters(self.draws(seed), self.batch_size(data), h, w)

    def _warp(self, images, transformation, interpolation):
        h, w = int(images.shape[1]), int(images.shape[2])
        matrix = self._matrix(transformation, (w - 1) / 2.0, (h - 1) / 2.0)
        return affine_transform(images, matrix, interpolation, self.fill_mode, self.fill_value)

    def get_config(self):
        config = super().get_config()
        config.update(fill_mode=self.fill_mode, interpolation=self.interpolation,
                      seed=self.seed, fill_value=self.fill_value)
        return config


def _column(values):
    return K.reshape(K.cast(values, "float32"), [-1])


def _affine(a0, a1, a2, b0, b1, b2):
    """[b, 8] projective transforms from [b] coefficient columns (broadcast)."""
    zero = K.zeros_like(a0 + a1 + a2 + b0 + b1 + b2)
    return K.stack([a0 + zero, a1 + zero, a2 + zero, b0 + zero, b1 + zero, b2 + zero, zero,
                    zero], axis=1)


class RandomRotation(_Transform):
    """The transformation: {"angle": [b] degrees}."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = factor
        self._bounds = _range(factor, "RandomRotation")

    def _parameters(self, draws, batch, h, w):
        low, high = self._bounds
        return {"angle": draws.uniform([batch], low * 360.0, high * 360.0)}

    def _matrix(self, transformation, cx, cy):
        angle = _column(transformation["angle"]) * (np.pi / 180.0)
        cos, sin = K.cos(angle), K.sin(angle)
        return _affine(cos, -sin, cx - cos * cx + sin * cy, sin, cos, cy - sin * cx - cos * cy)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor)
        return config


class RandomZoom(_Transform):
    """The transformation: {"height_zoom", "width_zoom"} [b, 1], each 1 + a draw."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "RandomZoom")
        self._w = None if width_factor is None else _range(width_factor, "RandomZoom")

    def _parameters(self, draws, batch, h, w):
        zoom_h = 1.0 + draws.uniform([batch, 1], *self._h)
        zoom_w = zoom_h if self._w is None else 1.0 + draws.uniform([batch, 1], *self._w)
        return {"height_zoom": zoom_h, "width_zoom": zoom_w}

    def _matrix(self, transformation, cx, cy):
        zoom_h, zoom_w = _column(transformation["height_zoom"]), _column(
            transformation["width_zoom"])
        zero = K.zeros_like(zoom_h)
        return _affine(zoom_w, zero, cx * (1.0 - zoom_w), zero, zoom_h, cy * (1.0 - zoom_h))

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config


class RandomTranslation(_Transform):
    """The transformation: {"translations": [b, 2]}, the (x, y) shift in pixels."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "RandomTranslation")
        self._w = _range(width_factor, "RandomTranslation")

    def _parameters(self, draws, batch, h, w):
        dy = draws.uniform([batch, 1], *self._h) * float(h)
        dx = draws.uniform([batch, 1], *self._w) * float(w)
        return {"translations": K.concat([dx, dy], axis=1)}

    def _matrix(self, transformation, cx, cy):
        shift = K.cast(transformation["translations"], "float32")
        one, zero = K.ones_like(shift[:, 0]), K.zeros_like(shift[:, 0])
        return _affine(one, zero, -shift[:, 0], zero, one, -shift[:, 1])

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config


class RandomFlip(GeometricAugmentationLayer):
    """The transformation: {"flips": [b, 1, 1, 1] booleans}."""

    _MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if mode not in self._MODES:
            raise ValueError(f"RandomFlip: mode {mode!r} is unknown; use 'horizontal', "
                             "'vertical' or 'horizontal_and_vertical'.")
        self.mode = mode
        self.interpolation = "nearest"

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draw = self.draws(seed).uniform([self.batch_size(data), 1, 1, 1])
        return {"flips": K.less_equal(draw, 0.5)}

    def _warp(self, images, transformation, interpolation):
        flips = K.broadcast_to(K.cast(transformation["flips"], "bool"), K.shape(images))
        for axis, word in ((2, "horizontal"), (1, "vertical")):
            if word in self.mode:
                images = K.where(flips, K.reverse(images, [axis]), images)
        return images

    def get_config(self):
        config = super().get_config()
        config.update(mode=self.mode, seed=self.seed)
        return config
