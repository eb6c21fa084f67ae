"""Partitioned variables: `get_variable(..., partitioner=p)` stores a large variable as shards.

A partitioner maps a fully defined shape and dtype to a list of shard counts per dimension, at
most one of them above 1: `fixed_size_partitioner(n, axis)` asks for min(n, shape[axis]) shards,
`variable_axis_size_partitioner(max_shard_bytes, axis)` for as few shards as keep each under
`max_shard_bytes` (ceil(shape[axis] / floor(max_shard_bytes / bytes of one slice along axis))),
and `min_max_variable_partitioner(max_partitions, axis, min_slice_size)` for
ceil(total bytes / min_slice_size) shards, at most `max_partitions` and shape[axis].

The variable `name` becomes the variables `name/part_0`, `name/part_1`, ...: along the axis,
shard i has floor(d / n) rows, one more for the first d mod n shards, at offset the rows before
it. Each shard's initial value is the initializer called for its own shape with a
`partition_info` that gives the full shape and the shard's offset (so that fan-based initializers
see the whole variable), or its slice of an initial value given as a tensor or array. A
`PartitionedVariable` holds the shards; it reads as their concatenation.
"""
import math

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import concat
from ..ops.slice_ops import slice as slice_tensor
from .graph import name_scope

__all__ = ["PartitionedVariable", "fixed_size_partitioner", "variable_axis_size_partitioner",
           "min_max_variable_partitioner", "partitioned_variable"]


def _element_bytes(dtype, bytes_per_string_element):
    dtype = dtypes.as_dtype(dtype)
    return bytes_per_string_element if dtype == dtypes.string else dtype.size


def fixed_size_partitioner(num_shards, axis=0):
    """A partitioner asking for `num_shards` shards along `axis` (at most shape[axis])."""
    def partitioner(shape, **unused):
        partitions = [1] * len(shape)
        partitions[axis] = min(num_shards, int(shape[axis]))
        return partitions
    return partitioner


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
    """A partitioner keeping each shard under `max_shard_bytes` (and at most `max_shards`)."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         f"Currently, max_shard_bytes is {max_shard_bytes} and"
                         f"bytes_per_string_element is {bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def partitioner(shape, dtype):
        shape = TensorShape(shape)
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        dims = shape.as_list()
        per_slice = (shape.num_elements() / dims[axis]) * _element_bytes(
            dtype, bytes_per_string_element)
        slices_per_shard = max(1, math.floor(max_shard_bytes / per_slice))
        shards = int(math.ceil(dims[axis] / slices_per_shard))
        partitions = [1] * len(dims)
        partitions[axis] = min(max_shards, shards) if max_shards else shards
        return partitions
    return partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """A partitioner giving each shard at least `min_slice_size` bytes, in at most
    `max_partitions` shards."""
    def partitioner(shape, dtype):
        dims = TensorShape(shape).as_list()
        if axis >= len(dims):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is only "
                             f"{TensorShape(shape)}")
        total = int(TensorShape(shape).num_elements()) * _element_bytes(
            dtype, bytes_per_string_element)
        partitions = [1] * len(dims)
        partitions[axis] = max(1, min(dims[axis], max_partitions,
                                      int(math.ceil(total / min_slice_size))))
        return partitions
    return partitioner


class PartitionInfo:
    """Where a shard lies in its full variable: `full_shape` and `var_offset`."""

    def __init__(self, full_shape, var_offset):
        self.full_shape, self.var_offset = list(full_shape), list(var_offset)


class PartitionedVariable:
    """The shards of one variable; reads as their concatenation along the partitioned axis."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        self.name, self._shape, self.dtype = name, TensorShape(shape), dtypes.as_dtype(dtype)
        self._variables, self._partitions = list(variable_list), list(partitions)
        self._axis = next((i for i, p in enumerate(self._partitions) if p > 1), 0)

    shape = property(lambda self: self._shape)

    def get_shape(self):
        return self._shape

    def __iter__(self):
        return iter(self._variables)

    def __len__(self):
        return len(self._variables)

    def _get_variable_list(self):
        return list(self._variables)

    def _get_partitions(self):
        return list(self._partitions)

    def as_tensor(self):
        """The full value: the shards concatenated along the partitioned axis."""
        if len(self._variables) == 1:
            return convert_to_tensor(self._variables[0])
        with name_scope(None, default_name=self.name + "/ConcatPartitions"):
            return concat([convert_to_tensor(v) for v in self._variables], self._axis)

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) != self.dtype:
            raise ValueError(f"PartitionedVariable '{self.name}' has dtype {self.dtype.name}, "
                             f"but {dtypes.as_dtype(dtype).name} was requested; use cast.")
        return self.as_tensor()

    def __repr__(self):
        return f"<PartitionedVariable '{self.name}' shape={self._shape} parts={len(self)}>"


def _checked_partitions(partitioner, shape, dtype):
    if not shape.is_fully_defined():
        raise ValueError("Shape of a new partitioned variable must be fully defined, but "
                         f"instead was {shape}.")
    if shape.rank < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, (list, tuple)):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.rank:
        raise ValueError("Partitioner returned a partition list that does not match the "
                         f"Variable's rank: {slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError("Can only slice a variable along one dimension: shape: "
                         f"{shape}, partitioning: {slicing}")
    return list(slicing)


def _slices(full_shape, count, axis):
    """(offset, shape) of each shard."""
    extra, base = full_shape[axis] % count, full_shape[axis] // count
    offset = [0] * len(full_shape)
    for i in range(count):
        shape = list(full_shape)
        shape[axis] = base + (1 if i < extra else 0)
        yield list(offset), shape
        offset[axis] += shape[axis]


def partitioned_variable(store, name, partitioner, shape, dtype, initializer, reuse,
                         make_shard):
    """The PartitionedVariable `name` of `store` (its `partitioned` dict), shared or created
    as `reuse` says; `make_shard(name, shape, initializer, partition_info, dtype)` makes one
    shard. TensorFlow's errors, before anything is built."""
    if name in store.variables:
        raise ValueError("A partitioner was provided, but an unpartitioned version of the "
                         f"variable was found: {name}.  Perhaps a variable of the same name was "
                         "already created without partitioning?")
    dtype = dtypes.as_dtype(dtype)
    value = None if initializer is None or callable(initializer) else \
        convert_to_tensor(initializer, dtype=dtype)
    shape = TensorShape(shape)
    if value is not None:
        shape = shape.merge_with(value.shape) if shape.rank is not None else value.shape
    partitions = _checked_partitions(partitioner, shape, dtype) if (not reuse or partitioner) \
        else None
    found = store.partitioned.get(name)
    if found is not None:
        return _shared(name, found, shape, dtype, partitions, reuse)
    if reuse is True:
        raise ValueError(f"PartitionedVariable {name} does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=False or "
                         "reuse=tf.AUTO_REUSE in VarScope?")
    axis = next((i for i, p in enumerate(partitions) if p > 1), 0)
    shards = []
    for i, (offset, part_shape) in enumerate(_slices(shape.as_list(), partitions[axis], axis)):
        info = PartitionInfo(shape.as_list(), offset)
        part = initializer if value is None else slice_tensor(value, offset, part_shape)
        shards.append(make_shard(f"{name}/part_{i}", part_shape if value is None else None,
                                 part, info, dtype))
    result = PartitionedVariable(name, shape, dtype, shards, partitions)
    store.partitioned[name] = result
    return result


def _shared(name, found, shape, dtype, partitions, reuse):
    if reuse is False:
        raise ValueError(f"Partitioned variable with name {name} already exists. Did you mean "
                         "to set reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
    if not shape.is_compatible_with(found.get_shape()):
        raise ValueError(f"Trying to reuse partitioned variable {name}, but specified shape "
                         f"{shape} and found shape {found.get_shape()}.")
    if dtype != found.dtype:
        raise ValueError(f"Trying to reuse partitioned variable {name}, but specified dtype "
                         f"{dtype.name} and found dtype {found.dtype.name}.")
    if partitions is not None and found._get_partitions() != partitions:
        raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                         f"partitions {partitions} and found partitions "
                         f"{found._get_partitions()}.")
    return found
