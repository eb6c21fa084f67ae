"""`tf.nn.with_space_to_batch`: run a "VALID" op (a convolution or pooling) with dilation by way
of space_to_batch_nd and batch_to_space, as TensorFlow's `_WithSpaceToBatch` does; the gradient
comes through those two ops and `op`'s own.

With dilation rate r over the spatial axes, sampling every r-th element of a (padded) axis gives
r interleaved sub-grids; space_to_batch_nd moves them to the batch, `op` runs on each undilated,
and batch_to_space interleaves the results back, which is `op` dilated by r:

    result = batch_to_space(op(space_to_batch_nd(input, r, paddings), num_spatial_dims, "VALID"),
                            r, crops)

For padding "SAME" the base padding of each spatial axis is the dilated filter's extent
(f - 1) r, split with the odd element at the end (start = (f - 1) r // 2), as conv2d does; "VALID"
pads nothing, and an explicit list of [before, after] pairs for the 4 axes of a 2-D op gives its
spatial pairs. As in required_space_to_batch_paddings, the end of each axis is extended to a
multiple of r, and batch_to_space crops that extension back off. When every rate is 1 the op runs on the
input as it is, with the given padding. `spatial_dims` (increasing, positive) names the axes; the
block shape is 1 and the padding 0 on the axes between them.

wengert's space_to_batch_nd takes its block and paddings as known values, so the spatial sizes
and the dilation rate must be known when the op is built (the batch size need not be).
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ..creation_ops import constant_value
from ..space_ops import batch_to_space, space_to_batch_nd

__all__ = ["with_space_to_batch"]

_FN = "nn.with_space_to_batch"


def _rate(dilation_rate):
    rate = constant_value(convert_to_tensor(dilation_rate))
    if rate is None:
        raise ValueError(f"{_FN}: dilation_rate must be known when the op is built (a list of "
                         f"ints or a constant tensor), got {dilation_rate!r}.")
    rate = np.asarray(rate)
    if rate.ndim != 1:
        raise ValueError(f"{_FN}: dilation_rate must be a vector (rank 1), got shape "
                         f"{list(rate.shape)}.")
    if np.any(rate < 1):
        raise ValueError(f"{_FN}: dilation_rate must be positive, got {rate.tolist()}.")
    return rate.astype(np.int64)


def _spatial_dims(spatial_dims, n, data_format, rank):
    start = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(start, n + start)) if spatial_dims is None else list(spatial_dims)
    if sorted(set(int(d) for d in dims)) != dims or any(d < 1 for d in dims):
        raise ValueError(f"{_FN}: spatial_dims must be a monotonically increasing sequence of "
                         f"positive integers, got {dims}.")
    if len(dims) != n:
        raise ValueError(f"{_FN}: spatial_dims {dims} must name one axis per dilation rate "
                         f"({n}).")
    need = dims[-1] if start == 2 else dims[-1] + 1
    if rank is not None and rank < need:
        raise ValueError(f"{_FN}: input rank must be at least {need} for spatial_dims {dims} "
                         f"and data_format {data_format!r}, got rank {rank}.")
    return dims


def _base_paddings(padding, filter_shape, rate, data_format):
    n = rate.size
    if isinstance(padding, (list, tuple)):
        pairs = np.asarray(padding, dtype=np.int64)
        if pairs.shape != (4, 2) or n + 2 != 4:
            raise ValueError(f"{_FN}: an explicit padding is 4 [before, after] pairs (batch, "
                             f"2 spatial axes, channels), got {padding!r} for {n} spatial axes.")
        return pairs[2:] if data_format is not None and data_format.startswith("NC") \
            else pairs[1:-1]
    if padding == "VALID":
        return np.zeros([n, 2], np.int64)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"{_FN}: filter_shape must be given for padding='SAME' (the "
                             f"padding is the dilated filter's extent).")
        shape = constant_value(convert_to_tensor(filter_shape))
        if shape is None:
            raise ValueError(f"{_FN}: filter_shape must be known when the op is built, got "
                             f"{filter_shape!r}.")
        extra = (np.asarray(shape, np.int64)[:n] - 1) * rate
        return np.stack([extra // 2, extra - extra // 2], axis=1)
    raise ValueError(f"{_FN}: padding must be 'SAME', 'VALID' or a list of [before, after] "
                     f"pairs, got {padding!r}.")


def _adjust(orig, fill, spatial_dims):
    """TensorFlow's _with_space_to_batch_adjust: rows of orig at axes spatial_dims - 1 of a
    [max(spatial_dims), ...] array, `fill` elsewhere."""
    out = np.full((spatial_dims[-1],) + orig.shape[1:], fill, orig.dtype)
    out[np.asarray(spatial_dims) - 1] = orig
    return out


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """`op(converted_input, num_spatial_dims, "VALID")` run on the space_to_batch_nd of `input`
    by `dilation_rate`, batch_to_space applied to its result: `op` dilated by the rate."""
    input = convert_to_tensor(input, name="input")  # noqa: A001
    rate = _rate(dilation_rate)
    n = rate.size
    dims = _spatial_dims(spatial_dims, n, data_format, input.shape.rank)
    if np.all(rate == 1):
        return op(input, n, padding)
    base = _base_paddings(padding, filter_shape, rate, data_format)
    spatial = [input.shape[i] for i in dims]
    if None in spatial:
        raise ValueError(f"{_FN}: the spatial sizes (axes {dims}) of input must be known when "
                         f"the op is built, got shape {input.shape}.")
    extra = -(np.asarray(spatial) + base.sum(axis=1)) % rate  # required_space_to_batch_paddings
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1)
    crops = np.stack([np.zeros_like(extra), extra], axis=1)
    block, paddings, crops = (_adjust(rate, 1, dims), _adjust(paddings, 0, dims),
                              _adjust(crops, 0, dims))
    converted = space_to_batch_nd(input, block, paddings)
    return batch_to_space(op(converted, n, "VALID"), block, crops)
