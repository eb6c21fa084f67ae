"""3-D convolutions and the convolutions built from the others (TensorFlow's `tf.nn`):
`conv3d`, `conv3d_transpose`, `conv1d_transpose`, `conv_transpose` and `convolution` (any of 1,
2, 3 spatial dimensions), `atrous_conv2d`, `atrous_conv2d_transpose`, `separable_conv2d`,
`depthwise_conv2d_backprop_input` / `_filter`, and TF 1's `conv2d_backprop_input` / `_filter`
and `conv3d_backprop_filter(_v2)`.

Conv3D is conv2d with one more spatial axis: input [N, D, H, W, C] ("NDHWC", or "NCDHW"),
filters [KD, KH, KW, C, O],

    y[n, p, o] = sum_{k, c} xp[n, p*s + k*d, c] * w[k, c, o]     (p, k, s, d triples),

run by the same N-d kernels (conv_kernels.py: im2col and a matrix product), with TensorFlow's
three-op structure: Conv3D's gradients are Conv3DBackpropInputV2(shape(x), w, g) and
Conv3DBackpropFilterV2(x, shape(w), g), and each of the three ops' gradients are the other two
(conv_ops.Bilinear). All three are linear in each floating-point input (`jvp=multilinear`).

The rest are compositions: a transpose convolution is the BackpropInput op of its rank
(conv1d_transpose inserts a height of 1); atrous convolution is convolution with dilations equal
to the rate; a separable convolution is a depthwise convolution followed by a 1x1 convolution
with the pointwise filter [1, 1, C*M, O].
"""
import numpy as np

from ..framework.execute import execute
from ..framework.registry import defop, multilinear
from ..framework.tensor import convert_to_tensor
from .array_ops import concat, expand_dims, squeeze
from .conv_geometry import padding_attrs, sizes_tensor, spatial_tuple
from .conv_kernels import conv_backprop_filter_kernel, conv_backprop_input_kernel, conv_kernel
from .conv_ops import (CONV2D_BACKPROP_FILTER, CONV2D_BACKPROP_INPUT, DEPTHWISE_BACKPROP_FILTER,
                       DEPTHWISE_BACKPROP_INPUT, Bilinear, backprop_filter_rule,
                       backprop_input_rule, conv1d, conv2d, conv2d_transpose, conv_attrs,
                       conv_rule, depthwise_conv2d, float_operands, sizes_input)

__all__ = ["conv3d", "conv3d_transpose", "conv1d_transpose", "conv_transpose", "convolution",
           "atrous_conv2d", "atrous_conv2d_transpose", "separable_conv2d",
           "depthwise_conv2d_backprop_input", "depthwise_conv2d_backprop_filter"]

_CONV3D_GRADS = Bilinear()
CONV3D = defop("Conv3D", conv_kernel, shape=conv_rule, grad=_CONV3D_GRADS.forward_grad,
               jvp=multilinear)
CONV3D_BACKPROP_INPUT = defop("Conv3DBackpropInputV2", conv_backprop_input_kernel,
                              shape=backprop_input_rule, grad=_CONV3D_GRADS.input_grad,
                              jvp=multilinear)
CONV3D_BACKPROP_FILTER = defop("Conv3DBackpropFilterV2", conv_backprop_filter_kernel,
                               shape=backprop_filter_rule, grad=_CONV3D_GRADS.filter_grad,
                               jvp=multilinear)
_CONV3D_GRADS.forward, _CONV3D_GRADS.input_op, _CONV3D_GRADS.filter_op = (
    CONV3D, CONV3D_BACKPROP_INPUT, CONV3D_BACKPROP_FILTER)


def _conv3d_attrs(op_name, strides, padding, data_format, dilations):
    if data_format is None:
        data_format = "NDHWC"
    if data_format not in ("NDHWC", "NCDHW"):
        raise ValueError(f"{op_name}: data_format must be 'NDHWC' or 'NCDHW', got "
                         f"{data_format!r}.")
    try:
        mode, _ = padding_attrs(padding, data_format, allow_explicit=False, nd=3)
        attrs = {"strides": spatial_tuple(strides, "strides", data_format, nd=3),
                 "padding": mode, "data_format": data_format,
                 "dilations": spatial_tuple(dilations, "dilations", data_format, nd=3)}
    except ValueError as err:
        raise ValueError(f"{op_name}: {err}") from None
    if min(attrs["strides"] + attrs["dilations"]) < 1:
        raise ValueError(f"{op_name}: strides and dilations must be >= 1, got strides "
                         f"{strides!r} and dilations {dilations!r}.")
    return attrs


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None,  # noqa: A002
           name=None):
    """3-D convolution (cross-correlation) of a [N, D, H, W, C] input with [KD, KH, KW, C, O]
    filters; strides and dilations as an int, 3 ints, or 5 ints with 1 for batch and channels."""
    x, w = float_operands(input, filters, "Conv3D")
    return execute(CONV3D, (x, w), _conv3d_attrs("Conv3D", strides, padding, data_format,
                                                 dilations), name)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NDHWC", dilations=None, name=None):
    """The transpose (gradient) of conv3d: a [N, OD, OH, OW, O] input to `output_shape`
    [N, D, H, W, C] with [KD, KH, KW, C, O] filters."""
    x, w = float_operands(input, filters, "Conv3DBackpropInputV2")
    sizes = sizes_input(output_shape, "conv3d_transpose: output_shape", rank=5)
    attrs = _conv3d_attrs("Conv3DBackpropInputV2", strides, padding, data_format, dilations)
    return execute(CONV3D_BACKPROP_INPUT, (sizes, w, x), attrs, name)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    """TF 1's conv3d_backprop_filter_v2: the gradient of conv3d with respect to its filters."""
    x, dy = float_operands(input, out_backprop, "Conv3DBackpropFilterV2")
    sizes = sizes_input(filter_sizes, "conv3d_backprop_filter_v2: filter_sizes", rank=5)
    attrs = _conv3d_attrs("Conv3DBackpropFilterV2", strides, padding, data_format, dilations)
    return execute(CONV3D_BACKPROP_FILTER, (x, sizes, dy), attrs, name)


def conv3d_backprop_filter(input, filter, out_backprop, strides, padding,  # noqa: A002
                           data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    """TF 1's conv3d_backprop_filter: as _v2, with the filter itself giving its shape."""
    return conv3d_backprop_filter_v2(input, sizes_tensor(convert_to_tensor(filter)),
                                     out_backprop, strides, padding, data_format, dilations,
                                     name)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
    """TF 1's conv2d_backprop_input: the gradient of conv2d with respect to its input."""
    filters = filter if filters is None else filters
    return conv2d_transpose(out_backprop, filters, input_sizes, strides, padding, data_format,
                            dilations, name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
    """TF 1's conv2d_backprop_filter: the gradient of conv2d with respect to its filters."""
    x, dy = float_operands(input, out_backprop, "Conv2DBackpropFilter")
    sizes = sizes_input(filter_sizes, "conv2d_backprop_filter: filter_sizes")
    attrs = conv_attrs("Conv2DBackpropFilter", strides, padding, data_format, dilations)
    return execute(CONV2D_BACKPROP_FILTER, (x, sizes, dy), attrs, name)


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                    padding, data_format="NHWC", dilations=None, name=None):
    """The gradient of depthwise_conv2d with respect to its input (of shape input_sizes)."""
    w, dy = float_operands(filter, out_backprop, "DepthwiseConv2dNativeBackpropInput")
    sizes = sizes_input(input_sizes, "depthwise_conv2d_backprop_input: input_sizes")
    attrs = conv_attrs("DepthwiseConv2dNativeBackpropInput", strides, padding, data_format,
                       dilations)
    return execute(DEPTHWISE_BACKPROP_INPUT, (sizes, w, dy), attrs, name)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                                     padding, data_format="NHWC", dilations=None, name=None):
    """The gradient of depthwise_conv2d with respect to its filter (of shape filter_sizes)."""
    x, dy = float_operands(input, out_backprop, "DepthwiseConv2dNativeBackpropFilter")
    sizes = sizes_input(filter_sizes, "depthwise_conv2d_backprop_filter: filter_sizes")
    attrs = conv_attrs("DepthwiseConv2dNativeBackpropFilter", strides, padding, data_format,
                       dilations)
    return execute(DEPTHWISE_BACKPROP_FILTER, (x, sizes, dy), attrs, name)


# -- compositions ----------------------------------------------------------------------------------
def _rank_of(input, filters, what):  # noqa: A002
    x = convert_to_tensor(input)
    rank = x.shape.rank
    if rank is None:
        rank = convert_to_tensor(filters).shape.rank
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
    rank = _rank_of(input, filters, "conv_transpose")
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
