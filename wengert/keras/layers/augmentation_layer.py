"""The base of Keras 3's image augmentation layers (keras.layers.RandomBrightness and its kin).

Each layer is split the Keras 3 way into two steps:

    transformation = layer.get_random_transformation(data, training, seed)   (the random draws)
    images = layer.transform_images(images, transformation, training)         (deterministic)

plus transform_labels / transform_segmentation_masks for a dict input {"images", "labels",
"segmentation_masks"}, which share one transformation. A fixed transformation therefore gives
the same result as Keras's on the same dict, and `call(data, training)` is the two steps in a
row; `training=False` passes the data through. A single image [h, w, c] is treated as a batch of
one. With data_format="channels_first" images are [b, c, h, w]; the layers work in
channels-last internally (a transpose either side).

Draws come eagerly from the layer's NumPy generator (seeded by `seed`; a `seed=` integer given to
get_random_transformation uses a generator of its own, so equal seeds give equal draws), and in
traced functions from seeded random ops that draw afresh on every run.

`factor` follows Keras's rule: a number f in [lo, hi] stands for (max(-|f|, lo), |f|), a pair
for the sorted pair, with lo, hi the layer's bounds (-1, 1 unless the layer says otherwise).
`value_range` (a pair, default (0, 255)) is the range pixel values live in; colour layers map it
onto [0, 255] or [0, 1] and back: x' = (x - a) / (b - a) * (d - c) + c.
"""
import numpy as np

from ...framework.context import state
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops.random import seeded
from .. import backend
from .. import backend_ops as K
from .base import Layer

__all__ = ["BaseImageAugmentationLayer", "KeepsBoxes", "GeometricAugmentationLayer"]

EPSILON = 1e-7


class Draws:
    """Random draws from one NumPy generator (eager) or seeded random ops (traced)."""

    def __init__(self, rng):
        self.rng = rng

    def dims(self, shape):
        """`shape` as a tuple of ints (eager) or an int32 tensor (traced)."""
        if state.graph is None:
            return tuple(int(s) for s in shape)
        if not shape:
            return K.constant(np.zeros([0], np.int32))
        return K.stack([K.cast(s, "int32") for s in shape])

    def uniform(self, shape, low=0.0, high=1.0):
        shape = self.dims(shape)
        if state.graph is None:
            return K.constant(self.rng.uniform(low, high, size=shape).astype(np.float32))
        seed = int(self.rng.integers(0, 2**31 - 1))
        return seeded.uniform(shape, minval=low, maxval=high, seed=seed)

    def normal(self, shape, mean=0.0, stddev=1.0):
        shape = self.dims(shape)
        if state.graph is None:
            return K.constant(self.rng.normal(mean, stddev, size=shape).astype(np.float32))
        seed = int(self.rng.integers(0, 2**31 - 1))
        return seeded.normal(shape, mean=mean, stddev=stddev, seed=seed)

    def integers(self, shape, low, high):
        """Integers in [low, high) as float32 (floor of a uniform draw)."""
        return K.floor(self.uniform(shape, float(low), float(high)))


def value_range_pair(value_range, layer):
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(f"{layer}: The `value_range` argument should be a list of two "
                         f"numbers. Received: value_range={value_range}")
    return sorted(value_range)


def rescale(images, source, target):
    """images mapped linearly from the range `source` onto `target`."""
    if source[0] == target[0] and source[1] == target[1]:
        return images
    unit = (images - float(source[0])) / (float(source[1]) - float(source[0]))
    return unit * (float(target[1]) - float(target[0])) + float(target[0])


def per_image(values, rank=4):
    """[b] values shaped [b, 1, 1, 1] (or [b, 1, 1] for rank 3) to broadcast over images."""
    return K.reshape(values, [-1] + [1] * (rank - 1))


class BaseImageAugmentationLayer(Layer):
    """Keras 3's BaseImagePreprocessingLayer: subclasses define get_random_transformation and
    `_apply(images, transformation)` on channels-last float batches."""

    _FACTOR_BOUNDS = (-1, 1)

    def __init__(self, data_format=None, seed=None, bounding_box_format=None, **kwargs):
        super().__init__(**kwargs)
        self.bounding_box_format = bounding_box_format
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError(f"{type(self).__name__}: data_format {data_format!r} is unknown; "
                             "use 'channels_last' or 'channels_first'.")
        self.data_format = data_format or "channels_last"
        self.seed = seed

    def _set_factor(self, factor, bounds=None):
        lo, hi = bounds or self._FACTOR_BOUNDS
        message = (f"{type(self).__name__}: The `factor` argument should be a number (or a list "
                   f"of two numbers) in the range [{lo}, {hi}]. Received: factor={factor}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > hi or factor[1] < lo:
                raise ValueError(message)
            return tuple(sorted(factor))
        if isinstance(factor, (int, float, np.number)) and not isinstance(factor, bool):
            if not lo <= factor <= hi:
                raise ValueError(message)
            return (max(-abs(factor), lo), abs(factor))
        raise ValueError(message)

    def draws(self, seed=None):
        """The generator behind this call's draws: the layer's, or one made from `seed`."""
        if seed is None:
            rng = self.__dict__.get("_augment_rng")
            if rng is None:
                rng = np.random.default_rng(
                    backend.next_seed() if self.seed is None else self.seed)
                self.__dict__["_augment_rng"] = rng
            return Draws(rng)
        if isinstance(seed, Draws):
            return seed
        return Draws(np.random.default_rng(int(seed)))

    @staticmethod
    def images_of(data):
        return data["images"] if isinstance(data, dict) else data

    def batch_size(self, data):
        images = self.images_of(data)
        rank = len(images.shape)
        if rank == 3:
            return 1
        if rank != 4:
            raise ValueError(f"{type(self).__name__}: expected images of rank 3 (one image) or 4 "
                             f"(a batch); received shape {tuple(images.shape)}.")
        static = images.shape[0]
        if static is not None and state.graph is None:
            return int(static)
        return K.shape(convert_to_tensor(images))[0]

    def image_size(self, data):
        """(height, width) of the images, as Python ints."""
        shape = tuple(self.images_of(data).shape)
        if self.data_format == "channels_first":
            return int(shape[-2]), int(shape[-1])
        return int(shape[-3]), int(shape[-2])

    def get_random_transformation(self, data, training=True, seed=None):
        return None

    def _apply(self, images, transformation):
        raise NotImplementedError

    def transform_images(self, images, transformation, training=True):
        images = K.cast(convert_to_tensor(images), self.dtype or "float32")
        if not training:
            return images
        first = self.data_format == "channels_first"
        if first:
            images = K.transpose(images, [0, 2, 3, 1])
        images = self._apply(images, transformation)
        return K.transpose(images, [0, 3, 1, 2]) if first else images

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return segmentation_masks

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        raise NotImplementedError(
            f"{type(self).__name__}: moving bounding boxes is not supported by wengert's "
            "geometric augmentation layers; pass images, labels and segmentation_masks only.")

    def transform_single_image(self, image, transformation, training=True):
        out = self.transform_images(K.expand_dims(convert_to_tensor(image), 0), transformation,
                                    training)
        return K.squeeze(out, [0])

    def transform_single_label(self, label, transformation, training=True):
        out = self.transform_labels(K.expand_dims(convert_to_tensor(label), 0), transformation,
                                    training)
        return K.squeeze(out, [0])

    def transform_single_segmentation_mask(self, segmentation_mask, transformation,
                                           training=True):
        out = self.transform_segmentation_masks(
            K.expand_dims(convert_to_tensor(segmentation_mask), 0), transformation, training)
        return K.squeeze(out, [0])

    def transform_single_bounding_box(self, bounding_box, transformation, training=True):
        boxes = {k: K.expand_dims(convert_to_tensor(v), 0) if k in ("boxes", "labels") else v
                 for k, v in bounding_box.items()}
        out = self.transform_bounding_boxes(boxes, transformation, training)
        return {k: K.squeeze(convert_to_tensor(v), [0]) if k in ("boxes", "labels") else v
                for k, v in out.items()}

    def call(self, data, training=True):
        training = True if training is None else training
        if isinstance(data, dict):
            return self._call_dict(dict(data), training)
        images = convert_to_tensor(data)
        single = len(images.shape) == 3
        batch = K.expand_dims(images, 0) if single else images
        self.batch_size(batch)
        transformation = self.get_random_transformation(batch, training=training)
        out = self.transform_images(batch, transformation, training=training)
        return K.squeeze(out, [0]) if single else out

    def _call_dict(self, data, training):
        if "bounding_boxes" in data and not self.bounding_box_format:
            raise ValueError(
                f"{type(self).__name__}: You passed an input with a 'bounding_boxes' key, but "
                "you didn't specify a bounding box format. Pass a `bounding_box_format` "
                f"argument to your {type(self).__name__} layer, e.g. "
                "`bounding_box_format='xyxy'`.")
        images = convert_to_tensor(data["images"])
        single = len(images.shape) == 3
        grow = (lambda t: K.expand_dims(convert_to_tensor(t), 0)) if single else convert_to_tensor
        shrink = (lambda t: K.squeeze(t, [0])) if single else (lambda t: t)
        data["images"] = grow(images)
        transformation = self.get_random_transformation(data, training=training)
        data["images"] = shrink(self.transform_images(data["images"], transformation, training))
        if "bounding_boxes" in data:
            move = self.transform_single_bounding_box if single else self.transform_bounding_boxes
            data["bounding_boxes"] = move(dict(data["bounding_boxes"]), transformation, training)
        if "labels" in data:
            data["labels"] = shrink(self.transform_labels(grow(data["labels"]), transformation,
                                                          training))
        if "segmentation_masks" in data:
            data["segmentation_masks"] = shrink(self.transform_segmentation_masks(
                grow(data["segmentation_masks"]), transformation, training))
        return data

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(data_format=self.data_format)
        if self.bounding_box_format is not None:
            config.update(bounding_box_format=self.bounding_box_format)
        return config


class KeepsBoxes:
    """For layers that leave bounding boxes where they are (colour and contrast changes)."""

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes


class GeometricAugmentationLayer(BaseImageAugmentationLayer):
    """Layers that move pixels: `_warp(images, transformation, interpolation)` on channels-last
    images; segmentation masks follow with nearest-pixel sampling."""

    def _apply(self, images, transformation):
        if transformation is None:
            return images
        return self._warp(images, transformation, self.interpolation)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        masks = K.cast(segmentation_masks, "float32")
        first = self.data_format == "channels_first"
        masks = K.transpose(masks, [0, 2, 3, 1]) if first else masks
        out = self._warp(masks, transformation, "nearest")
        out = K.transpose(out, [0, 3, 1, 2]) if first else out
        return K.cast(out, segmentation_masks.dtype)
