"""2-D pooling layers for images in NHWC layout, and the output-size rule of convolutions
(Conv2D and the other convolutions are in conv_more.py, the other poolings in pooling_more.py).

Conv2D slides `filters` kernels of size kh x kw over the image: with kernel K [kh, kw, c_in,
filters] and bias b [filters],

    y[n, i, j, f] = activation(b[f] + sum_{di, dj, c} x[n, i*sh + di*dh, j*sw + dj*dw, c]
                                                    * K[di, dj, c, f])

(strides sh, sw; dilation rates dh, dw), computed by `nn.conv2d`, whose gradient rule gives the
gradients for the input and the kernel. "valid" padding keeps only windows inside the image, so
a side of n becomes ceil((n - (k - 1) * d) / s); "same" pads with zeros so it becomes ceil(n / s).
The kernel starts glorot_uniform with fan_in = kh * kw * c_in and fan_out = kh * kw * filters.

MaxPooling2D / AveragePooling2D take the max / mean over pool_size windows moved by `strides`
(default: pool_size), by `nn.max_pool2d` / `nn.avg_pool2d` (the max's gradient goes to the
winning input, the mean's is spread evenly over the window). GlobalAveragePooling2D averages
over height and width: [n, h, w, c] -> [n, c].
"""
import math

from ...framework.tensor_shape import TensorShape
from ...ops.math_ops import cast
from ...ops.nn.activations import bias_add
from ...ops.reduce_ops import reduce_mean
from .. import activations, initializers
from .base import Layer

__all__ = ["MaxPooling2D", "AveragePooling2D", "MaxPool2D", "AvgPool2D", "output_length"]


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


def output_length(length, window, padding, stride, dilation=1):
    """The size of one spatial side after a convolution or pooling window (None stays None)."""
    if length is None:
        return None
    if padding == "same":
        return math.ceil(length / stride)
    effective = (window - 1) * dilation + 1
    return max(0, math.ceil((length - effective + 1) / stride))


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
        from ...ops.nn import pool as pool_ops
        pool = getattr(pool_ops, self._op_name)
        return pool(inputs, ksize=(1,) + self.pool_size + (1,),
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
