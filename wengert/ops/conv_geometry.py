"""Window geometry shared by the convolution and pooling ops (conv_ops, pool_ops).

TensorFlow's output sizes, with the dilated window k' = (k - 1)*d + 1 along one axis of size H:
"VALID" gives ceil((H - k' + 1) / s) windows and no padding; "SAME" gives ceil(H / s) windows and
pads total = max((out - 1)*s + k' - H, 0), total // 2 before and the rest after; explicit
paddings (before, after) give (H + before + after - k') // s + 1. Kernels work in NHWC ("NCHW"
inputs are transposed views) and visit the window offsets (i, j) as strided slices of the padded
input, or read all windows at once as a strided view [N, OH, OW, KH, KW, C] (im2col). Shape-rule
helpers accept unknown (None) dimensions and read sizes tensors' values when a graph knows them.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.tensor import Tensor, array_of
from ..framework.tensor_shape import TensorShape
from . import shapes
from .creation_ops import CONST, SHAPE, shape

_as_strided = np.lib.stride_tricks.as_strided


# -- geometry -------------------------------------------------------------
def spatial_pair(value, name, data_format="NHWC", default=1):
    """TensorFlow's strides/dilations/ksize forms (int, [a], [a, b], [1, a, b, 1]) as (a, b)."""
    if value is None:
        return (default, default)
    if isinstance(value, (int, np.integer)):
        return (int(value), int(value))
    values = [int(v) for v in value]
    if len(values) == 1:
        return (values[0], values[0])
    if len(values) == 2:
        return tuple(values)
    if len(values) == 4:
        h, w = (2, 3) if data_format == "NCHW" else (1, 2)
        others = [v for i, v in enumerate(values) if i not in (h, w)]
        if others != [1, 1]:
            raise ValueError(f"{name} {values}: the batch and channel entries must be 1 "
                             f"(data_format {data_format}).")
        return (values[h], values[w])
    raise ValueError(f"{name} must be an int or a list of 1, 2 or 4 ints, got {value!r}.")


def padding_attrs(padding, data_format="NHWC", allow_explicit=True):
    """("SAME" | "VALID" | "EXPLICIT", ((top, bottom), (left, right)) for explicit, else ())."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode in ("SAME", "VALID"):
            return mode, ()
        raise ValueError(f"padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}.")
    if not allow_explicit:
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}.")
    pairs = [tuple(int(p) for p in pair) for pair in padding]
    h, w = (2, 3) if data_format == "NCHW" else (1, 2)
    if len(pairs) != 4 or any(len(p) != 2 for p in pairs) or \
            any(pairs[i] != (0, 0) for i in range(4) if i not in (h, w)):
        raise ValueError(f"explicit padding must be 4 pairs with zeros for the batch and channel "
                         f"dimensions (data_format {data_format}), got {padding!r}.")
    if min(pairs[h] + pairs[w]) < 0:
        raise ValueError(f"explicit padding must be non-negative, got {padding!r}.")
    return "EXPLICIT", (pairs[h], pairs[w])


def onnx_window_op(ctx, op, onnx_type, x, *weights, **attributes):
    """An ONNX windowed op (Conv, MaxPool, AveragePool) on `x`: ONNX works in NCHW, so NHWC
    data is transposed in and out; SAME padding is ONNX's SAME_UPPER (the odd pixel after),
    explicit paddings are ONNX's pads [top, left, bottom, right]."""
    channels_first = op.attrs["data_format"] == "NCHW"
    if not channels_first:
        x = ctx.transpose(x, [0, 3, 1, 2])
    padding = op.attrs["padding"]
    if padding == "EXPLICIT":
        (top, bottom), (left, right) = op.attrs["explicit_paddings"]
        attributes["pads"] = [top, left, bottom, right]
    else:
        attributes["auto_pad"] = "SAME_UPPER" if padding == "SAME" else "VALID"
    attributes["strides"] = list(op.attrs["strides"])
    y = ctx.node(onnx_type, [x, *weights], **attributes)
    return y if channels_first else ctx.transpose(y, [0, 2, 3, 1])


def output_size(size, k, s, d, padding, pads=(0, 0)):
    """(output size, pad before, pad after) along one spatial axis; None where unknown."""
    eff = (k - 1) * d + 1
    if padding == "SAME":
        if size is None:
            return None, None, None
        out = -(-size // s)
        total = max((out - 1) * s + eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = pads if padding == "EXPLICIT" else (0, 0)
    if size is None:
        return None, before, after
    return (size + before + after - eff) // s + 1, before, after


def geometry(hw, khw, strides, padding, explicit_paddings, dilations):
    """((OH, OW), ((top, bottom), (left, right))) for a known input size; ValueError if empty."""
    out, pads = [], []
    for axis in (0, 1):
        explicit = explicit_paddings[axis] if explicit_paddings else (0, 0)
        o, before, after = output_size(hw[axis], khw[axis], strides[axis], dilations[axis],
                                       padding, explicit)
        if o <= 0:
            raise ValueError("the input is smaller than the dilated window")
        out.append(o)
        pads.append((before, after))
    return tuple(out), tuple(pads)


def pad_nhwc(x, pads, value=0):
    """x padded in H and W (a fresh array; x itself when there is no padding)."""
    (top, bottom), (left, right) = pads
    if not (top or bottom or left or right):
        return x
    n, h, w, c = x.shape
    out = np.full((n, h + top + bottom, w + left + right, c), value, dtype=x.dtype)
    out[:, top:top + h, left:left + w] = x
    return out


def offset_slices(khw, out_hw, strides, dilations):
    """(i, j, index into the padded input) for every kernel offset, in row-major order."""
    (kh, kw), (oh, ow), (sh, sw), (dh, dw) = khw, out_hw, strides, dilations
    return [(i, j, (slice(None), slice(i * dh, i * dh + (oh - 1) * sh + 1, sh),
                    slice(j * dw, j * dw + (ow - 1) * sw + 1, sw)))
            for i in range(kh) for j in range(kw)]


def windows(xp, khw, out_hw, strides, dilations):
    """Read-only view [N, OH, OW, KH, KW, C] of the windows of the padded input."""
    sn, sh, sw, sc = xp.strides
    return _as_strided(xp, (xp.shape[0],) + tuple(out_hw) + tuple(khw) + (xp.shape[3],),
                       (sn, sh * strides[0], sw * strides[1], sh * dilations[0],
                        sw * dilations[1], sc), writeable=False)


def to_nhwc(x, data_format):
    return x.transpose(0, 2, 3, 1) if data_format == "NCHW" else x


def from_nhwc(x, data_format):
    return x.transpose(0, 3, 1, 2) if data_format == "NCHW" else x


def sizes_nhwc(sizes, data_format):
    sizes = tuple(int(v) for v in np.asarray(sizes).reshape(-1))
    if len(sizes) != 4:
        raise ValueError("the sizes must have 4 entries")
    return (sizes[0], sizes[2], sizes[3], sizes[1]) if data_format == "NCHW" else sizes


# -- shape-rule helpers ----------------------------------------------------
def dims_nhwc(t, data_format, what):
    """[N, H, W, C] of a rank-4 input (unknown entries None)."""
    if t.shape.rank is None:
        return [None] * 4
    if t.shape.rank != 4:
        raise InvalidArgumentError(f"{what} must have rank 4 ({data_format}), got shape "
                                   f"{t.shape}.")
    dims = list(t.shape)
    return [dims[0], dims[2], dims[3], dims[1]] if data_format == "NCHW" else dims


def shape_from_nhwc(dims, data_format):
    n, h, w, c = dims
    return TensorShape([n, c, h, w] if data_format == "NCHW" else [n, h, w, c])


def static_sizes(t):
    """The values of a 1-D sizes tensor when known while building (a constant, or the Shape of
    a tensor with a known rank: entries of that static shape); else None."""
    value = array_of(t)
    if value is not None:
        return [int(v) for v in np.asarray(value).reshape(-1)]
    op = getattr(t, "op", None)
    if op is None:
        return None
    if op.op_def is CONST:
        return [int(v) for v in np.asarray(op.get_attr("value")).reshape(-1)]
    if op.op_def is SHAPE and op.inputs[0].shape.rank is not None:
        return list(op.inputs[0].shape)
    return None


def static_dims_nhwc(sizes_tensor_, data_format, what):
    """[N, H, W, C] from a sizes tensor's static values (None where unknown)."""
    sizes = static_sizes(sizes_tensor_)
    if sizes is None:
        return [None] * 4
    if len(sizes) != 4:
        raise InvalidArgumentError(f"{what} must have 4 entries, got {sizes}.")
    return [sizes[0], sizes[2], sizes[3], sizes[1]] if data_format == "NCHW" else list(sizes)


def merge_dim(a, b, what):
    if a is not None and b is not None and a != b:
        raise InvalidArgumentError(what.format(a=a, b=b))
    return a if a is not None else b


def check_window_fits(hw, khw, strides, padding, explicit_paddings, dilations, shape):
    """Output (OH, OW) for possibly unknown input sizes; an error naming the shape if empty."""
    out = []
    for axis in (0, 1):
        explicit = explicit_paddings[axis] if explicit_paddings else (0, 0)
        k = khw[axis]
        o = None if k is None else output_size(hw[axis], k, strides[axis], dilations[axis],
                                               padding, explicit)[0]
        if o is not None and o <= 0:
            d = dilations[axis]
            window = f"{k}" if d == 1 else f"{k} with dilation {d} (spans {(k - 1) * d + 1})"
            raise InvalidArgumentError(
                f"the input of shape {shape} is too small along spatial axis {axis} "
                f"(size {hw[axis]}) for a window of {window} under {padding} padding; use "
                "'SAME' padding or a larger input.")
        out.append(o)
    return out


def float_pair_rule(x, w):
    shapes.check_float(x)
    shapes.check_same_dtype(x, w)


def sizes_tensor(t):
    """shape(t) as an int32 tensor (eagerly a constant, in a graph a Shape op)."""
    value = array_of(t)
    if value is not None:
        return Tensor(np.array(value.shape, dtype=np.int32))
    return shape(t)
