"""TensorFlow 1's readers: `TextLineReader`, `TFRecordReader`, `WholeFileReader`,
`FixedLengthRecordReader`, `IdentityReader` and their base `ReaderBase`.

A reader is made in a graph and reads, when a Session runs its ops, from the files whose names
a queue holds (usually `tf.compat.v1.train.string_input_producer`): `read(queue)` gives the
next record as (key, value) string scalars, `read_up_to(queue, n)` up to n of them from one
file as vectors; `num_records_produced()`, `num_work_units_completed()` and `reset()` report and
clear its progress (ops/io/readers.py has the records each kind yields and their keys). As in
TensorFlow 2, readers do not run eagerly; `serialize_state` / `restore_state` are refused.
"""
from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import UnimplementedError
from ..framework.execute import execute
from ..framework.tensor import convert_to_tensor
from ..ops.io.readers import (READER_CREATORS, READER_NUM_RECORDS, READER_NUM_WORK_UNITS,
                              READER_READ, READER_READ_UP_TO, READER_RESET, ReaderSpec)
from ..ops.io.tfrecords import compression_of
from .queues import QueueBase

__all__ = ["FixedLengthRecordReader", "IdentityReader", "ReaderBase", "TFRecordReader",
           "TextLineReader", "WholeFileReader"]


class ReaderBase:
    """A reader of records from the work units (filenames) of a queue."""

    def __init__(self, reader_ref, supports_serialize=False):
        if state.graph is None:
            raise RuntimeError("Readers are not supported when eager execution is enabled. "
                               "Instead, please use tf.data to get data into your model.")
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize
        self._spec = getattr(self, "_spec", None)

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return self._supports_serialize

    def _queue(self, queue):
        if not isinstance(queue, QueueBase):
            raise TypeError(f"{type(self).__name__}.read: `queue` must be a queue "
                            f"(tf.compat.v1.FIFOQueue, string_input_producer...), got "
                            f"{type(queue).__name__}.")
        return (self._reader_ref, queue.queue_ref), {"reader": self._spec,
                                                     "queue": queue._spec}

    def read(self, queue, name=None):
        """(key, value): the next record, taking the next filename from `queue` as needed."""
        inputs, attrs = self._queue(queue)
        return tuple(execute(READER_READ, inputs, attrs, name or "ReaderReadV2"))

    def read_up_to(self, queue, num_records, name=None):
        """(keys, values): up to `num_records` records of one work unit."""
        inputs, attrs = self._queue(queue)
        count = convert_to_tensor(num_records, dtype=dtypes.int64, name="num_records")
        return tuple(execute(READER_READ_UP_TO, inputs + (count,), attrs,
                             name or "ReaderReadUpToV2"))

    def _own(self, op_def, name):
        return execute(op_def, (self._reader_ref,), {"reader": self._spec}, name)

    def num_records_produced(self, name=None):
        """int64: the records this reader has produced."""
        return self._own(READER_NUM_RECORDS, name or "ReaderNumRecordsProducedV2")

    def num_work_units_completed(self, name=None):
        """int64: the work units (files) this reader has finished."""
        return self._own(READER_NUM_WORK_UNITS, name or "ReaderNumWorkUnitsCompletedV2")

    def reset(self, name=None):
        """The op that returns the reader to its initial clean state."""
        return self._own(READER_RESET, name or "ReaderResetV2")

    def serialize_state(self, name=None):
        raise UnimplementedError(f"{type(self).__name__}.serialize_state (name={name!r}): "
                                 "wengert's readers do not serialize their state.")

    def restore_state(self, state, name=None):
        raise UnimplementedError(f"{type(self).__name__}.restore_state (name={name!r}): "
                                 "wengert's readers do not restore a serialized state "
                                 f"({type(state).__name__}).")


def _make(reader, kind, op_type, name, supports_serialize=False, **options):
    if state.graph is None:
        ReaderBase.__init__(reader, None)  # raises: no eager readers
    reader._spec = ReaderSpec(kind, **options)
    ref = execute(READER_CREATORS[kind], (), {"reader": reader._spec}, name or op_type)
    ReaderBase.__init__(reader, ref, supports_serialize)


class TextLineReader(ReaderBase):
    """Reads the lines of files, skipping `skip_header_lines` at the start of each."""

    def __init__(self, skip_header_lines=None, name=None):
        _make(self, "text_line", "TextLineReaderV2", name,
              skip_header_lines=int(skip_header_lines or 0))


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files (`options`: a TFRecordOptions or its compression)."""

    def __init__(self, name=None, options=None):
        _make(self, "tf_record", "TFRecordReaderV2", name,
              compression_type=compression_of(options, "TFRecordReader"))


class WholeFileReader(ReaderBase):
    """Reads each file whole: the key is its name, the value its bytes."""

    def __init__(self, name=None):
        _make(self, "whole_file", "WholeFileReaderV2", name, supports_serialize=True)


class IdentityReader(ReaderBase):
    """Gives each work unit as both key and value."""

    def __init__(self, name=None):
        _make(self, "identity", "IdentityReaderV2", name, supports_serialize=True)


class FixedLengthRecordReader(ReaderBase):
    """Reads records of `record_bytes` bytes between a header and a footer of each file."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
                 name=None, encoding=None):
        if encoding not in (None, "", "ZLIB", "GZIP"):
            raise ValueError(f"FixedLengthRecordReader: encoding must be '', 'ZLIB' or 'GZIP', "
                             f"got {encoding!r}.")
        _make(self, "fixed_length", "FixedLengthRecordReaderV2", name,
              record_bytes=int(record_bytes), header_bytes=int(header_bytes or 0),
              footer_bytes=int(footer_bytes or 0), hop_bytes=int(hop_bytes or 0),
              encoding=encoding or "")
