"""Keras 3's augmentations that mix the images of a batch, and the pipeline and box-count layers:

    MixUp(alpha):       x_i' = w_i x_i + (1 - w_i) x_p(i), and the labels alike, w_i ~ Beta(alpha,
                        alpha), p a random permutation of the batch
    CutMix(factor):     a box of relative sides sqrt(1 - w_i) (w_i ~ Beta(a, a), a ~ U(factor))
                        at a random place in image i replaced by image p(i)'s pixels there; labels
                        mixed by the share of the image kept, 1 - box area / image area
    Pipeline(layers):   the layers applied in turn (with `training` passed on)
    MaxNumBoundingBoxes(max_number, fill_value): each image's boxes and box labels cut or padded
                        (with fill_value) to max_number; images pass through
Beta draws are Gamma(a) / (Gamma(a) + Gamma(b)); in traced functions they and the permutation
come from seeded random ops (random.gamma, random.shuffle) that draw afresh on every run.
"""
import numpy as np

from ...framework.context import state
from ...framework.tensor import convert_to_tensor
from ...ops.pad_ops import pad
from ...ops.random.distributions import gamma, shuffle
from .. import backend_ops as K
from ..serialization import deserialize_keras_object, serialize_keras_object
from .augmentation_layer import BaseImageAugmentationLayer, per_image
from .base import Layer

__all__ = ["MixUp", "CutMix", "Pipeline", "MaxNumBoundingBoxes"]


def beta_draws(draws, shape, alpha, beta):
    """Beta(alpha, beta) draws of `shape` from a Draws source."""
    dims = draws.dims(shape)
    if state.graph is None:
        return K.constant(np.asarray(draws.rng.beta(alpha, beta, size=dims), np.float32))
    first = gamma(dims, alpha, seed=int(draws.rng.integers(0, 2**31 - 1)))
    second = gamma(dims, beta, seed=int(draws.rng.integers(0, 2**31 - 1)))
    return first / (first + second)


def permutation(draws, n):
    """A random permutation of range(n) (int32)."""
    if state.graph is None:
        return K.constant(draws.rng.permutation(int(n)).astype(np.int32))
    return shuffle(K.range(n), seed=int(draws.rng.integers(0, 2**31 - 1)))


def _mix(values, others, weight):
    weight = K.reshape(K.cast(weight, values.dtype), [-1] + [1] * (values.shape.rank - 1))
    return weight * values + (1.0 - weight) * others


class MixUp(BaseImageAugmentationLayer):
    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        if alpha <= 0:
            raise ValueError(f"MixUp: alpha must be positive; got alpha={alpha}.")
        self.alpha = alpha

    def get_random_transformation(self, data, training=True, seed=None):
        draws, batch = self.draws(seed), self.batch_size(data)
        order = permutation(draws, batch)
        return {"mix_weight": beta_draws(draws, [batch], self.alpha, self.alpha),
                "permutation_order": order}

    def _shuffled_mix(self, values, transformation):
        values = convert_to_tensor(values)
        order = K.cast(transformation["permutation_order"], "int32")
        others = K.gather(values, order)
        return _mix(K.cast(values, "float32"), K.cast(others, "float32"),
                    transformation["mix_weight"])

    def _apply(self, images, transformation):
        return K.cast(self._shuffled_mix(images, transformation), images.dtype)

    def transform_labels(self, labels, transformation, training=True):
        return self._shuffled_mix(labels, transformation) if training else labels

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_labels(segmentation_masks, transformation, training)

    def get_config(self):
        config = super().get_config()
        config.update(alpha=self.alpha, seed=self.seed)
        return config


class CutMix(BaseImageAugmentationLayer):
    """The transformation holds Keras's boolean masks (in the layer's data format), the
    permutation and the kept share [b, 1, 1, 1]; a single image is left as it is."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, seed=seed, **kwargs)
        self.factor = self._set_factor(factor)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        if not training or len(images.shape) == 3:
            return None
        draws, batch = self.draws(seed), self.batch_size(data)
        h, w = self.image_size(data)
        alpha = float(draws.rng.uniform(*self.factor)) + 1e-6
        ratio = K.sqrt(1.0 - beta_draws(draws, [batch], alpha, alpha))
        spans = []
        for length in (w, h):
            crop = ratio * float(length)
            start = draws.uniform([batch]) * (float(length) - crop)
            spans.append((per_image(start), per_image(start + crop)))
        (x0, x1), (y0, y1) = spans
        ys = K.reshape(K.cast(K.range(h), "float32"), [1, h, 1, 1])
        xs = K.reshape(K.cast(K.range(w), "float32"), [1, 1, w, 1])
        inside = K.logical_and(K.logical_and(xs >= x0, xs < x1), K.logical_and(ys >= y0, ys < y1))
        first = self.data_format == "channels_first"
        channels = int(images.shape[1 if first else -1])
        masks = K.broadcast_to(inside, K.stack([batch, h, w, channels]))
        return {"permutation_order": permutation(draws, batch),
                "batch_masks": K.transpose(masks, [0, 3, 1, 2]) if first else masks,
                "mix_weight": 1.0 - (x1 - x0) * (y1 - y0) / float(w * h)}

    def transform_images(self, images, transformation, training=True):
        images = K.cast(convert_to_tensor(images), self.dtype or "float32")
        if not training or transformation is None:
            return images
        others = K.gather(images, K.cast(transformation["permutation_order"], "int32"))
        return K.where(K.cast(transformation["batch_masks"], "bool"), others, images)

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        labels = K.cast(convert_to_tensor(labels), "float32")
        others = K.gather(labels, K.cast(transformation["permutation_order"], "int32"))
        return _mix(labels, others, transformation["mix_weight"])

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, seed=self.seed)
        return config


class Pipeline(Layer):
    """Keras's Pipeline: a list of layers called in turn, `training` passed on."""

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {} if training is None else {"training": training}
            if mask is not None and layer._takes_mask():
                kwargs["mask"] = mask
            inputs = layer(inputs, **kwargs)
            mask = getattr(inputs, "_keras_mask", None)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        return {"layers": [serialize_keras_object(layer) for layer in self._pipeline_layers],
                "name": self.name}

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(f"Pipeline.from_config: the config must contain a `layers` key "
                             f"mapping to a list of serialized layers. Received config with "
                             f"layers={layers}.")
        return cls([deserialize_keras_object(layer) for layer in layers], name=config.get("name"))


class MaxNumBoundingBoxes(BaseImageAugmentationLayer):
    """Only bounding boxes change: {"boxes": [b, n, 4], "labels": [b, n]} cut or padded to
    max_number boxes."""

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.max_number, self.fill_value = int(max_number), int(fill_value)

    def transform_images(self, images, transformation=None, training=True):
        return images

    def transform_segmentation_masks(self, segmentation_masks, transformation=None,
                                     training=True):
        return segmentation_masks

    def _fit(self, values, rank):
        values = convert_to_tensor(values)
        count = int(values.shape[1])
        values = values[:, :self.max_number]
        if count < self.max_number:
            spec = [[0, 0], [0, self.max_number - count]] + [[0, 0]] * (rank - 2)
            values = pad(values, spec, constant_values=K.cast(self.fill_value, values.dtype))
        return values

    def transform_bounding_boxes(self, bounding_boxes, transformation=None, training=True):
        out = dict(bounding_boxes)
        out["boxes"] = self._fit(bounding_boxes["boxes"], 3)
        out["labels"] = self._fit(bounding_boxes["labels"], 2)
        return out

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            extra = set(input_shape["bounding_boxes"]) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"MaxNumBoundingBoxes: There are unsupported keys in "
                               f"`bounding_boxes`: {sorted(extra)}. Only `boxes` and `labels` "
                               "are supported.")
            shape = dict(input_shape)
            boxes = {k: list(v) for k, v in input_shape["bounding_boxes"].items()}
            for key in boxes:
                boxes[key][1] = self.max_number
            shape["bounding_boxes"] = boxes
            return shape
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(max_number=self.max_number, fill_value=self.fill_value)
        return config
