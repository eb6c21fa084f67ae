"""TensorFlow 1's initializers that TensorFlow 2 dropped or renamed, called as
`init(shape, dtype=None, partition_info=None)` like those of ops/random/v1_initializers.py:

    orthogonal_initializer(gain)   a random orthogonal matrix times `gain`: for shape (..., n),
        r = prod(shape[:-1]) rows and n columns of Q from the QR factorization of an r x n (or
        n x r, transposed back) standard normal matrix, Q's columns signed by R's diagonal so
        that the matrix is uniformly (Haar) distributed over the orthogonal ones
    uniform_unit_scaling_initializer(factor)   uniform on [-l, l], l = factor * sqrt(3 / fan),
        fan = prod(shape[:-1]) (of the full shape, for a shard), which keeps x @ W's scale
    identity_initializer(gain)     gain times the identity matrix (2-D shapes only)
    he_normal, he_uniform, lecun_normal, lecun_uniform (tf.compat.v1.initializers' functions)
        variance scaling over fan_in with scale 2 (He) or 1 (LeCun), truncated normal or uniform
"""
import numpy as np

from ..framework import dtypes
from ..ops.linalg.decompositions import qr
from ..ops.math_ops import multiply
from ..ops.reshape_ops import reshape, transpose
from ..ops.creation_ops import eye
from ..ops.random.v1_initializers import (random_normal_initializer, random_uniform_initializer,
                                          variance_scaling_initializer)
from ..ops.unary_ops import sign
from ..ops.matrix_ops import diag_part as _diag_part

__all__ = ["orthogonal_initializer", "uniform_unit_scaling_initializer", "identity_initializer",
           "he_normal", "he_uniform", "lecun_normal", "lecun_uniform"]


class _V1Initializer:
    """dtype given when made, used by calls without one; get_config for serialization."""

    def _dtype(self, dtype):
        dtype = self.dtype if dtype is None else dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"{type(self).__name__}: dtype must be floating point, got "
                             f"{dtype.name}.")
        return dtype


class orthogonal_initializer(_V1Initializer):  # noqa: N801 (TensorFlow's name)
    """A random orthogonal matrix (or a reshaped one for more than 2 dimensions) times gain."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain, self.seed, self.dtype = gain, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        shape = [int(d) for d in shape]
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        draw = random_normal_initializer(0.0, 1.0, self.seed, dtype)
        a = draw([max(rows, cols), min(rows, cols)])
        q, r = qr(a, full_matrices=False)
        q = multiply(q, sign(_diag_part(r)))
        if rows < cols:
            q = transpose(q)
        return multiply(reshape(q, shape), np.asarray(self.gain, dtype.as_numpy_dtype))

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class uniform_unit_scaling_initializer(_V1Initializer):  # noqa: N801 (TensorFlow's name)
    """Uniform on [-l, l] with l = factor * sqrt(3 / prod(shape[:-1]))."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor, self.seed, self.dtype = factor, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        full = shape if partition_info is None else partition_info.full_shape
        fan = float(np.prod([int(d) for d in full][:-1])) if len(full) else 1.0
        limit = float(np.sqrt(3.0 / max(fan, 1.0))) * self.factor
        return random_uniform_initializer(-limit, limit, self.seed, dtype)(shape)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


class identity_initializer(_V1Initializer):  # noqa: N801 (TensorFlow's name)
    """gain times the identity matrix."""

    def __init__(self, gain=1.0, dtype=dtypes.float32):
        self.gain, self.dtype = gain, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        full = shape if partition_info is None else partition_info.full_shape
        if len(full) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
        if partition_info is not None:
            raise NotImplementedError("identity_initializer: a partitioned variable is not "
                                      "supported; give the variable one partition.")
        rows, cols = (int(d) for d in shape)
        return multiply(eye(rows, cols, dtype=dtype), np.asarray(self.gain,
                                                                 dtype.as_numpy_dtype))

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


def he_normal(seed=None):
    """Truncated normal with variance 2 / fan_in."""
    return variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    """Uniform with variance 2 / fan_in."""
    return variance_scaling_initializer(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    """Truncated normal with variance 1 / fan_in."""
    return variance_scaling_initializer(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    """Uniform with variance 1 / fan_in."""
    return variance_scaling_initializer(1.0, "fan_in", "uniform", seed)
