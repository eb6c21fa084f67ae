"""Keras's image and numeric preprocessing layers (Keras 3 semantics), built on tf.image and
wengert's ops, differentiable where the computation is:

    Rescaling(scale, offset):   x * scale + offset
    Resizing(h, w, interpolation, crop_to_aspect_ratio): tf.image.resize (a centred crop to the
                                target's aspect ratio first when asked)
    CenterCrop(h, w):           the centred h x w window (a smaller image: smart_resize to h x w,
                                the largest centred window of that aspect ratio, resized)
    Normalization(axis, mean, variance, invert): (x - mean) / max(sqrt(variance), 1e-7), with
                                mean and variance given or learned by adapt(data) over every
                                axis but `axis`; invert maps back. Learned, they are the layer's
                                non-trainable weights `mean`, `variance` and `count` (count
                                stays 0, as in Keras 3), so get_weights, count_params and
                                `.keras` / `.weights.h5` files keep them
(RandomFlip lives with the other spatial augmentations in augmentation.py.)
Images are [batch, h, w, c] (or [h, w, c]) in channels_last.
"""
import numpy as np

from ...ops.image.geometry import crop_to_bounding_box
from ...ops.image.resize import resize as resize_images
from ...framework.context import state
from ...framework.tensor import constant, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from ..serialization import deserialize_keras_object, serialize_keras_object
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
        config.update(scale=serialize_keras_object(self.scale),
                      offset=serialize_keras_object(self.offset))
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A config whose scale or offset is serialized (an array: {"class_name": "__numpy__",
        ...}) has them deserialized, with `custom_objects` for any custom class, as Keras."""
        config = dict(config)
        for key in ("scale", "offset"):
            if isinstance(config.get(key), dict):
                config[key] = deserialize_keras_object(config[key],
                                                       custom_objects=custom_objects)
        return super().from_config(config)


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
        self.axis = () if axis is None else tuple(axis) if isinstance(axis, (list, tuple)) \
            else (axis,)
        if (mean is None) != (variance is None):
            raise ValueError("Normalization: give both `mean` and `variance`, or neither (and "
                             "call adapt()).")
        self.invert = invert
        self.input_mean, self.input_variance = mean, variance
        self._adapted = False

    # -- the state: given, or adapted into the weights mean, variance and count ------------------
    def build(self, input_shape):
        shape = TensorShape(input_shape).as_list()
        ndim = len(shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"Normalization: every `axis` must be in [-{ndim}, {ndim}) for "
                             f"inputs of shape {tuple(shape)}, got axis={self.axis}.")
        keep = sorted(a % ndim for a in self.axis)
        if any(shape[a] is None for a in keep):
            raise ValueError(f"Normalization: the kept axes {self.axis} of inputs of shape "
                             f"{tuple(shape)} must have a known size.")
        self._keep_axis = tuple(keep)
        self._reduce_axis = tuple(a for a in range(ndim) if a not in keep)
        self._broadcast_shape = [shape[a] if a in keep else 1 for a in range(ndim)]
        if self.input_mean is None:
            self._adapted |= "mean" in self.__dict__.get("_pending_restores", {})
            state = tuple(shape[a] for a in keep)
            self.adapt_mean = self.add_weight(name="mean", shape=state, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=state,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64",
                                         initializer="zeros", trainable=False)
        else:
            self._given = tuple(self._aligned(v, ndim) for v in (self.input_mean,
                                                                 self.input_variance))
        self.built = True

    def _aligned(self, value, ndim):
        """A given mean or variance broadcast to the kept axes, its dimensions matched to them
        from the right (Keras's rule)."""
        value = np.asarray(value, np.float32)
        expanded = [1] * ndim
        for i in range(1, value.ndim + 1):
            expanded[self._keep_axis[-i]] = value.shape[-i]
        return np.broadcast_to(value.reshape(expanded), self._broadcast_shape)

    @property
    def mean(self):
        """The mean in the inputs' broadcast shape (None before the layer is built)."""
        return self._statistic(0)

    @property
    def variance(self):
        return self._statistic(1)

    def _statistic(self, which):
        if not self.built:
            return None
        if self.input_mean is not None:
            return constant(self._given[which])
        return K.reshape((self.adapt_mean, self.adapt_variance)[which], self._broadcast_shape)

    def adapt(self, data, batch_size=None, steps=None):
        """Learn mean and variance over every axis but `axis` from an array, tensor or dataset
        (batches accumulated: the exact mean and variance of all of them) into the weights
        `mean` and `variance`."""
        batches = [np.asarray(data)] if not hasattr(data, "__iter__") or isinstance(
            data, np.ndarray) or hasattr(data, "numpy") else [np.asarray(b) for b in data]
        batches = [np.asarray(b.numpy() if hasattr(b, "numpy") else b, np.float64)
                   for b in batches]
        if self.input_mean is not None:
            raise ValueError(f"Normalization layer {self.name!r}: adapt() learns the mean and "
                             "variance, which this layer was given; make it without them.")
        self._build_from_shape(TensorShape(batches[0].shape))
        for b in batches:
            if any(b.shape[a] != self._broadcast_shape[a] for a in self._keep_axis):
                raise ValueError(f"Normalization.adapt: data of shape {b.shape} does not fit "
                                 f"the layer built for kept axes of sizes "
                                 f"{[self._broadcast_shape[a] for a in self._keep_axis]}.")
        axes = self._reduce_axis
        count = sum(np.prod([b.shape[a] for a in axes]) for b in batches)
        mean = sum(b.sum(axis=axes, keepdims=True) for b in batches) / count
        var = sum(((b - mean) ** 2).sum(axis=axes, keepdims=True) for b in batches) / count
        state = self.adapt_mean.shape.as_list()
        self.adapt_mean.assign(mean.reshape(state).astype(np.float32))
        self.adapt_variance.assign(var.reshape(state).astype(np.float32))
        self._adapted = True

    def finalize_state(self):
        """Mark the mean and variance as set (after they are loaded from a file)."""
        self._adapted = True

    def set_weights(self, weights):
        super().set_weights(weights)
        self._adapted = True

    def _check_adapted(self):
        """An error for statistics never learned nor loaded: still the initial mean 0 and
        variance 1 (a checkpoint restored into the built layer sets other values)."""
        if self.input_mean is not None or self._adapted or state.graph is not None:
            return
        if np.any(self.adapt_mean.numpy() != 0) or np.any(self.adapt_variance.numpy() != 1):
            self._adapted = True
            return
        raise ValueError(f"Normalization layer {self.name!r}: call adapt() or give mean and "
                         "variance before using it.")

    def call(self, inputs):
        self._check_adapted()
        x = K.cast(inputs, "float32") if not inputs.dtype.is_floating else inputs
        mean, var = (K.cast(s, x.dtype) for s in (self.mean, self.variance))
        std = K.maximum(K.sqrt(var), K.cast(1e-7, x.dtype))
        if self.invert:
            return x * std + mean
        return (x - mean) / std

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        mean, var = self.input_mean, self.input_variance
        config.update(axis=self.axis, invert=self.invert,
                      mean=None if mean is None else np.asarray(mean).tolist(),
                      variance=None if var is None else np.asarray(var).tolist())
        return config
