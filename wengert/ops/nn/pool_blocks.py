"""Pooling windows that tile the input (strides equal to ksize, the usual 2x2/2 pool), reduced
block by block: the padded channels-last input [N, *spatial, C] viewed as its disjoint windows
[N, O1, k1, O2, k2, ..., C] and reduced one window axis at a time, the first axis first (each
step reads long contiguous runs and halves the data for a 2x2 window; large batches in parts on
worker threads). pool.py's MaxPool and AvgPool kernels run these; `pool_into` pools a chunk of
images into its rows of an output on the calling thread (conv/epilogues.py: a worker thread's
chunk of a convolution's output, pooled while it is in the cache).
"""
import numpy as np

from .window_geometry import batch_parts, geometry, in_parallel, scratch

__all__ = ["tiles", "blocks", "block_reduce", "tiled_reduce", "pool_into"]


def tiles(ksize, strides):
    """Whether the windows are disjoint blocks (strides equal to ksize)."""
    return tuple(ksize) == tuple(strides)


def blocks(xp, ksize, out):
    """The view [N, O1, k1, O2, k2, ..., C] of the padded input's disjoint windows."""
    shape, strides = [xp.shape[0]], [xp.strides[0]]
    for k, o, step in zip(ksize, out, xp.strides[1:-1]):
        shape += [o, k]
        strides += [step * k, step]
    return np.lib.stride_tricks.as_strided(xp, tuple(shape) + xp.shape[-1:],
                                           tuple(strides) + xp.strides[-1:], writeable=False)


def block_reduce(blocks, ksize, ufunc, target):
    """ufunc-reduce every window axis of `blocks` into target, the first (outermost) axis
    first; partial results live in scratch buffers."""
    last = max((d for d, k in enumerate(ksize) if k > 1), default=None)
    if last is None:
        np.copyto(target, blocks.reshape(blocks.shape[:1] + blocks.shape[1:-1:2]
                                         + blocks.shape[-1:]))
        return target
    result = blocks
    for d, k in enumerate(ksize):
        head = (slice(None),) * (2 + d)  # this window axis, once the earlier ones are gone
        if k == 1:
            result = result[head + (0,)]
            continue
        parts = [result[head + (i,)] for i in range(k)]
        out = target.reshape(parts[0].shape) if d == last else \
            scratch(f"pool {d % 2}", parts[0].shape, parts[0].dtype)
        result = ufunc(parts[0], parts[1], out=out)
        for part in parts[2:]:
            ufunc(result, part, out=result)
    return target


def tiled_reduce(xp, ksize, out, ufunc):
    """The ufunc-reduction of every disjoint window, [N, *out, C]; large batches in parts."""
    n = xp.shape[0]
    y = np.empty((n,) + tuple(out) + xp.shape[-1:], dtype=xp.dtype)

    def images(start, stop):
        block_reduce(blocks(xp[start:stop], ksize, out), ksize, ufunc, y[start:stop])
    in_parallel(images, batch_parts(n, xp.nbytes))
    return y


def pool_into(x, target, ufunc, ksize, strides, padding, explicit_paddings=()):
    """target = every window's ufunc-reduction (np.maximum: MaxPool; np.add: AvgPool's window
    sums) of the channels-last x, on the calling thread; None (target untouched) unless the
    windows tile x unpadded and target has the pooled shape."""
    out, pads = geometry(x.shape[1:-1], ksize, strides, padding, explicit_paddings,
                         (1,) * len(ksize))
    if not tiles(ksize, strides) or any(b or a for b, a in pads) or \
            target.shape != x.shape[:1] + out + x.shape[-1:]:
        return None
    return block_reduce(blocks(x, ksize, out), ksize, ufunc, target)
