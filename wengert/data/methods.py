"""The transformations of `Dataset`, and `tf.data.experimental.assert_cardinality`.

Their datasets' classes live in functional.py, batching.py, ragged_batching.py and prefetch.py,
which import dataset.py, so dataset.py cannot name them in its class: this module installs the
transformations as Dataset's methods, each a short function that builds its dataset (the
installs are the table `_METHODS`, at the end): map, filter, flat_map, interleave, batch,
padded_batch, ragged_batch, unbatch, rebatch, shuffle, repeat, take, skip, shard, enumerate,
window, prefetch, cache, scan, reduce, apply, with_options and sparse_batch.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import FailedPreconditionError
from . import batching, functional, prefetch, ragged_batching
from .sparse_batching import SparseBatchDataset
from .dataset import Dataset, Stage

__all__ = ["assert_cardinality"]


def _map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
    """Apply `map_func` to each element (traced once; a tuple element is unpacked into
    arguments). `num_parallel_calls` (or AUTOTUNE) runs calls on threads, in order unless
    `deterministic=False`."""
    return functional.MapDataset(self, map_func, num_parallel_calls, deterministic)


def _filter(self, predicate, name=None):
    """The elements for which `predicate` returns True."""
    return functional.FilterDataset(self, predicate)


def _flat_map(self, map_func, name=None):
    """`map_func` returns a dataset per element; their elements, one dataset after another."""
    return functional.InterleaveDataset(self, map_func, 1, 1, "Dataset.flat_map")


def _interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                deterministic=None, name=None):
    """Like flat_map, taking `block_length` elements in turn from `cycle_length` datasets."""
    return functional.InterleaveDataset(self, map_func, cycle_length, block_length or 1,
                                        "Dataset.interleave")


def _batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None,
           name=None):
    """Stack `batch_size` consecutive elements (the last batch may be smaller unless
    `drop_remainder`)."""
    return batching.BatchDataset(self, batch_size, drop_remainder)


def _ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                  name=None):
    """Batch elements of varying first dimension into RaggedTensors (ragged_batching.py)."""
    return ragged_batching.RaggedBatchDataset(self, batch_size, drop_remainder, row_splits_dtype)


def _padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                  drop_remainder=False, name=None):
    """Batch elements of different shapes, padding each component (with zeros, b"", or
    `padding_values`) to the largest in the batch or to `padded_shapes`."""
    return batching.PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                       drop_remainder)


def _sparse_batch(self, batch_size, row_shape, name=None):
    """Batches of `batch_size` dense elements as SparseTensors of dense shape
    [batch] + row_shape holding every entry of each element."""
    return SparseBatchDataset(self, batch_size, row_shape)


def _unbatch(self, name=None):
    """Split each element along its first dimension into elements."""
    return batching.UnbatchDataset(self)


def _rebatch(self, batch_size, drop_remainder=False, name=None):
    return batching.rebatch(self, batch_size, drop_remainder)


def _shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
    """Randomly shuffle the elements with a buffer of `buffer_size` (TensorFlow's buffer
    semantics; a buffer as large as the dataset gives a uniform permutation)."""
    return batching.ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)


def _repeat(self, count=None, name=None):
    """The elements `count` times over (None: forever)."""
    return batching.RepeatDataset(self, count)


def _take(self, count, name=None):
    return batching.TakeDataset(self, count)


def _skip(self, count, name=None):
    return batching.SkipDataset(self, count)


def _shard(self, num_shards, index, name=None):
    """Every `num_shards`-th element, starting at `index`."""
    return batching.ShardDataset(self, num_shards, index)


def _enumerate(self, start=0, name=None):
    """(index, element) pairs, the index an int64 counting from `start`."""
    return batching.EnumerateDataset(self, start)


def _window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
    """Windows of `size` elements (each component a dataset), starting every `shift`."""
    return batching.WindowDataset(self, size, shift, stride, drop_remainder)


def _prefetch(self, buffer_size, name=None):
    """Prepare up to `buffer_size` elements on a background thread (AUTOTUNE: 2)."""
    return prefetch.PrefetchDataset(self, buffer_size)


def _cache(self, filename="", name=None):
    """Keep the elements of the first full pass (in memory, or in `filename`.npz)."""
    return prefetch.CacheDataset(self, filename)


def _scan(self, initial_state, scan_func, name=None):
    """scan_func(state, element) -> (new_state, output): the outputs, carrying the state."""
    return functional.ScanDataset(self, initial_state, scan_func)


def _reduce(self, initial_state, reduce_func, name=None):
    """The final state of reduce_func(state, element) folded over the elements."""
    return functional.reduce_dataset(self, initial_state, reduce_func)


def _apply(self, transformation_func):
    """`transformation_func(self)`, which must return a Dataset."""
    out = transformation_func(self)
    if not isinstance(out, Dataset):
        raise TypeError(f"Dataset.apply: the transformation must return a Dataset, got "
                        f"{type(out).__name__}.")
    return out


def _with_options(self, options, name=None):
    out = _Passthrough(self, self._cardinality)
    out._options = options
    return out


# -- the installs: the transformations as Dataset's methods ----------------------------------
_METHODS = {"map": _map, "filter": _filter, "flat_map": _flat_map, "interleave": _interleave,
            "batch": _batch, "padded_batch": _padded_batch, "unbatch": _unbatch,
            "ragged_batch": _ragged_batch,
            "rebatch": _rebatch, "shuffle": _shuffle, "repeat": _repeat, "take": _take,
            "skip": _skip, "shard": _shard, "enumerate": _enumerate, "window": _window,
            "prefetch": _prefetch, "cache": _cache, "scan": _scan, "reduce": _reduce,
            "apply": _apply, "with_options": _with_options, "sparse_batch": _sparse_batch}
for _name, _method in _METHODS.items():
    _method.__name__, _method.__qualname__ = _name, f"Dataset.{_name}"
    setattr(Dataset, _name, _method)


# -- a dataset that passes elements through (options, assert_cardinality) ---------------------------
class _CountingStage(Stage):
    def __init__(self, upstream, expected):
        self._up, self._expected, self._seen = upstream, expected, 0

    def __next__(self):
        try:
            out = next(self._up)
        except StopIteration:
            if self._expected >= 0 and self._seen != self._expected:
                raise FailedPreconditionError(
                    f"Input dataset was expected to contain {self._expected} elements but "
                    f"contained only {self._seen} elements.") from None
            raise
        self._seen += 1
        if 0 <= self._expected < self._seen:
            raise FailedPreconditionError(f"Input dataset was expected to contain "
                                          f"{self._expected} elements but contained at least "
                                          f"{self._seen} elements.")
        return out


class _Passthrough(Dataset):
    def __init__(self, dataset, cardinality, check=False):
        self._input, self._check = dataset, check
        super().__init__(dataset._structure, dataset._specs, cardinality, (dataset,))

    def _rows(self):
        return None if self._check else self._input._rows()

    def _stage(self):
        stage = self._input._stage()
        return _CountingStage(stage, self._cardinality) if self._check else stage


def assert_cardinality(expected_cardinality):
    """A transformation (for `dataset.apply`) declaring the number of elements; iterating
    raises FailedPreconditionError if the dataset has a different number."""
    expected = int(np.asarray(getattr(expected_cardinality, "_value", expected_cardinality)))
    return lambda dataset: _Passthrough(dataset, expected, check=True)
