"""Keras's image and numeric preprocessing layers (Keras 3 semantics), built on tf.image and
wengert's ops, differentiable where the computation is:

    Rescaling(scale, offset):   x * scale + offset
    Resizing(h, w, interpolation, crop_to_aspect_ratio): tf.image.resize (a centred crop to the
                                target's aspect ratio first when asked)
    CenterCrop(h, w):           the centred h x w window (a smaller image: smart_resize to h x w,
                                the largest centred window of that aspect ratio, resized)
    Normalization(axis, mean, variance, invert): (x - mean) / max(sqrt(variance), 1e-7), with
                                mean and variance given or learned by adapt(data) over every
                                axis but `axis`; invert maps back
(RandomFlip lives with the other spatial augmentations in augmentation.py.)
Images are [batch, h, w, c] (or [h, w, c]) in channels_last.
"""
import numpy as np

from ...ops.image.geometry import crop_to_bounding_box
from ...ops.image.resize import resize as resize_images
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .augmentation import RandomFlip  # noqa: F401
from .base import Layer

__all__ = ["Rescaling", "Resizing", "CenterCrop", "Normalization", "RandomFlip"]


class Rescaling(Layer):
    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        x = K.cast(inputs, self.compute_dtype) if not inputs.dtype.is_floating else inputs
        return x * K.cast(self.scale, x.dtype) + K.cast(self.offset, x.dtype)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(scale=self.scale, offset=self.offset)
        return config


def _with_image_size(input_shape, height, width):
    """input_shape with the image's size (the two axes before the channels) height x width."""
    shape = list(TensorShape(input_shape))
    shape[-3:-1] = [height, width]
    return TensorShape(shape)


def _hw(inputs):
    o = inputs.shape.rank - 3
    return int(inputs.shape[o]), int(inputs.shape[o + 1])


def _smart_resize(x, height, width, interpolation="bilinear", antialias=False):
    """Keras's smart_resize: the largest centred window of the target's aspect ratio, resized
    to (height, width)."""
    h, w = _hw(x)
    crop_h, crop_w = min(h, int(w * height / width)), min(w, int(h * width / height))
    x = crop_to_bounding_box(x, int((h - crop_h) / 2), int((w - crop_w) / 2), crop_h, crop_w)
    return resize_images(x, [height, width], method=interpolation, antialias=antialias)


class Resizing(Layer):
    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 antialias=False, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)
        self.interpolation, self.antialias = interpolation, antialias
        self.crop_to_aspect_ratio = crop_to_aspect_ratio

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if self.crop_to_aspect_ratio:
            return _smart_resize(x, self.height, self.width, self.interpolation, self.antialias)
        return resize_images(x, [self.height, self.width], method=self.interpolation,
                             antialias=self.antialias)

    def compute_output_shape(self, input_shape):
        return _with_image_size(input_shape, self.height, self.width)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, interpolation=self.interpolation,
                      crop_to_aspect_ratio=self.crop_to_aspect_ratio, antialias=self.antialias)
        return config


class CenterCrop(Layer):
    def __init__(self, height, width, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        h, w = _hw(x)
        if h < self.height or w < self.width:  # smaller: Keras's smart_resize to the target
            return _smart_resize(x, self.height, self.width)
        return crop_to_bounding_box(x, (h - self.height) // 2, (w - self.width) // 2,
                                    self.height, self.width)

    def compute_output_shape(self, input_shape):
        return _with_image_size(input_shape, self.height, self.width)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width)
        return config


class Normalization(Layer):
    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis if axis is None or isinstance(axis, (list, tuple)) else (axis,)
        if (mean is None) != (variance is None):
            raise ValueError("Normalization: give both `mean` and `variance`, or neither (and "
                             "call adapt()).")
        self.invert = invert
        self._given = (mean, variance)
        self.mean = self.variance = None
        if mean is not None:
            self.mean = np.asarray(mean, np.float32)
            self.variance = np.asarray(variance, np.float32)

    def adapt(self, data, batch_size=None, steps=None):
        """Learn mean and variance over every axis but `axis` from an array, tensor or dataset
        (batches accumulated: the exact mean and variance of all of them)."""
        batches = [np.asarray(data)] if not hasattr(data, "__iter__") or isinstance(
            data, np.ndarray) or hasattr(data, "numpy") else [np.asarray(b) for b in data]
        batches = [np.asarray(b.numpy() if hasattr(b, "numpy") else b, np.float64)
                   for b in batches]
        rank = batches[0].ndim
        keep = [] if self.axis is None else [a % rank for a in self.axis]
        reduce_axes = tuple(a for a in range(rank) if a not in keep)
        count = sum(np.prod([b.shape[a] for a in reduce_axes]) for b in batches)
        total = sum(b.sum(axis=reduce_axes, keepdims=True) for b in batches)
        mean = total / count
        var = sum(((b - mean) ** 2).sum(axis=reduce_axes, keepdims=True) for b in batches) / count
        self.mean, self.variance = mean.astype(np.float32), var.astype(np.float32)

    def call(self, inputs):
        if self.mean is None:
            raise ValueError(f"Normalization layer {self.name!r}: call adapt() or give mean and "
                             "variance before using it.")
        x = K.cast(inputs, "float32") if not inputs.dtype.is_floating else inputs
        dtype = x.dtype.as_numpy_dtype
        mean, var = self._broadcastable(x)
        std = np.maximum(np.sqrt(var), 1e-7).astype(dtype)
        if self.invert:
            return x * std + mean.astype(dtype)
        return (x - mean.astype(dtype)) / std

    def _broadcastable(self, x):
        mean, var = self.mean, self.variance
        if mean.ndim == x.shape.rank or mean.ndim == 0:
            return mean, var
        shape = [1] * x.shape.rank
        for a in ([] if self.axis is None else self.axis):
            shape[a] = x.shape[a]
        return mean.reshape(shape), var.reshape(shape)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        mean, var = self._given
        config.update(axis=self.axis, invert=self.invert,
                      mean=None if mean is None else np.asarray(mean).tolist(),
                      variance=None if var is None else np.asarray(var).tolist())
        return config
