"""`tf.data.experimental.TFRecordWriter`: a dataset of strings written as one TFRecord file.

TFRecordWriter(filename, compression_type).write(dataset) runs one pass of `dataset`, whose
elements must be scalar strings, and writes each as a record (ops/io/tfrecords.py frames them
with their CRC32C checksums; compression '' , 'ZLIB' or 'GZIP'), the file read back by
TFRecordDataset or by TensorFlow. Eagerly the write happens at once and returns None.
"""
from ..framework import dtypes
from ..ops.io.tfrecords import TFRecordOptions, TFRecordWriter as _RecordFile, compression_of
from ..tracing.signatures import TensorSpec
from .dataset import Dataset
from .iterator import without_recording

__all__ = ["TFRecordWriter"]


class TFRecordWriter:
    """Writes a dataset of scalar strings to the TFRecord file `filename`."""

    def __init__(self, filename, compression_type=None):
        self._filename = filename
        self._compression = compression_of(compression_type, "TFRecordWriter")

    def write(self, dataset):
        """Write every element of one pass of `dataset` (scalar strings) as a record."""
        spec = dataset.element_spec if isinstance(dataset, Dataset) else None
        if spec != TensorSpec([], dtypes.string):
            raise TypeError(f"TFRecordWriter.write: `dataset` must be a dataset of scalar "
                            f"tf.string elements, got {spec if spec is not None else dataset!r}.")
        with _RecordFile(self._filename, TFRecordOptions(self._compression)) as out, \
                without_recording():
            for (record,) in dataset._stage():
                out.write(record.item() if hasattr(record, "item") else record)
