"""`wengert.compat.v1.io`: TensorFlow 1's `tf.compat.v1.io`, which is `tf.io` with
`tf_record_iterator` and `TFRecordCompressionType`."""
from ...io import *  # noqa: F403
from ...io import __all__ as _io_names
from ...ops.io.tfrecords import TFRecordCompressionType, tf_record_iterator

__all__ = [*_io_names, "TFRecordCompressionType", "tf_record_iterator"]
