"""Distributed input: every replica takes its own shard of each global batch.

`strategy.experimental_distribute_dataset(dataset)` expects `dataset` to yield global batches
(`.batch(GLOBAL_BATCH_SIZE)`). Each rank iterates the same dataset and keeps its rows of every
batch: with B rows and N ranks, rank r keeps rows [r*B/N, (r+1)*B/N) when N divides B, and
otherwise the first B mod N ranks get one row more (np.array_split's rule, the per-replica sizes
TensorFlow's rebatching gives). Every component of a nested element (tuples, dicts) is split
along its first axis the same way. The ranks must see the same batches in the same order: give
`shuffle` a seed (as TensorFlow's data sharding also requires).

`strategy.distribute_datasets_from_function(fn)` calls `fn(InputContext)` on each rank; the
function builds the rank's own pipeline (usually `.shard(ctx.num_input_pipelines,
ctx.input_pipeline_id)` and `.batch(ctx.get_per_replica_batch_size(global_batch_size))`).
"""
import numpy as np

from ..framework.errors import OutOfRangeError
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..util import nest

__all__ = ["DistributedDataset", "DistributedIterator", "InputContext", "InputOptions", "ValueContext",
           "shard_rows", "local_rows"]


def local_rows(total, rank, size):
    """The slice of rows rank `rank` of `size` takes from a batch of `total` rows."""
    base, extra = divmod(int(total), size)
    start = rank * base + min(rank, extra)
    return slice(start, start + base + (1 if rank < extra else 0))


def shard_rows(element, rank, size):
    """This rank's rows of every component of a nested batch."""
    if size == 1:
        return element

    def piece(component):
        if isinstance(component, Tensor) or hasattr(component, "shape"):
            array = array_of(component) if isinstance(component, Tensor) else np.asarray(
                component)
            if array is None:
                raise TypeError("experimental_distribute_dataset: batches must be eager "
                                "values; iterate the distributed dataset outside tf.function.")
            if np.ndim(array) == 0:
                return convert_to_tensor(array)
            return convert_to_tensor(array[local_rows(len(array), rank, size)])
        return component
    return nest.map_structure(piece, element)


class InputOptions:
    """Accepted for TensorFlow compatibility (device placement options do nothing here)."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


class InputContext:
    """What `distribute_datasets_from_function`'s function learns about its pipeline."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The global batch size ({global_batch_size}) must be divisible "
                             f"by the number of replicas ({self.num_replicas_in_sync}).")
        return global_batch_size // self.num_replicas_in_sync

    def __repr__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, "
                f"total: {self.num_input_pipelines})")


class DistributedIterator:
    """An iterator over this replica's shards (`next()`, `get_next()`)."""

    def __init__(self, iterator, rank, size):
        self._iterator, self._rank, self._size = iterator, rank, size

    def __iter__(self):
        return self

    def __next__(self):
        return shard_rows(next(self._iterator), self._rank, self._size)

    def get_next(self):
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the distributed iterator has no more "
                                  "batches.") from None


class DistributedDataset:
    """A dataset (or any iterable of global batches) seen by one replica: its shards."""

    def __init__(self, dataset, rank, size, already_local=False):
        self._dataset = dataset
        self._rank, self._size = rank, size
        self._already_local = already_local

    def __iter__(self):
        size = 1 if self._already_local else self._size
        return DistributedIterator(iter(self._dataset), self._rank, size)

    @property
    def element_spec(self):
        return getattr(self._dataset, "element_spec", None)

    def cardinality(self):
        return self._dataset.cardinality()

    def reduce(self, initial_state, reduce_func):
        state = initial_state
        for element in self:
            state = reduce_func(state, element)
        return state

    def __repr__(self):
        return (f"<DistributedDataset rank {self._rank} of {self._size} over "
                f"{type(self._dataset).__name__}>")


class ValueContext:
    """What `experimental_distribute_values_from_function`'s function learns: its replica."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync
