"""Keras 3's pooling and patch rearrangements of `keras.ops.nn` (`max_pool`, `average_pool`,
`adaptive_max_pool`, `adaptive_average_pool`, `unfold`, `fold`, `depth_to_space`,
`space_to_depth`) over wengert's ops.

max_pool and average_pool are tf.nn's, with Keras's defaults (strides = pool_size, "valid").
Adaptive pooling gives output cell i of an axis of length L pooled to O cells the window
[floor(i L / O), ceil((i + 1) L / O)), PyTorch's rule, which Keras follows; a box window's max or
mean is taken one axis at a time. unfold(x) [N, C, H, W] lists each sliding block of a
(padded, strided, dilated) window as a column: out[n, c kH kW + i kW + j, l] =
x_pad[n, c, sH r + dH i, sW q + dW j] for block l = r nW + q; fold is its transpose, summing
every column entry back into its pixel (then cropping the padding). Both are one gather / one
segment sum over a static index table, so each is the other's gradient.
"""
import numpy as np

from ...ops.array_ops import concat
from ...ops.indexing_ops import gather
from ...ops.nn.pool import avg_pool, max_pool as _max_pool
from ...ops.pad_ops import pad
from ...ops.reduce_ops import reduce_max, reduce_mean
from ...ops.reshape_ops import reshape, transpose
from ...ops.segment_ops import unsorted_segment_sum
from ...ops.slice_ops import strided_slice
from ...ops.space_ops import depth_to_space as _depth_to_space, space_to_depth as _space_to_depth
from .convolution import data_format_of, from_channels_last, per_axis, to_channels_last
from .core import convert_to_tensor

__all__ = ["max_pool", "average_pool", "adaptive_max_pool", "adaptive_average_pool", "unfold",
           "fold", "depth_to_space", "space_to_depth"]


def _pool(fn, inputs, pool_size, strides, padding, data_format):
    data_format = data_format_of(data_format)
    x = convert_to_tensor(inputs)
    n = x.shape.rank - 2
    pool_size = per_axis(pool_size, n, "pool_size")
    strides = pool_size if strides is None else per_axis(strides, n, "strides")
    if str(padding).lower() not in ("valid", "same"):
        raise ValueError(f"keras.ops.nn pooling: padding must be 'valid' or 'same', got "
                         f"{padding!r}.")
    out = fn(to_channels_last(x, data_format), pool_size, strides, str(padding).upper())
    return from_channels_last(out, data_format)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The max over each pool_size window, every `strides` (default pool_size) steps."""
    return _pool(_max_pool, inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The mean over each pool_size window ("same" averages the in-bounds entries only)."""
    return _pool(avg_pool, inputs, pool_size, strides, padding, data_format)


def _adaptive_axis(x, axis, size, reduce):
    length = x.shape[axis]
    if length is None:
        raise ValueError(f"adaptive pooling needs static spatial sizes; got shape {x.shape}.")
    cells = []
    for i in range(size):
        start, stop = (i * length) // size, -((-(i + 1) * length) // size)
        begin, end = [0] * x.shape.rank, [0] * x.shape.rank
        begin[axis], end[axis] = start, stop
        mask = ~(1 << axis) & ((1 << x.shape.rank) - 1)
        window = strided_slice(x, begin, end, begin_mask=mask, end_mask=mask)
        cells.append(reduce(window, axis=axis, keepdims=True))
    return concat(cells, axis=axis)


def _adaptive(reduce, inputs, output_size, data_format):
    data_format = data_format_of(data_format)
    x = to_channels_last(convert_to_tensor(inputs), data_format)
    n = x.shape.rank - 2
    if n not in (1, 2, 3):
        raise ValueError(f"adaptive pooling: inputs must have rank 3, 4 or 5; got {x.shape}.")
    for axis, size in enumerate(per_axis(output_size, n, "output_size"), start=1):
        x = _adaptive_axis(x, axis, size, reduce)
    return from_channels_last(x, data_format)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed output_size per spatial axis."""
    return _adaptive(reduce_max, inputs, output_size, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed output_size per spatial axis."""
    return _adaptive(reduce_mean, inputs, output_size, data_format)


def _block_table(channels, height, width, kernel, dilation, padding, stride):
    """Flat indices into the padded [C, H', W'] image of every unfold entry [C*kH*kW, L]."""
    hp, wp = height + 2 * padding[0], width + 2 * padding[1]
    nh = (hp - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    nw = (wp - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    c, i, j, r, q = np.meshgrid(np.arange(channels), np.arange(kernel[0]), np.arange(kernel[1]),
                                np.arange(nh), np.arange(nw), indexing="ij")
    rows, cols = stride[0] * r + dilation[0] * i, stride[1] * q + dilation[1] * j
    return (c * hp * wp + rows * wp + cols).reshape(-1), hp, wp, nh * nw


def _window_args(kernel_size, dilation, padding, stride):
    return (per_axis(kernel_size, 2, "kernel_size"), per_axis(dilation, 2, "dilation"),
            per_axis(padding, 2, "padding"), per_axis(stride, 2, "stride"))


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of x [N, C, H, W] as columns: [N, C*kH*kW, L]."""
    x = convert_to_tensor(x)
    if x.shape.rank != 4 or None in x.shape[1:]:
        raise ValueError(f"unfold: the input must be a 4-D [N, C, H, W] tensor with known C, H, "
                         f"W; got shape {x.shape}.")
    k, d, p, s = _window_args(kernel_size, dilation, padding, stride)
    c, h, w = x.shape[1:]
    table, hp, wp, blocks = _block_table(c, h, w, k, d, p, s)
    padded = pad(x, [[0, 0], [0, 0], [p[0], p[0]], [p[1], p[1]]])
    flat = reshape(padded, [-1, c * hp * wp])
    return reshape(gather(flat, table, axis=1), [-1, c * k[0] * k[1], blocks])


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The blocks x [N, C*kH*kW, L] summed back into an image [N, C, oH, oW]."""
    x = convert_to_tensor(x)
    if x.shape.rank != 3 or x.shape[1] is None:
        raise ValueError(f"fold: the input must be a 3-D [N, C*kH*kW, L] tensor; got shape "
                         f"{x.shape}.")
    k, d, p, s = _window_args(kernel_size, dilation, padding, stride)
    oh, ow = per_axis(output_size, 2, "output_size")
    c = x.shape[1] // (k[0] * k[1])
    table, hp, wp, blocks = _block_table(c, oh, ow, k, d, p, s)
    if x.shape[2] is not None and x.shape[2] != blocks or c * k[0] * k[1] != x.shape[1]:
        raise ValueError(f"fold: an output of {(oh, ow)} with kernel {k}, dilation {d}, padding "
                         f"{p} and stride {s} takes [N, C*{k[0] * k[1]}, {blocks}] blocks; got "
                         f"shape {x.shape}.")
    columns = transpose(reshape(x, [-1, c * k[0] * k[1] * blocks]), [1, 0])
    image = transpose(unsorted_segment_sum(columns, table, c * hp * wp), [1, 0])
    image = reshape(image, [-1, c, hp, wp])
    return image[:, :, p[0]:hp - p[0], p[1]:wp - p[1]]


def _depth_space(fn, x, block_size, data_format):
    x = convert_to_tensor(x)
    if data_format == "channels_last":
        return fn(x, block_size, data_format="NHWC")
    return transpose(fn(transpose(x, [0, 2, 3, 1]), block_size, data_format="NHWC"),
                     [0, 3, 1, 2])


def depth_to_space(x, block_size, data_format="channels_last"):
    """Channels moved into block_size x block_size spatial blocks."""
    return _depth_space(_depth_to_space, x, block_size, data_format)


def space_to_depth(x, block_size, data_format="channels_last"):
    """block_size x block_size spatial blocks moved into channels."""
    return _depth_space(_space_to_depth, x, block_size, data_format)

