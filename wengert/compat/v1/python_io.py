"""`wengert.compat.v1.python_io`: TensorFlow 1's TFRecord files from Python: `TFRecordWriter`,
`tf_record_iterator` (the records of a file, one bytes object each), `TFRecordOptions` and
`TFRecordCompressionType`."""
from ...ops.io.tfrecords import (TFRecordCompressionType, TFRecordOptions, TFRecordWriter,
                                 tf_record_iterator)

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]
