"""TensorFlow 2's initializers at the top level: `tf.zeros_initializer`, `tf.ones_initializer`,
`tf.constant_initializer`, `tf.random_normal_initializer`, `tf.random_uniform_initializer`
(and `truncated_normal`).

An initializer is called as `init(shape, dtype=tf.float32)` and returns a tensor of that shape.
The random ones follow TensorFlow's determinism rule: with a `seed`, a call is a stateless draw
seeded by (seed, 0), so every call returns the same values (two variables initialized by one
seeded initializer start equal); without one, each call draws fresh numbers (the global seed
rules of seeded.py).
"""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import constant
from ..creation_ops import fill
from .seeded import normal, truncated_normal, uniform
from .stateless import stateless_normal, stateless_truncated_normal, stateless_uniform
from ..shape_rules import int_tuple

__all__ = ["Initializer", "zeros_initializer", "ones_initializer", "constant_initializer",
           "random_normal_initializer", "random_uniform_initializer",
           "truncated_normal_initializer"]


class Initializer:
    """The base of every initializer, these and keras.initializers' (GlorotUniform, ...):
    `__call__(shape, dtype)` returns a tensor of that shape; `get_config()` / `from_config()`
    round-trip (a config's "dtype", which TensorFlow 1 wrote, is dropped)."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**{key: value for key, value in config.items() if key != "dtype"})

    def clone(self):
        """A new initializer with this one's configuration (Keras 3's Initializer.clone)."""
        return type(self).from_config(self.get_config())


class zeros_initializer(Initializer):  # noqa: N801 (TensorFlow's names)
    """Tensors of zeros."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return constant(np.zeros(int_tuple(shape, "zeros_initializer: shape"),
                                 dtypes.as_dtype(dtype).as_numpy_dtype), name="zeros")


class ones_initializer(Initializer):  # noqa: N801
    """Tensors of ones."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return constant(np.ones(int_tuple(shape, "ones_initializer: shape"),
                                dtypes.as_dtype(dtype).as_numpy_dtype), name="ones")


class constant_initializer(Initializer):  # noqa: N801
    """Tensors filled with `value`: a scalar, or a value with exactly as many elements as the
    shape (reshaped to it)."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = int_tuple(shape, "constant_initializer: shape")
        value = np.asarray(getattr(self.value, "numpy", lambda: self.value)())
        if value.size == 1:
            return fill(list(shape), constant(value.reshape(()), dtype))
        if value.size != int(np.prod(shape)):
            raise TypeError(f"constant_initializer: the value has {value.size} elements, but "
                            f"shape {list(shape)} has {int(np.prod(shape))}; give a scalar or "
                            "a value of that size.")
        return constant(value.reshape(shape), dtype)

    def get_config(self):
        return {"value": self.value}


def _float(dtype, who):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{who}: argument `dtype` is expected to be floating point, got "
                         f"{dtype.name}.")
    return dtype


class random_normal_initializer(Initializer):  # noqa: N801
    """Normal draws with `mean` and `stddev` (seeded: the same values on every call)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _float(dtype, "random_normal_initializer")
        if self.seed is None:
            return normal(shape, self.mean, self.stddev, dtype)
        return stateless_normal(shape, [self.seed, 0], self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class truncated_normal_initializer(random_normal_initializer):  # noqa: N801
    """Normal draws within two standard deviations of the mean."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _float(dtype, "truncated_normal_initializer")
        if self.seed is None:
            return truncated_normal(shape, self.mean, self.stddev, dtype)
        return stateless_truncated_normal(shape, [self.seed, 0], self.mean, self.stddev, dtype)


class random_uniform_initializer(Initializer):  # noqa: N801
    """Uniform draws in [minval, maxval) (integer dtypes too; seeded: the same every call)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = dtypes.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"random_uniform_initializer: dtype must be floating point or "
                             f"integer, got {dtype.name}.")
        if self.seed is None:
            return uniform(shape, self.minval, self.maxval, dtype)
        return stateless_uniform(shape, [self.seed, 0], self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
