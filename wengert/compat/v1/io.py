"""`wengert.compat.v1.io`: TensorFlow 1's `tf.compat.v1.io`, which is `tf.io` with
`tf_record_iterator`, `TFRecordCompressionType`, and decode_raw's older argument name."""
from ...io import *  # noqa: F403
from ...io import __all__ as _io_names
from ...ops.io.byte_codecs import decode_raw_v1 as decode_raw
from ...ops.io.tfrecords import TFRecordCompressionType, tf_record_iterator
from ...tf1.queues import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue

__all__ = [*_io_names, "TFRecordCompressionType", "tf_record_iterator", "PaddingFIFOQueue",
           "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
