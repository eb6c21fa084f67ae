"""NumPy kernels of the convolutions in any number of spatial dimensions (Conv2D, Conv3D and
their backprop ops declare themselves in conv2d.py and conv3d.py and run these).

Layout: input [N, *spatial, C] (channels-first inputs are transposed views), filters
[*ksize, C, O]. With strides s, dilations d and the padded input xp,

    y[n, p, o] = sum_{k, c} xp[n, p*s + k*d, c] * w[k, c, o]      (p, k multi-indices)

Forward: im2col, the strided view of all windows [N, *out, *ksize, C] copied once into a
scratch matrix of N*prod(out) rows, times the filters as a [prod(ksize)*C, O] matrix.
BackpropFilter is im2col(x)^T @ g. BackpropInput, the transpose in x, adds g @ w[k]^T into the
strided slice of the padded input gradient that offset k read (prod(ksize) slice-adds, no
scatter), then crops the padding.
"""
import numpy as np

from ..window_geometry import (crop_spatial, from_channels_last, geometry, offsets, pad_spatial,
                            scratch, sizes_last, to_channels_last, windows)

__all__ = ["im2col", "conv_kernel", "conv_backprop_input_kernel", "conv_backprop_filter_kernel"]


def im2col(x, ksize, strides, padding, explicit_paddings, dilations):
    """(patch matrix [N*prod(out), prod(ksize)*C], out) of a channels-last input; the matrix
    may be a scratch buffer (use it before the next im2col) or, for one channel, the transpose
    of one."""
    out, pads = geometry(x.shape[1:-1], ksize, strides, padding, explicit_paddings, dilations)
    n, c = x.shape[0], x.shape[-1]
    if all(k == 1 for k in ksize) and all(s == 1 for s in strides) and \
            not any(b or a for b, a in pads):
        return x.reshape(-1, c), out
    xp = pad_spatial(x, pads)
    rows = n * int(np.prod(out))
    if c == 1:
        # Speed: with one channel the windows view copies runs of KW floats; a copy per kernel
        # offset copies whole rows instead, each into one contiguous row of the transposed
        # matrix [prod(ksize), rows] (BLAS reads the transpose as it is): MNIST's first layer
        # in 80 us, against 170 us writing the copies strided and 320 us through the view.
        cols = scratch("im2col", tuple(ksize) + (n,) + out, x.dtype)
        for offset, index in offsets(ksize, out, strides, dilations):
            cols[offset] = xp[index][..., 0]
        return cols.reshape(-1, rows).T, out
    cols = scratch("im2col", (n,) + out + tuple(ksize) + (c,), x.dtype)
    np.copyto(cols, windows(xp, ksize, out, strides, dilations))
    return cols.reshape(rows, -1), out


def conv_kernel(x, w, strides, padding, data_format, dilations, explicit_paddings=()):
    x = to_channels_last(x, data_format)
    c, o = w.shape[-2:]
    if x.ndim != w.ndim or c != x.shape[-1]:
        raise ValueError("channels differ")
    cols, out = im2col(x, w.shape[:-2], strides, padding, explicit_paddings, dilations)
    y = np.matmul(cols, w.reshape(-1, o)).reshape((x.shape[0],) + out + (o,))
    return from_channels_last(y, data_format)


def conv_backprop_input_kernel(input_sizes, w, dy, strides, padding, data_format, dilations,
                               explicit_paddings=()):
    sizes = sizes_last(input_sizes, data_format, w.ndim)
    n, spatial, c = sizes[0], sizes[1:-1], sizes[-1]
    dy = to_channels_last(dy, data_format)
    ksize, (wc, o) = w.shape[:-2], w.shape[-2:]
    out, pads = geometry(spatial, ksize, strides, padding, explicit_paddings, dilations)
    if wc != c or dy.shape != (n,) + out + (o,):
        raise ValueError("shapes differ")
    padded = (n,) + tuple(s + b + a for s, (b, a) in zip(spatial, pads)) + (c,)
    dxp = np.zeros(padded, dtype=dy.dtype)
    g = dy.reshape(-1, o)
    product = scratch("offset product", (g.shape[0], c), dy.dtype)
    for offset, index in offsets(ksize, out, strides, dilations):
        np.matmul(g, w[offset].T, out=product)
        dxp[index] += product.reshape((n,) + out + (c,))
    return from_channels_last(crop_spatial(dxp, pads, spatial), data_format)


def conv_backprop_filter_kernel(x, filter_sizes, dy, strides, padding, data_format, dilations,
                                explicit_paddings=()):
    sizes = tuple(int(v) for v in np.asarray(filter_sizes).reshape(-1))
    x, dy = to_channels_last(x, data_format), to_channels_last(dy, data_format)
    cols, out = im2col(x, sizes[:-2], strides, padding, explicit_paddings, dilations)
    if sizes[-2] != x.shape[-1] or dy.shape != x.shape[:1] + out + sizes[-1:]:
        raise ValueError("shapes differ")
    return np.matmul(cols.T, dy.reshape(-1, sizes[-1])).reshape(sizes)
