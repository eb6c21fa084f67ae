"""The convolutions TensorFlow composes from the others (its `tf.nn`): `convolution` (any of 1, 2,
3 spatial dimensions), `conv1d_transpose`, `conv_transpose`, `atrous_conv2d`,
`atrous_conv2d_transpose` and `separable_conv2d`. Their gradients are those of the ops they are
made of.

A transpose convolution is the BackpropInput op of its rank (conv1d_transpose inserts a height of
1); atrous convolution is convolution with dilations equal to the rate; a separable convolution is
a depthwise convolution followed by a 1x1 convolution with the pointwise filter [1, 1, C*M, O].
"""
import numpy as np

from ....framework.tensor import convert_to_tensor
from ...array_ops import concat
from ...reshape_ops import expand_dims, squeeze
from .conv2d import conv1d, conv2d, conv2d_transpose, depthwise_conv2d, sizes_input
from .conv3d import conv3d, conv3d_transpose

__all__ = ["convolution", "conv1d_transpose", "conv_transpose", "atrous_conv2d",
           "atrous_conv2d_transpose", "separable_conv2d"]


def _rank_of(input, filters, what, output_shape=None):  # noqa: A002
    """The input's rank: its own, the filters', or (as TensorFlow's conv_transpose reads it)
    the length of output_shape."""
    x = convert_to_tensor(input)
    rank = x.shape.rank
    if rank is None:
        rank = convert_to_tensor(filters).shape.rank
    if rank is None and output_shape is not None:
        rank = convert_to_tensor(output_shape).shape[0]
    if rank is None:
        raise ValueError(f"{what}: the ranks of input and filters are both unknown, so the "
                         "number of spatial dimensions cannot be read; give either one a shape "
                         "of known rank (TensorFlow raises ValueError too).")
    if rank not in (3, 4, 5):
        raise ValueError(f"{what}: the input must have rank 3, 4 or 5 (1, 2 or 3 spatial "
                         f"dimensions), got shape {x.shape}.")
    return rank


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """tf.nn.convolution: conv1d, conv2d or conv3d by the input's rank (3, 4 or 5)."""
    rank = _rank_of(input, filters, "convolution")
    strides = 1 if strides is None else strides
    if rank == 3:
        return conv1d(input, filters, strides, padding, data_format or "NWC", dilations, name)
    if rank == 4:
        return conv2d(input, filters, strides, padding, data_format or "NHWC", dilations, name)
    return conv3d(input, filters, strides, padding, data_format or "NDHWC", dilations, name)


def _width(value, ncw, what):
    values = [int(v) for v in np.asarray(1 if value is None else value).reshape(-1)]
    if len(values) == 1:
        return values[0]
    if len(values) == 3:
        return values[2 if ncw else 1]
    raise ValueError(f"conv1d_transpose: {what} must be an int or 1 or 3 ints, got {value!r}.")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of conv1d: a [N, OW, O] input to `output_shape` [N, W, C] with [KW, C, O]
    filters (conv2d_transpose over a height of 1)."""
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"conv1d_transpose: data_format must be 'NWC' or 'NCW', got "
                         f"{data_format!r}.")
    ncw = data_format == "NCW"
    axis = 2 if ncw else 1
    sizes = sizes_input(output_shape, "conv1d_transpose: output_shape", rank=3)
    one = convert_to_tensor(np.ones(1, sizes.dtype.as_numpy_dtype))  # a height of 1
    sizes4 = concat([sizes[:axis], one, sizes[axis:]], 0)
    y = conv2d_transpose(expand_dims(input, axis), expand_dims(filters, 0), sizes4,
                         (1, _width(strides, ncw, "strides")), padding,
                         "NCHW" if ncw else "NHWC", (1, _width(dilations, ncw, "dilations")))
    return squeeze(y, [axis], name=name)


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """tf.nn.conv_transpose: conv1d_transpose, conv2d_transpose or conv3d_transpose by rank."""
    rank = _rank_of(input, filters, "conv_transpose", output_shape)
    fn = {3: conv1d_transpose, 4: conv2d_transpose, 5: conv3d_transpose}[rank]
    default = {3: "NWC", 4: "NHWC", 5: "NDHWC"}[rank]
    return fn(input, filters, output_shape, strides, padding, data_format or default, dilations,
              name)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """Dilated (atrous) 2-D convolution: conv2d with dilations = rate, stride 1."""
    if int(rate) < 1:
        raise ValueError(f"atrous_conv2d: rate must be >= 1, got {rate}.")
    return conv2d(value, filters, 1, padding, "NHWC", int(rate), name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: conv2d_transpose with dilations = rate, stride 1."""
    if int(rate) < 1:
        raise ValueError(f"atrous_conv2d_transpose: rate must be >= 1, got {rate}.")
    return conv2d_transpose(value, filters, output_shape, 1, padding, "NHWC", int(rate), name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None):
    """depthwise_conv2d with [KH, KW, C, M] filters, then a 1x1 conv2d with the pointwise
    filter [1, 1, C*M, O] (stride 1, VALID)."""
    pointwise = convert_to_tensor(pointwise_filter)
    if pointwise.shape.rank is not None and (pointwise.shape.rank != 4 or any(
            d not in (None, 1) for d in pointwise.shape[:2])):
        raise ValueError(f"separable_conv2d: pointwise_filter must have shape [1, 1, C*M, O], "
                         f"got {pointwise.shape}.")
    data_format = data_format or "NHWC"
    depth = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return conv2d(depth, pointwise, 1, "VALID", data_format, name=name)
