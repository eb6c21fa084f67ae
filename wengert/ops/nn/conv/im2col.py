"""NumPy kernels of the forward convolutions in any number of spatial dimensions (Conv2D and
Conv3D declare themselves in conv2d.py and conv3d.py and run these; their backprop ops' kernels
are in backward_kernels.py, which builds its patch matrices with `patches`).

Layout: input [N, *spatial, C] (channels-first inputs are transposed views), filters
[*ksize, C, O]. With strides s, dilations d and the padded input xp,

    y[n, p, o] = sum_{k, c} xp[n, p*s + k*d, c] * w[k, c, o]      (p, k multi-indices)

Forward: im2col, the strided view of the windows [nb, *out, *ksize, C] of a chunk of images
copied into a scratch patch matrix of nb*prod(out) rows (about 2 MiB: still in cache when the
product reads it), times the filters as a [prod(ksize)*C, O] matrix, written straight into
those images' output rows; the chunks of a large batch run on worker threads (NumPy releases
the GIL in the copy and the product), each product a stack of products small enough that BLAS
keeps it on its thread. With few channels the patches are copied transposed,
[prod(ksize)*C, rows], one long strided run per (offset, channel) (BLAS reads the transpose).
"""
import math

import numpy as np

from ..window_geometry import (batch_parts, from_channels_last, geometry, in_parallel, offsets,
                            pad_spatial, scratch, to_channels_last, windows)

__all__ = ["patches", "conv_kernel", "image_chunks", "correlate_into"]

# Speed: the forward product runs on cache-sized chunks of images, each copied and multiplied by
# one worker thread (NumPy releases the GIL in both) as a stack of products small enough that
# OpenBLAS keeps each on the calling thread. One product over the whole batch read its patch
# matrix back from memory (37 MB for the SavedModel bench's second layer: 20.7 against 12.6 ms
# of one core in 2 MiB chunks), and many threaded OpenBLAS calls stall on a loaded machine
# (its threads spin-wait for each other: 4-9x slower in chunks than in one call there).
_CHUNK_BYTES = 2 << 20       # patch bytes per chunk (fits the caches with its output)
_CHUNK_OUT_BYTES = 1 << 20   # output bytes per chunk (in the cache for the ops fused after it:
# conv/epilogues.py; and below the pooling kernel's threading threshold there)
_PARALLEL_BYTES = 4 << 20    # smaller patch matrices: one product, threaded by OpenBLAS
_SERIAL_MNK = 1 << 18        # OpenBLAS's GEMM runs single-threaded up to m*n*k = 65536 * 4
_MIN_ROWS = 16               # fewer rows per stacked product: one plain product instead
# (Mixing these threads with OpenBLAS's own, whose idle threads spin, slowed the MNIST CNN's
# training step on the loaded machine: its convolutions are below _PARALLEL_BYTES.)
# Below this many channels the patches are copied transposed (runs of C floats are too short
# for the windows copy): 10.4 against 12.6 ms for the bench's 3-channel first layer.
_FEW_CHANNELS = 5


def patches(xp, ksize, out, strides, dilations):
    """The patch matrix [N*prod(out), prod(ksize)*C] of a padded channels-last input: a
    scratch buffer (use it before the next one) or, with few channels, the transpose of one."""
    n, c = xp.shape[0], xp.shape[-1]
    k = math.prod(ksize) * c
    if c < _FEW_CHANNELS:
        cols = scratch("im2col", tuple(ksize) + (c, n) + tuple(out), xp.dtype)
        channels_first = (xp.ndim - 1,) + tuple(range(xp.ndim - 1))
        for offset, at in offsets(ksize, out, strides, dilations):
            np.copyto(cols[offset], xp[at].transpose(channels_first))
        return cols.reshape(k, -1).T
    cols = scratch("im2col", (n,) + tuple(out) + tuple(ksize) + (c,), xp.dtype)
    np.copyto(cols, windows(xp, ksize, out, strides, dilations))
    return cols.reshape(-1, k)


def _stacks(filter_size):
    """Whether products with a [k, n] matrix of this size fit _MIN_ROWS rows in _SERIAL_MNK."""
    return _SERIAL_MNK // max(1, filter_size) >= _MIN_ROWS


def _product_rows(a, b, out):
    """out = a @ b as a stack of products of at most _SERIAL_MNK multiply-adds each (BLAS runs
    each on the calling thread)."""
    rows, (k, n) = a.shape[0], b.shape
    m = _SERIAL_MNK // max(1, k * n)
    whole = rows - rows % m
    if whole:
        np.matmul(a[:whole].reshape(-1, m, k), b, out=out[:whole].reshape(-1, m, n))
    if whole < rows:
        np.matmul(a[whole:], b, out=out[whole:])


def image_chunks(n, out, wmat, itemsize):
    """The chunks [(start, stop)] of a batch of n images whose products run on the worker
    threads (about _CHUNK_BYTES of patches and at most _CHUNK_OUT_BYTES of output each), or
    None when one product, threaded by OpenBLAS, is better (a small patch matrix)."""
    image_bytes = math.prod(out) * wmat.shape[0] * itemsize
    if n * image_bytes < _PARALLEL_BYTES or not _stacks(wmat.size):
        return None
    per = min(_CHUNK_BYTES // max(1, image_bytes),
              _CHUNK_OUT_BYTES // max(1, math.prod(out) * wmat.shape[1] * itemsize))
    return batch_parts(n, n * image_bytes, 0, max(1, per))


def correlate_into(xp, wmat, ksize, out, strides, dilations, y, stacked=False):
    """y [n, *out, O] (C-contiguous) = the windows of the padded images xp [n, ...] times the
    filters as a matrix wmat; `stacked`: as products small enough for BLAS to keep each on
    the calling thread (a worker thread's chunk)."""
    rows = y.reshape(-1, wmat.shape[-1])
    if all(k == 1 for k in ksize) and all(s == 1 for s in strides):
        np.matmul(xp.reshape(-1, xp.shape[-1]), wmat, out=rows)
    elif stacked:
        _product_rows(patches(xp, ksize, out, strides, dilations), wmat, rows)
    else:
        np.matmul(patches(xp, ksize, out, strides, dilations), wmat, out=rows)
    return y


def _correlate(xp, wmat, ksize, out, strides, dilations):
    """y [N, *out, O] = the padded input's windows times the filters as a matrix wmat."""
    n = xp.shape[0]
    y = np.empty((n,) + tuple(out) + wmat.shape[-1:], dtype=np.result_type(xp, wmat))
    parts = None
    if not (all(k == 1 for k in ksize) and all(s == 1 for s in strides)):
        parts = image_chunks(n, out, wmat, xp.itemsize)
    if parts is None:
        return correlate_into(xp, wmat, ksize, out, strides, dilations, y)

    def images(start, stop):
        correlate_into(xp[start:stop], wmat, ksize, out, strides, dilations, y[start:stop], True)
    in_parallel(images, parts)
    return y


def conv_kernel(x, w, strides, padding, data_format, dilations, explicit_paddings=()):
    x = to_channels_last(x, data_format)
    ksize, (c, o) = w.shape[:-2], w.shape[-2:]
    if x.ndim != w.ndim or c != x.shape[-1]:
        raise ValueError("channels differ")
    out, pads = geometry(x.shape[1:-1], ksize, strides, padding, explicit_paddings, dilations)
    y = _correlate(pad_spatial(x, pads), w.reshape(-1, o), ksize, out, strides, dilations)
    return from_channels_last(y, data_format)
