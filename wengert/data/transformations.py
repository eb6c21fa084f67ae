"""The functions of `tf.data.experimental`: transformations for `dataset.apply`, and helpers.

Most are TensorFlow's older spellings of Dataset methods: `unique()` returns the function
`lambda dataset: dataset.unique()`, to be passed to `dataset.apply`, and so for scan,
take_while, ignore_errors, group_by_window, bucket_by_sequence_length, rejection_resample,
enumerate_dataset, unbatch, dense_to_ragged_batch, dense_to_sparse_batch, map_and_batch
(map then batch), shuffle_and_repeat (shuffle then repeat), parallel_interleave (interleave,
deterministic unless `sloppy`), parse_example_dataset (tf.io.parse_example over each batch)
and snapshot; save and load are snapshots.py's.
`pad_to_cardinality(n)` pads a dataset of dicts with elements of zeros, marked by a False
`mask_key` entry, up to n elements. Others take or give datasets directly: from_list, at,
get_structure, table_from_dataset / index_table_from_dataset (a tf.lookup table filled from
a dataset), and make_batched_features_dataset (TFRecord files of tf.train.Examples to batches
of parsed features).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..ops.io.example_parsing import parse_example
from . import structure as st
from .dataset import AUTOTUNE, Dataset
from .snapshots import load, save
from .lookup_tables import StaticHashTable, StaticVocabularyTable
from .table_initializers import KeyValueTensorInitializer
from .text_files import list_files
from .tfrecords import TFRecordDataset

__all__ = ["scan", "take_while", "unique", "ignore_errors", "group_by_window",
           "bucket_by_sequence_length", "rejection_resample", "enumerate_dataset", "unbatch",
           "dense_to_ragged_batch", "dense_to_sparse_batch", "map_and_batch",
           "shuffle_and_repeat", "parallel_interleave", "parse_example_dataset",
           "pad_to_cardinality", "from_list", "at", "get_structure", "table_from_dataset",
           "index_table_from_dataset", "make_batched_features_dataset", "snapshot", "save",
           "load", "DatasetInitializer", "prefetch_to_device", "copy_to_device",
           "enable_debug_mode"]


def scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


def take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


def unique():
    return lambda dataset: dataset.unique()


def ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist,
                                                      seed)


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


def enumerate_dataset(start=0):
    return lambda dataset: dataset.enumerate(start)


def unbatch():
    return lambda dataset: dataset.unbatch()


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def dense_to_sparse_batch(batch_size, row_shape):
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """map(map_func) then batch(batch_size): one of num_parallel_batches and
    num_parallel_calls may be given (batches in flight, or calls)."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("map_and_batch: `num_parallel_batches` and `num_parallel_calls` are "
                         "mutually exclusive.")
    calls = num_parallel_calls if num_parallel_batches is None else (
        int(num_parallel_batches) * int(batch_size))
    return lambda dataset: dataset.map(map_func, num_parallel_calls=calls).batch(
        batch_size, drop_remainder)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """interleave(map_func, cycle_length, block_length) with the cycle's datasets produced on
    threads, in TensorFlow's order unless `sloppy`; the buffers (`buffer_output_elements`,
    `prefetch_input_elements`) are parallel_interleave.py's own."""
    for what, value in (("buffer_output_elements", buffer_output_elements),
                        ("prefetch_input_elements", prefetch_input_elements)):
        if value is not None and int(value) < 0:
            raise ValueError(f"parallel_interleave: {what} must be >= 0, got {value}.")
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length,
                                              num_parallel_calls=cycle_length,
                                              deterministic=not sloppy)


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """Parse each batch of serialized tf.train.Examples with tf.io.parse_example."""
    if not features:
        raise ValueError("parse_example_dataset: `features` must be a non-empty dict.")
    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features),
                                       num_parallel_calls=num_parallel_calls,
                                       deterministic=deterministic)


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Pad a finite dataset of dicts to `cardinality` elements with zero elements whose
    `mask_key` entry is False (the original elements get True)."""
    def apply(dataset):
        count = dataset._cardinality
        if count < 0:
            raise ValueError(f"pad_to_cardinality: the dataset's cardinality must be known and "
                             f"finite, got {count}.")
        if count > cardinality:
            raise ValueError(f"pad_to_cardinality: the dataset has {count} elements, more than "
                             f"cardinality={cardinality}.")
        if not isinstance(dataset.element_spec, dict) or mask_key in dataset.element_spec:
            raise ValueError(f"pad_to_cardinality: elements must be dicts without the key "
                             f"{mask_key!r}, got {dataset.element_spec}.")
        marked = dataset.map(lambda x: {**x, mask_key: True})
        zeros = {k: np.zeros(s.shape.as_list(), s.dtype.as_numpy_dtype)
                 for k, s in dataset.element_spec.items()}
        padding = Dataset.from_tensors({**zeros, mask_key: False}).repeat(cardinality - count)
        return marked.concatenate(padding)
    return apply


def from_list(elements, name=None):
    """A dataset of the given elements (all of one structure), in order."""
    elements = list(elements)
    if not elements:
        raise ValueError("from_list: `elements` must not be empty.")
    first = st.structure_of(elements[0])
    columns = list(zip(*[st.normalize(e, "from_list")[1] for e in elements]))
    for e in elements[1:]:
        st.check_same_structure(first, st.structure_of(e), "from_list")
    return Dataset.from_tensor_slices(st.pack(first, [np.stack(c) for c in columns]), name=name)


def at(dataset, index):
    """The element of `dataset` at `index` (by iterating to it)."""
    index = int(np.asarray(getattr(index, "_value", index)))
    if index < 0:
        raise InvalidArgumentError(f"at: index must be >= 0, got {index}.")
    try:
        return dataset.skip(index).take(1).get_single_element()
    except InvalidArgumentError:
        raise InvalidArgumentError(f"at: index {index} is out of range for the dataset.") \
            from None


def get_structure(dataset_or_iterator):
    """The element_spec of a dataset or an iterator."""
    spec = getattr(dataset_or_iterator, "element_spec", None)
    if spec is None:
        raise TypeError(f"get_structure: expected a Dataset or Iterator, got "
                        f"{type(dataset_or_iterator).__name__}.")
    return spec


def _hashing(hasher_spec):
    hasher = getattr(hasher_spec, "hasher", "fasthash")
    if hasher != "fasthash":
        raise ValueError(f"table_from_dataset: hasher_spec {hasher!r} is not supported; "
                         f"wengert hashes out-of-vocabulary keys with fasthash only.")


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=None, key_dtype=dtypes.string, name=None):
    """A lookup table of the (key, value) pairs of `dataset`."""
    _hashing(hasher_spec)
    pairs = list(dataset.as_numpy_iterator())
    if vocab_size is not None and len(pairs) != int(vocab_size):
        raise InvalidArgumentError(f"table_from_dataset: vocab_size is {vocab_size} but the "
                                   f"dataset has {len(pairs)} entries.")
    keys = np.array([k for k, _ in pairs], dtype=object if key_dtype is dtypes.string
                    else dtypes.as_dtype(key_dtype).as_numpy_dtype)
    values = np.array([v for _, v in pairs])
    init = KeyValueTensorInitializer(keys, values, key_dtype=key_dtype)
    if num_oov_buckets:
        return StaticVocabularyTable(init, num_oov_buckets, name=name)
    return StaticHashTable(init, default_value if default_value is not None else -1, name=name)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None,
                             default_value=-1, hasher_spec=None, key_dtype=dtypes.string,
                             name=None):
    """A lookup table from each key of `dataset` to its position (int64)."""
    return table_from_dataset(dataset.enumerate().map(lambda i, k: (k, i)), num_oov_buckets,
                              vocab_size, default_value, hasher_spec, key_dtype, name)


class DatasetInitializer(KeyValueTensorInitializer):
    """A lookup-table initializer from a dataset of (key, value) pairs."""

    def __init__(self, dataset):
        spec = dataset.element_spec
        if not isinstance(spec, tuple) or len(spec) != 2:
            raise TypeError(f"DatasetInitializer: `dataset` must hold (key, value) pairs, its "
                            f"elements are {spec}.")
        pairs = list(dataset.as_numpy_iterator())
        keys = np.array([k for k, _ in pairs], dtype=spec[0].dtype.as_numpy_dtype
                        if spec[0].dtype is not dtypes.string else object)
        values = np.array([v for _, v in pairs], dtype=spec[1].dtype.as_numpy_dtype
                          if spec[1].dtype is not dtypes.string else object)
        super().__init__(keys, values, spec[0].dtype, spec[1].dtype)


def _device(value, what):
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a device name string, got {value!r}.")
    return value


def prefetch_to_device(device, buffer_size=None):
    """prefetch(buffer_size): every device here is the host, where the elements already are."""
    _device(device, "prefetch_to_device: device")
    return lambda dataset: dataset.prefetch(AUTOTUNE if buffer_size is None else buffer_size)


def copy_to_device(target_device, source_device="/cpu:0"):
    """The dataset itself: wengert's one device is the host, so no copy is needed."""
    _device(target_device, "copy_to_device: target_device")
    _device(source_device, "copy_to_device: source_device")
    return lambda dataset: dataset


def enable_debug_mode():
    """Accepted: wengert's pipelines already run element by element in Python on the calling
    thread (a map's function is still traced once, as a tf.function)."""


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None,
                                  label_key=None, reader_args=None, num_epochs=None,
                                  shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False,
                                  drop_final_batch=False):
    """Batches of parsed tf.train.Examples from the files matching `file_pattern`, as a dict
    of features (and the `label_key` feature apart): TensorFlow's pipeline."""
    reader = TFRecordDataset if reader is None else reader
    args = list(reader_args or [])
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key}) must be one of the "
                         f"`features` keys: {features.keys()}.")
    dataset = list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    dataset = dataset.interleave(lambda f: reader(f, *args), cycle_length=reader_num_threads or 1,
                                 num_parallel_calls=reader_num_threads,
                                 deterministic=not sloppy_ordering)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, parser_num_threads or 1))
    if label_key is not None:
        dataset = dataset.map(lambda x: ({k: v for k, v in x.items() if k != label_key},
                                         x[label_key]))
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
