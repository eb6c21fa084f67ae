"""Keras 3's augmentation policies, built from the single augmentation layers:

    AugMix(value_range, num_chains, chain_depth, factor, alpha, all_ops): num_chains chains of
        up to chain_depth operations each (an operation or nothing drawn per step from shear,
        translation, rotation, posterization, solarization, auto-contrast, equalization, and
        with all_ops brightness, colour degeneration, contrast and sharpness), mixed as
            x' = m x + (1 - m) sum_k w_k chain_k(x),  w ~ Dirichlet(alpha), m ~ Beta(alpha, alpha)
        and clipped to value_range
    RandAugment(value_range, num_ops, factor): num_ops times, one of eleven operations (an index
        drawn per step) applied to the whole batch
Every operation is built with the policy's `factor` (and value_range, interpolation, seed,
data_format) as Keras builds it; the transformation holds each chosen operation's own, so a fixed
transformation reproduces the result. Which operations an AugMix chain holds is decided when the
transformation is drawn (in a traced function, once per trace, as in Keras on TensorFlow).
"""
import numpy as np

from ...framework.context import state
from ...ops.random.distributions import gamma
from .. import backend_ops as K
from .augmentation import RandomRotation, RandomTranslation
from .augmentation_color import (RandomBrightness, RandomColorDegeneration, RandomContrast,
                                 RandomPosterization, RandomSharpness, Solarization)
from .augmentation_geometry import RandomShear
from .augmentation_histogram import AutoContrast, Equalization
from .augmentation_layer import BaseImageAugmentationLayer
from .augmentation_mixing import beta_draws

__all__ = ["AugMix", "RandAugment"]

_GEOMETRIC = ("random_shear", "random_translation", "random_rotation")
_TONAL = ("random_posterization", "solarization", "auto_contrast", "equalization")
_COLOUR = ("random_brightness", "random_color_degeneration", "random_contrast",
           "random_sharpness")


def dirichlet_draws(draws, n, alpha):
    """One Dirichlet(alpha, ..., alpha) draw of n weights."""
    if state.graph is None:
        return K.constant(draws.rng.dirichlet([alpha] * n).astype(np.float32))
    sample = gamma(K.constant(np.array([n], np.int32)), alpha,
                   seed=int(draws.rng.integers(0, 2**31 - 1)))
    return sample / K.reduce_sum(sample, axis=-1, keepdims=True)


class _Policy(BaseImageAugmentationLayer):
    _FACTOR_BOUNDS = (0, 1)

    def _build_operations(self, names, interpolation, data_format):
        factor, value_range, seed = self.factor, self.value_range, self.seed
        common = dict(seed=seed, data_format=data_format)
        tonal = dict(value_range=value_range, **common)
        makers = {
            "random_shear": lambda: RandomShear(factor, factor, interpolation, **common),
            "random_translation": lambda: RandomTranslation(factor, factor,
                                                            interpolation=interpolation,
                                                            **common),
            "random_rotation": lambda: RandomRotation(factor, interpolation=interpolation,
                                                      **common),
            "random_posterization": lambda: RandomPosterization(max(1, int(8 * factor[1])),
                                                                **tonal),
            "solarization": lambda: Solarization(factor, factor, **tonal),
            "auto_contrast": lambda: AutoContrast(value_range, data_format=data_format),
            "equalization": lambda: Equalization(value_range, data_format=data_format),
            "random_brightness": lambda: RandomBrightness(factor, **tonal),
            "random_color_degeneration": lambda: RandomColorDegeneration(factor, **tonal),
            "random_contrast": lambda: RandomContrast(factor, **tonal),
            "random_sharpness": lambda: RandomSharpness(factor, **tonal),
        }
        self.operations = {name: makers[name]() for name in names}


class AugMix(_Policy):
    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3,
                 alpha=1.0, all_ops=True, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.value_range, self.num_chains = value_range, int(num_chains)
        self.chain_depth, self.alpha, self.all_ops = int(chain_depth), alpha, all_ops
        self.factor = self._set_factor(factor)
        self.interpolation = interpolation
        names = _GEOMETRIC + _TONAL + (_COLOUR if all_ops else ())
        self._build_operations(names, interpolation, data_format)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws = self.draws(seed)
        names = list(self.operations) + [None]
        chains = []
        for _ in range(self.num_chains):
            picks = [names[int(draws.rng.integers(len(names)))] for _ in range(self.chain_depth)]
            chains.append([{"layer_name": name, "transformation":
                            self.operations[name].get_random_transformation(data, seed=draws)}
                           for name in picks if name is not None])
        return {"chain_mixing_weights": dirichlet_draws(draws, self.num_chains, self.alpha),
                "weight_sample": beta_draws(draws, [], self.alpha, self.alpha),
                "chain_transforms": chains}

    def _mixed(self, values, transformation, method):
        weights = K.cast(transformation["chain_mixing_weights"], "float32")
        keep = K.cast(transformation["weight_sample"], "float32")
        total = K.zeros_like(values)
        for index, chain in enumerate(transformation["chain_transforms"]):
            out = values
            for step in chain:
                operation = self.operations[step["layer_name"]]
                out = K.cast(getattr(operation, method)(out, step["transformation"]), "float32")
            total = total + out * weights[index]
        return keep * values + (1.0 - keep) * total

    def transform_images(self, images, transformation, training=True):
        images = K.cast(images, self.dtype or "float32")
        if not training or transformation is None:
            return images
        out = self._mixed(images, transformation, "transform_images")
        return K.clip_by_value(out, *map(float, self.value_range))

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        masks = K.cast(segmentation_masks, "float32")
        return self._mixed(masks, transformation, "transform_segmentation_masks")

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range, num_chains=self.num_chains,
                      chain_depth=self.chain_depth, factor=self.factor, alpha=self.alpha,
                      all_ops=self.all_ops, interpolation=self.interpolation, seed=self.seed)
        return config


class RandAugment(_Policy):
    _NAMES = _GEOMETRIC + ("random_brightness", "random_color_degeneration", "random_contrast",
                           "random_sharpness", "random_posterization", "solarization",
                           "auto_contrast", "equalization")

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear",
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.value_range, self.num_ops = value_range, int(num_ops)
        self.factor = self._set_factor(factor)
        self.interpolation = interpolation
        self._build_operations(self._NAMES, interpolation, data_format)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        draws = self.draws(seed)
        indices = K.cast(draws.integers([self.num_ops], 0, len(self._NAMES)), "int32")
        transforms = {name: self.operations[name].get_random_transformation(data, seed=draws)
                      for name in self._NAMES}
        return {"transforms": transforms, "layer_idxes": indices}

    def _chosen(self, values, transformation, method):
        indices = K.cast(transformation["layer_idxes"], "int32")
        for i in range(self.num_ops):
            for index, name in enumerate(self._NAMES):
                operation = self.operations[name]
                out = getattr(operation, method)(values, transformation["transforms"][name])
                out = K.cast(out, values.dtype)
                chosen = K.broadcast_to(K.equal(indices[i], index), K.shape(out))
                values = K.where(chosen, out, values)
        return values

    def transform_images(self, images, transformation, training=True):
        images = K.cast(images, self.dtype or "float32")
        if not training or transformation is None:
            return images
        return self._chosen(images, transformation, "transform_images")

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        return self._chosen(segmentation_masks, transformation, "transform_segmentation_masks")

    def get_config(self):
        config = super().get_config()
        config.update(value_range=self.value_range, num_ops=self.num_ops, factor=self.factor,
                      interpolation=self.interpolation, seed=self.seed)
        return config
