"""Convolutions: `conv2d`, `conv2d_transpose`, `depthwise_conv2d`, `conv1d` (TensorFlow's `tf.nn`).

Layout (TensorFlow's): input [N, H, W, C] ("NHWC", or "NCHW": transposed in and out of the same
kernels), filters [KH, KW, C, O]. With strides s, dilations d and a padded input xp,

    y[n, p, q, o] = sum_{i, j, c} xp[n, p*s_h + i*d_h, q*s_w + j*d_w, c] * w[i, j, c, o].

Output sizes follow TensorFlow: with the dilated kernel k' = (k - 1)*d + 1,
"VALID" gives ceil((H - k' + 1) / s) and no padding; "SAME" gives ceil(H / s), padding with
total = max((out - 1)*s + k' - H, 0) zeros, total // 2 before and the rest after; explicit
paddings [[0, 0], [top, bottom], [left, right], [0, 0]] give (H + top + bottom - k') // s + 1.

Kernels (shared with the 3-D ops): the forward in im2col.py, a strided view of the windows
[N, OH, OW, KH, KW, C] copied into a matrix of N*OH*OW rows, then one matrix product with the
filters as a [KH*KW*C, O] matrix; the two backprop ops in backward_kernels.py.

Derivatives (TensorFlow's op names; y is bilinear in x and w, so every gradient is one of three
linear maps of the same geometry, and the three ops' gradients are each other):

    Conv2D(x, w) = y:                     dx = Conv2DBackpropInput(shape(x), w, g)
                                          dw = Conv2DBackpropFilter(x, shape(w), g)
    Conv2DBackpropInput(sizes, w, dy):    d dy = Conv2D(gg, w)
                                          dw = Conv2DBackpropFilter(gg, shape(w), dy)
    Conv2DBackpropFilter(x, sizes, dy):   dx = Conv2DBackpropInput(shape(x), gg, dy)
                                          d dy = Conv2D(x, gg)

BackpropInput is the transpose of the convolution in x: a unit-stride correlation of g with the
kernel's taps regrouped by output phase (the flipped kernel when the strides are 1), or, for
small or non-overlapping windows, KH*KW slice-adds of g @ w[i, j]^T into strided slices of the
padded input gradient; BackpropFilter is im2col(x)^T @ g. The depthwise ops (each input channel convolved with its own
M filters [KH, KW, C, M], output channel c*M + m) have the same three-op structure, with
elementwise products per offset in place of the matrix products. All of them are linear in each
floating-point input, so their JVPs follow from the product rule (`jvp=multilinear`).
`conv2d_transpose` is Conv2DBackpropInput; `conv1d` is conv2d over a height of 1.
"""
import numpy as np

from ....framework.errors import InvalidArgumentError
from ....framework.execute import binary_operands, execute
from ....framework.registry import defop, multilinear, needs_grad
from ....framework.tensor import Tensor, convert_to_tensor
from ....framework.tensor_shape import TensorShape
from ... import shape_rules

__all__ = ["conv2d", "conv2d_transpose", "depthwise_conv2d", "depthwise_conv2d_native", "conv1d",
           "depthwise_conv2d_backprop_input", "depthwise_conv2d_backprop_filter"]

from ..window_geometry import (check_window_fits, dims_last, dims_nhwc, check_float_operands, from_nhwc,
                            geometry, merge_dim, offset_slices, onnx_window_op, pad_nhwc,
                            data_format_in, shape_from_last, shape_from_nhwc, sizes_nhwc,
                            sizes_tensor, static_dims_last, static_sizes, tf_padding, to_nhwc,
                            window_attrs)
from .backward_kernels import conv_backprop_filter_kernel, conv_backprop_input_kernel
from .im2col import conv_kernel
from ...array_ops import concat
from ...query_ops import shape
from ...reshape_ops import expand_dims, reshape, squeeze


# -- shape rules (any number of spatial dimensions: rank = len(strides) + 2) --------------------
def _rank(attrs):
    return len(attrs["strides"]) + 2


def _conv_out_dims(x_dims, w_dims, attrs, x_shape, out_channels):
    spatial = check_window_fits(x_dims[1:-1], w_dims[:-2], attrs["strides"], attrs["padding"],
                                attrs.get("explicit_paddings", ()), attrs["dilations"], x_shape)
    return [x_dims[0]] + spatial + [out_channels]


def _channel_error(x, w, depthwise=False):
    kind = "filter" if depthwise else "filters"
    verb = " expects " if depthwise else " expect "
    return ("input has {a} channels but " + kind + verb + "{b} (input shape " + str(x.shape)
            + ", " + kind + " shape " + str(w.shape) + "); the filter's next-to-last dimension "
            "must equal the input's channel dimension.")


def _filter_dims(w, rank=4):
    if w.shape.rank is None:
        return [None] * rank
    if w.shape.rank != rank:
        spatial = "height, width" if rank == 4 else "depth, height, width"
        raise InvalidArgumentError(f"filters must have rank {rank} [{spatial}, in_channels, "
                                   f"out_channels], got shape {w.shape}.")
    return list(w.shape)


def conv_rule(x, w, **attrs):
    """Shape rule of Conv2D / Conv3D."""
    check_float_operands(x, w)
    fmt, rank = attrs["data_format"], _rank(attrs)
    x_dims, w_dims = dims_last(x, fmt, "input", rank), _filter_dims(w, rank)
    merge_dim(x_dims[-1], w_dims[-2], _channel_error(x, w))
    return shape_from_last(_conv_out_dims(x_dims, w_dims, attrs, x.shape, w_dims[-1]),
                           fmt), x.dtype


def backprop_input_rule(input_sizes, w, dy, depthwise=False, **attrs):
    """Shape rule of the BackpropInput ops (conv2d_transpose's op)."""
    shape_rules.check_float(w, "filter")
    shape_rules.check_same_dtype(w, dy)
    fmt, rank = attrs["data_format"], _rank(attrs)
    w_dims, dy_dims = _filter_dims(w, rank), dims_last(dy, fmt, "out_backprop", rank)
    dims = static_dims_last(input_sizes, fmt, "input_sizes", rank)
    dims[0] = merge_dim(dims[0], dy_dims[0], "input_sizes batch {a} differs from out_backprop's "
                        f"batch {{b}} (out_backprop shape {dy.shape}).")
    dims[-1] = merge_dim(dims[-1], w_dims[-2], "input_sizes (the transpose's output_shape) has "
                         f"{{a}} channels but the filter of shape {w.shape} expects {{b}}.")
    want_out = w_dims[-1] * w_dims[-2] if depthwise and None not in w_dims[-2:] else \
        None if depthwise else w_dims[-1]
    merge_dim(dy_dims[-1], want_out, f"out_backprop has {{a}} channels but the filter of shape "
              f"{w.shape} produces {{b}} (out_backprop shape {dy.shape}).")
    return shape_from_last(dims, fmt), w.dtype


def backprop_filter_rule(x, filter_sizes, dy, depthwise=False, **attrs):
    """Shape rule of the BackpropFilter ops."""
    check_float_operands(x, dy)
    fmt, rank = attrs["data_format"], _rank(attrs)
    x_dims = dims_last(x, fmt, "input", rank)
    sizes = static_sizes(filter_sizes)
    dims = list(sizes) if sizes is not None else [None] * rank
    if len(dims) != rank:
        raise InvalidArgumentError(f"filter_sizes must have {rank} entries, got {sizes}.")
    dims[-2] = merge_dim(dims[-2], x_dims[-1], f"filter_sizes expects {{a}} input channels but "
                         f"the input of shape {x.shape} has {{b}}.")
    if not depthwise:
        dims[-1] = merge_dim(dims[-1], dims_last(dy, fmt, "out_backprop", rank)[-1],
                             f"filter_sizes has {{a}} output channels but out_backprop of shape "
                             f"{dy.shape} has {{b}}.")
    return TensorShape(dims), x.dtype


class Bilinear:
    """The gradient rules of one convolution family: the forward op y = conv(x, w) and its two
    backprop ops, each the other two's adjoint (TensorFlow's nn_grad relations):
        conv:            dx = BackpropInput(shape(x), w, g)   dw = BackpropFilter(x, shape(w), g)
        BackpropInput:   dw = BackpropFilter(gg, shape(w), dy)   d(dy) = conv(gg, w)
        BackpropFilter:  dx = BackpropInput(shape(x), gg, dy)    d(dy) = conv(x, gg)
    The ops are filled in after they are declared (each rule names the others)."""

    forward = input_op = filter_op = None

    def forward_grad(self, op, g):
        x, w = op.inputs
        dx = execute(self.input_op, (sizes_tensor(x), w, g), op.attrs) if needs_grad(op, 0) else None
        dw = execute(self.filter_op, (x, sizes_tensor(w), g), op.attrs) if needs_grad(op, 1) else None
        return dx, dw

    def input_grad(self, op, gg):
        _, w, dy = op.inputs
        dw = execute(self.filter_op, (gg, sizes_tensor(w), dy), op.attrs) \
            if needs_grad(op, 1) else None
        ddy = execute(self.forward, (gg, w), op.attrs) if needs_grad(op, 2) else None
        return None, dw, ddy

    def filter_grad(self, op, gg):
        x, _, dy = op.inputs
        dx = execute(self.input_op, (sizes_tensor(x), gg, dy), op.attrs) \
            if needs_grad(op, 0) else None
        ddy = execute(self.forward, (x, gg), op.attrs) if needs_grad(op, 2) else None
        return dx, None, ddy


_CONV2D_GRADS = Bilinear()
def _conv2d_onnx(ctx, op, x, w):
    """ONNX Conv with the filter [KH, KW, C, O] transposed to ONNX's [O, C, KH, KW]."""
    return onnx_window_op(ctx, op, "Conv", x, ctx.transpose(w, [3, 2, 0, 1]),
                          dilations=list(op.attrs["dilations"]))


CONV2D = defop("Conv2D", conv_kernel, shape=conv_rule,
               grad=_CONV2D_GRADS.forward_grad, jvp=multilinear, onnx=_conv2d_onnx,
               raw=lambda input, filter, strides, padding, use_cudnn_on_gpu=True,
               explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None:
               conv2d(input, filter, strides, tf_padding(padding, explicit_paddings), data_format,
                      dilations, name))
CONV2D_BACKPROP_INPUT = defop("Conv2DBackpropInput", conv_backprop_input_kernel,
                              shape=backprop_input_rule, grad=_CONV2D_GRADS.input_grad,
                              jvp=multilinear,
                              raw=lambda input_sizes, filter, out_backprop, strides, padding,
                              use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                              dilations=(1, 1, 1, 1), name=None: conv2d_transpose(
                                  out_backprop, filter, input_sizes, strides,
                                  tf_padding(padding, explicit_paddings), data_format, dilations,
                                  name))
CONV2D_BACKPROP_FILTER = defop("Conv2DBackpropFilter", conv_backprop_filter_kernel,
                               shape=backprop_filter_rule, grad=_CONV2D_GRADS.filter_grad,
                               jvp=multilinear,
                               raw=lambda input, filter_sizes, out_backprop, strides, padding,
                               use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                               dilations=(1, 1, 1, 1), name=None: conv2d_backprop_filter(
                                   input, filter_sizes, out_backprop, strides,
                                   tf_padding(padding, explicit_paddings), True, data_format,
                                   dilations, name))
_CONV2D_GRADS.forward, _CONV2D_GRADS.input_op, _CONV2D_GRADS.filter_op = (
    CONV2D, CONV2D_BACKPROP_INPUT, CONV2D_BACKPROP_FILTER)


# -- depthwise -------------------------------------------------------------------------------------
def _depthwise_kernel(x, w, strides, padding, explicit_paddings, data_format, dilations):
    x = to_nhwc(x, data_format)
    kh, kw, c, m = w.shape
    if x.ndim != 4 or c != x.shape[3]:
        raise ValueError("channels differ")
    out_hw, pads = geometry(x.shape[1:3], (kh, kw), strides, padding, explicit_paddings,
                            dilations)
    xp = pad_nhwc(x, pads)
    y = np.zeros((x.shape[0],) + out_hw + (c, m), dtype=x.dtype)
    for i, j, index in offset_slices((kh, kw), out_hw, strides, dilations):
        y += xp[index][..., None] * w[i, j]
    return from_nhwc(y.reshape(y.shape[:3] + (c * m,)), data_format)


def _depthwise_backprop_input_kernel(input_sizes, w, dy, strides, padding, explicit_paddings,
                                     data_format, dilations):
    n, h, wd, c = sizes_nhwc(input_sizes, data_format)
    kh, kw, wc, m = w.shape
    out_hw, pads = geometry((h, wd), (kh, kw), strides, padding, explicit_paddings, dilations)
    dy = to_nhwc(dy, data_format)
    if wc != c or dy.shape != (n,) + out_hw + (c * m,):
        raise ValueError("shapes differ")
    dy = dy.reshape((n,) + out_hw + (c, m))
    (top, bottom), (left, right) = pads
    dxp = np.zeros((n, h + top + bottom, wd + left + right, c), dtype=dy.dtype)
    for i, j, index in offset_slices((kh, kw), out_hw, strides, dilations):
        dxp[index] += np.einsum("nhwcm,cm->nhwc", dy, w[i, j])
    return from_nhwc(dxp[:, top:top + h, left:left + wd], data_format)


def _depthwise_backprop_filter_kernel(x, filter_sizes, dy, strides, padding, explicit_paddings,
                                      data_format, dilations):
    kh, kw, c, m = (int(v) for v in np.asarray(filter_sizes).reshape(-1))
    x, dy = to_nhwc(x, data_format), to_nhwc(dy, data_format)
    out_hw, pads = geometry(x.shape[1:3], (kh, kw), strides, padding, explicit_paddings,
                            dilations)
    if c != x.shape[3] or dy.shape != x.shape[:1] + out_hw + (c * m,):
        raise ValueError("shapes differ")
    dy = dy.reshape(dy.shape[:3] + (c, m))
    xp = pad_nhwc(x, pads)
    dw = np.empty((kh, kw, c, m), dtype=x.dtype)
    for i, j, index in offset_slices((kh, kw), out_hw, strides, dilations):
        dw[i, j] = np.einsum("nhwc,nhwcm->cm", xp[index], dy)
    return dw


def _depthwise_rule(x, w, **attrs):
    check_float_operands(x, w)
    fmt = attrs["data_format"]
    x_dims, w_dims = dims_nhwc(x, fmt, "input"), _filter_dims(w)
    c = merge_dim(x_dims[3], w_dims[2], _channel_error(x, w, depthwise=True))
    out_c = c * w_dims[3] if None not in (c, w_dims[3]) else None
    return shape_from_nhwc(_conv_out_dims(x_dims, w_dims, attrs, x.shape, out_c), fmt), x.dtype


_DEPTHWISE_GRADS = Bilinear()


def _depthwise_onnx(ctx, op, x, w):
    """ONNX Conv in C groups: the filter [KH, KW, C, M] becomes [C*M, 1, KH, KW] (output
    channel c*M + m, as TensorFlow orders them)."""
    kh, kw, c, m = op.inputs[1].shape
    if None in (kh, kw, c, m):
        ctx.fail(f"needs a filter of known shape, got {op.inputs[1].shape}.")
    w = ctx.transpose(ctx.node("Reshape", [w, ctx.int64s([kh, kw, 1, c * m])]), [3, 2, 0, 1])
    return onnx_window_op(ctx, op, "Conv", x, w, group=int(c),
                          dilations=list(op.attrs["dilations"]))


DEPTHWISE = defop("DepthwiseConv2dNative", _depthwise_kernel, shape=_depthwise_rule,
                  grad=_DEPTHWISE_GRADS.forward_grad, jvp=multilinear, onnx=_depthwise_onnx,
                  raw=lambda input, filter, strides, padding, explicit_paddings=(),
                  data_format="NHWC", dilations=(1, 1, 1, 1), name=None: depthwise_conv2d(
                      input, filter, strides, tf_padding(padding, explicit_paddings),
                      data_format, dilations, name))
DEPTHWISE_BACKPROP_INPUT = defop(
    "DepthwiseConv2dNativeBackpropInput", _depthwise_backprop_input_kernel,
    shape=lambda s, w, dy, **a: backprop_input_rule(s, w, dy, depthwise=True, **a),
    grad=_DEPTHWISE_GRADS.input_grad, jvp=multilinear,
    raw=lambda input_sizes, filter, out_backprop, strides, padding, explicit_paddings=(),
    data_format="NHWC", dilations=(1, 1, 1, 1), name=None: depthwise_conv2d_backprop_input(
        input_sizes, filter, out_backprop, strides, tf_padding(padding, explicit_paddings),
        data_format, dilations, name))
DEPTHWISE_BACKPROP_FILTER = defop(
    "DepthwiseConv2dNativeBackpropFilter", _depthwise_backprop_filter_kernel,
    shape=lambda x, s, dy, **a: backprop_filter_rule(x, s, dy, depthwise=True, **a),
    grad=_DEPTHWISE_GRADS.filter_grad, jvp=multilinear,
    raw=lambda input, filter_sizes, out_backprop, strides, padding, explicit_paddings=(),
    data_format="NHWC", dilations=(1, 1, 1, 1), name=None: depthwise_conv2d_backprop_filter(
        input, filter_sizes, out_backprop, strides, tf_padding(padding, explicit_paddings),
        data_format, dilations, name))
_DEPTHWISE_GRADS.forward, _DEPTHWISE_GRADS.input_op, _DEPTHWISE_GRADS.filter_op = (
    DEPTHWISE, DEPTHWISE_BACKPROP_INPUT, DEPTHWISE_BACKPROP_FILTER)


# -- public functions ------------------------------------------------------------------------------
def conv_attrs(op_name, strides, padding, data_format, dilations):
    data_format = data_format_in(op_name, data_format, ("NHWC", "NCHW"))
    mode, explicit, window = window_attrs(op_name, data_format, padding, allow_explicit=True,
                                          strides=strides, dilations=dilations)
    return {"strides": window["strides"], "padding": mode, "explicit_paddings": explicit,
            "data_format": data_format, "dilations": window["dilations"]}


def float_operands(x, w, op_type):
    x, w = binary_operands(x, w, op_type)
    if not x.dtype.is_floating:
        raise TypeError(f"{op_type}: input and filters must be floating-point, got "
                        f"{x.dtype.name} (shapes {x.shape} and {w.shape}); use cast(x, float32).")
    return x, w


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None):
    """2-D convolution (cross-correlation, as in TensorFlow) of a [N, H, W, C] input with
    [KH, KW, C, O] filters; padding "SAME", "VALID" or explicit [[0, 0], [t, b], [l, r], [0, 0]]."""
    x, w = float_operands(input, filters, "Conv2D")
    return execute(CONV2D, (x, w), conv_attrs("Conv2D", strides, padding, data_format,
                                                dilations), name)


def sizes_input(value, what, rank=4):
    """A transpose's output_shape as an int tensor (a list of `rank` ints or an int tensor)."""
    if isinstance(value, Tensor) or hasattr(value, "op"):
        t = convert_to_tensor(value)
        if not t.dtype.is_integer:
            raise TypeError(f"{what} must be an integer tensor, got {t.dtype.name}.")
        return t
    try:
        array = np.asarray([int(v) for v in value], dtype=np.int32)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a list of {rank} ints or an int tensor, got "
                        f"{value!r}.") from None
    if array.shape != (rank,):
        raise ValueError(f"{what} must have {rank} entries (batch, spatial sizes, channels in "
                         f"the data_format's order), got {value!r}.")
    return convert_to_tensor(array)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None):
    """The transpose (gradient) of conv2d: maps a [N, OH, OW, O] input to `output_shape`
    [N, H, W, C] with [KH, KW, C, O] filters (note: output channels third, input channels last)."""
    x, w = float_operands(input, filters, "Conv2DBackpropInput")
    sizes = sizes_input(output_shape, "conv2d_transpose: output_shape")
    attrs = conv_attrs("Conv2DBackpropInput", strides, padding, data_format, dilations)
    return execute(CONV2D_BACKPROP_INPUT, (sizes, w, x), attrs, name)


def depthwise_conv2d(input, filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """Each input channel c convolved with its own filters filter[:, :, c, :] ([KH, KW, C, M]);
    the output has C*M channels, channel c*M + m from filter[:, :, c, m]."""
    x, w = float_operands(input, filter, "DepthwiseConv2dNative")
    return execute(DEPTHWISE, (x, w), conv_attrs("DepthwiseConv2dNative", strides, padding,
                                                  data_format, dilations), name)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=None, name=None):
    """tf.nn.depthwise_conv2d_native: the op under depthwise_conv2d (4-entry strides)."""
    return depthwise_conv2d(input, filter, strides, padding, data_format, dilations, name)


def _width_entry(value, nchw):
    """conv1d's stride/dilation: an int, [a], or [1, a, 1] ("NWC") / [1, 1, a] ("NCW")."""
    if value is None:
        return 1
    values = [int(v) for v in np.asarray(value).reshape(-1)]
    if len(values) == 1:
        return values[0]
    if len(values) == 3:
        return values[2 if nchw else 1]
    raise ValueError(f"conv1d: stride and dilations must be an int or 1 or 3 ints, got {value!r}.")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None,  # noqa: A002
           name=None):
    """1-D convolution of a [N, W, C] input ("NWC"; "NCW" too) with [KW, C, O] filters: conv2d
    over a height of 1. Leading dimensions beyond N are batch dimensions too."""
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"conv1d: data_format must be 'NWC' or 'NCW', got {data_format!r}.")
    nchw = data_format == "NCW"
    x, w = float_operands(input, filters, "Conv2D")
    if x.shape.rank is not None and x.shape.rank > 3:  # TensorFlow's extra batch dimensions
        batch = shape(x)[:-2]
        y = conv1d(reshape(x, concat([[-1], shape(x)[-2:]], 0)), w, stride, padding,
                   data_format, dilations)
        return reshape(y, concat([batch, shape(y)[1:]], 0), name=name)
    for t, what in ((x, "input"), (w, "filters")):
        if t.shape.rank not in (None, 3):
            raise InvalidArgumentError(f"conv1d: {what} must have rank 3, got shape {t.shape}.")
    stride, dilation = _width_entry(stride, nchw), _width_entry(dilations, nchw)
    if not isinstance(padding, str):
        raise ValueError(f"conv1d: padding must be 'SAME' or 'VALID', got {padding!r}.")
    y = conv2d(expand_dims(x, 2 if nchw else 1), expand_dims(w, 0), (1, stride), padding,
               "NCHW" if nchw else "NHWC", (1, dilation))
    return squeeze(y, [2 if nchw else 1], name=name)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
    """TF 1's conv2d_backprop_input: the gradient of conv2d with respect to its input.
    use_cudnn_on_gpu picks a GPU kernel: on a CPU it changes nothing, in TensorFlow as here."""
    del use_cudnn_on_gpu
    filters = filter if filters is None else filters
    return conv2d_transpose(out_backprop, filters, input_sizes, strides, padding, data_format,
                            dilations, name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
    """TF 1's conv2d_backprop_filter: the gradient of conv2d with respect to its filters.
    use_cudnn_on_gpu picks a GPU kernel: on a CPU it changes nothing, in TensorFlow as here."""
    del use_cudnn_on_gpu
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
