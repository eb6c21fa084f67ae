"""Keras 3's random colour augmentations, each a draw per image then a pixel-wise map:

    RandomBrightness(factor):   x + d (v1 - v0), d ~ U(factor), clipped to value_range [v0, v1]
    RandomContrast(factor):     (x - m) c + m, m the image's per-channel mean, c ~ U(1 - lo, 1 + hi)
    RandomGrayscale(factor):    with probability factor, x replaced by its luma
                                0.2989 r + 0.587 g + 0.114 b (broadcast over the channels)
    RandomInvert(factor):       with probability p ~ U(factor), x -> v1 - x
    RandomHue(factor):          hue (in HSV on [0, 1] images) shifted by +-f/2, f ~ U(factor),
                                wrapped into [0, 1]
    RandomSaturation(factor):   saturation times s / (1 - s + eps), s ~ U(factor), clipped
    RandomColorDegeneration(factor): x + f (luma - x), f ~ U(factor), clipped
    RandomPosterization(factor): on [0, 255], the low 8 - b bits cleared, b an integer in
                                [lo, hi) (bits kept)
    RandomSharpness(factor):    x + (1 - 2f)(blur(x) - x), blur the 3x3 kernel
                                [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 (zero padded)
    Solarization(addition_factor, threshold_factor): on [0, 255], y = clip(x + a, 0, 255) and
                                y -> 255 - y where y >= t, with a ~ U(0, 255 hi_a), t ~ U(0, 255 hi_t)
    RandomColorJitter(...):     brightness, contrast, saturation and hue in turn
Each is written in wengert's ops (tf.image's rgb_to_hsv / hsv_to_rgb / rgb_to_grayscale, a
depthwise convolution), so gradients flow to the image where the map is differentiable.
"""
from ...ops.image.color import rgb_to_grayscale
from ...ops.image.color_spaces import hsv_to_rgb, rgb_to_hsv
from ...ops.nn.conv.conv2d import depthwise_conv2d
from .. import backend_ops as K
from .augmentation_layer import (EPSILON, BaseImageAugmentationLayer, KeepsBoxes, per_image,
                                 rescale, value_range_pair)

__all__ = ["RandomBrightness", "RandomContrast", "RandomGrayscale", "RandomInvert", "RandomHue",
           "RandomSaturation", "RandomColorDegeneration", "RandomPosterization",
           "RandomSharpness", "Solarization", "RandomColorJitter"]


def luma(images):
    """The grayscale of channels-last RGB images (one channel); single-channel images as they
    are."""
    if int(images.shape[-1]) == 1:
        return images
    if int(images.shape[-1]) != 3:
        raise ValueError(f"rgb_to_grayscale: images need 1 or 3 channels; got shape "
                         f"{tuple(images.shape)}.")
    return rgb_to_grayscale(images)


class _ColorLayer(KeepsBoxes, BaseImageAugmentationLayer):
    """A factor drawn once per image, a value range; config: factor, value_range, seed."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)
        self.value_range = value_range_pair(value_range, type(self).__name__)

    def _draw(self, data, seed, shape_tail=()):
        draws = self.draws(seed)
        return draws.uniform([self.batch_size(data), *shape_tail], *self.factor)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, value_range=self.value_range, seed=self.seed)
        return config


class RandomBrightness(_ColorLayer):
    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        delta = self._draw(data, seed, (1, 1, 1))
        return {"rgb_delta": delta * float(self.value_range[1] - self.value_range[0])}

    def _apply(self, images, transformation):
        images = images + K.cast(transformation["rgb_delta"], images.dtype)
        return K.clip_by_value(images, *map(float, self.value_range))


class RandomContrast(_ColorLayer):
    _FACTOR_BOUNDS = (0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws = self.draws(seed)
        factor = draws.uniform([self.batch_size(data), 1, 1, 1], 1.0 - self.factor[0],
                               1.0 + self.factor[1])
        return {"contrast_factor": factor}

    def _apply(self, images, transformation):
        mean = K.reduce_mean(images, axis=[1, 2], keepdims=True)
        out = (images - mean) * K.cast(transformation["contrast_factor"], images.dtype) + mean
        return K.clip_by_value(out, *map(float, self.value_range))


class RandomGrayscale(KeepsBoxes, BaseImageAugmentationLayer):
    """The transformation is Keras's: a boolean [b, 1, 1, 1], True where the image turns gray."""

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if not 0 <= factor <= 1:
            raise ValueError(f"RandomGrayscale: `factor` should be between 0 and 1. Received: "
                             f"factor={factor}")
        self.factor = factor

    def get_random_transformation(self, images, training=True, seed=None):
        draw = self.draws(seed).uniform([self.batch_size(images)])
        return per_image(K.less(draw, float(self.factor)))

    def _apply(self, images, transformation):
        if transformation is None:
            transformation = self.get_random_transformation(images)
        gray = luma(images) + K.zeros_like(images)
        return K.where(K.broadcast_to(transformation, K.shape(images)), gray, images)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, seed=self.seed)
        return config


class RandomInvert(_ColorLayer):
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(factor, value_range, data_format, seed, **kwargs)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        probability = self._draw(data, seed)
        threshold = self.draws(seed).uniform([self.batch_size(data)])
        return {"apply_inversion": K.less(threshold, probability)}

    def _apply(self, images, transformation):
        flip = K.broadcast_to(per_image(transformation["apply_inversion"]), K.shape(images))
        return K.where(flip, float(self.value_range[1]) - images, images)


class RandomHue(_ColorLayer):
    _FACTOR_BOUNDS = (0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        draws = self.draws(seed)
        batch = self.batch_size(data)
        sign = K.where(draws.uniform([batch]) > 0.5, -1.0 * K.ones([batch]), K.ones([batch]))
        return {"factor": sign * draws.uniform([batch], *self.factor) * 0.5}

    def _apply(self, images, transformation):
        images = rgb_to_hsv(rescale(images, self.value_range, (0, 1)))
        shift = K.reshape(K.cast(transformation["factor"], images.dtype), [-1, 1, 1])
        hue = images[..., 0] + shift
        hue = K.where(hue > 1.0, hue - 1.0, hue)
        hue = K.where(hue < 0.0, hue + 1.0, hue)
        images = hsv_to_rgb(K.stack([hue, images[..., 1], images[..., 2]], axis=-1))
        return rescale(K.clip_by_value(images, 0.0, 1.0), (0, 1), self.value_range)


class RandomSaturation(_ColorLayer):
    def get_random_transformation(self, data, training=True, seed=None):
        factor = self._draw(data, seed)
        return {"factor": factor / (1.0 - factor + EPSILON)}

    def _apply(self, images, transformation):
        images = rgb_to_hsv(images)
        scale = K.reshape(K.cast(transformation["factor"], images.dtype), [-1, 1, 1])
        saturation = K.clip_by_value(images[..., 1] * scale, *map(float, self.value_range))
        return hsv_to_rgb(K.stack([images[..., 0], saturation, images[..., 2]], axis=-1))


class RandomColorDegeneration(_ColorLayer):
    def get_random_transformation(self, data, training=True, seed=None):
        return {"factor": self._draw(data, seed, (1, 1, 1))}

    def _apply(self, images, transformation):
        factor = K.cast(transformation["factor"], images.dtype)
        images = images + factor * (luma(images) - images)
        return K.clip_by_value(images, *map(float, self.value_range))


class RandomPosterization(_ColorLayer):
    _FACTOR_BOUNDS = (1, 8)

    def get_random_transformation(self, data, training=True, seed=None):
        batch = self.batch_size(data)
        low, high = self.factor
        if low != high:
            bits = self.draws(seed).integers([batch], low, high)
        else:
            bits = K.ones([batch]) * float(low)
        return {"shift_factor": 8.0 - bits}

    def _apply(self, images, transformation):
        step = K.pow(2.0, per_image(K.cast(transformation["shift_factor"], "float32")))
        pixels = K.cast(K.cast(rescale(images, self.value_range, (0, 255)), "uint8"), "float32")
        kept = K.floor(pixels / step) * step
        return K.cast(rescale(kept, (0, 255), self.value_range), images.dtype)


class RandomSharpness(_ColorLayer):
    _FACTOR_BOUNDS = (0, 1)

    def get_random_transformation(self, data, training=True, seed=None):
        return {"factor": self._draw(data, seed)}

    def _apply(self, images, transformation):
        sharpness = per_image(K.cast(transformation["factor"], images.dtype) * 2.0)
        channels = int(images.shape[-1])
        kernel = K.constant([[1.0, 1.0, 1.0], [1.0, 5.0, 1.0], [1.0, 1.0, 1.0]]) / 13.0
        kernel = K.tile(K.reshape(K.cast(kernel, images.dtype), [3, 3, 1, 1]),
                        [1, 1, channels, 1])
        smoothed = depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        images = images + (1.0 - sharpness) * (smoothed - images)
        return K.clip_by_value(images, *map(float, self.value_range))


class Solarization(KeepsBoxes, BaseImageAugmentationLayer):
    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255),
                 seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.addition_factor = self._unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = self._unit_factor(threshold_factor, "threshold_factor")
        self.value_range = value_range_pair(value_range, "Solarization")

    @staticmethod
    def _unit_factor(factor, name):
        message = (f"Solarization: The `addition_factor` and `threshold_factor` arguments "
                   f"should be a number (or a list of two numbers) in the range [0, 1]. "
                   f"Received: {name}={factor}")
        pair = list(factor) if isinstance(factor, (tuple, list)) else [0, factor]
        if len(pair) != 2 or not all(isinstance(v, (int, float)) and 0 <= v <= 1
                                     for v in pair):
            raise ValueError(message)
        return tuple(sorted(pair))

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws, shape = self.draws(seed), [self.batch_size(data), 1, 1, 1]
        return {"additions": draws.uniform(shape, self.addition_factor[0],
                                           self.addition_factor[1] * 255),
                "thresholds": draws.uniform(shape, self.threshold_factor[0],
                                            self.threshold_factor[1] * 255)}

    def _apply(self, images, transformation):
        if transformation is None:
            return images
        pixels = rescale(images, self.value_range, (0, 255))
        out = K.clip_by_value(pixels + K.cast(transformation["additions"], images.dtype),
                              0.0, 255.0)
        thresholds = K.cast(transformation["thresholds"], images.dtype)
        out = K.where(K.less(out, thresholds + K.zeros_like(out)), out, 255.0 - out)
        return rescale(out, (0, 255), self.value_range)

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range, addition_factor=self.addition_factor,
                      threshold_factor=self.threshold_factor, seed=self.seed)
        return config


class RandomColorJitter(KeepsBoxes, BaseImageAugmentationLayer):
    """Brightness, contrast, saturation and hue (those whose factor is given), in that order;
    the transformation holds each step's own, under its name."""

    _STEPS = (("brightness", RandomBrightness), ("contrast", RandomContrast),
              ("saturation", RandomSaturation), ("hue", RandomHue))

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None,
                 saturation_factor=None, hue_factor=None, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        self.steps = [(name, cls(factor=getattr(self, name + "_factor"),
                                 value_range=value_range, seed=seed))
                      for name, cls in self._STEPS if getattr(self, name + "_factor") is not None]

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws = self.draws(seed)
        return {name: step.get_random_transformation(data, seed=draws)
                for name, step in self.steps}

    def _apply(self, images, transformation):
        for name, step in self.steps:
            images = step._apply(images, transformation[name])
        return images

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range, brightness_factor=self.brightness_factor,
                      contrast_factor=self.contrast_factor,
                      saturation_factor=self.saturation_factor, hue_factor=self.hue_factor,
                      seed=self.seed)
        return config
