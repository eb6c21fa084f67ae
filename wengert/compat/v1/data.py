"""`tf.compat.v1.data`: tf.data with TensorFlow 1's iterators (tf1/iterators.py)."""
from ...data import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY,  # noqa: F401
                     Dataset, DatasetSpec, DatasetV2, Optional, Options, TFRecordDataset,
                     ThreadingOptions)
from ...data import experimental_v1 as experimental  # noqa: F401
from ...tf1.iterators import (Iterator, get_output_classes, get_output_shapes,  # noqa: F401
                              get_output_types, make_initializable_iterator,
                              make_one_shot_iterator)
