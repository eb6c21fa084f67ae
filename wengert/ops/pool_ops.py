"""Pooling: `max_pool2d`, `avg_pool2d` (and `max_pool`, `avg_pool`, the 1-D forms), `tf.nn`'s.

A pool slides a KH x KW window over the height and width of an [N, H, W, C] ("NHWC"; "NCHW" is
transposed in and out) input with the given strides, per channel. Output sizes are conv2d's
(see conv_geometry): "VALID" keeps whole windows, "SAME" gives ceil(H / s) windows and pads as
conv2d does, but padding never takes part: max pooling pads with -inf, average pooling divides
by the number of real (unpadded) elements in each window, as TensorFlow does.

Kernels loop over the KH*KW window offsets, each a strided slice of the padded input: the max
is a running np.maximum, the average a running sum divided by the window counts.

Derivatives (TensorFlow's op names):
    MaxPool(x) = y:             dx = MaxPoolGrad(x, y, g): g routed to the argmax of each window
                                (added up where windows overlap). On ties the whole gradient goes
                                to the first maximum in row-major window order (TensorFlow's CPU
                                kernel does the same: it keeps the first maximum it meets).
    MaxPoolGrad(x, y, g):       linear in g: d g = MaxPoolGradGrad(x, y, gg), which gathers gg at
                                each window's argmax (shape of y); x and y get no gradient (the
                                argmax is piecewise constant).
    MaxPoolGradGrad(x, y, gg):  linear in gg, its adjoint is MaxPoolGrad(x, y, ggg).
    AvgPool(x):                 linear: dx = AvgPoolGrad(shape(x), g) spreads g / count evenly
                                over each window; AvgPoolGrad is linear with adjoint AvgPool.
Forward mode: AvgPool and AvgPoolGrad are linear; max pooling's JVP is the tangent read at the
argmax, MaxPoolGradGrad(x, y, dx); the two max-pool helpers are linear in their last input.
"""
import numpy as np

from ..framework.registry import linear
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from . import shapes
from .conv_geometry import (check_window_fits, dims_nhwc, from_nhwc, geometry, merge_dim,
                       offset_slices, onnx_window_op, pad_nhwc, padding_attrs, shape_from_nhwc, sizes_nhwc,
                       sizes_tensor, spatial_pair, static_dims_nhwc, to_nhwc)
from .array_ops import expand_dims, squeeze

__all__ = ["max_pool2d", "avg_pool2d", "max_pool", "avg_pool", "max_pool1d", "avg_pool1d"]

_UNIT = (1, 1)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _layout(x, ksize, strides, padding, pad_value=0):
    """(padded NHWC input, window offsets, (OH, OW), pads)."""
    out_hw, pads = geometry(x.shape[1:3], ksize, strides, padding, (), _UNIT)
    return pad_nhwc(x, pads, pad_value), offset_slices(ksize, out_hw, strides, _UNIT), out_hw, pads


def _crop(xp, pads, hw):
    (top, _), (left, _) = pads
    return xp[:, top:top + hw[0], left:left + hw[1]]


# -- max pooling -----------------------------------------------------------------------------------
def _max_pool_kernel(x, ksize, strides, padding, data_format):
    x = to_nhwc(x, data_format)
    xp, offsets, _, _ = _layout(x, ksize, strides, padding, _lowest(x.dtype))
    y = np.array(xp[offsets[0][2]])
    for _, _, index in offsets[1:]:
        np.maximum(y, xp[index], out=y)
    return from_nhwc(y, data_format)


def _argmax_offsets(xp, offsets):
    """Per output element, the number of the window offset holding its first maximum."""
    best = np.array(xp[offsets[0][2]])
    which = np.zeros(best.shape, dtype=np.int32)
    for k, (_, _, index) in enumerate(offsets[1:], 1):
        value = xp[index]
        better = value > best
        np.copyto(best, value, where=better)
        which[better] = k
    return which


def _max_pool_grad_kernel(x, y, g, ksize, strides, padding, data_format):
    x, g = to_nhwc(x, data_format), to_nhwc(g, data_format)
    xp, offsets, out_hw, pads = _layout(x, ksize, strides, padding, _lowest(x.dtype))
    if g.shape != x.shape[:1] + out_hw + x.shape[3:]:
        raise ValueError("the gradient does not match the pooled shape")
    which = _argmax_offsets(xp, offsets)
    dxp = np.zeros(xp.shape, dtype=g.dtype)
    zero = g.dtype.type(0)
    for k, (_, _, index) in enumerate(offsets):
        dxp[index] += np.where(which == k, g, zero)
    return from_nhwc(_crop(dxp, pads, x.shape[1:3]), data_format)


def _max_pool_grad_grad_kernel(x, y, gg, ksize, strides, padding, data_format):
    x, gg = to_nhwc(x, data_format), to_nhwc(gg, data_format)
    if gg.shape != x.shape:
        raise ValueError("the gradient does not match the input shape")
    xp, offsets, _, pads = _layout(x, ksize, strides, padding, _lowest(x.dtype))
    which = _argmax_offsets(xp, offsets)
    ggp = pad_nhwc(gg, pads)
    out = np.zeros(which.shape, dtype=gg.dtype)
    for k, (_, _, index) in enumerate(offsets):
        np.copyto(out, ggp[index], where=which == k)
    return from_nhwc(out, data_format)


def _pool_rule(x, ksize, strides, padding, data_format):
    dims = dims_nhwc(x, data_format, "input")
    hw = check_window_fits(dims[1:3], ksize, strides, padding, (), _UNIT, x.shape)
    return shape_from_nhwc([dims[0]] + hw + [dims[3]], data_format), x.dtype


def _max_pool_rule(x, **attrs):
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise InvalidArgumentError(f"input must be numeric, got {x.dtype.name}.")
    return _pool_rule(x, **attrs)


def _same_as(t, like, what):
    shapes.check_same_dtype(t, like)
    if not t.shape.is_compatible_with(like.shape):
        raise InvalidArgumentError(f"{what} of shape {t.shape} must have the shape {like.shape}.")


def _max_pool_grad_rule(x, y, g, **attrs):
    _same_as(g, y, "the gradient")
    pooled = _pool_rule(x, **attrs)[0]
    if not y.shape.is_compatible_with(pooled):
        raise InvalidArgumentError(f"orig_output of shape {y.shape} is not the pooled shape "
                                   f"{pooled} of orig_input {x.shape}.")
    return x.shape, x.dtype


def _max_pool_grad_grad_rule(x, y, gg, **attrs):
    _same_as(gg, x, "the gradient of the gradient")
    shape, dtype = _pool_rule(x, **attrs)
    return shape.merge_with(y.shape), dtype


def _max_pool_jvp(primals, tangents, outputs, **attrs):
    return execute(MAX_POOL_GRAD_GRAD, (primals[0], outputs[0], tangents[0]), attrs)


def _linear_in_last(own_op):
    """JVP of h(x, y, g), linear in g, piecewise constant in x and y."""
    def jvp(primals, tangents, outputs, **attrs):
        if tangents[2] is None:
            return None
        return execute(own_op(), (primals[0], primals[1], tangents[2]), attrs)
    return jvp


MAX_POOL_GRAD = defop(
    "MaxPoolGrad", _max_pool_grad_kernel, shape=_max_pool_grad_rule,
    grad=lambda op, gg: (None, None, execute(MAX_POOL_GRAD_GRAD, (*op.inputs[:2], gg),
                                             op.attrs)),
    jvp=_linear_in_last(lambda: MAX_POOL_GRAD))
MAX_POOL_GRAD_GRAD = defop(
    "MaxPoolGradGrad", _max_pool_grad_grad_kernel, shape=_max_pool_grad_grad_rule,
    grad=lambda op, g: (None, None, execute(MAX_POOL_GRAD, (*op.inputs[:2], g), op.attrs)),
    jvp=_linear_in_last(lambda: MAX_POOL_GRAD_GRAD))
MAX_POOL = defop(
    "MaxPool", _max_pool_kernel, shape=_max_pool_rule,
    grad=lambda op, g: execute(MAX_POOL_GRAD, (op.inputs[0], op.outputs[0], g), op.attrs),
    jvp=_max_pool_jvp,
    onnx=lambda ctx, op, x: onnx_window_op(ctx, op, "MaxPool", x,
                                           kernel_shape=list(op.attrs["ksize"])))


# -- average pooling -------------------------------------------------------------------------------
def _window_counts(hw, ksize, strides, pads, out_hw, dtype):
    """[OH, OW, 1] numbers of real input elements in each window."""
    per_axis = []
    for axis in (0, 1):
        start = np.arange(out_hw[axis]) * strides[axis] - pads[axis][0]
        stop = np.minimum(start + ksize[axis], hw[axis])
        per_axis.append(stop - np.maximum(start, 0))
    return np.multiply.outer(per_axis[0], per_axis[1]).astype(dtype)[..., None]


def _avg_pool_kernel(x, ksize, strides, padding, data_format):
    x = to_nhwc(x, data_format)
    xp, offsets, out_hw, pads = _layout(x, ksize, strides, padding)
    total = np.array(xp[offsets[0][2]])
    for _, _, index in offsets[1:]:
        total += xp[index]
    total /= _window_counts(x.shape[1:3], ksize, strides, pads, out_hw, x.dtype)
    return from_nhwc(total, data_format)


def _avg_pool_grad_kernel(orig_input_shape, g, ksize, strides, padding, data_format):
    n, h, w, c = sizes_nhwc(orig_input_shape, data_format)
    g = to_nhwc(g, data_format)
    out_hw, pads = geometry((h, w), ksize, strides, padding, (), _UNIT)
    if g.shape != (n,) + out_hw + (c,):
        raise ValueError("the gradient does not match the pooled shape")
    share = g / _window_counts((h, w), ksize, strides, pads, out_hw, g.dtype)
    (top, bottom), (left, right) = pads
    dxp = np.zeros((n, h + top + bottom, w + left + right, c), dtype=g.dtype)
    for _, _, index in offset_slices(ksize, out_hw, strides, _UNIT):
        dxp[index] += share
    return from_nhwc(_crop(dxp, pads, (h, w)), data_format)


def _avg_pool_rule(x, **attrs):
    shapes.check_float(x)
    return _pool_rule(x, **attrs)


def _avg_pool_grad_rule(orig_input_shape, g, **attrs):
    shapes.check_float(g, "the gradient")
    fmt = attrs["data_format"]
    g_dims = dims_nhwc(g, fmt, "the gradient")
    dims = static_dims_nhwc(orig_input_shape, fmt, "orig_input_shape")
    for axis, label in ((0, "batch"), (3, "channels")):
        dims[axis] = merge_dim(dims[axis], g_dims[axis], f"orig_input_shape {label} {{a}} "
                               f"differs from the gradient's {{b}} (shape {g.shape}).")
    return shape_from_nhwc(dims, fmt), g.dtype


AVG_POOL_GRAD = defop("AvgPoolGrad", _avg_pool_grad_kernel, shape=_avg_pool_grad_rule,
                      grad=lambda op, gg: (None, execute(AVG_POOL, (gg,), op.attrs)), jvp=linear)
AVG_POOL = defop("AvgPool", _avg_pool_kernel, shape=_avg_pool_rule,
                 grad=lambda op, g: execute(AVG_POOL_GRAD, (sizes_tensor(op.inputs[0]), g),
                                            op.attrs), jvp=linear,
                 onnx=lambda ctx, op, x: onnx_window_op(  # padding is not counted, as in TF
                     ctx, op, "AveragePool", x, kernel_shape=list(op.attrs["ksize"]),
                     count_include_pad=0))


# -- public functions ------------------------------------------------------------------------------
def _pool_attrs(op_name, ksize, strides, padding, data_format):
    if data_format is None:
        data_format = "NHWC"
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{op_name}: data_format must be 'NHWC' or 'NCHW', got {data_format!r}.")
    try:
        attrs = {"ksize": spatial_pair(ksize, "ksize", data_format),
                 "strides": spatial_pair(strides, "strides", data_format),
                 "padding": padding_attrs(padding, data_format, allow_explicit=False)[0],
                 "data_format": data_format}
    except ValueError as err:
        raise ValueError(f"{op_name}: {err}") from None
    if min(attrs["ksize"] + attrs["strides"]) < 1:
        raise ValueError(f"{op_name}: ksize and strides must be >= 1, got ksize {ksize!r} and "
                         f"strides {strides!r}.")
    return attrs


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum of each KH x KW window of a [N, H, W, C] input (padding "SAME" or "VALID")."""
    attrs = _pool_attrs("MaxPool", ksize, strides, padding, data_format)
    return execute(MAX_POOL, (convert_to_tensor(input),), attrs, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each KH x KW window (with "SAME" padding, of its unpadded elements)."""
    attrs = _pool_attrs("AvgPool", ksize, strides, padding, data_format)
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f"AvgPool: input must be floating-point, got {x.dtype.name} (shape "
                        f"{x.shape}); use cast(x, float32) first.")
    return execute(AVG_POOL, (x,), attrs, name)


def _pool1d(pool2d, input, ksize, strides, padding, data_format, name):  # noqa: A002
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"data_format must be 'NWC' or 'NCW', got {data_format!r}.")
    nchw = data_format == "NCW"
    axis = 2 if nchw else 1

    def width(v):
        values = [int(u) for u in np.asarray(v).reshape(-1)]
        return values[0] if len(values) == 1 else values[axis]
    y = pool2d(expand_dims(input, axis), (1, width(ksize)), (1, width(strides)), padding,
               "NCHW" if nchw else "NHWC")
    return squeeze(y, [axis], name=name)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Max pooling over the width of a [N, W, C] input."""
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Average pooling over the width of a [N, W, C] input."""
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, name)


def _rank_dispatch(pool1d, pool2d, input, ksize, strides, padding, data_format, name):  # noqa: A002
    x = convert_to_tensor(input)
    if x.shape.rank == 3:
        return pool1d(x, ksize, strides, padding, data_format or "NWC", name)
    return pool2d(x, ksize, strides, padding, data_format or "NHWC", name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.max_pool for rank-3 (1-D) and rank-4 (2-D) inputs."""
    return _rank_dispatch(max_pool1d, max_pool2d, input, ksize, strides, padding, data_format,
                          name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.avg_pool for rank-3 (1-D) and rank-4 (2-D) inputs."""
    return _rank_dispatch(avg_pool1d, avg_pool2d, input, ksize, strides, padding, data_format,
                          name)
