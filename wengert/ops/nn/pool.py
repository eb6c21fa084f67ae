"""Pooling: `max_pool2d`, `avg_pool2d`, `max_pool3d`, `avg_pool3d` (and `max_pool`, `avg_pool`,
`pool`, the 1-D forms), TensorFlow's `tf.nn`.

A pool slides a window of ksize over the spatial axes of an [N, *spatial, C] input ("NHWC",
"NDHWC"; the channels-first formats "NCHW", "NCDHW" are transposed in and out) with the given
strides, per channel. Output sizes are the convolutions' (see conv_geometry): "VALID" keeps
whole windows, "SAME" gives ceil(H / s) windows and pads as conv2d does (max pooling also takes
explicit paddings), but padding never takes part: max pooling pads with -inf, average pooling
divides by the number of real (unpadded) elements in each window, as TensorFlow does.

Kernels: when the windows tile the input (strides equal to ksize, the usual 2x2/2 pool), the
padded input is viewed as blocks [N, O1, k1, O2, k2, ..., C] and reduced one window axis at a
time (pool_blocks.py); otherwise they loop over the window offsets, each a strided slice of
the padded input.

Derivatives (TensorFlow's op names, "3D" in the names of the 3-D ops):
    MaxPool(x) = y:             dx = MaxPoolGrad(x, y, g): g routed to the first maximum of
                                each window in row-major window order (TensorFlow's CPU kernel
                                keeps the first maximum it meets), added up where windows
                                overlap. The kernel walks the offsets keeping a mask of the
                                windows already served: offset k wins where x_k == y and no
                                earlier offset did.
    MaxPoolGrad(x, y, g):       linear in g: d g = MaxPoolGradGrad(x, y, gg), which gathers gg at
                                each window's first maximum (shape of y); x and y get no gradient
                                (the argmax is piecewise constant).
    MaxPoolGradGrad(x, y, gg):  linear in gg, its adjoint is MaxPoolGrad(x, y, ggg).
    AvgPool(x):                 linear: dx = AvgPoolGrad(shape(x), g) spreads g / count evenly
                                over each window; AvgPoolGrad is linear with adjoint AvgPool.
Forward mode: AvgPool and AvgPoolGrad are linear; max pooling's JVP is the tangent read at the
argmax, MaxPoolGradGrad(x, y, dx); the two max-pool helpers are linear in their last input.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, linear, linear_in
from ...framework.tensor import convert_to_tensor
from .. import shape_rules
from .pool_blocks import tiled_reduce as _tiled_reduce, tiles as _tiles
from .window_geometry import (check_window_fits, crop_spatial, data_format_in,
                            dims_last, from_channels_last, geometry, merge_dim,
                            offsets, onnx_window_op, pad_spatial, shape_from_last,
                            sizes_last, sizes_tensor, static_dims_last, tf_padding,
                            to_channels_last, window_attrs)
from ..reshape_ops import expand_dims, squeeze
from ..shape_rules import int_tuple

__all__ = ["max_pool2d", "avg_pool2d", "max_pool", "avg_pool", "max_pool1d", "avg_pool1d",
           "max_pool3d", "avg_pool3d", "pool"]

_FORMATS = {2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _unit(ksize):
    return (1,) * len(ksize)


def pool_layout(x, ksize, strides, padding, explicit_paddings=(), pad_value=0):
    """(padded channels-last input, its window offsets, output sizes, pads)."""
    out, pads = geometry(x.shape[1:-1], ksize, strides, padding, explicit_paddings,
                         _unit(ksize))
    return (pad_spatial(x, pads, pad_value), offsets(ksize, out, strides, _unit(ksize)), out,
            pads)


# -- max pooling -----------------------------------------------------------------------------------
def _max_pool_kernel(x, ksize, strides, padding, data_format, explicit_paddings=()):
    x = to_channels_last(x, data_format)
    xp, windows, out, _ = pool_layout(x, ksize, strides, padding, explicit_paddings,
                                  lowest(x.dtype))
    if _tiles(ksize, strides):
        y = _tiled_reduce(xp, ksize, out, np.maximum)
    else:
        y = np.array(xp[windows[0][1]])
        for _, index in windows[1:]:
            np.maximum(y, xp[index], out=y)
    return from_channels_last(y, data_format)


def first_maxima(xp, y, windows):
    """(index, mask) per window offset: mask says where that offset holds the first maximum of
    its window (equal to y, and no earlier offset was)."""
    taken = None
    last = len(windows) - 1
    for k, (_, index) in enumerate(windows):
        hit = np.equal(xp[index], y)
        if taken is None:
            taken = hit.copy() if last else hit
        else:
            np.greater(hit, taken, out=hit)  # hit and not taken
            if k < last:
                np.logical_or(taken, hit, out=taken)
        yield index, hit


def _max_pool_grad_kernel(x, y, g, ksize, strides, padding, data_format, explicit_paddings=()):
    x, y, g = (to_channels_last(a, data_format) for a in (x, y, g))
    xp, windows, out, pads = pool_layout(x, ksize, strides, padding, explicit_paddings,
                                     lowest(x.dtype))
    if g.shape != x.shape[:1] + out + x.shape[-1:] or y.shape != g.shape:
        raise ValueError("the gradient does not match the pooled shape")
    disjoint = all(s >= k for s, k in zip(strides, ksize))
    # every element written once when the windows tile the padded input: no zero-fill needed
    tiled = _tiles(ksize, strides) and all(o * k == n for o, k, n in
                                           zip(out, ksize, xp.shape[1:-1]))
    dxp = (np.empty if tiled else np.zeros)(xp.shape, dtype=g.dtype)
    for index, hit in first_maxima(xp, y, windows):
        if disjoint:
            np.multiply(g, hit, out=dxp[index])
        else:
            dxp[index] += g * hit
    return from_channels_last(crop_spatial(dxp, pads, x.shape[1:-1]), data_format)


def _max_pool_grad_grad_kernel(x, y, gg, ksize, strides, padding, data_format,
                               explicit_paddings=()):
    x, y, gg = (to_channels_last(a, data_format) for a in (x, y, gg))
    if gg.shape != x.shape:
        raise ValueError("the gradient does not match the input shape")
    xp, windows, _, pads = pool_layout(x, ksize, strides, padding, explicit_paddings,
                                   lowest(x.dtype))
    ggp = pad_spatial(gg, pads)
    result = np.zeros(y.shape, dtype=gg.dtype)
    for index, hit in first_maxima(xp, y, windows):
        result += ggp[index] * hit
    return from_channels_last(result, data_format)


def _rank_of(ksize):
    return len(ksize) + 2


def _pool_rule(x, ksize, strides, padding, data_format, explicit_paddings=()):
    dims = dims_last(x, data_format, "input", _rank_of(ksize))
    out = check_window_fits(dims[1:-1], ksize, strides, padding, explicit_paddings,
                            _unit(ksize), x.shape)
    return shape_from_last([dims[0]] + out + [dims[-1]], data_format), x.dtype


def _max_pool_rule(x, **attrs):
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise InvalidArgumentError(f"input must be numeric, got {x.dtype.name}.")
    return _pool_rule(x, **attrs)


def _same_as(t, like, what):
    shape_rules.check_same_dtype(t, like)
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


def placed_grad(partner):
    """The gradient of a gradient op h(x, y, g) that is linear in g, x and y only placing g
    (MaxPoolGrad, MaxPoolGradGrad, the dilation backprops): `partner()`, the op that is h's
    adjoint, applied to (x, y, incoming gradient); x and y get none."""
    return lambda op, g: (None, None, execute(partner(), (*op.inputs[:2], g), op.attrs))


class _MaxPoolFamily:
    """MaxPool{,3D}, its Grad and GradGrad ops: each one's gradient is another's op."""

    def __init__(self, suffix, raw):
        self.grad = defop(
            f"MaxPool{suffix}Grad", _max_pool_grad_kernel, shape=_max_pool_grad_rule,
            grad=placed_grad(lambda: self.grad_grad), jvp=linear_in(2),
            raw=raw[1])  # h(x, y, g): linear in g, piecewise constant in x, y
        self.grad_grad = defop(
            f"MaxPool{suffix}GradGrad", _max_pool_grad_grad_kernel,
            shape=_max_pool_grad_grad_rule,
            grad=placed_grad(lambda: self.grad), jvp=linear_in(2), raw=raw[2])
        self.forward = defop(
            f"MaxPool{suffix}", _max_pool_kernel, shape=_max_pool_rule, raw=raw[0],
            grad=lambda op, g: execute(self.grad, (op.inputs[0], op.outputs[0], g), op.attrs),
            jvp=lambda primals, tangents, outputs, **attrs: execute(
                self.grad_grad, (primals[0], outputs[0], tangents[0]), attrs),
            onnx=lambda ctx, op, x: onnx_window_op(ctx, op, "MaxPool", x,
                                                   kernel_shape=list(op.attrs["ksize"])))


def _raw(op_def, inputs, ksize, strides, padding, data_format, name):  # tf.raw_ops' pool grads
    attrs = _pool_attrs(op_def.type, ksize, strides, padding, data_format, len(ksize) - 2,
                        explicit=op_def is MAX_POOL_GRAD)
    return execute(op_def, tuple(convert_to_tensor(t) for t in inputs), attrs, name)


_MAX_POOL_2D = _MaxPoolFamily("", (
    lambda input, ksize, strides, padding, explicit_paddings=(), data_format="NHWC", name=None:
    max_pool2d(input, ksize, strides, tf_padding(padding, explicit_paddings), data_format, name),
    lambda orig_input, orig_output, grad, ksize, strides, padding, explicit_paddings=(),
    data_format="NHWC", name=None: _raw(MAX_POOL_GRAD, (orig_input, orig_output, grad), ksize,
                                        strides, tf_padding(padding, explicit_paddings),
                                        data_format, name),
    lambda orig_input, orig_output, grad, ksize, strides, padding, data_format="NHWC", name=None:
    _raw(MAX_POOL_GRAD_GRAD, (orig_input, orig_output, grad), ksize, strides, padding,
         data_format, name)))
_MAX_POOL_3D = _MaxPoolFamily("3D", (
    lambda input, ksize, strides, padding, data_format="NDHWC", name=None: max_pool3d(
        input, ksize, strides, padding, data_format, name),
    lambda orig_input, orig_output, grad, ksize, strides, padding, data_format="NDHWC", name=None:
    _raw(_MAX_POOL_3D.grad, (orig_input, orig_output, grad), ksize, strides, padding,
         data_format, name),
    lambda orig_input, orig_output, grad, ksize, strides, padding, data_format="NDHWC", name=None:
    _raw(_MAX_POOL_3D.grad_grad, (orig_input, orig_output, grad), ksize, strides, padding,
         data_format, name)))
MAX_POOL, MAX_POOL_GRAD, MAX_POOL_GRAD_GRAD = (
    _MAX_POOL_2D.forward, _MAX_POOL_2D.grad, _MAX_POOL_2D.grad_grad)
MAX_POOL_3D = _MAX_POOL_3D.forward


# -- average pooling -------------------------------------------------------------------------------
def _window_counts(spatial, ksize, strides, pads, out, dtype):
    """[*out, 1] numbers of real input elements in each window."""
    counts = np.ones((), dtype=np.int64)
    for size, k, s, (before, _), o in zip(spatial, ksize, strides, pads, out):
        start = np.arange(o) * s - before
        stop = np.minimum(start + k, size)
        counts = np.multiply.outer(counts, stop - np.maximum(start, 0))
    return counts.astype(dtype)[..., None]


def _window_divisor(spatial, ksize, strides, pads, out, dtype):
    """The window counts, or the scalar window size when no window reaches into padding."""
    if not any(before or after for before, after in pads):
        return dtype.type(np.prod(ksize))
    return _window_counts(spatial, ksize, strides, pads, out, dtype)


def _avg_pool_kernel(x, ksize, strides, padding, data_format):
    x = to_channels_last(x, data_format)
    xp, windows, out, pads = pool_layout(x, ksize, strides, padding)
    if _tiles(ksize, strides):
        total = _tiled_reduce(xp, ksize, out, np.add)
    else:
        total = np.array(xp[windows[0][1]])
        for _, index in windows[1:]:
            total += xp[index]
    total /= _window_divisor(x.shape[1:-1], ksize, strides, pads, out, x.dtype)
    return from_channels_last(total, data_format)


def _avg_pool_grad_kernel(orig_input_shape, g, ksize, strides, padding, data_format):
    sizes = sizes_last(orig_input_shape, data_format, _rank_of(ksize))
    g = to_channels_last(g, data_format)
    spatial = sizes[1:-1]
    out, pads = geometry(spatial, ksize, strides, padding, (), _unit(ksize))
    if g.shape != sizes[:1] + out + sizes[-1:]:
        raise ValueError("the gradient does not match the pooled shape")
    share = g / _window_divisor(spatial, ksize, strides, pads, out, g.dtype)
    padded = (sizes[0],) + tuple(n + b + a for n, (b, a) in zip(spatial, pads)) + sizes[-1:]
    disjoint = all(s >= k for s, k in zip(strides, ksize))
    tiled = _tiles(ksize, strides) and all(o * k == n for o, k, n in
                                           zip(out, ksize, padded[1:-1]))
    dxp = (np.empty if tiled else np.zeros)(padded, dtype=g.dtype)
    for _, index in offsets(ksize, out, strides, _unit(ksize)):
        if disjoint:
            dxp[index] = share
        else:
            dxp[index] += share
    return from_channels_last(crop_spatial(dxp, pads, spatial), data_format)


def _avg_pool_rule(x, **attrs):
    shape_rules.check_float(x)
    return _pool_rule(x, **attrs)


def _avg_pool_grad_rule(orig_input_shape, g, **attrs):
    shape_rules.check_float(g, "the gradient")
    fmt, rank = attrs["data_format"], _rank_of(attrs["ksize"])
    g_dims = dims_last(g, fmt, "the gradient", rank)
    dims = static_dims_last(orig_input_shape, fmt, "orig_input_shape", rank)
    for axis, label in ((0, "batch"), (-1, "channels")):
        dims[axis] = merge_dim(dims[axis], g_dims[axis], f"orig_input_shape {label} {{a}} "
                               f"differs from the gradient's {{b}} (shape {g.shape}).")
    return shape_from_last(dims, fmt), g.dtype


class _AvgPoolFamily:
    """AvgPool{,3D} and its Grad op, each the other's adjoint (`raw`: their tf.raw_ops)."""

    def __init__(self, suffix, raw):
        self.grad = defop(
            f"AvgPool{suffix}Grad", _avg_pool_grad_kernel, shape=_avg_pool_grad_rule, raw=raw[1],
            grad=lambda op, gg: (None, execute(self.forward, (gg,), op.attrs)), jvp=linear)
        self.forward = defop(
            f"AvgPool{suffix}", _avg_pool_kernel, shape=_avg_pool_rule,
            grad=lambda op, g: execute(self.grad, (sizes_tensor(op.inputs[0]), g), op.attrs),
            jvp=linear,
            onnx=lambda ctx, op, x: onnx_window_op(  # padding is not counted, as in TF
                ctx, op, "AveragePool", x, kernel_shape=list(op.attrs["ksize"]),
                count_include_pad=0), raw=raw[0])


_AVG_POOL_2D = _AvgPoolFamily("", (
    lambda value, ksize, strides, padding, data_format="NHWC", name=None: avg_pool2d(
        value, ksize, strides, padding, data_format, name),
    lambda orig_input_shape, grad, ksize, strides, padding, data_format="NHWC", name=None:
    _raw(_AVG_POOL_2D.grad, (orig_input_shape, grad), ksize, strides, padding, data_format, name)))
_AVG_POOL_3D = _AvgPoolFamily("3D", (
    lambda input, ksize, strides, padding, data_format="NDHWC", name=None: avg_pool3d(
        input, ksize, strides, padding, data_format, name),
    lambda orig_input_shape, grad, ksize, strides, padding, data_format="NDHWC", name=None:
    _raw(_AVG_POOL_3D.grad, (orig_input_shape, grad), ksize, strides, padding, data_format, name)))
AVG_POOL, AVG_POOL_GRAD = _AVG_POOL_2D.forward, _AVG_POOL_2D.grad
AVG_POOL_3D = _AVG_POOL_3D.forward


# -- public functions ------------------------------------------------------------------------------
def _pool_attrs(op_name, ksize, strides, padding, data_format, nd=2, explicit=False):
    data_format = data_format_in(op_name, data_format, _FORMATS[nd])
    mode, pads, window = window_attrs(op_name, data_format, padding, allow_explicit=explicit,
                                      ksize=ksize, strides=strides)
    attrs = {"ksize": window["ksize"], "strides": window["strides"], "padding": mode,
             "data_format": data_format}
    if explicit:
        attrs["explicit_paddings"] = pads
        for k, (before, after) in zip(attrs["ksize"], pads):
            if max(before, after) >= k:
                raise InvalidArgumentError(
                    f"{op_name}: explicit padding {padding!r} must be smaller than the window "
                    f"size {k} on each side (a window of padding alone has no maximum).")
    return attrs


def _float_input(input, op_name):  # noqa: A002
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f"{op_name}: input must be floating-point, got {x.dtype.name} (shape "
                        f"{x.shape}); use cast(x, float32) first.")
    return x


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The maximum of each KH x KW window of a [N, H, W, C] input (padding "SAME", "VALID" or
    explicit [[0, 0], [top, bottom], [left, right], [0, 0]], padded cells never win)."""
    attrs = _pool_attrs("MaxPool", ksize, strides, padding, data_format, explicit=True)
    return execute(MAX_POOL, (convert_to_tensor(input),), attrs, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each KH x KW window (with "SAME" padding, of its unpadded elements)."""
    attrs = _pool_attrs("AvgPool", ksize, strides, padding, data_format)
    return execute(AVG_POOL, (_float_input(input, "AvgPool"),), attrs, name)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The maximum of each KD x KH x KW window of a [N, D, H, W, C] input ("NCDHW" too)."""
    attrs = _pool_attrs("MaxPool3D", ksize, strides, padding, data_format, nd=3)
    return execute(MAX_POOL_3D, (convert_to_tensor(input),), attrs, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The mean of each KD x KH x KW window of a [N, D, H, W, C] input."""
    attrs = _pool_attrs("AvgPool3D", ksize, strides, padding, data_format, nd=3)
    return execute(AVG_POOL_3D, (_float_input(input, "AvgPool3D"),), attrs, name)


def _pool1d(pool2d, input, ksize, strides, padding, data_format, name):  # noqa: A002
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"data_format must be 'NWC' or 'NCW', got {data_format!r}.")
    nchw = data_format == "NCW"
    axis = 2 if nchw else 1

    def width(v):
        values = [int(u) for u in np.asarray(v).reshape(-1)]
        return values[0] if len(values) == 1 else values[axis]
    if not isinstance(padding, str):  # explicit: 3 pairs -> 4 with a zero height pair
        padding = [list(p) for p in padding]
        padding.insert(axis, [0, 0])
    y = pool2d(expand_dims(input, axis), (1, width(ksize)), (1, width(strides)), padding,
               "NCHW" if nchw else "NHWC")
    return squeeze(y, [axis], name=name)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Max pooling over the width of a [N, W, C] input ("NCW" too)."""
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Average pooling over the width of a [N, W, C] input ("NCW" too)."""
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, name)


_BY_RANK = {"max": {3: max_pool1d, 4: max_pool2d, 5: max_pool3d},
            "avg": {3: avg_pool1d, 4: avg_pool2d, 5: avg_pool3d}}


def _rank_dispatch(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
    x = convert_to_tensor(input)
    rank = x.shape.rank
    if data_format is not None and rank is None:
        rank = len(data_format)
    if rank not in (3, 4, 5):
        raise ValueError(f"{kind}_pool: the input must have rank 3, 4 or 5 (1, 2 or 3 spatial "
                         f"dimensions), got shape {x.shape}.")
    fn = _BY_RANK[kind][rank]
    if data_format is None:
        return fn(x, ksize, strides, padding, name=name)
    return fn(x, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.max_pool for rank-3, 4 and 5 inputs (1-D, 2-D, 3-D windows)."""
    return _rank_dispatch("max", input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """tf.nn.avg_pool for rank-3, 4 and 5 inputs (1-D, 2-D, 3-D windows)."""
    return _rank_dispatch("avg", input, ksize, strides, padding, data_format, name)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID",  # noqa: A002
         data_format=None, dilations=None, name=None):
    """tf.nn.pool: "MAX" or "AVG" pooling with an N-d window (N = 1, 2, 3); dilations other
    than 1 are not supported (TensorFlow needs them to be 1 whenever strides are not)."""
    kind = {"MAX": "max", "AVG": "avg"}.get(str(pooling_type).upper())
    if kind is None:
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}.")
    window = list(int_tuple(window_shape, "pool: window_shape"))
    nd = len(window)
    strides = [1] * nd if strides is None else list(int_tuple(strides, "pool: strides"))
    if dilations is not None and any(int(d) != 1 for d in np.asarray(dilations).reshape(-1)):
        raise NotImplementedError("pool: dilations other than 1 are not supported; pool an "
                                  "input gathered at the dilated positions instead.")
    if len(strides) != nd or nd not in (1, 2, 3):
        raise ValueError(f"pool: window_shape must have 1, 2 or 3 entries and strides as many, "
                         f"got {window_shape!r} and {strides!r}.")
    if data_format is None and getattr(input, "shape", None) is not None \
            and input.shape.rank is None:  # the window says the rank: N spatial + batch, channel
        data_format = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nd]
    return _rank_dispatch(kind, input, window, strides, padding, data_format, name)
