"""TensorFlow's RaggedTensorToTensor op: a ragged tensor padded to a dense one in one kernel.

Inputs: the target `shape` (-1 or a negative entry where the bounding size is wanted), the flat
`values` [nvals, *inner], the `default_value` (broadcast to inner) and the row splits of each
ragged level, outermost first (row_partition_types all "ROW_SPLITS"). From the innermost level
out, with rows of lengths l_i and width w = max_i l_i:

    out = full([nrows, w, *dense.shape[1:]], default);  out[i, j] = dense[s_i + j]  (j < l_i)

which is `out[mask] = dense` for mask[i, j] = j < l_i, row-major, one NumPy assignment per
level. Then each dimension is cropped or padded (with the default) to `shape`.

The op is linear in (values, default_value), so its JVP is itself on the tangents. Its gradient
reuses it: padding the values' own indices 0..nvals-1 (default -1) gives, for every output
entry, the value it holds or -1; the values' gradient is the segment sum of the incoming
gradient by those indices (a cropped value gets 0), the default's the sum of the gradient over
the -1 entries, summed down to the default's shape.
"""
import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop, linear, needs_grad
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..array_ops import concat, where
from ..broadcast_ops import unbroadcast, zeros_like
from ..creation_ops import range as range_, shape as shape_of
from ..math_ops import cast, equal
from ..reduce_ops import reduce_sum
from ..reshape_ops import reshape
from ..segment_ops import unsorted_segment_sum

__all__ = ["RAGGED_TO_TENSOR", "padded"]


def _pad_level(dense, splits, default):
    lengths = np.diff(splits)
    width = int(lengths.max(initial=0))
    out = np.empty((len(lengths), width) + dense.shape[1:], dense.dtype)
    out[...] = default
    out[np.arange(width) < lengths[:, None]] = dense
    return out


def _fit(dense, shape, default):
    for axis, size in enumerate(np.asarray(shape).reshape(-1).tolist()):
        current = dense.shape[axis]
        if size < 0 or size == current:
            continue
        if size < current:
            dense = dense[(slice(None),) * axis + (slice(0, size),)]
            continue
        extra = list(dense.shape)
        extra[axis] = size - current
        fill = np.empty(extra, dense.dtype)
        fill[...] = default
        dense = np.concatenate([dense, fill], axis)
    return dense


def _kernel(shape, values, default_value, *row_partition_tensors, row_partition_types):
    default = np.broadcast_to(np.asarray(default_value, values.dtype), values.shape[1:])
    dense = values
    for splits in reversed(row_partition_tensors):
        dense = _pad_level(dense, splits, default)
    if shape.ndim == 0:  # TensorFlow's shape=None: a scalar -1
        return dense
    return _fit(dense, shape, default)


def _shape(shape, values, default_value, *partitions, row_partition_types):
    rank = len(partitions) + (values.shape.rank if values.shape.rank is not None else 0)
    known = static_value(shape)
    if values.shape.rank is None:
        return TensorShape(None), values.dtype
    dims = [None] * (len(partitions) + 1) + values.shape.as_list()[1:]
    if known is not None and np.ndim(known) == 1:
        dims = [d if k < 0 else int(k) for d, k in zip(dims, known.tolist())]
    return TensorShape(dims if len(dims) == rank else None), values.dtype


def _grad(op, grad):
    shape, values, default, *partitions = op.inputs
    ragged = len(partitions) + 1
    nvals = shape_of(values, out_type=partitions[0].dtype)[0]
    index = range_(nvals, dtype=partitions[0].dtype)
    index_shape = shape[:ragged] if shape.shape.rank == 1 else shape
    where_from = execute(RAGGED_TO_TENSOR, (index_shape, index, cast(-1, index.dtype),
                                            *partitions),
                         {"row_partition_types": op.get_attr("row_partition_types")})
    inner = shape_of(values, out_type=dtypes.int32)[1:]
    flat_grad = reshape(grad, concat([[-1], inner], 0))
    flat_from = reshape(where_from, [-1])
    values_grad = unsorted_segment_sum(flat_grad, flat_from, nvals) if needs_grad(op, 1) else None
    default_grad = None
    if needs_grad(op, 2):
        padding = equal(flat_from, cast(-1, flat_from.dtype))
        mask = reshape(padding, concat([[-1], inner * 0 + 1], 0))  # [N, 1, ..., 1]
        summed = reduce_sum(where(mask, flat_grad, zeros_like(flat_grad)), axis=0)
        default_grad = unbroadcast(summed, default)
    return None, values_grad, default_grad, *([None] * len(partitions))


def _raw(shape, values, default_value, row_partition_tensors, row_partition_types, name=None):
    types = tuple(row_partition_types)
    if any(t != "ROW_SPLITS" for t in types):
        raise ValueError(f"tf.raw_ops.RaggedTensorToTensor: wengert takes row_partition_types "
                         f"of ROW_SPLITS only, got {list(types)}; convert the partitions to row "
                         "splits (tf.ragged.segment_ids_to_row_splits).")
    return execute(RAGGED_TO_TENSOR, (shape, values, default_value, *row_partition_tensors),
                   {"row_partition_types": types}, name)


RAGGED_TO_TENSOR = defop("RaggedTensorToTensor", _kernel, shape=_shape, grad=_grad, jvp=linear,
                         raw=_raw)


def padded(values, default_value, partitions, shape=None, name=None):
    """The padded dense tensor of the ragged tensor (values, row splits `partitions`)."""
    ragged = len(partitions) + 1
    rank = ragged + values.shape.rank - 1 if values.shape.rank is not None else None
    if shape is None:
        target = convert_to_tensor(np.int64(-1))
    else:
        dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
        if rank is not None and len(dims) != rank:
            raise ValueError(f"RaggedTensor.to_tensor: shape {dims} must have rank {rank}, the "
                             "ragged tensor's rank.")
        target = convert_to_tensor(np.array([-1 if d is None else int(d) for d in dims],
                                            np.int64))
    return execute(RAGGED_TO_TENSOR, (target, values, default_value, *partitions),
                   {"row_partition_types": ("ROW_SPLITS",) * len(partitions)}, name)
