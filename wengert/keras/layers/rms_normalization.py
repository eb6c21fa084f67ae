"""RMSNormalization: each sample scaled by the reciprocal root mean square of its features.

Over the normalized axes (`axis`, the last by default; one axis or a list), with n the number of
elements in them,

    y = x * rsqrt(sum(x^2) / n + epsilon) * scale

(Zhang & Sennrich 2019). Unlike LayerNormalization nothing is subtracted and there is no shift;
`scale` (one weight, the shape of the normalized axes, ones to start) multiplies the result,
placed on those axes (Keras broadcasts it onto the trailing axes, so there only trailing axes
work; here any axes do, and trailing ones agree).
Inputs narrower than float32 are computed in float32 and cast back, as Keras does. The gradient
comes from the composed ops (square, mean, rsqrt, multiply).
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .base import Layer

__all__ = ["RMSNormalization"]


def _normalized_axes(axis, rank, layer):
    """`axis` (an int or a list) as sorted non-negative axes of a rank-`rank` input."""
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    for a in axes:
        if not isinstance(a, int) or not -rank <= a < rank:
            raise ValueError(f"{type(layer).__name__}: axis {a!r} is out of bounds for an "
                             f"input of rank {rank}. Received: axis={axis!r}; pass axes in "
                             f"[{-rank}, {rank - 1}].")
    return sorted(a % rank for a in axes)


class RMSNormalization(Layer):
    """Root mean square normalization over `axis`, times a learned `scale`."""

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = sorted(int(a) for a in axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"RMSNormalization: `axis` must be an int or a list of ints. "
                            f"Received: axis={axis!r}.")
        self.epsilon = float(epsilon)

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        self._axes = _normalized_axes(self.axis, len(shape), self)
        scale_shape = tuple(shape[a] for a in self._axes)
        if None in scale_shape:
            raise ValueError(f"RMSNormalization: the normalized axes {self.axis} of input shape "
                             f"{shape} must be known to build the `scale` weight.")
        self.scale = self.add_weight(name="scale", shape=scale_shape, initializer="ones")
        rank = len(shape)
        trailing = self._axes == list(range(rank - len(self._axes), rank))
        self._scale_shape = None if trailing else [
            shape[a] if a in self._axes else 1 for a in range(rank)]
        self.built = True

    def call(self, inputs):
        x = inputs
        if x.dtype == dtypes.float16:
            x = K.cast(x, "float32")
        mean_square = K.reduce_mean(K.square(x), axis=self._axes, keepdims=True)
        scale = K.cast(self.scale, x.dtype)
        if self._scale_shape is not None:
            scale = K.reshape(scale, self._scale_shape)
        out = x * K.rsqrt(mean_square + K.constant(self.epsilon, x.dtype)) * scale
        return K.cast(out, inputs.dtype) if out.dtype != inputs.dtype else out

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, epsilon=self.epsilon)
        return config
