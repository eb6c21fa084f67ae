"""`wengert.data`: TensorFlow's `tf.data` (input pipelines: `tf.data.Dataset`).

    ds = (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10000).batch(128)
          .map(normalize).prefetch(tf.data.AUTOTUNE))
    for xb, yb in ds:
        train_step(xb, yb)

dataset.py (base, sources), functional.py (map, filter, flat_map, interleave, scan, reduce),
parallel_interleave.py, batching.py (batch, shuffle, repeat, take, skip, shard, enumerate,
window), padded_batching.py, prefetch.py (prefetch on a thread, cache), iterator.py (iteration
eagerly and in tf.function, iterators in checkpoints), text_files.py and csv_dataset.py
(TextLineDataset, FixedLengthRecordDataset, CsvDataset; csv_columns.py parses),
csv_readers.py (make_csv_dataset), sql_dataset.py, dataset_writers.py (TFRecordWriter),
snapshots.py (save, load, snapshot), grouping.py, sampling.py, resampling.py
(rejection_resample), element_filters.py, options.py, type_specs.py (DatasetSpec, IteratorSpec),
service.py (tf.data.experimental.service in one process) and transformations.py
(tf.data.experimental's functions); for TensorFlow 1 graphs,
graph_iterators.py (make_one_shot_iterator, make_initializable_iterator), fed_sources.py
(datasets over placeholders) and dataset_v1_methods.py (DatasetV1's methods).
"""
import types as _types

from . import dataset_v1_methods as _v1  # noqa: F401 (TF 1's Dataset methods)
from . import fed_sources as _fed_sources  # noqa: F401 (datasets over placeholders)
from . import methods as _methods
from . import service as _service
from . import transformations as _t
from . import variants as _variants
from .csv_dataset import CsvDataset
from .csv_readers import make_csv_dataset
from .dataset_writers import TFRecordWriter
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset
from .element_filters import get_single_element as _get_single_element
from .grouping import Reducer, group_by_reducer
from .options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions,
                      ExternalStatePolicy, OptimizationOptions, Options, ServiceOptions,
                      ThreadingOptions)
from .sampling import RandomDataset
from .sql_dataset import SqlDataset
from .text_files import FixedLengthRecordDataset, TextLineDataset
from .iterator import NumpyIterator, Optional, OwnedIterator as Iterator
from .type_specs import DatasetSpec, IteratorSpec
from .tfrecords import TFRecordDataset

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN
DatasetV2 = Dataset


def _cardinality(dataset):
    return dataset.cardinality()


def _get_next_as_optional(iterator):
    return iterator.get_next_as_optional()


experimental = _types.SimpleNamespace(
    AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN, SHARD_HINT=-1,
    assert_cardinality=_methods.assert_cardinality, cardinality=_cardinality,
    get_next_as_optional=_get_next_as_optional, Optional=Optional, CsvDataset=CsvDataset,
    make_csv_dataset=make_csv_dataset, Counter=Dataset.counter, RandomDataset=RandomDataset,
    Reducer=Reducer, group_by_reducer=group_by_reducer, SqlDataset=SqlDataset,
    TFRecordWriter=TFRecordWriter, AutoShardPolicy=AutoShardPolicy,
    AutotuneAlgorithm=AutotuneAlgorithm, AutotuneOptions=AutotuneOptions,
    DistributeOptions=DistributeOptions, ExternalStatePolicy=ExternalStatePolicy,
    OptimizationOptions=OptimizationOptions, ThreadingOptions=ThreadingOptions,
    ServiceOptions=ServiceOptions, choose_from_datasets=Dataset.choose_from_datasets,
    sample_from_datasets=Dataset.sample_from_datasets, get_single_element=_get_single_element,
    distributed_save=_service.distributed_save, to_variant=_variants.to_variant,
    from_variant=_variants.from_variant,
    service=_types.SimpleNamespace(**{name: getattr(_service, name) for name in _service.__all__
                                     if name != "distributed_save"}),
    **{name: getattr(_t, name) for name in _t.__all__})

__all__ = ["Dataset", "DatasetV2", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY",
           "Options", "Iterator", "Optional", "DatasetSpec", "IteratorSpec", "experimental", "TFRecordDataset",
           "TextLineDataset", "FixedLengthRecordDataset", "ThreadingOptions", "NumpyIterator"]
