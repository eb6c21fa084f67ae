"""A channels-last convolution followed by the ops that act on each image of its output alone,
run image chunk by image chunk while the chunk is still in the cache: the kernel a compiled plan
runs in place of a Conv2D, the elementwise ops after it (BiasAdd, a Mul or AddV2 by a
per-channel vector, Relu, ...) and a pooling that ends the chain (runtime/conv_fusion.py finds
such chains; the graph itself keeps every op, so gradients and listings see them all).

    conv_epilogue_kernel(x, w, *operands, conv, stages, pool)
        y = Conv2D(x, w, **conv)
        y = stage(..., y, ..., operands[i], ...) for each stage, in order
        return pool(y) if pool else y

Each stage is (OpDef, positions, attrs): `positions` places the running value (None) and the
operands (their index) among the op's inputs, so Mul(s, y) stays Mul(s, y). A stage runs as its
OpDef's in-place kernel on the chunk (`out=` the chunk), the same ufunc on the same values as
the op alone, element by element: the results are the unfused ops' own, bit for bit. That holds
while every operand broadcasts along the channel axis only ([O], [1, 1, 1, O], a scalar) and
shares the output's dtype; otherwise (and for channels-first data) the ops run one after the
other with their own kernels, as the plan would have run them. A MaxPool (channels-last)
that ends the chain is per image too: each chunk is pooled into its rows of the pooled output
(pool_blocks.pool_into: the kernel's own block reduction).

Speed: the SavedModel bench's first layer writes a [256, 32, 32, 16] output (16.8 MB); unfused,
BiasAdd, the batch norm's Mul and AddV2, Relu and MaxPool each read it from memory and four of
them write a fresh copy. Fused, a chunk of 16 images (1 MiB of output) goes through all of
them in the cache and only the pooled quarter is written out.
"""
import numpy as np

from ..pool_blocks import pool_into
from ..window_geometry import geometry, in_parallel, pad_spatial, scratch, to_channels_last
from .im2col import conv_kernel, correlate_into, image_chunks

__all__ = ["conv_epilogue_kernel"]

# A chunk's output (and its padded pooling input) stays at most this large: in the cache beside
# its patches, and below the pooling kernel's own threading threshold (4 MiB: a chunk is pooled
# on the worker thread that made it). im2col.image_chunks sizes the chunks so.
_CHUNK_OUT_BYTES = 1 << 20


def _unit(ksize):
    return (1,) * len(ksize)


def conv_epilogue_kernel(x, w, *operands, conv, stages, pool=None):
    """Conv2D(x, w, **conv), then `stages` and `pool` (module docstring)."""
    if not _per_channel(x, w, operands, conv, stages):
        return _one_by_one(x, w, operands, conv, stages, pool)
    ksize, o = w.shape[:-2], w.shape[-1]
    out, pads = geometry(x.shape[1:-1], ksize, conv["strides"], conv["padding"],
                         conv.get("explicit_paddings", ()), conv["dilations"])
    wmat = w.reshape(-1, o)
    dtype = np.result_type(x, w)
    image_bytes = int(np.prod(out)) * o * dtype.itemsize
    if pool is not None:
        image_bytes = max(image_bytes, _pool_input_bytes(out, o, dtype, pool[1]))
    parts = image_chunks(x.shape[0], out, wmat, dtype.itemsize)
    width = out[-1] * o
    wide = _rows(operands, out[-1], o)
    if parts is None or image_bytes > _CHUNK_OUT_BYTES:
        y = np.empty((x.shape[0],) + out + (o,), dtype)
        correlate_into(pad_spatial(x, pads), wmat, ksize, out, conv["strides"],
                       conv["dilations"], y)
        _stages(y, wide, stages, width)
        return y if pool is None else pool[0].kernel(y, **pool[1])
    result = _result(x.shape[0], out, o, dtype, pool)

    def images(start, stop):
        y = result[start:stop] if pool is None else \
            scratch("conv epilogue", (stop - start,) + out + (o,), dtype)
        correlate_into(_padded(x[start:stop], pads), wmat, ksize, out, conv["strides"],
                       conv["dilations"], y, True)
        _stages(y, wide, stages, width)
        if pool is not None:
            _pool(y, result[start:stop], pool)
    in_parallel(images, parts)
    return result


def _padded(x, pads):
    """x [n, *spatial, C] padded with zeros along its spatial axes, in this thread's scratch
    buffer (a chunk of images, padded on its worker thread: the serial pad of the whole batch
    took about 1 ms of each call's wall time for the bench's first two layers)."""
    if not any(b or a for b, a in pads):
        return x
    shape = x.shape[:1] + tuple(n + b + a for n, (b, a) in zip(x.shape[1:-1], pads)) + \
        x.shape[-1:]
    xp = scratch("conv padded", shape, x.dtype)
    xp.fill(0)
    xp[(slice(None),) + tuple(slice(b, b + n) for n, (b, _) in zip(x.shape[1:-1], pads))] = x
    return xp


def _per_channel(x, w, operands, conv, stages):
    """Whether the chunked form gives the unfused ops' results: channels-last data, and every
    operand of the output's dtype, broadcasting along the channel axis only."""
    if to_channels_last(x, conv["data_format"]) is not x or x.ndim != w.ndim or \
            x.shape[-1] != w.shape[-2]:
        return False
    dtype, o = np.result_type(x, w), w.shape[-1]
    for op_def, _, attrs in stages:
        if to_channels_last(x, attrs.get("data_format")) is not x:
            return False
    return all(isinstance(a, np.ndarray) and a.dtype == dtype and a.ndim <= x.ndim and
               all(d == 1 for d in a.shape[:-1]) and (a.ndim == 0 or a.shape[-1] in (1, o))
               for a in operands)


def _rows(operands, width, o):
    """The operands laid out for image rows [rows, width*O]: a channel vector tiled along the
    row, a one-element operand as a 0-d array (the same values wherever they broadcast).
    Speed: NumPy runs its inner loop over the broadcast axis, one short loop per O values
    against a [.., O] vector (the batch norm's Mul over [256, 32, 32, 16]: 4.9 ms unfused)."""
    return [np.tile(a.reshape(-1), width) if a.size == o else a.reshape(()) for a in operands]


def _stages(y, operands, stages, width):
    """Each stage's in-place kernel on y (a chunk of whole images) viewed as image rows
    [rows, W*O] (operands from _rows), in order."""
    y = y.reshape(-1, width)
    for op_def, positions, attrs in stages:
        args = [y if p is None else operands[p] for p in positions]
        op_def.inplace(*args, out=y, **attrs)


def _one_by_one(x, w, operands, conv, stages, pool):
    """The chain as the plan runs it unfused: each op's own kernel on the whole batch."""
    y = conv_kernel(x, w, **conv)
    for op_def, positions, attrs in stages:
        y = op_def.kernel(*[y if p is None else operands[p] for p in positions], **attrs)
    return y if pool is None else pool[0].kernel(y, **pool[1])


def _pool(y, target, pool):
    """target = MaxPool(y) (`pool`: its OpDef and attributes), from the cached chunk y."""
    op_def, attrs = pool
    if pool_into(y, target, np.maximum, attrs["ksize"], attrs["strides"], attrs["padding"],
                 attrs.get("explicit_paddings", ())) is None:
        np.copyto(target, op_def.kernel(y, **attrs))


def _pool_input_bytes(out, o, dtype, attrs):
    """Bytes of one image's padded pooling input (the pooling kernel's copy of the chunk)."""
    _, pads = geometry(out, attrs["ksize"], attrs["strides"], attrs["padding"],
                       attrs.get("explicit_paddings", ()), _unit(attrs["ksize"]))
    return int(np.prod([n + b + a for n, (b, a) in zip(out, pads)])) * o * dtype.itemsize


def _result(n, out, o, dtype, pool):
    """The fused kernel's output array: the convolution's, or the pooled one."""
    if pool is None:
        return np.empty((n,) + out + (o,), dtype)
    attrs = pool[1]
    pooled, _ = geometry(out, attrs["ksize"], attrs["strides"], attrs["padding"],
                         attrs.get("explicit_paddings", ()), _unit(attrs["ksize"]))
    return np.empty((n,) + pooled + (o,), dtype)
