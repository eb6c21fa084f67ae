"""Grayscale morphology (TensorFlow's `tf.nn.dilation2d` and `tf.nn.erosion2d`), NHWC.

dilation2d is a max-plus convolution, per channel with a [KH, KW, C] filter:

    y[b, p, q, c] = max_{i, j} x[b, p*s_h + i*r_h - top, q*s_w + j*r_w - left, c] + w[i, j, c]

with the strides s, rates r and SAME/VALID geometry of a convolution with the dilated window;
positions outside the input never win. Its derivatives go to the first maximizing tap (i, j) of
each output in row-major order (TensorFlow's CPU kernel keeps the first it meets):
Dilation2DBackpropInput adds g at that input position, Dilation2DBackpropFilter at that filter
tap. Both are linear in g; their gradients in g, and the dilation's JVP, read a tangent of the
input's or the filter's shape at the same positions (the helper ops Dilation2DBackpropInputGrad
and Dilation2DBackpropFilterGrad, which TensorFlow does not have: it stops at first order).

erosion2d(x, w) = -dilation2d(-x, w reversed along both spatial axes), as TensorFlow defines it.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import binary_operands, execute
from ...framework.registry import defop, linear_in
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .window_geometry import (check_window_fits, crop_spatial, dims_last, geometry, merge_dim,
                            offsets, pad_spatial, window_attrs)
from ..indexing_ops import reverse
from .pool import lowest, placed_grad

__all__ = ["dilation2d", "erosion2d"]


def _taps(x, w, strides, rates, padding):
    """(padded input, output, [(index into the padded input, (i, j), first-maximum mask)])."""
    out, pads = geometry(x.shape[1:3], w.shape[:2], strides, padding, (), rates)
    xp = pad_spatial(x, pads, lowest(x.dtype))
    windows = offsets(w.shape[:2], out, strides, rates)
    values = [xp[index] + w[offset] for offset, index in windows]
    y = values[0].copy()
    for v in values[1:]:
        np.maximum(y, v, out=y)
    taken = np.zeros(y.shape, bool)
    taps = []
    for (offset, index), v in zip(windows, values):
        hit = (v == y) & ~taken
        taken |= hit
        taps.append((index, offset, hit))
    return xp, y, taps, pads


def _dilation_kernel(x, w, strides, rates, padding):
    return _taps(x, w, strides, rates, padding)[1]


def _backprop_taps(x, w, g, strides, rates, padding):
    """(padded input, taps, pads) of _taps for a backprop kernel, whose out_backprop g must have
    the output's shape."""
    xp, y, taps, pads = _taps(x, w, strides, rates, padding)
    if g.shape != y.shape:
        raise ValueError("out_backprop does not match the output shape")
    return xp, taps, pads


def _backprop_input_kernel(x, w, g, strides, rates, padding):
    xp, taps, pads = _backprop_taps(x, w, g, strides, rates, padding)
    dxp = np.zeros(xp.shape, g.dtype)
    for index, _, hit in taps:
        dxp[index] += g * hit
    return np.ascontiguousarray(crop_spatial(dxp, pads, x.shape[1:3]))


def _backprop_filter_kernel(x, w, g, strides, rates, padding):
    _, taps, _ = _backprop_taps(x, w, g, strides, rates, padding)
    dw = np.zeros(w.shape, g.dtype)
    for _, offset, hit in taps:
        dw[offset] = (g * hit).sum(axis=(0, 1, 2))
    return dw


def _input_grad_kernel(x, w, t, strides, rates, padding):
    _, y, taps, pads = _taps(x, w, strides, rates, padding)
    tp = pad_spatial(t, pads)
    result = np.zeros(y.shape, t.dtype)
    for index, _, hit in taps:
        result += tp[index] * hit
    return result


def _filter_grad_kernel(x, w, t, strides, rates, padding):
    _, y, taps, _ = _taps(x, w, strides, rates, padding)
    result = np.zeros(y.shape, t.dtype)
    for _, offset, hit in taps:
        result += t[offset] * hit
    return result


def _dims(x, w):
    x_dims = dims_last(x, "NHWC", "input", 4)
    if w.shape.rank is not None and w.shape.rank != 3:
        raise InvalidArgumentError(f"filters must have rank 3 [height, width, channels], got "
                                   f"shape {w.shape}.")
    w_dims = list(w.shape) if w.shape.rank is not None else [None] * 3
    merge_dim(x_dims[3], w_dims[2], f"input has {{a}} channels but the filters of shape "
              f"{w.shape} have {{b}} (input shape {x.shape}).")
    return x_dims, w_dims


def _dilation_rule(x, w, strides, rates, padding):
    if x.dtype != w.dtype:
        raise InvalidArgumentError(f"input ({x.dtype.name}) and filters ({w.dtype.name}) must "
                                   "have the same dtype.")
    x_dims, w_dims = _dims(x, w)
    out = check_window_fits(x_dims[1:3], w_dims[:2], strides, padding, (), rates, x.shape)
    return TensorShape([x_dims[0]] + out + [x_dims[3]]), x.dtype


def _like_rule(which):
    """Shape rule of an op whose result has the shape of input `which` (0: x, 1: w)."""
    def rule(x, w, g, **attrs):
        _dims(x, w)
        return (x, w)[which].shape, g.dtype
    return rule


def _output_rule(x, w, t, **attrs):
    return _dilation_rule(x, w, **attrs)[0], t.dtype


def _raw_backprop(op_def):
    """tf.raw_ops.Dilation2DBackpropInput/Filter: TensorFlow's arguments onto the op's."""
    def raw(input, filter, out_backprop, strides, rates, padding, name=None):  # noqa: A002
        x, w = binary_operands(input, filter, op_def().type)
        return execute(op_def(), (x, w, convert_to_tensor(out_backprop, dtype=x.dtype)),
                       _attrs(op_def().type, strides, padding, "NHWC", rates), name)
    return raw


BACKPROP_INPUT = defop("Dilation2DBackpropInput", _backprop_input_kernel, shape=_like_rule(0),
                       grad=placed_grad(lambda: INPUT_GRAD),
                       jvp=linear_in(2),
                       raw=_raw_backprop(lambda: BACKPROP_INPUT))
BACKPROP_FILTER = defop("Dilation2DBackpropFilter", _backprop_filter_kernel,
                        shape=_like_rule(1), grad=placed_grad(lambda: FILTER_GRAD),
                        jvp=linear_in(2),
                        raw=_raw_backprop(lambda: BACKPROP_FILTER))
INPUT_GRAD = defop("Dilation2DBackpropInputGrad", _input_grad_kernel, shape=_output_rule,
                   grad=placed_grad(lambda: BACKPROP_INPUT),
                   jvp=linear_in(2))
FILTER_GRAD = defop("Dilation2DBackpropFilterGrad", _filter_grad_kernel, shape=_output_rule,
                    grad=placed_grad(lambda: BACKPROP_FILTER),
                    jvp=linear_in(2))


def _dilation_grad(op, g):
    x, w = op.inputs
    return (execute(BACKPROP_INPUT, (x, w, g), op.attrs),
            execute(BACKPROP_FILTER, (x, w, g), op.attrs))


def _dilation_jvp(primals, tangents, outputs, **attrs):
    x, w = primals
    parts = [execute(op_def, (x, w, t), attrs)
             for op_def, t in ((INPUT_GRAD, tangents[0]), (FILTER_GRAD, tangents[1]))
             if t is not None]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


DILATION2D = defop("Dilation2D", _dilation_kernel, shape=_dilation_rule, grad=_dilation_grad,
                   jvp=_dilation_jvp,
                   raw=lambda input, filter, strides, rates, padding, name=None: dilation2d(
                       input, filter, strides, padding, "NHWC", rates, name))


def _attrs(what, strides, padding, data_format, dilations):
    if data_format != "NHWC":
        raise ValueError(f"{what}: data_format must be 'NHWC', got {data_format!r}.")
    mode, _, window = window_attrs(what, "NHWC", padding, strides=strides, dilations=dilations)
    return {"strides": window["strides"], "rates": window["dilations"], "padding": mode}


def dilation2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
               name=None):
    """Grayscale dilation: the max over each dilated window of input + filters ([KH, KW, C])."""
    x, w = binary_operands(input, filters, "Dilation2D")
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"dilation2d: input must be numeric, got {x.dtype.name}.")
    return execute(DILATION2D, (x, w), _attrs("dilation2d", strides, padding, data_format,
                                              dilations), name)


def erosion2d(value, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """Grayscale erosion: -dilation2d(-value, filters reversed in height and width)."""
    x, w = binary_operands(value, filters, "Dilation2D")
    return -dilation2d(-x, reverse(w, [0, 1]), strides, padding, data_format, dilations,
                       name=name)
