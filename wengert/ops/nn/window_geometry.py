"""Window geometry shared by the convolution and pooling ops (conv/, pool.py and the other
poolings), in any number of spatial dimensions (1-D, 2-D and 3-D ops use the same helpers).

TensorFlow's output sizes, with the dilated window k' = (k - 1)*d + 1 along one axis of size H:
"VALID" gives ceil((H - k' + 1) / s) windows and no padding; "SAME" gives ceil(H / s) windows and
pads total = max((out - 1)*s + k' - H, 0), total // 2 before and the rest after; explicit
paddings (before, after) give (H + before + after - k') // s + 1. Kernels work channels-last,
[N, *spatial, C] ("NCHW", "NCW", "NCDHW" inputs are transposed views), and visit the window
offsets as strided slices of the padded input, or read all windows at once as a strided view
[N, *out, *ksize, C] (im2col). Shape-rule helpers accept unknown (None) dimensions and read
sizes tensors' values when a graph knows them.
"""
import functools
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.intra_op_threads import usable_cores
from ...framework.tensor import Tensor, array_of
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..creation_ops import CONST, SHAPE, shape

_as_strided = np.lib.stride_tricks.as_strided


# -- scratch buffers -----------------------------------------------------------------------------
# Speed: a training step builds the same large temporaries (im2col patch matrices, partial pool
# reductions, per-offset products) at every call. Fresh large arrays come from the OS page by
# page (a page fault per 4 KiB on first touch), which cost about a quarter of the MNIST CNN's
# step; these temporaries instead reuse one buffer per purpose and thread. A kernel never
# returns a scratch array or a view of one.
_SCRATCH = threading.local()
_SCRATCH_MAX_BYTES = 64 << 20  # larger temporaries are allocated afresh (and freed)


def scratch(purpose, shape, dtype):
    """An uninitialized temporary array of `shape` reusing this thread's buffer for `purpose`."""
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > _SCRATCH_MAX_BYTES:
        return np.empty(shape, dtype)
    buffers = _SCRATCH.__dict__
    buffer = buffers.get(purpose)
    if buffer is None or buffer.nbytes < nbytes:
        buffer = buffers[purpose] = np.empty(max(nbytes, 64), np.uint8)
    return buffer[:nbytes].view(dtype).reshape(shape)


# -- worker threads ------------------------------------------------------------------------------
# Speed: NumPy releases the GIL in its copies, ufunc loops and matrix products, so kernels split
# large batches into parts run on these threads to use every core (OpenBLAS threads only the
# products, and stalls when many threaded calls meet a loaded machine).
THREADS = max(1, min(4, usable_cores()))
_WORKERS = []


def batch_parts(n, nbytes, min_bytes=4 << 20, per=None):
    """[(start, stop)] covering a batch of n: runs of `per` items (all n when None), at most
    n / THREADS each when the work is at least min_bytes, so that every thread gets a part."""
    per = n if per is None else per
    if THREADS > 1 and n > 1 and nbytes >= min_bytes:
        per = min(per, -(-n // THREADS))
    per = max(1, per)
    return [(start, min(n, start + per)) for start in range(0, n, per)]


def in_parallel(fn, parts):
    """fn(start, stop) for every part: on the worker threads when there are several."""
    if len(parts) < 2 or THREADS < 2:
        for start, stop in parts:
            fn(start, stop)
        return
    if not _WORKERS or _WORKERS[0] != os.getpid():  # none yet, or a forked child's copy
        _WORKERS[:] = [os.getpid(), ThreadPoolExecutor(THREADS, thread_name_prefix="wengert")]
    jobs = [_WORKERS[1].submit(fn, start, stop) for start, stop in parts]
    for job in jobs:
        job.result()


# -- geometry -------------------------------------------------------------
def channels_first(data_format):
    """Whether a data format ("NCHW", "NCW", "NCDHW", "NC...") puts channels on axis 1."""
    return bool(data_format) and data_format.startswith("NC")


def spatial_axes(data_format, nd):
    """The axes of the `nd` spatial dimensions in an input of that data format."""
    return tuple(range(2, 2 + nd)) if channels_first(data_format) else tuple(range(1, 1 + nd))


def spatial_tuple(value, name, data_format="NHWC", default=1, nd=2):
    """TensorFlow's strides/dilations/ksize forms (an int, [a], nd ints, or nd + 2 ints with 1 for
    the batch and channel entries) as an nd-tuple."""
    if value is None:
        return (default,) * nd
    if isinstance(value, (int, np.integer)):
        return (int(value),) * nd
    values = [int(v) for v in np.asarray(value).reshape(-1)]
    if len(values) == 1:
        return (values[0],) * nd
    if len(values) == nd:
        return tuple(values)
    if len(values) == nd + 2:
        axes = spatial_axes(data_format, nd)
        if [v for i, v in enumerate(values) if i not in axes] != [1, 1]:
            raise ValueError(f"{name} {values}: the batch and channel entries must be 1 "
                             f"(data_format {data_format}).")
        return tuple(values[i] for i in axes)
    raise ValueError(f"{name} must be an int or a list of 1, {nd} or {nd + 2} ints, "
                     f"got {value!r}.")


def data_format_in(op_name, data_format, formats):
    """`data_format` (formats[0] when None), or a ValueError naming the op unless it is one of
    the two `formats` (channels last, channels first)."""
    if data_format is None:
        return formats[0]
    if data_format not in formats:
        raise ValueError(f"{op_name}: data_format must be {formats[0]!r} or {formats[1]!r}, "
                         f"got {data_format!r}.")
    return data_format


def window_attrs(op_name, data_format, padding, allow_explicit=False, **windows):
    """(padding mode, explicit pairs, {name: tuple}) of a windowed op's arguments: its padding
    (see padding_attrs) and the window arguments given by name (ksize, strides, dilations:
    spatial_tuple's forms for `data_format`, whose length gives the spatial rank); a ValueError
    naming the op when one is malformed or below 1."""
    nd = len(data_format) - 2
    try:
        mode, explicit = padding_attrs(padding, data_format, allow_explicit, nd)
        values = {name: spatial_tuple(value, name, data_format, nd=nd)
                  for name, value in windows.items()}
    except ValueError as err:
        raise ValueError(f"{op_name}: {err}") from None
    if min(v for value in values.values() for v in value) < 1:
        given = " and ".join(f"{name} {value!r}" for name, value in windows.items())
        raise ValueError(f"{op_name}: {' and '.join(windows)} must be >= 1, got {given}.")
    return mode, explicit, values


def padding_attrs(padding, data_format="NHWC", allow_explicit=True, nd=2):
    """("SAME" | "VALID" | "EXPLICIT", ((before, after) per spatial axis) when explicit, else
    ()); explicit padding lists nd + 2 pairs in the data format's order."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode in ("SAME", "VALID"):
            return mode, ()
        raise ValueError(f"padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}.")
    if not allow_explicit:
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}.")
    pairs = [tuple(int(p) for p in pair) for pair in padding]
    axes = spatial_axes(data_format, nd)
    if len(pairs) != nd + 2 or any(len(p) != 2 for p in pairs) or \
            any(pairs[i] != (0, 0) for i in range(nd + 2) if i not in axes):
        raise ValueError(f"explicit padding must be {nd + 2} pairs with zeros for the batch and "
                         f"channel dimensions (data_format {data_format}), got {padding!r}.")
    if min(v for i in axes for v in pairs[i]) < 0:
        raise ValueError(f"explicit padding must be non-negative, got {padding!r}.")
    return "EXPLICIT", tuple(pairs[i] for i in axes)


def tf_padding(padding, explicit_paddings):
    """TensorFlow's raw-op padding ("SAME", "VALID", or "EXPLICIT" with explicit_paddings, a
    flat before/after list over all dimensions) as wengert's padding argument (pairs)."""
    if isinstance(padding, str) and padding.upper() == "EXPLICIT":
        flat = [int(v) for v in np.asarray(explicit_paddings).reshape(-1)]
        return [flat[i:i + 2] for i in range(0, len(flat), 2)]
    return padding


def onnx_window_op(ctx, op, onnx_type, x, *weights, **attributes):
    """An ONNX windowed op (Conv, MaxPool, AveragePool) on `x` with any number of spatial axes:
    ONNX works channels-first, so channels-last data is transposed in and out; SAME padding is
    ONNX's SAME_UPPER (the odd pixel after), explicit paddings are ONNX's pads (all befores,
    then all afters)."""
    first = channels_first(op.attrs["data_format"])
    nd = len(op.attrs["strides"])
    if not first:
        x = ctx.transpose(x, [0, nd + 1] + list(range(1, nd + 1)))
    padding = op.attrs["padding"]
    if padding == "EXPLICIT":
        pairs = op.attrs["explicit_paddings"]
        attributes["pads"] = [b for b, _ in pairs] + [a for _, a in pairs]
    else:
        attributes["auto_pad"] = "SAME_UPPER" if padding == "SAME" else "VALID"
    attributes["strides"] = list(op.attrs["strides"])
    y = ctx.node(onnx_type, [x, *weights], **attributes)
    return y if first else ctx.transpose(y, [0] + list(range(2, nd + 2)) + [1])


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


def geometry(spatial, ksize, strides, padding, explicit_paddings, dilations):
    """(output sizes, ((before, after) per axis)) for known input sizes along any number of
    spatial axes; ValueError if a window does not fit."""
    out, pads = [], []
    for axis, size in enumerate(spatial):
        explicit = explicit_paddings[axis] if explicit_paddings else (0, 0)
        o, before, after = output_size(size, ksize[axis], strides[axis], dilations[axis],
                                       padding, explicit)
        if o <= 0:
            raise ValueError("the input is smaller than the dilated window")
        out.append(o)
        pads.append((before, after))
    return tuple(out), tuple(pads)


def pad_spatial(x, pads, value=0):
    """x [N, *spatial, C] padded along its spatial axes (a fresh array; x itself when there is
    no padding)."""
    if not any(before or after for before, after in pads):
        return x
    shape = (x.shape[0],) + tuple(n + b + a for n, (b, a) in zip(x.shape[1:-1], pads)) + \
        (x.shape[-1],)
    out = np.full(shape, value, dtype=x.dtype)
    out[(slice(None),) + tuple(slice(b, b + n) for n, (b, _) in zip(x.shape[1:-1], pads))] = x
    return out


pad_nhwc = pad_spatial


def crop_spatial(xp, pads, spatial):
    """The inverse of pad_spatial: the view of xp without its padding."""
    return xp[(slice(None),) + tuple(slice(b, b + n) for n, (b, _) in zip(spatial, pads))]


def offsets(ksize, out, strides, dilations):
    """(kernel offset tuple, index into the padded input) for every offset, row-major: the
    index selects, for each output position p, the input element p*s + offset*d."""
    return _offsets(*(tuple(int(v) for v in a) for a in (ksize, out, strides, dilations)))


# Speed: a training step asks for the same few geometries at every call; building the slices
# took about 20 us per kernel call (a third of a small kernel's fixed cost). The tuples are
# immutable, so the cached answer is shared safely.
@functools.lru_cache(maxsize=256)
def _offsets(ksize, out, strides, dilations):
    result = []
    for offset in np.ndindex(*ksize):
        index = (slice(None),) + tuple(
            slice(k * d, k * d + (o - 1) * s + 1, s)
            for k, o, s, d in zip(offset, out, strides, dilations))
        result.append((offset, index))
    return tuple(result)


def offset_slices(khw, out_hw, strides, dilations):
    """(i, j, index into the padded input) for every 2-D kernel offset, in row-major order."""
    return [(i, j, index) for (i, j), index in offsets(khw, out_hw, strides, dilations)]


def windows(xp, ksize, out, strides, dilations):
    """Read-only view [N, *out, *ksize, C] of the windows of the padded input."""
    inner = xp.strides[1:-1]
    return _as_strided(
        xp, (xp.shape[0],) + tuple(out) + tuple(ksize) + (xp.shape[-1],),
        (xp.strides[0],) + tuple(st * s for st, s in zip(inner, strides))
        + tuple(st * d for st, d in zip(inner, dilations)) + (xp.strides[-1],),
        writeable=False)


def to_channels_last(x, data_format):
    """A view of x with the channel axis last ("NC..." formats move axis 1 to the end)."""
    if not channels_first(data_format):
        return x
    return x.transpose((0,) + tuple(range(2, x.ndim)) + (1,))


def from_channels_last(x, data_format):
    """The inverse of to_channels_last."""
    if not channels_first(data_format):
        return x
    return x.transpose((0, x.ndim - 1) + tuple(range(1, x.ndim - 1)))


to_nhwc, from_nhwc = to_channels_last, from_channels_last


def sizes_last(sizes, data_format, rank=4):
    """A sizes vector in the data format's order as [N, *spatial, C]."""
    sizes = tuple(int(v) for v in np.asarray(sizes).reshape(-1))
    if len(sizes) != rank:
        raise ValueError(f"the sizes must have {rank} entries")
    return (sizes[0],) + sizes[2:] + (sizes[1],) if channels_first(data_format) else sizes


sizes_nhwc = sizes_last


# -- shape-rule helpers ----------------------------------------------------
def dims_last(t, data_format, what, rank=4):
    """[N, *spatial, C] of an input of the given rank (unknown entries None)."""
    if t.shape.rank is None:
        return [None] * rank
    if t.shape.rank != rank:
        raise InvalidArgumentError(f"{what} must have rank {rank} ({data_format}), got shape "
                                   f"{t.shape}.")
    dims = list(t.shape)
    return [dims[0]] + dims[2:] + [dims[1]] if channels_first(data_format) else dims


def dims_nhwc(t, data_format, what):
    """[N, H, W, C] of a rank-4 input (unknown entries None)."""
    return dims_last(t, data_format, what, 4)


def shape_from_last(dims, data_format):
    """The TensorShape, in the data format's order, of [N, *spatial, C] dims."""
    dims = list(dims)
    if channels_first(data_format):
        return TensorShape([dims[0], dims[-1]] + dims[1:-1])
    return TensorShape(dims)


shape_from_nhwc = shape_from_last


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


def static_dims_last(sizes_tensor_, data_format, what, rank=4):
    """[N, *spatial, C] from a sizes tensor's static values (None where unknown)."""
    sizes = static_sizes(sizes_tensor_)
    if sizes is None:
        return [None] * rank
    if len(sizes) != rank:
        raise InvalidArgumentError(f"{what} must have {rank} entries, got {sizes}.")
    if channels_first(data_format):
        return [sizes[0]] + sizes[2:] + [sizes[1]]
    return list(sizes)


def static_dims_nhwc(sizes_tensor_, data_format, what):
    """[N, H, W, C] from a sizes tensor's static values (None where unknown)."""
    return static_dims_last(sizes_tensor_, data_format, what, 4)


def merge_dim(a, b, what):
    if a is not None and b is not None and a != b:
        raise InvalidArgumentError(what.format(a=a, b=b))
    return a if a is not None else b


def check_window_fits(hw, khw, strides, padding, explicit_paddings, dilations, shape):
    """Output sizes for possibly unknown input sizes; an error naming the shape if empty."""
    out = []
    for axis in range(len(khw)):
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


def check_float_operands(x, w):
    """A convolution's input and filter: floating point, one dtype."""
    shape_rules.check_float(x)
    shape_rules.check_same_dtype(x, w)


def sizes_tensor(t, int64=False):
    """shape(t) as an int32 tensor, or int64 (FractionalAvgPoolGrad's orig_input_tensor_shape),
    eagerly a constant, in a graph a Shape op."""
    value = array_of(t)
    if value is not None:
        return Tensor(np.array(value.shape, dtype=np.int64 if int64 else np.int32))
    return shape(t, out_type="int64") if int64 else shape(t)


def check_like(t, like, what):
    if not t.shape.is_compatible_with(like.shape):
        raise InvalidArgumentError(f"{what} of shape {t.shape} must have the shape {like.shape}.")
