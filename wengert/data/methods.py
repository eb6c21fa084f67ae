"""The transformations of `Dataset`, and `tf.data.experimental.assert_cardinality`.

Their datasets' classes live in functional.py, batching.py, padded_batching.py,
ragged_batching.py, prefetch.py and the modules named below, which import dataset.py, so
dataset.py cannot name them in its class: this module installs the
transformations as Dataset's methods, each a short function that builds its dataset (the
installs are the table `_METHODS`, at the end): map, filter, flat_map, interleave, batch,
padded_batch, ragged_batch, unbatch, rebatch, shuffle, repeat, take, skip, shard, enumerate,
window, prefetch, cache, scan, reduce, apply, with_options, sparse_batch, ignore_errors,
take_while, unique, get_single_element, group_by_window, bucket_by_sequence_length,
rejection_resample, fingerprint, save and snapshot; and the static sources counter, random,
list_files, load, sample_from_datasets and choose_from_datasets (sampling.py, text_files.py,
snapshots.py); and, from variants.py, the composite protocol of datasets, iterators and their
specs (a variant component each), by which tf.function takes them as arguments.
"""
import zlib

import numpy as np

from ..framework import dtypes
from ..framework.errors import FailedPreconditionError
from ..framework.tensor import constant
from . import (batching, element_filters, functional, grouping, padded_batching, prefetch,
               ragged_batching, resampling, sampling, snapshots, variants)
from .parallel_interleave import ParallelInterleaveDataset
from .text_files import list_files
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
    """Like flat_map, taking `block_length` elements in turn from `cycle_length` datasets
    (produced on threads with `num_parallel_calls`, parallel_interleave.py)."""
    if num_parallel_calls is not None:
        return ParallelInterleaveDataset(self, map_func, cycle_length, block_length or 1,
                                         deterministic)
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
    return padded_batching.PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
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


def _ignore_errors(self, log_warning=False, name=None):
    """Drop the elements whose computation raised, going on with the next."""
    return element_filters.IgnoreErrorsDataset(self, log_warning)


def _take_while(self, predicate, name=None):
    """The elements up to the first for which `predicate` returns False."""
    return element_filters.TakeWhileDataset(self, predicate)


def _unique(self, name=None):
    """The elements not seen before in the pass (int32, int64 or string scalars/vectors)."""
    return element_filters.UniqueDataset(self)


def _get_single_element(self, name=None):
    """The dataset's one element; InvalidArgumentError if it has none or several."""
    return element_filters.get_single_element(self)


def _group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                     name=None):
    """Group elements by key_func into windows, each reduced to a dataset (grouping.py)."""
    return grouping.GroupByWindowDataset(self, key_func, reduce_func, window_size,
                                         window_size_func)


def _bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                               bucket_batch_sizes, padded_shapes=None, padding_values=None,
                               pad_to_bucket_boundary=False, no_padding=False,
                               drop_remainder=False, name=None):
    """Padded batches of elements of similar length (grouping.py)."""
    return grouping.bucket_by_sequence_length(
        self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def _rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                        name=None):
    """(class, element) pairs resampled so the classes follow target_dist (sampling.py)."""
    return resampling.rejection_resample(self, class_func, target_dist, initial_dist, seed)


def _fingerprint(self):
    """A uint64 scalar naming the pipeline: its stages' kinds and element specs."""
    text = "|".join(f"{type(d).__name__}:{d.element_spec}" for d in self._lineage())
    return constant(np.uint64(zlib.crc32(text.encode()) << 32 | zlib.adler32(text.encode())))


def _save(self, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write the elements of one pass under the directory `path` (snapshots.py)."""
    return snapshots.save(self, path, compression, shard_func, checkpoint_args)


def _snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
    """Pass elements through once, writing them to `path`; read them back later."""
    return snapshots.SnapshotDataset(self, path, compression, reader_func, shard_func)


def _sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                          rerandomize_each_iteration=None):
    """Elements drawn at random from `datasets` with `weights` (sampling.py)."""
    return sampling.SampleDataset(datasets, weights, seed, stop_on_empty_dataset,
                                  rerandomize_each_iteration)


def _choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Elements from datasets[choice] for each choice in choice_dataset (sampling.py)."""
    return sampling.ChooseDataset(datasets, choice_dataset, stop_on_empty_dataset)


# -- the installs: the transformations as Dataset's methods ----------------------------------
_METHODS = {"map": _map, "filter": _filter, "flat_map": _flat_map, "interleave": _interleave,
            "batch": _batch, "padded_batch": _padded_batch, "unbatch": _unbatch,
            "ragged_batch": _ragged_batch,
            "rebatch": _rebatch, "shuffle": _shuffle, "repeat": _repeat, "take": _take,
            "skip": _skip, "shard": _shard, "enumerate": _enumerate, "window": _window,
            "prefetch": _prefetch, "cache": _cache, "scan": _scan, "reduce": _reduce,
            "apply": _apply, "with_options": _with_options, "sparse_batch": _sparse_batch,
            "ignore_errors": _ignore_errors, "take_while": _take_while, "unique": _unique,
            "get_single_element": _get_single_element, "group_by_window": _group_by_window,
            "bucket_by_sequence_length": _bucket_by_sequence_length,
            "rejection_resample": _rejection_resample, "fingerprint": _fingerprint,
            "save": _save, "snapshot": _snapshot}
_STATIC = {"counter": sampling.counter, "random": sampling.RandomDataset,
           "list_files": list_files, "load": snapshots.load,
           "sample_from_datasets": _sample_from_datasets,
           "choose_from_datasets": _choose_from_datasets}
for _name, _method in _METHODS.items():
    _method.__name__, _method.__qualname__ = _name, f"Dataset.{_name}"
    setattr(Dataset, _name, _method)
for _name, _method in _STATIC.items():
    setattr(Dataset, _name, staticmethod(_method))
variants.install()  # datasets and iterators as composites of one variant (tf.function arguments)


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
