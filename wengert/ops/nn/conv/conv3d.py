"""3-D convolutions (TensorFlow's `tf.nn`): `conv3d`, `conv3d_transpose`, and TF 1's
`conv3d_backprop_filter(_v2)`.

Conv3D is conv2d with one more spatial axis: input [N, D, H, W, C] ("NDHWC", or "NCDHW"),
filters [KD, KH, KW, C, O],

    y[n, p, o] = sum_{k, c} xp[n, p*s + k*d, c] * w[k, c, o]     (p, k, s, d triples),

run by the same N-d kernels (im2col.py, backward_kernels.py), with TensorFlow's
three-op structure: Conv3D's gradients are Conv3DBackpropInputV2(shape(x), w, g) and
Conv3DBackpropFilterV2(x, shape(w), g), and each of the three ops' gradients are the other two
(conv2d.Bilinear). All three are linear in each floating-point input (`jvp=multilinear`).
"""

from ....framework.execute import execute
from ....framework.registry import defop, multilinear
from ....framework.tensor import convert_to_tensor
from ..window_geometry import data_format_in, sizes_tensor, window_attrs
from .conv2d import (
    Bilinear,
    backprop_filter_rule,
    backprop_input_rule,
    conv_rule,
    float_operands,
    sizes_input,
)
from .backward_kernels import conv_backprop_filter_kernel, conv_backprop_input_kernel
from .im2col import conv_kernel

__all__ = ["conv3d", "conv3d_transpose"]

_CONV3D_GRADS = Bilinear()
CONV3D = defop("Conv3D", conv_kernel, shape=conv_rule, grad=_CONV3D_GRADS.forward_grad,
               jvp=multilinear,
               raw=lambda input, filter, strides, padding, data_format="NDHWC",
               dilations=(1, 1, 1, 1, 1), name=None: conv3d(
                   input, filter, strides, padding, data_format, dilations, name))
CONV3D_BACKPROP_INPUT = defop("Conv3DBackpropInputV2", conv_backprop_input_kernel,
                              shape=backprop_input_rule, grad=_CONV3D_GRADS.input_grad,
                              jvp=multilinear,
                              raw=lambda input_sizes, filter, out_backprop, strides, padding,
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None:
                              conv3d_transpose(out_backprop, filter, input_sizes, strides,
                                               padding, data_format, dilations, name))
CONV3D_BACKPROP_FILTER = defop("Conv3DBackpropFilterV2", conv_backprop_filter_kernel,
                               shape=backprop_filter_rule, grad=_CONV3D_GRADS.filter_grad,
                               jvp=multilinear,
                               raw=lambda input, filter_sizes, out_backprop, strides, padding,
                               data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None:
                               conv3d_backprop_filter_v2(input, filter_sizes, out_backprop,
                                                         strides, padding, data_format,
                                                         dilations, name))
_CONV3D_GRADS.forward, _CONV3D_GRADS.input_op, _CONV3D_GRADS.filter_op = (
    CONV3D, CONV3D_BACKPROP_INPUT, CONV3D_BACKPROP_FILTER)


def _conv3d_attrs(op_name, strides, padding, data_format, dilations):
    data_format = data_format_in(op_name, data_format, ("NDHWC", "NCDHW"))
    mode, _, window = window_attrs(op_name, data_format, padding, strides=strides,
                                   dilations=dilations)
    return {"strides": window["strides"], "padding": mode, "data_format": data_format,
            "dilations": window["dilations"]}


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


# -- compositions ----------------------------------------------------------------------------------


