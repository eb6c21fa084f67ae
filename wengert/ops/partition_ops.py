"""dynamic_partition and dynamic_stitch: splitting a tensor's rows into groups by a partition
number, and interleaving groups of rows back into one tensor by index.

dynamic_partition(data, partitions, n)[p] holds, in order, the slices data[i] with
partitions[i] = p (partitions may have the shape of any leading part of data's shape).
dynamic_stitch(indices, data) is out[indices[m][j]] = data[m][j]: the slices are placed at their
indices (a later list entry wins where indices repeat), and the output has max(index) + 1 rows.

The two are each other's inverse, and each one's gradient is built from the other, as in
TensorFlow: the gradient of a partition stitches the partitions' gradients back to the positions
their rows came from (the positions being the partition of 0..size-1), and the gradient of a
stitch gathers, for each data input, the gradient rows at its indices (so repeated indices all
receive the gradient of the row they were written to, as in TensorFlow). Partition numbers and
indices get no gradient.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .reshape_ops import reshape
from .broadcast_ops import zeros_like
from .creation_ops import constant_value, range as range_, shape as shape_of, size
from .indexing_ops import gather

__all__ = ["dynamic_partition", "dynamic_stitch"]


# -- dynamic_partition --------------------------------------------------------------------------------
def _partition_kernel(data, partitions, num_partitions):
    if data.shape[:partitions.ndim] != partitions.shape:
        raise ValueError(f"partitions shape {partitions.shape} must be a prefix of data's shape "
                         f"{data.shape}")
    flat = partitions.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= num_partitions):
        bad = flat[(flat < 0) | (flat >= num_partitions)][0]
        raise ValueError(f"partitions contains {bad}, outside [0, {num_partitions})")
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return tuple(rows[flat == p] for p in range(num_partitions))


def _partition_rule(data, partitions, num_partitions):
    if partitions.dtype != dtypes.int32:
        raise InvalidArgumentError(f"partitions must be int32, got {partitions.dtype.name}.")
    if data.shape.rank is None or partitions.shape.rank is None:
        return [(TensorShape(None), data.dtype)] * num_partitions
    row = list(data.shape)[partitions.shape.rank:]
    return [(TensorShape([None] + row), data.dtype)] * num_partitions


def _partition_grad(op, *grads):
    data, partitions = op.inputs
    num = op.get_attr("num_partitions")
    positions = reshape(range_(size(partitions)), shape_of(partitions))
    pieces = dynamic_partition(positions, partitions, num)
    grads = [g if g is not None else _zeros_rows(p, data, partitions) for g, p in zip(grads,
                                                                                       pieces)]
    return reshape(dynamic_stitch(pieces, grads), shape_of(data)), None


def _zeros_rows(positions, data, partitions):
    """Zeros for a partition whose output got no gradient: one row of data per position."""
    return zeros_like(gather(reshape(data, [-1] + list(data.shape)[partitions.shape.rank:]),
                             positions))


DYNAMIC_PARTITION = defop("DynamicPartition", _partition_kernel, shape=_partition_rule,
                          grad=_partition_grad, jvp=linear, num_outputs=None,
                          raw=lambda data, partitions, num_partitions, name=None:
                          dynamic_partition(data, partitions, num_partitions, name))


def dynamic_partition(data, partitions, num_partitions, name=None):
    """The slices of `data` grouped by their partition number: a list of num_partitions
    tensors, the p-th holding (in order) the slices i with partitions[i] == p."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    num_partitions = int(num_partitions)
    if num_partitions < 1:
        raise ValueError(f"dynamic_partition: num_partitions must be >= 1, got {num_partitions}.")
    out = execute(DYNAMIC_PARTITION, (data, partitions), {"num_partitions": num_partitions},
                  name)
    return list(out) if isinstance(out, tuple) else [out]


# -- dynamic_stitch -----------------------------------------------------------------------------------
def _stitch_kernel(*inputs):
    half = len(inputs) // 2
    indices, data = inputs[:half], inputs[half:]
    flat = [i.reshape(-1) for i in indices]
    rows = max((int(f.max()) + 1 for f in flat if f.size), default=0)
    tail = data[0].shape[indices[0].ndim:]
    for i, d in zip(indices, data):
        if d.shape[:i.ndim] != i.shape or d.shape[i.ndim:] != tail:
            raise ValueError(f"data shape {d.shape} must be indices shape {i.shape} followed "
                             f"by {tail}")
    out = np.zeros((rows,) + tail, data[0].dtype)
    for f, i, d in zip(flat, indices, data):
        if f.size and f.min() < 0:
            raise ValueError(f"indices must be >= 0, got {f.min()}")
        out[f] = d.reshape((f.size,) + tail)
    return out


def _stitch_rule(*inputs):
    half = len(inputs) // 2
    indices, data = inputs[:half], inputs[half:]
    for i in indices:
        if i.dtype != dtypes.int32:
            raise InvalidArgumentError(f"dynamic_stitch indices must be int32, got "
                                       f"{i.dtype.name}.")
    values = [constant_value(i) for i in indices]
    rows = None
    if all(v is not None for v in values):
        rows = max((int(v.max()) + 1 for v in values if v.size), default=0)
    first, shape = data[0], indices[0].shape
    if first.shape.rank is None or shape.rank is None:
        return TensorShape(None), first.dtype
    return TensorShape([rows] + list(first.shape)[shape.rank:]), first.dtype


def _stitch_grad(op, grad):
    half = len(op.inputs) // 2
    return [None] * half + [gather(grad, i) for i in op.inputs[:half]]


DYNAMIC_STITCH = defop("DynamicStitch", _stitch_kernel, shape=_stitch_rule, grad=_stitch_grad,
                       jvp=linear, tf_inputs=("indices", "data"),  # (lists of one length)
                       raw=lambda indices, data, name=None: dynamic_stitch(indices, data, name))


def dynamic_stitch(indices, data, name=None):
    """One tensor from slices placed at their indices: out[indices[m][j]] = data[m][j] (where
    indices repeat, the later entry wins)."""
    indices = [convert_to_tensor(i) for i in indices]
    data = [convert_to_tensor(d) for d in data]
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch: give as many index tensors as data tensors (at least "
                         f"one), got {len(indices)} and {len(data)}.")
    return execute(DYNAMIC_STITCH, tuple(indices) + tuple(data), name=name)
