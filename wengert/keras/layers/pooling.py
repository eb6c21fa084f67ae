"""The pooling layers: MaxPooling1D/2D/3D, AveragePooling1D/2D/3D (windows) and
GlobalMaxPooling1D/2D/3D, GlobalAveragePooling1D/2D/3D (whole spatial axes), with Keras's
aliases (MaxPool2D, GlobalAvgPool1D, ...).

Windowed pooling takes the max / mean of each pool_size window moved by `strides` (default:
pool_size), "valid" or "same" (padding never counts, as TensorFlow's pools), by tf.nn's
max_pool1d/2d/3d and avg_pool1d/2d/3d: the max's gradient goes to the winning input, the mean's
is spread evenly over the window. Output sizes follow conv_arithmetic.py. The 2-D layers take
images in NHWC layout only; the 1-D and 3-D ones channels_last or channels_first.

Global pooling reduces every spatial axis: max or mean, [batch, ..., channels] ->
[batch, channels] ([batch, 1, ..., channels] with keepdims). GlobalAveragePooling1D with a mask
averages the unmasked steps only (Keras's rule): sum(x m) / sum(m).
"""
from ...framework.tensor_shape import TensorShape
from ...ops.nn import pool
from .. import backend_ops as K
from .base import Layer
from .conv_arithmetic import output_length

__all__ = ["MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D",
           "AveragePooling2D", "AveragePooling3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D",
           "GlobalMaxPooling3D", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
           "GlobalAveragePooling3D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D",
           "AvgPool2D", "AvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
           "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D"]


# -- 2-D windows (NHWC) -----------------------------------------------------------------------
def _pair(value, name):
    """An int or a pair of ints -> a pair of positive ints."""
    if isinstance(value, int):
        pair = (value, value)
    else:
        pair = tuple(int(v) for v in value)
    if len(pair) != 2 or any(v <= 0 for v in pair):
        raise ValueError(f"The `{name}` argument must be a tuple of 2 positive integers (or one "
                         f"integer). Received: {name}={value!r}.")
    return pair


def _padding(value):
    padding = str(value).lower()
    if padding not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be 'valid' or 'same'. Received: "
                         f"padding={value!r}.")
    return padding


def _channels_last(data_format, layer_name):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{layer_name}: only data_format='channels_last' (NHWC) is "
                                  f"available; got {data_format!r}. Transpose the input to NHWC.")
    return "channels_last"


def _image_shape(input_shape, layer):
    shape = tuple(TensorShape(input_shape))
    if len(shape) != 4:
        raise ValueError(f"Input 0 of layer {layer.name!r} ({type(layer).__name__}) is "
                         f"incompatible with the layer: expected ndim=4 (batch, height, width, "
                         f"channels), found ndim={len(shape)}. Full shape received: {shape}.")
    return shape


def _spatial(shape, windows, padding, strides, dilations=(1, 1)):
    return tuple(output_length(shape[1 + i], windows[i], padding, strides[i], dilations[i])
                 for i in range(2))


class _Pooling2D(Layer):
    """Shared by MaxPooling2D and AveragePooling2D: windows pool_size moved by strides."""

    _op_name = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _channels_last(data_format, type(self).__name__)

    def call(self, inputs):
        return getattr(pool, self._op_name)(inputs, ksize=(1,) + self.pool_size + (1,),
                    strides=(1,) + self.strides + (1,), padding=self.padding.upper())

    def compute_output_shape(self, input_shape):
        shape = _image_shape(input_shape, self)
        return TensorShape((shape[0],) + _spatial(shape, self.pool_size, self.padding,
                                                  self.strides) + (shape[3],))

    def get_config(self):
        config = super().get_config()
        config.update(pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                      data_format=self.data_format)
        return config


class MaxPooling2D(_Pooling2D):
    """The maximum over each pool_size window (NHWC)."""
    _op_name = "max_pool2d"


class AveragePooling2D(_Pooling2D):
    """The mean over each pool_size window (NHWC; "same" padding averages the valid cells)."""
    _op_name = "avg_pool2d"


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D


# -- 1-D and 3-D windows, global pooling ----------------------------------------------
def _ints(value, n, name):
    value = (value,) * n if isinstance(value, int) else tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError(f"`{name}` must have {n} entries, got {value}.")
    return value


class _Pooling(Layer):
    _rank = None
    _op = None

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _ints(pool_size, self._rank, "pool_size")
        self.strides = self.pool_size if strides is None else _ints(strides, self._rank,
                                                                     "strides")
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be 'valid' or 'same'. Received: "
                             f"padding={padding!r}")
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        fn = getattr(pool, self._op)
        first = self.data_format == "channels_first"
        fmt = {1: ("NWC", "NCW"), 3: ("NDHWC", "NCDHW")}[self._rank][int(first)]
        ones = (1,)
        ksize = ones + self.pool_size + ones if not first else ones + ones + self.pool_size
        strides = ones + self.strides + ones if not first else ones + ones + self.strides
        return fn(inputs, ksize, strides, self.padding.upper(), data_format=fmt)

    def compute_output_shape(self, input_shape):
        shape = list(TensorShape(input_shape))
        axes = range(1, 1 + self._rank) if self.data_format == "channels_last" else range(
            2, 2 + self._rank)
        for axis, k, s in zip(axes, self.pool_size, self.strides):
            shape[axis] = output_length(shape[axis], k, self.padding, s)
        return TensorShape(shape)

    def get_config(self):
        config = super().get_config()
        unpack = (lambda v: v[0]) if self._rank == 1 else list
        config.update(pool_size=unpack(self.pool_size), strides=unpack(self.strides),
                      padding=self.padding, data_format=self.data_format)
        return config


class MaxPooling1D(_Pooling):
    """The maximum of each window of [batch, steps, channels]."""
    _rank, _op = 1, "max_pool1d"


class AveragePooling1D(_Pooling):
    """The mean of each window of [batch, steps, channels]."""
    _rank, _op = 1, "avg_pool1d"


class MaxPooling3D(_Pooling):
    """The maximum of each window of [batch, depth, rows, cols, channels]."""
    _rank, _op = 3, "max_pool3d"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class AveragePooling3D(_Pooling):
    """The mean of each window of [batch, depth, rows, cols, channels]."""
    _rank, _op = 3, "avg_pool3d"

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


class _GlobalPooling(Layer):
    _rank = None
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = bool(keepdims)

    def _axes(self, rank):
        return list(range(1, rank - 1)) if self.data_format == "channels_last" else list(
            range(2, rank))

    def call(self, inputs):
        return getattr(K, self._reduce)(inputs, axis=self._axes(inputs.shape.rank),
                                        keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        shape = list(TensorShape(input_shape))
        if len(shape) != self._rank + 2:
            raise ValueError(f"{type(self).__name__} expects inputs of rank {self._rank + 2}, "
                             f"got shape {tuple(shape)}.")
        axes = self._axes(len(shape))
        if self.keepdims:
            return TensorShape([1 if i in axes else d for i, d in enumerate(shape)])
        return TensorShape([d for i, d in enumerate(shape) if i not in axes])

    def get_config(self):
        config = super().get_config()
        config.update(data_format=self.data_format, keepdims=self.keepdims)
        return config


class GlobalMaxPooling1D(_GlobalPooling):
    _rank, _reduce = 1, "reduce_max"


class GlobalMaxPooling2D(_GlobalPooling):
    _rank, _reduce = 2, "reduce_max"


class GlobalMaxPooling3D(_GlobalPooling):
    _rank, _reduce = 3, "reduce_max"


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps (over the unmasked ones when a mask is given)."""
    _rank, _reduce = 1, "reduce_mean"

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format=data_format, keepdims=keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        axis = 1 if self.data_format == "channels_last" else 2
        m = K.cast(mask, inputs.dtype)
        m = K.expand_dims(m, 2 if self.data_format == "channels_last" else 1)
        total = K.reduce_sum(inputs * m, axis=axis, keepdims=self.keepdims)
        return total / K.reduce_sum(m, axis=axis, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalAveragePooling2D(_GlobalPooling):
    _rank, _reduce = 2, "reduce_mean"


class GlobalAveragePooling3D(_GlobalPooling):
    _rank, _reduce = 3, "reduce_mean"


MaxPool1D, MaxPool3D, AvgPool1D, AvgPool3D = (MaxPooling1D, MaxPooling3D, AveragePooling1D,
                                              AveragePooling3D)
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = (GlobalMaxPooling1D, GlobalMaxPooling2D,
                                                     GlobalMaxPooling3D)
GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D = (GlobalAveragePooling1D,
                                                     GlobalAveragePooling2D,
                                                     GlobalAveragePooling3D)
