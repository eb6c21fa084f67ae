"""Adaptive pooling: AdaptiveAveragePooling1D/2D/3D and AdaptiveMaxPooling1D/2D/3D pool each
spatial axis to a fixed `output_size`, whatever the input's size.

Along a spatial axis of length L pooled to n outputs, output i takes the window

    [floor(i L / n), ceil((i + 1) L / n))

(PyTorch's and Keras's windows: they cover the axis, may overlap, and are ceil(L/n) or
ceil(L/n) + 1 long). The axes are pooled one after another, which is exact for both the mean
and the max of a box. The mean along one axis is a tensordot with an L x n matrix whose column
i holds 1/|window i| on the window; the max gathers an n x w block of indices (w the longest
window, shorter windows repeating their first index, which leaves the max unchanged) and takes
reduce_max over the window axis. Gradients come from those ops: the mean spreads evenly over
each window, the max goes to the winner (ties split, as reduce_max does). Inputs are
channels_last (batch, *spatial, channels) or channels_first (batch, channels, *spatial).
"""
import numpy as np

from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .base import Layer

__all__ = ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
           "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]


def _windows(length, size):
    """(start, stop) of each of the `size` windows over an axis of `length`."""
    return [((i * length) // size, -((-(i + 1) * length) // size)) for i in range(size)]


def _mean_matrix(length, size, dtype):
    matrix = np.zeros((length, size), dtype)
    for i, (start, stop) in enumerate(_windows(length, size)):
        matrix[start:stop, i] = 1.0 / (stop - start)
    return matrix


def _max_indices(length, size):
    windows = _windows(length, size)
    width = max(stop - start for start, stop in windows)
    return np.array([[min(start + j, stop - 1) for j in range(width)]
                     for start, stop in windows], np.int32)


def _average_axis(x, axis, size):
    """Mean-pool axis `axis` of x to `size` outputs (the axis stays in place)."""
    length = x.shape[axis]
    matrix = K.constant(_mean_matrix(length, size, x.dtype.as_numpy_dtype))
    pooled = K.tensordot(x, matrix, [[axis], [0]])
    rank = x.shape.rank
    order = list(range(axis)) + [rank - 1] + list(range(axis, rank - 1))
    return K.transpose(pooled, order)


def _max_axis(x, axis, size):
    """Max-pool axis `axis` of x to `size` outputs (the axis stays in place)."""
    indices = _max_indices(x.shape[axis], size)
    blocks = K.gather(x, K.constant(indices), axis=axis)
    return K.reduce_max(blocks, axis=axis + 1)


class _AdaptivePooling(Layer):
    """Shared by the six layers: `_rank` spatial axes, `_pool_axis` the per-axis pooling."""

    _rank = None
    _pool_axis = None

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = self._sizes(output_size)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_first", "channels_last"):
            raise ValueError(f"Invalid data_format: {data_format}. Expected 'channels_first' or "
                             "'channels_last'.")

    @classmethod
    def _sizes(cls, output_size):
        n = cls._rank
        if isinstance(output_size, int) and not isinstance(output_size, bool):
            sizes = (output_size,) * n
        elif isinstance(output_size, (tuple, list)) and len(output_size) == n:
            sizes = tuple(output_size)
        else:
            raise TypeError(f"{cls.__name__}: `output_size` must be an integer or a tuple of "
                            f"{n} integers. Received: {output_size} of type "
                            f"{type(output_size)}")
        if not all(isinstance(s, (int, np.integer)) and s > 0 for s in sizes):
            raise ValueError(f"{cls.__name__}: `output_size` must hold positive integers. "
                             f"Received: output_size={output_size!r}.")
        return tuple(int(s) for s in sizes)

    def _spatial_axes(self):
        first = 2 if self.data_format == "channels_first" else 1
        return list(range(first, first + self._rank))

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        if len(shape) != self._rank + 2:
            raise ValueError(f"{type(self).__name__} expects inputs of rank {self._rank + 2} "
                             f"(batch, {self._rank} spatial axes, channels); received shape "
                             f"{shape}.")
        if any(shape[a] is None for a in self._spatial_axes()):
            raise ValueError(f"{type(self).__name__}: the spatial sizes of the input must be "
                             f"known to pool adaptively; received shape {shape}.")
        self.built = True

    def call(self, inputs):
        x = inputs
        pool = type(self)._pool_axis
        for axis, size in zip(self._spatial_axes(), self.output_size):
            x = pool(x, axis, size)
        return x

    def compute_output_shape(self, input_shape):
        shape = list(TensorShape(input_shape))
        for axis, size in zip(self._spatial_axes(), self.output_size):
            shape[axis] = size
        return TensorShape(shape)

    def get_config(self):
        config = super().get_config()
        config.update(output_size=self.output_size, data_format=self.data_format)
        return config


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Mean over adaptive windows of a sequence: (batch, L, c) -> (batch, output_size, c)."""
    _rank, _pool_axis = 1, staticmethod(_average_axis)


class AdaptiveAveragePooling2D(_AdaptivePooling):
    """Mean over adaptive windows of an image: (batch, h, w, c) -> (batch, *output_size, c)."""
    _rank, _pool_axis = 2, staticmethod(_average_axis)


class AdaptiveAveragePooling3D(_AdaptivePooling):
    """Mean over adaptive windows of a volume: (batch, d, h, w, c) -> (batch, *output_size, c)."""
    _rank, _pool_axis = 3, staticmethod(_average_axis)


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """Max over adaptive windows of a sequence: (batch, L, c) -> (batch, output_size, c)."""
    _rank, _pool_axis = 1, staticmethod(_max_axis)


class AdaptiveMaxPooling2D(_AdaptivePooling):
    """Max over adaptive windows of an image: (batch, h, w, c) -> (batch, *output_size, c)."""
    _rank, _pool_axis = 2, staticmethod(_max_axis)


class AdaptiveMaxPooling3D(_AdaptivePooling):
    """Max over adaptive windows of a volume: (batch, d, h, w, c) -> (batch, *output_size, c)."""
    _rank, _pool_axis = 3, staticmethod(_max_axis)
