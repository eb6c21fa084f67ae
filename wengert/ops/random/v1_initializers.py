"""TensorFlow 1's initializers (`tf.compat.v1.zeros_initializer`, `random_normal_initializer`,
`glorot_uniform_initializer`, `variance_scaling_initializer`, ...), which `get_variable` calls as
`init(shape, dtype=None, partition_info=None)`.

They differ from TensorFlow 2's in three ways: each takes its `dtype` when made (the dtype a call
without one uses), the random ones have TensorFlow 1's defaults (normal draws with stddev 1.0,
uniform draws on [0, 1)), and the variance-scaling family exists: with n = fan_in, fan_out or
their mean (fan_in = shape[-2] * receptive field, fan_out = shape[-1] * receptive field, the
receptive field being the product of the leading dimensions; a vector's fans are its length, a
scalar's 1) and s = scale / max(1, n), values are drawn
- "truncated_normal" (and the old "normal"): normal within two standard deviations, with stddev
  sqrt(s) / 0.87962566103423978 (the standard deviation of a unit normal truncated to [-2, 2]),
- "untruncated_normal": normal with stddev sqrt(s),
- "uniform": uniform on [-sqrt(3 s), sqrt(3 s)].
Glorot (Xavier) uniform and normal are variance scaling with scale 1 over fan_avg. The draws are
the seeded ops' (seeded.py), as TensorFlow 1's: an initializer's seed is an op seed, so in a graph
each initializer op has its own stream, and eagerly a second call continues the first's.
"""
import numpy as np

from ...framework import dtypes
from . import initializers as v2
from .seeded import normal, truncated_normal, uniform

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer",
           "random_normal_initializer", "random_uniform_initializer",
           "truncated_normal_initializer", "variance_scaling_initializer",
           "glorot_uniform_initializer", "glorot_normal_initializer"]

_TRUNCATED_STDDEV = 0.87962566103423978
_DISTRIBUTIONS = ("normal", "uniform", "truncated_normal", "untruncated_normal")
_MODES = ("fan_in", "fan_out", "fan_avg")


class _WithDtype:
    """TensorFlow 1's call: `dtype` defaults to the one given when the initializer was made;
    `partition_info` (for a shard of a partitioned variable) has the variable's `full_shape`,
    which fan-based initializers use."""

    def _call_dtype(self, dtype, partition_info):
        if partition_info is not None and not hasattr(partition_info, "full_shape"):
            raise TypeError(f"{type(self).__name__}: partition_info must describe a shard "
                            f"(full_shape, var_offset), got {partition_info!r}.")
        return self.dtype if dtype is None else dtypes.as_dtype(dtype)

    def get_config(self):
        return {**super().get_config(), "dtype": self.dtype.name}


class zeros_initializer(_WithDtype, v2.zeros_initializer):  # noqa: N801 (TensorFlow's names)
    """Tensors of zeros."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return super().__call__(shape, self._call_dtype(dtype, partition_info))


class ones_initializer(_WithDtype, v2.ones_initializer):  # noqa: N801
    """Tensors of ones."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return super().__call__(shape, self._call_dtype(dtype, partition_info))


class constant_initializer(_WithDtype, v2.constant_initializer):  # noqa: N801
    """Tensors filled with `value` (a scalar, or as many elements as the shape has);
    `verify_shape=True` also requires the value's shape to be the shape asked for."""

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        super().__init__(value)
        self.dtype = dtypes.as_dtype(dtype)
        self.verify_shape = bool(verify_shape)

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        dtype = self._call_dtype(dtype, partition_info)
        verify = self.verify_shape if verify_shape is None else verify_shape
        given = np.shape(self.value)
        if verify and tuple(given) != tuple(int(d) for d in shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(int(d) for d in shape)}, but got "
                            f"{tuple(given)}.")
        return super().__call__(shape, dtype)

    def get_config(self):
        return {**super().get_config(), "verify_shape": self.verify_shape}


class random_normal_initializer(_WithDtype, v2.Initializer):  # noqa: N801
    """Normal draws with `mean` and `stddev` (TensorFlow 1's default 1.0)."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _floating(self._call_dtype(dtype, partition_info), type(self).__name__)
        return _normal(shape, self.mean, self.stddev, dtype, self.seed, truncated=False)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class truncated_normal_initializer(random_normal_initializer):  # noqa: N801
    """Normal draws within two standard deviations of the mean (stddev 1.0 by default)."""

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _floating(self._call_dtype(dtype, partition_info), type(self).__name__)
        return _normal(shape, self.mean, self.stddev, dtype, self.seed, truncated=True)


class random_uniform_initializer(_WithDtype, v2.Initializer):  # noqa: N801
    """Uniform draws on [minval, maxval) (maxval 1 for floating dtypes when not given)."""

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._call_dtype(dtype, partition_info)
        maxval = self.maxval
        if maxval is None:
            if not dtype.is_floating:
                raise ValueError(f"random_uniform_initializer: maxval must be given for the "
                                 f"integer dtype {dtype.name}.")
            maxval = 1.0
        return _uniform(shape, self.minval, maxval, dtype, self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
                "dtype": self.dtype.name}


def _floating(dtype, who):
    if not dtype.is_floating:
        raise ValueError(f"{who}: dtype must be floating point, got {dtype.name}.")
    return dtype


def _normal(shape, mean, stddev, dtype, seed, truncated):
    draw = truncated_normal if truncated else normal
    return draw(shape, mean, stddev, dtype, seed=seed)


def _uniform(shape, minval, maxval, dtype, seed):
    return uniform(shape, minval, maxval, dtype, seed=seed)


def fans(shape):
    """(fan_in, fan_out) of a weight of `shape` (see the module docstring)."""
    shape = [int(d) for d in shape]
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class variance_scaling_initializer(_WithDtype, v2.Initializer):  # noqa: N801
    """Draws whose variance is `scale` over a fan of the shape (see the module docstring)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=dtypes.float32):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in _MODES:
            raise ValueError(f"Argument `mode` should be one of {_MODES}. Received: {mode}")
        if distribution not in _DISTRIBUTIONS:
            raise ValueError(f"Argument `distribution` should be one of {_DISTRIBUTIONS}. "
                             f"Received: {distribution}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.dtype = _floating(dtypes.as_dtype(dtype), "variance_scaling_initializer")

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _floating(self._call_dtype(dtype, partition_info), type(self).__name__)
        fan_in, fan_out = fans(shape if partition_info is None else partition_info.full_shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, fan[self.mode])
        if self.distribution in ("normal", "truncated_normal"):
            stddev = float(np.sqrt(scale)) / _TRUNCATED_STDDEV
            return _normal(shape, 0.0, stddev, dtype, self.seed, truncated=True)
        if self.distribution == "untruncated_normal":
            return _normal(shape, 0.0, float(np.sqrt(scale)), dtype, self.seed, truncated=False)
        limit = float(np.sqrt(3.0 * scale))
        return _uniform(shape, -limit, limit, dtype, self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class glorot_uniform_initializer(variance_scaling_initializer):  # noqa: N801
    """Glorot (Xavier) uniform: uniform on [-l, l], l = sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class glorot_normal_initializer(variance_scaling_initializer):  # noqa: N801
    """Glorot (Xavier) normal: truncated normal with stddev sqrt(2 / (fan_in + fan_out))
    before the truncation correction."""

    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}
