"""`tf.compat.v1.data`: tf.data with TensorFlow 1's iterators (data/graph_iterators.py)."""
from ...data import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY,  # noqa: F401
                     Dataset, DatasetSpec, DatasetV2, FixedLengthRecordDataset, NumpyIterator,
                     Optional, Options, TextLineDataset, TFRecordDataset, ThreadingOptions)
from ...data import experimental  # noqa: F401
from ...data.graph_iterators import (Iterator, get_output_classes,  # noqa: F401
                                     get_output_shapes, get_output_types,
                                     make_initializable_iterator, make_one_shot_iterator)
