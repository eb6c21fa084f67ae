"""`wengert.compat.v1.io`: TensorFlow 1's `tf.compat.v1.io`, which is `tf.io` with
`tf_record_iterator`, `TFRecordCompressionType`, and TensorFlow 1's signatures of decode_raw,
decode_csv, parse_example, parse_single_example and serialize_sparse (`name` before the newer
arguments: tf1/text.py, tf1/arrays_v1.py)."""
from ...io import *  # noqa: F403
from ...io import __all__ as _io_names
from ...ops.io.byte_codecs import decode_raw_v1 as decode_raw
from ...ops.io.tfrecords import TFRecordCompressionType, tf_record_iterator
from ...tf1.arrays_v1 import serialize_many_sparse, serialize_sparse
from ...tf1.text import decode_csv, parse_example, parse_single_example
from ...tf1.queues import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue

__all__ = [*_io_names, "TFRecordCompressionType", "tf_record_iterator", "PaddingFIFOQueue",
           "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
