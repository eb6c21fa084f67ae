"""Weight initializers, as `keras.initializers`: `init(shape, dtype)` returns a constant Tensor.

Variance scaling (Glorot/Xavier, He, LeCun) draws with variance scale / n, where n is fan_in,
fan_out or their average. For a Dense kernel [in, out], fan_in = in and fan_out = out; for a
convolution kernel [k..., in, out] both are multiplied by the receptive field size prod(k).
    GlorotUniform: uniform in [-l, l] with l = sqrt(6 / (fan_in + fan_out))
    GlorotNormal:  truncated normal, stddev sqrt(2 / (fan_in + fan_out)) / 0.8796...
    HeNormal:      truncated normal, stddev sqrt(2 / fan_in) / 0.8796...
    HeUniform:     uniform, limit sqrt(6 / fan_in)
(0.87962566103423978 is the stddev of a standard normal truncated to [-2, 2], so the truncated
draw has the intended variance.) Truncated normals redraw values beyond two standard deviations.

Every initializer subclasses the one `Initializer` base of ops/random/initializers.py, which
TensorFlow's top-level tf.zeros_initializer, tf.random_normal_initializer, ... share, so either
kind is accepted wherever Keras takes an initializer.

The random ones draw with keras.random (stateless ops, TensorFlow's Philox numbers) under their
seed: the int `seed`, or one drawn from the process-wide generator when made without one
(keras.utils.set_random_seed makes whole runs reproducible); so, as Keras 3's, an initializer
with an int seed gives the same values on every call, and TensorFlow's values.
"""
import math

import numpy as np

from ..framework import dtypes
from ..framework.tensor import constant
from ..ops.random.initializers import Initializer
from . import backend, random as krandom
from .registry import Registry, snake_case

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomNormal", "RandomUniform",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeNormal",
           "HeUniform", "LecunNormal", "LecunUniform", "Identity", "Orthogonal", "get",
           "serialize", "deserialize", "zeros", "ones", "glorot_uniform", "glorot_normal",
           "he_normal", "he_uniform", "lecun_normal", "lecun_uniform", "random_normal",
           "random_uniform", "truncated_normal", "variance_scaling", "identity", "orthogonal",
           "IdentityInitializer", "OrthogonalInitializer"]

_TRUNCATED_STDDEV = 0.87962566103423978


def _np_dtype(dtype):
    return dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype


def compute_fans(shape):
    """(fan_in, fan_out) of a weight shape."""
    shape = tuple(int(d) for d in shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class _Seeded(Initializer):
    def __init__(self, seed=None):
        self.seed = seed
        self._draw_seed = backend.next_seed() if seed is None else seed

    def _normal(self, shape, mean, stddev, dtype):
        return krandom.normal(shape, mean, stddev, _np_dtype(dtype), seed=self._draw_seed)

    def _truncated_normal(self, shape, mean, stddev, dtype):
        return krandom.truncated_normal(shape, mean, stddev, _np_dtype(dtype),
                                        seed=self._draw_seed)

    def _uniform(self, shape, minval, maxval, dtype):
        return krandom.uniform(shape, minval, maxval, _np_dtype(dtype), seed=self._draw_seed)


class Zeros(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return constant(np.zeros(shape, _np_dtype(dtype)))


class Ones(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return constant(np.ones(shape, _np_dtype(dtype)))


class Constant(Initializer):
    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        return constant(np.broadcast_to(np.asarray(self.value, _np_dtype(dtype)), shape).copy())

    def get_config(self):
        return {"value": self.value}


class RandomNormal(_Seeded):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return self._normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(_Seeded):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None, **kwargs):
        return self._uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class TruncatedNormal(_Seeded):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        return self._truncated_normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class VarianceScaling(_Seeded):
    """Draws with variance scale / n, n = fan_in, fan_out or (fan_in + fan_out) / 2."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        if scale <= 0.0:
            raise ValueError(f"VarianceScaling: scale must be positive, got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"VarianceScaling: mode must be 'fan_in', 'fan_out' or 'fan_avg', "
                             f"got {mode!r}.")
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"VarianceScaling: unknown distribution {distribution!r}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None, **kwargs):
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return self._uniform(shape, -limit, limit, dtype)
        if self.distribution == "truncated_normal":
            return self._truncated_normal(shape, 0.0, math.sqrt(variance) / _TRUNCATED_STDDEV,
                                          dtype)
        return self._normal(shape, 0.0, math.sqrt(variance), dtype)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


def _preset(class_name, scale, mode, distribution):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        if input_axes is not None or output_axes is not None:
            raise NotImplementedError(f"{class_name}: input_axes / output_axes (fans of "
                                      "einsum kernels) are not available.")
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def get_config(self):
        return {"seed": self.seed}
    return type(class_name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                                  "__module__": __name__})


GlorotUniform = _preset("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _preset("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeNormal = _preset("HeNormal", 2.0, "fan_in", "truncated_normal")
HeUniform = _preset("HeUniform", 2.0, "fan_in", "uniform")
LecunNormal = _preset("LecunNormal", 1.0, "fan_in", "truncated_normal")
LecunUniform = _preset("LecunUniform", 1.0, "fan_in", "uniform")


class Identity(Initializer):
    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        if len(shape) != 2:
            raise ValueError(f"Identity initializer needs a 2-D shape, got {tuple(shape)}.")
        return constant(self.gain * np.eye(*shape, dtype=_np_dtype(dtype)))

    def get_config(self):
        return {"gain": self.gain}


class Orthogonal(_Seeded):
    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
        cols = shape[-1]
        flat = self._normal((max(rows, cols), min(rows, cols)), 0.0, 1.0, dtype).numpy()
        q, r = np.linalg.qr(flat)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return constant((self.gain * q.reshape(shape)).astype(_np_dtype(dtype)))

    def get_config(self):
        return {"seed": self.seed, "gain": self.gain}


zeros, ones = Zeros, Ones  # Keras's lower-case aliases of the classes
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_normal, he_uniform = HeNormal, HeUniform
lecun_normal, lecun_uniform = LecunNormal, LecunUniform
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling, identity, orthogonal = VarianceScaling, Identity, Orthogonal
IdentityInitializer, OrthogonalInitializer = Identity, Orthogonal

_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
            "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform,
            "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
            "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform, "identity": Identity,
            "orthogonal": Orthogonal, "uniform": RandomUniform, "normal": RandomNormal}


_REGISTRY = Registry("initializer", "keras.initializers",
                     {**_BY_NAME, **{cls.__name__: cls for cls in _BY_NAME.values()}},
                     base=Initializer, folds=(snake_case,))
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
