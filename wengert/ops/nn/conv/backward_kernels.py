"""NumPy kernels of the convolutions' two backprop ops in any number of spatial dimensions
(Conv2DBackpropInput / Filter and the 3-D ones declare themselves in conv2d.py and conv3d.py).

Layout as in the forward (im2col.py): input [N, *spatial, C], filters [*ksize, C, O], output
gradient g [N, *out, O]; with strides s, dilations d and the padded input xp,
y[n, p, o] = sum_{k, c} xp[n, p*s + k*d, c] w[k, c, o], so

    dw[k, c, o] = sum_{n, p} xp[n, p*s + k*d, c] g[n, p, o]            (BackpropFilter)
    dxp[n, h, c] = sum_{p*s + k*d = h} sum_o g[n, p, o] w[k, c, o]       (BackpropInput)

BackpropFilter is patches(xp)^T @ g with the patch matrix [rows, prod(ksize)*C]: where the
filters are small enough (_summed_product) it is built and multiplied a cache-sized chunk of
images at a time on the worker threads, the chunks' [prod(ksize)*C, O] products summed;
otherwise it is one product over the whole batch.

BackpropInput with unit dilations is a unit-stride correlation of g in "sub-pixel" form: per
spatial axis the padded coordinate h = a*s + phi (block a, phase phi < s) receives the taps
k = phi + s*t from g at p = a - t, t < T = ceil(k / s). So the T-window of g around block a,
times one [prod(T)*O, prod(s)*C] matrix W2 (W2[u, :, phi, :] = w[phi + s*(T-1-u)]^T, zero where
that tap is past the kernel), gives the s^d phases of block a at once: one im2col of g and one
matrix product, the blocks then interleaved (depth to space) and the padding cropped. With unit
strides this is the "full" correlation of g with the kernel flipped and its channel axes
swapped; with stride 2 and a 3x3 kernel W2 holds 9 of its 16 blocks (the zeros cost
multiply-adds but no scattered adds). Dilated kernels, windows that do not overlap (k <= s),
small gradients and strided ones with many channels (_slice_adds) instead add g @ w[k]^T into
the strided slice of dxp that offset k read (prod(ksize) slice-adds), then crop the padding.
"""
import math

import numpy as np

from ..window_geometry import (batch_parts, crop_spatial, from_channels_last, geometry,
                               in_parallel, pad_spatial, scratch, sizes_last, to_channels_last)
from .im2col import _FEW_CHANNELS, patches

__all__ = ["conv_backprop_input_kernel", "conv_backprop_filter_kernel"]

# Speed: the patch matrices of a ResNet's first stage (64 images of 32x32x16, 3x3) take 38 MB;
# built whole they are written to memory and read back by the product. Chunks of about this
# many bytes stay in the caches between the copy and the product (in cache, a chunk's product
# runs at 63-81 GFLOP/s on one core against 19-31 for one product over the whole batch). The
# chunks run on the worker threads, each product a stack of products of at most _SERIAL_MNK
# multiply-adds, which OpenBLAS keeps on the calling thread (BackpropFilter's summed over the
# stack), where those keep at least _MIN_STACK_ROWS rows (shorter ones run 1.5-3x slower).
# Otherwise the whole batch is one product, threaded by OpenBLAS: chunks of threaded products
# stall on a loaded machine (its threads spin-wait for each other at every call: the first
# stage's BackpropFilter took 1405 ms of wall and 176 of CPU time in 2 MiB chunks there,
# against 230 and 30 in one product; 14.7 against 19.2 ms of CPU on one BLAS thread).
_CHUNK_BYTES = 2 << 20
_SERIAL_MNK = 1 << 18
_MIN_STACK_ROWS = 64
_PARALLEL_BYTES = 4 << 20
# BackpropInput's slice-adds win where the padded input gradient stays in cache (below this
# size: MNIST's second layer, 346 KB, 1.73 against 2.74 ms), where windows do not overlap (a
# 1x1 kernel with stride 2: the adds only scatter), and with strides and at least
# _STRIDED_CHANNELS channels (runs of C values per add are long enough; the sub-pixel matrix
# would multiply 16 blocks for 9 taps: 6.8 against 8.0 ms for ResNet-20's 16x16x32 input with
# stride 2, and 14.1 against 11.1 ms the other way for its 32x32x16 one).
_SLICE_ADD_BYTES = 1 << 20
_STRIDED_CHANNELS = 32


def _product(a, b, out):
    """out = a @ b, as a stack of products of at most _SERIAL_MNK multiply-adds when those keep
    _MIN_STACK_ROWS rows (BLAS runs each on the calling thread), else one product."""
    rows, (k, n) = a.shape[0], b.shape
    m = _SERIAL_MNK // max(1, k * n)
    if m < _MIN_STACK_ROWS:
        np.matmul(a, b, out=out)
        return
    whole = rows - rows % m
    if whole:
        np.matmul(a[:whole].reshape(-1, m, k), b, out=out[:whole].reshape(-1, m, n))
    if whole < rows:
        np.matmul(a[whole:], b, out=out[whole:])


# -- BackpropFilter --------------------------------------------------------------------------------
def backprop_filter(x, sizes, dy, strides, pads, dilations):
    """dw [*ksize, C, O] of channels-last x [N, *spatial, C] and dy [N, *out, O]."""
    ksize, o = sizes[:-2], sizes[-1]
    out = dy.shape[1:-1]
    g = dy.reshape(dy.shape[0], -1, o)
    if all(k == 1 for k in ksize) and all(s == 1 for s in strides) and \
            not any(b or a for b, a in pads):
        return np.matmul(x.reshape(-1, x.shape[-1]).T, g.reshape(-1, o)).reshape(sizes)
    xp = pad_spatial(x, pads)
    rows = math.prod(out)
    k = math.prod(ksize) * x.shape[-1]
    dtype = np.result_type(x, dy)
    m = _SERIAL_MNK // max(1, k * o)
    if m < _MIN_STACK_ROWS or x.shape[-1] < _FEW_CHANNELS:
        cols = patches(xp, ksize, out, strides, dilations)
        return np.matmul(cols.T, g.reshape(-1, o)).reshape(sizes)
    per = max(1, _CHUNK_BYTES // max(1, rows * k * x.itemsize))
    sums = {}

    def images(start, stop):
        dw = np.zeros((k, o), dtype=dtype)
        for first in range(start, stop, per):
            last = min(stop, first + per)
            cols = patches(xp[first:last], ksize, out, strides, dilations)
            dw += _summed_product(cols, g[first:last].reshape(-1, o), m)
        sums[start] = dw
    parts = batch_parts(x.shape[0], x.shape[0] * rows * k * x.itemsize, _PARALLEL_BYTES)
    in_parallel(images, parts)
    return sum(sums[start] for start, _ in parts).reshape(sizes)


def _summed_product(a, b, m):
    """a^T @ b [k, n] for a [rows, k], b [rows, n], as a stack of products over m rows each
    (BLAS runs each on the calling thread), summed."""
    rows, k = a.shape
    whole = rows - rows % m
    total = np.matmul(a[:whole].reshape(-1, m, k).transpose(0, 2, 1),
                      b[:whole].reshape(-1, m, b.shape[1])).sum(axis=0) if whole else 0
    if whole < rows:
        total = total + a[whole:].T @ b[whole:]
    return total


# -- BackpropInput ---------------------------------------------------------------------------------
class _SubPixel:
    """The geometry of BackpropInput as a unit-stride correlation of g (module docstring): per
    axis the taps T, the first block a0 and number of blocks, g's padding (negative: a crop)
    and the offset of the input inside the blocks' s*blocks positions."""

    def __init__(self, spatial, ksize, strides, pads, out):
        self.taps = tuple(-(-k // s) for k, s in zip(ksize, strides))
        first = tuple(b // s for (b, _), s in zip(pads, strides))
        last = tuple(-(-(b + n) // s) for (b, _), n, s in zip(pads, spatial, strides))
        self.blocks = tuple(z - a for a, z in zip(first, last))
        self.g_pads = tuple((t - 1 - a, z - o) for t, a, z, o in zip(self.taps, first, last, out))
        self.crop = tuple(b - a * s for (b, _), a, s in zip(pads, first, strides))

    def padded_g(self, g):
        """g padded (or cropped) so that block a's window starts at position a - a0."""
        index = (slice(None),) + tuple(slice(max(0, -b), n + min(0, a)) for (b, a), n in
                                       zip(self.g_pads, g.shape[1:-1]))
        return pad_spatial(g[index], tuple((max(0, b), max(0, a)) for b, a in self.g_pads))


def _subpixel_filters(w, strides, taps):
    """W2 [prod(T)*O, prod(s)*C]: row block u (a T-window offset), column block phi (a phase)
    holds w[phi + s*(T-1-u)]^T, or zeros where that tap is past the kernel."""
    ksize, (c, o) = w.shape[:-2], w.shape[-2:]
    w2 = np.zeros(tuple(taps) + (o,) + tuple(strides) + (c,), dtype=w.dtype)
    for u in np.ndindex(*taps):
        for phi in np.ndindex(*strides):
            k = tuple(f + s * (t - 1 - i) for f, s, t, i in zip(phi, strides, taps, u))
            if all(i < n for i, n in zip(k, ksize)):
                w2[u + (slice(None),) + phi] = w[k].T
    return w2.reshape(math.prod(taps) * o, math.prod(strides) * c)


def _depth_to_space(y, blocks, strides, crop, spatial, into):
    """Write the blocks' phases y [n, *blocks, *s, C] into `into` [n, *spatial, C], cropped."""
    nd = len(blocks)
    order = (0,) + tuple(a for i in range(nd) for a in (1 + i, 1 + nd + i)) + (2 * nd + 1,)
    full = y.transpose(order).reshape((y.shape[0],) + tuple(b * s for b, s in zip(blocks, strides))
                                      + (y.shape[-1],))
    np.copyto(into, full[(slice(None),) + tuple(slice(c, c + n) for c, n in zip(crop, spatial))])


def backprop_input(sizes, w, dy, strides, pads, dilations):
    """dx [N, *spatial, C] (sizes) of filters w [*ksize, C, O] and channels-last dy."""
    n, spatial, c = sizes[0], sizes[1:-1], sizes[-1]
    if _slice_adds(sizes, w.shape[:-2], strides, pads, dilations, dy.itemsize):
        return _slice_add_input(sizes, w, dy, strides, pads, dilations)
    ksize = w.shape[:-2]
    geo = _SubPixel(spatial, ksize, strides, pads, dy.shape[1:-1])
    w2 = _subpixel_filters(w, strides, geo.taps)
    gp = geo.padded_g(dy)
    unit = (1,) * len(ksize)
    dx = np.empty((n,) + tuple(spatial) + (c,), dtype=np.result_type(w, dy))
    rows = math.prod(geo.blocks)
    per = max(1, _CHUNK_BYTES // max(1, rows * w2.shape[0] * dy.itemsize))
    direct = math.prod(strides) == 1 and not any(geo.crop)

    def images(start, stop):
        cols = patches(gp[start:stop], geo.taps, geo.blocks, unit, unit)
        y = dx[start:stop].reshape(-1, c) if direct else \
            scratch("subpixel product", ((stop - start) * rows, w2.shape[1]), dx.dtype)
        _product(cols, w2, y)
        if not direct:
            _depth_to_space(y.reshape((stop - start,) + geo.blocks + tuple(strides) + (c,)),
                            geo.blocks, strides, geo.crop, spatial, dx[start:stop])
    if _SERIAL_MNK // w2.size < _MIN_STACK_ROWS:
        images(0, n)  # one product (threaded by OpenBLAS) over the whole batch
    else:
        in_parallel(images, batch_parts(n, n * rows * w2.shape[0] * dy.itemsize,
                                        _PARALLEL_BYTES, per))
    return dx


def _slice_adds(sizes, ksize, strides, pads, dilations, itemsize):
    """Whether BackpropInput takes the slice-adds (see _SLICE_ADD_BYTES)."""
    padded = math.prod(sizes) // max(1, math.prod(sizes[1:-1])) * math.prod(
        n + b + a for n, (b, a) in zip(sizes[1:-1], pads))
    return (any(d != 1 for d in dilations) or all(k <= s for k, s in zip(ksize, strides))
            or padded * itemsize <= _SLICE_ADD_BYTES
            or (any(s > 1 for s in strides) and sizes[-1] >= _STRIDED_CHANNELS))


def _slice_add_input(sizes, w, dy, strides, pads, dilations):
    """dx by prod(ksize) slice-adds of g @ w[k]^T into the padded input gradient."""
    n, spatial, c = sizes[0], sizes[1:-1], sizes[-1]
    ksize, o = w.shape[:-2], w.shape[-1]
    out = dy.shape[1:-1]
    padded = (n,) + tuple(s + b + a for s, (b, a) in zip(spatial, pads)) + (c,)
    dxp = np.zeros(padded, dtype=dy.dtype)
    g = dy.reshape(-1, o)
    product = scratch("offset product", (g.shape[0], c), dy.dtype)
    for offset in np.ndindex(*ksize):
        index = (slice(None),) + tuple(slice(k * d, k * d + (m - 1) * s + 1, s) for k, m, s, d
                                       in zip(offset, out, strides, dilations))
        np.matmul(g, w[offset].T, out=product)
        dxp[index] += product.reshape((n,) + tuple(out) + (c,))
    return crop_spatial(dxp, pads, spatial)


# -- the ops' kernels ------------------------------------------------------------------------------
def conv_backprop_input_kernel(input_sizes, w, dy, strides, padding, data_format, dilations,
                               explicit_paddings=()):
    sizes = sizes_last(input_sizes, data_format, w.ndim)
    n, spatial, c = sizes[0], tuple(sizes[1:-1]), sizes[-1]
    dy = to_channels_last(dy, data_format)
    ksize, (wc, o) = w.shape[:-2], w.shape[-2:]
    out, pads = geometry(spatial, ksize, strides, padding, explicit_paddings, dilations)
    if wc != c or dy.shape != (n,) + out + (o,):
        raise ValueError("shapes differ")
    return from_channels_last(backprop_input(sizes, w, dy, strides, pads, dilations),
                              data_format)


def conv_backprop_filter_kernel(x, filter_sizes, dy, strides, padding, data_format, dilations,
                                explicit_paddings=()):
    sizes = tuple(int(v) for v in np.asarray(filter_sizes).reshape(-1))
    x, dy = to_channels_last(x, data_format), to_channels_last(dy, data_format)
    out, pads = geometry(x.shape[1:-1], sizes[:-2], strides, padding, explicit_paddings,
                         dilations)
    if sizes[-2] != x.shape[-1] or dy.shape != x.shape[:1] + out + sizes[-1:]:
        raise ValueError("shapes differ")
    return backprop_filter(x, sizes, dy, strides, pads, dilations)
