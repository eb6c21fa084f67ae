"""Noise and dropout variants, active only while training (identity at inference):

    GaussianNoise(s):     x + n,  n ~ Normal(0, s)
    GaussianDropout(r):   x * n,  n ~ Normal(1, sqrt(r / (1 - r)))
    AlphaDropout(r):      keeps SELU's mean and variance: dropped entries are set to
                          alpha' = -1.6733 * 1.0507, then a x + b with
                          a = ((1 - r)(1 + r alpha'^2))^-1/2, b = -a alpha' r
    SpatialDropout1D/2D/3D(r): Dropout whose mask is shared over the spatial axes (whole
                          feature maps are dropped), channels_last or channels_first
    ActivityRegularization(l1, l2): the identity, adding l1 sum|x| + l2 sum x^2 (divided by the
                          batch size) to the layer's losses
Noise is drawn eagerly from the layer's NumPy generator (seeded by `seed`), in traced
functions by random ops that draw afresh on every run; the gradient is the noise's (x times
the mask or the multiplier; 1 for additive noise).
"""
import numpy as np

from ...framework.context import state
from ...framework.tensor_shape import TensorShape
from ...ops.random import seeded
from .. import backend
from .. import backend_ops as K
from .. import regularizers
from .base import Layer, call_context
from .core import Dropout
from .layer_utils import random_dropout

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D",
           "SpatialDropout2D", "SpatialDropout3D", "ActivityRegularization"]


def _rng(layer):
    seed = getattr(layer, "seed", None)
    return layer.__dict__.setdefault("_noise_rng", np.random.default_rng(
        backend.next_seed() if seed is None else seed))


def _normal(layer, like, mean, stddev):
    if state.graph is None:
        values = _rng(layer).normal(mean, stddev, size=tuple(like.shape))
        return K.constant(values.astype(like.dtype.as_numpy_dtype))
    seed = int(_rng(layer).integers(0, 2**31 - 1))
    return seeded.normal(K.shape(like), mean=mean, stddev=stddev, dtype=like.dtype, seed=seed)


def _uniform(layer, shape, dtype):
    if state.graph is None:
        return K.constant(_rng(layer).random(tuple(shape)).astype(dtype.as_numpy_dtype))
    seed = int(_rng(layer).integers(0, 2**31 - 1))
    return seeded.uniform(shape, dtype=dtype, seed=seed)


def _rate(rate):
    rate = float(rate)
    if not 0 <= rate <= 1:
        raise ValueError(f"Invalid value received for argument `rate`. Expected a float value "
                         f"between 0 and 1. Received: rate={rate}")
    return rate


class _Noise(Layer):
    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.supports_masking = True

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class GaussianNoise(_Noise):
    """Adds zero-centered Gaussian noise of standard deviation `stddev` while training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if not 0 <= float(stddev) <= 1:
            raise ValueError(f"Invalid value received for argument `stddev`. Expected a float "
                             f"value between 0 and 1. Received: stddev={stddev}")
        self.stddev = float(stddev)

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            return inputs + _normal(self, inputs, 0.0, self.stddev)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update(stddev=self.stddev, seed=self.seed)
        return config


class GaussianDropout(_Noise):
    """Multiplies by 1-centered Gaussian noise of variance rate / (1 - rate) while training."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = _rate(rate)

    def call(self, inputs, training=False):
        if training and 0 < self.rate < 1:
            return inputs * _normal(self, inputs, 1.0, np.sqrt(self.rate / (1.0 - self.rate)))
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update(rate=self.rate, seed=self.seed)
        return config


class AlphaDropout(_Noise):
    """Dropout that keeps the mean and variance of SELU activations."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = _rate(rate)
        self.noise_shape = noise_shape

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        shape = [inputs.shape[i] if d is None else d for i, d in enumerate(
            self.noise_shape)] if self.noise_shape else list(inputs.shape)
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        kept = K.cast(K.greater_equal(_uniform(self, shape, inputs.dtype),
                                      K.cast(self.rate, inputs.dtype)), inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        x = inputs * kept + alpha_p * (1 - kept)
        return a * x + b

    def get_config(self):
        config = super().get_config()
        config.update(rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return config


class _SpatialDropout(Dropout):
    _rank = None

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = data_format or "channels_last"
        self.supports_masking = True

    def _noise_shape(self, input_shape):
        shape = tuple(input_shape)
        if len(shape) != self._rank + 2:
            raise ValueError(f"{type(self).__name__} expects an input of rank "
                             f"{self._rank + 2}, received shape {shape}.")
        ones = (1,) * self._rank
        if self.data_format == "channels_first":
            return (shape[0], shape[1]) + ones
        return (shape[0],) + ones + (shape[-1],)

    def call(self, inputs, training=None):
        if not training or self.rate == 0.0:
            return inputs
        fed = call_context.dropout_masks  # masks Model.fit draws for its compiled step
        if fed is not None and id(self) in fed:
            return inputs * fed[id(self)]
        return random_dropout(self, inputs, self.rate, self._noise_shape(inputs.shape))

    def get_config(self):
        config = super().get_config()
        for key in ("noise_shape", "trainable"):  # Keras 3's spatial dropouts take neither
            config.pop(key, None)
        if self._rank > 1:  # nor does SpatialDropout1D take a data_format
            config["data_format"] = self.data_format
        return config


class SpatialDropout1D(_SpatialDropout):
    """Drops whole channels of [batch, steps, channels] inputs."""
    _rank = 1

    def __init__(self, rate, seed=None, **kwargs):
        kwargs.pop("data_format", None)
        super().__init__(rate, seed=seed, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    """Drops whole feature maps of [batch, rows, cols, channels] inputs."""
    _rank = 2


class SpatialDropout3D(_SpatialDropout):
    """Drops whole feature volumes of 5-D inputs."""
    _rank = 3


class ActivityRegularization(Layer):
    """The identity, adding an L1/L2 penalty on its input to the losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = float(l1), float(l2)

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update(l1=self.l1, l2=self.l2)
        return config
