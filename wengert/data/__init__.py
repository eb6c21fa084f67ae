"""`wengert.data`: TensorFlow's `tf.data` (input pipelines: `tf.data.Dataset`).

    ds = (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10000).batch(128)
          .map(normalize).prefetch(tf.data.AUTOTUNE))
    for xb, yb in ds:
        train_step(xb, yb)

dataset.py (base, sources), functional.py (map, filter, flat_map, interleave, scan, reduce),
batching.py (batch family, shuffle, repeat, take, skip, shard, enumerate, window), prefetch.py
(prefetch on a thread, cache), iterator.py (iteration eagerly and in tf.function).
"""
import types as _types

from . import methods as _methods
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, Options
from .iterator import Optional, OwnedIterator as Iterator
from .structure import DatasetSpec
from .tfrecords import TFRecordDataset

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN
DatasetV2 = Dataset


def _cardinality(dataset):
    return dataset.cardinality()


def _get_next_as_optional(iterator):
    return iterator.get_next_as_optional()


experimental = _types.SimpleNamespace(
    AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN,
    assert_cardinality=_methods.assert_cardinality, cardinality=_cardinality,
    get_next_as_optional=_get_next_as_optional, Optional=Optional)

__all__ = ["Dataset", "DatasetV2", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY",
           "Options", "Iterator", "Optional", "DatasetSpec", "experimental", "TFRecordDataset"]
