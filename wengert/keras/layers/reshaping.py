"""Reshaping layers: Permute, RepeatVector, Identity, UpSampling1D/2D/3D, ZeroPadding1D/2D/3D,
Cropping1D/2D/3D (channels_last, or channels_first where Keras allows it).

    Permute(dims):         transpose of the non-batch axes ([batch] + dims, counted from 1)
    RepeatVector(n):       [batch, f] -> [batch, n, f]
    UpSampling(size):      each spatial step repeated `size` times (nearest); UpSampling2D with
                           interpolation="bilinear" resizes as tf.image.resize does
    ZeroPadding(padding):  zeros added before/after each spatial axis
    Cropping(cropping):    steps removed from the start/end of each spatial axis
All are linear: their gradients are the transposed moves (gathered, summed repeats, cropped
padding, zero-padded crops), from the composed ops.
"""
from ...framework.tensor_shape import TensorShape
from ...ops.image.resize import resample
from ...ops.shape_ops import repeat
from .. import backend_ops as K
from .base import Layer

__all__ = ["Permute", "RepeatVector", "Identity", "UpSampling1D", "UpSampling2D",
           "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "Cropping1D",
           "Cropping2D", "Cropping3D"]


def _tuple(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError(f"`{name}` should have {n} elements. Received: {name}={value}.")
    return value


def _pairs(value, n, name):
    """((before, after),) * n from an int, n ints or n pairs."""
    if isinstance(value, int):
        return ((value, value),) * n
    value = list(value)
    if n == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (tuple(value),)
    if len(value) != n:
        raise ValueError(f"`{name}` should have {n} elements. Received: {name}={value}.")
    return tuple((v, v) if isinstance(v, int) else tuple(int(u) for u in v) for v in value)


def _spatial_axes(rank, n, data_format):
    return list(range(2, 2 + n)) if data_format == "channels_first" else list(range(1, 1 + n))


class _Shaped(Layer):
    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"data_format must be 'channels_last' or 'channels_first', got "
                             f"{data_format!r}.")

    def _spatial_shape(self, input_shape, values, resize):
        """input_shape with each known spatial size n made resize(n, value), the spatial axes
        taking `values` (one per axis) in order."""
        shape = list(TensorShape(input_shape))
        for axis, value in zip(_spatial_axes(len(shape), self._n, self.data_format), values):
            shape[axis] = None if shape[axis] is None else resize(shape[axis], value)
        return TensorShape(shape)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


def _pairs_config(pairs):
    return [list(p) for p in pairs] if len(pairs) > 1 else list(pairs[0])


class Permute(Layer):
    """Permutes the non-batch axes: dims=(2, 1) swaps the first two."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set "
                             f"of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={self.dims}")
        self.supports_masking = True

    def call(self, inputs):
        return K.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        return TensorShape((shape[0],) + tuple(shape[d] for d in self.dims))

    def get_config(self):
        config = super().get_config()
        config["dims"] = list(self.dims)
        return config


class RepeatVector(Layer):
    """[batch, features] -> [batch, n, features]."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs):
        if inputs.shape.rank != 2:
            raise ValueError(f"RepeatVector expects a 2-D input, received shape "
                             f"{tuple(inputs.shape)}.")
        return K.tile(K.expand_dims(inputs, 1), [1, self.n, 1])

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        return TensorShape((shape[0], self.n, shape[1]))

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


class Identity(Layer):
    """Returns its input."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


# -- up-sampling ------------------------------------------------------------------------------
def _repeat(x, axis, times):
    if times == 1:
        return x
    return repeat(x, times, axis=axis)


class _UpSampling(_Shaped):
    _n = None

    def __init__(self, size=2, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.size = _tuple(size, self._n, "size")

    def call(self, inputs):
        x = inputs
        for axis, times in zip(_spatial_axes(x.shape.rank, self._n, self.data_format),
                               self.size):
            x = _repeat(x, axis, times)
        return x

    def compute_output_shape(self, input_shape):
        return self._spatial_shape(input_shape, self.size, lambda n, times: n * times)

    def get_config(self):
        config = super().get_config()
        config["size"] = list(self.size) if self._n > 1 else self.size[0]
        return config


class UpSampling1D(_UpSampling):
    """Repeats each step `size` times: [batch, steps, f] -> [batch, steps * size, f]."""
    _n = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(size=size, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format", None)
        return config


class UpSampling2D(_UpSampling):
    """Repeats rows and columns (nearest), or resizes bilinearly."""
    _n = 2

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size=size, data_format=data_format, **kwargs)
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError(f"UpSampling2D: interpolation must be 'nearest' or 'bilinear' "
                             f"here, got {interpolation!r}.")
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        x = inputs if self.data_format == "channels_last" else K.transpose(inputs, [0, 2, 3, 1])
        h, w = x.shape[1], x.shape[2]
        out = resample(x, h * self.size[0], w * self.size[1], "bilinear")
        return out if self.data_format == "channels_last" else K.transpose(out, [0, 3, 1, 2])

    def get_config(self):
        config = super().get_config()
        config["interpolation"] = self.interpolation
        return config


class UpSampling3D(_UpSampling):
    """Repeats the three spatial axes."""
    _n = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size=size, data_format=data_format, **kwargs)


# -- padding and cropping ---------------------------------------------------------------------
class _ZeroPadding(_Shaped):
    _n = None

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.padding = _pairs(padding, self._n, "padding")

    def call(self, inputs):
        rank = inputs.shape.rank
        pads = [[0, 0] for _ in range(rank)]
        for axis, pair in zip(_spatial_axes(rank, self._n, self.data_format), self.padding):
            pads[axis] = list(pair)
        return K.pad(inputs, pads)

    def compute_output_shape(self, input_shape):
        return self._spatial_shape(input_shape, self.padding, lambda n, pair: n + sum(pair))

    def get_config(self):
        config = super().get_config()
        config["padding"] = _pairs_config(self.padding)
        return config


class ZeroPadding1D(_ZeroPadding):
    """Pads the steps axis of [batch, steps, f]."""
    _n = 1

    def __init__(self, padding=1, **kwargs):
        super().__init__(padding=padding, **kwargs)


class ZeroPadding2D(_ZeroPadding):
    """Pads rows and columns."""
    _n = 2


class ZeroPadding3D(_ZeroPadding):
    """Pads the three spatial axes."""
    _n = 3


class _Cropping(_Shaped):
    _n = None

    def __init__(self, cropping=1, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.cropping = _pairs(cropping, self._n, "cropping")

    def call(self, inputs):
        rank = inputs.shape.rank
        index = [slice(None)] * rank
        for axis, (a, b) in zip(_spatial_axes(rank, self._n, self.data_format), self.cropping):
            size = inputs.shape[axis]
            if size is not None and a + b >= size:
                raise ValueError(f"{type(self).__name__}: cropping {(a, b)} removes all "
                                 f"{size} steps of axis {axis}.")
            index[axis] = slice(a, -b if b else None)
        return inputs[tuple(index)]

    def compute_output_shape(self, input_shape):
        return self._spatial_shape(input_shape, self.cropping, lambda n, pair: n - sum(pair))

    def get_config(self):
        config = super().get_config()
        config["cropping"] = _pairs_config(self.cropping)
        return config


class Cropping1D(_Cropping):
    """Crops the steps axis of [batch, steps, f]."""
    _n = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping=cropping, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.pop("data_format", None)
        return config


class Cropping2D(_Cropping):
    """Crops rows and columns."""
    _n = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping=cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the three spatial axes."""
    _n = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping=cropping, data_format=data_format, **kwargs)
