"""TensorFlow 1's readers as graph ops: records pulled from files named in a queue.

    TextLineReaderV2 / TFRecordReaderV2 / WholeFileReaderV2 / FixedLengthRecordReaderV2 /
    IdentityReaderV2                    the reader's handle (int64); running it makes the reader
    ReaderReadV2(reader, queue) -> (key, value)       the next record, as strings
    ReaderReadUpToV2(reader, queue, n) -> (keys, values)  up to n records of one work unit
    ReaderNumRecordsProducedV2 / ReaderNumWorkUnitsCompletedV2 -> int64
    ReaderResetV2(reader)                 forgets the work unit and the counts

A reader works through one work unit (a filename dequeued from the queue) at a time: when it
has none, it dequeues the next (waiting as a dequeue waits; OutOfRangeError once the queue is
closed and empty), and a work unit whose records are all read counts as completed. The records
of a work unit, with TensorFlow's keys:
    text lines    "file:line" (1-based, header lines counted), the line without "\\n" or "\\r\\n"
    TFRecords     "file:offset" (the record's first byte), the record's bytes
    whole file    "file", the file's bytes
    fixed length  "file:index", `record_bytes` bytes every `hop_bytes` (or record_bytes) after
                  `header_bytes`, none reaching into the `footer_bytes` (a partial one dropped)
    identity      the work unit itself as key and value
`read_up_to(n)` stops at the end of a work unit (returning fewer), as TensorFlow's does. The
reader's state lives in the Session's resources (one reader per session) and one lock
serializes its reads. No op has a gradient.
"""
import gzip
import threading
import zlib

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError, NotFoundError
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from .queue_buffers import buffer_of
from .tfrecords import read_records

__all__ = ["READER_CREATORS", "READER_NUM_RECORDS", "READER_NUM_WORK_UNITS", "READER_READ",
           "READER_READ_UP_TO", "READER_RESET", "ReaderSpec"]


class ReaderSpec:
    """A reader's declaration: its kind and options (skip_header_lines, record_bytes...)."""

    def __init__(self, kind, **options):
        self.kind, self.options = kind, options


class _ReaderState:
    """One live reader: the work unit in progress and the counts."""

    def __init__(self, spec):
        self.spec = spec
        self.lock = threading.Lock()
        self.records = None
        self.produced = self.completed = 0

    def end(self):
        """The Session closed (nothing waits inside a reader but its queue's dequeue)."""

    def reset(self):
        with self.lock:
            self.records, self.produced, self.completed = None, 0, 0

    def read(self, store, queue_handle, queue, count):
        """Up to `count` (key, value) pairs of one work unit."""
        with self.lock:
            while True:
                if self.records is None:
                    work = _next_work(store, queue_handle, queue)
                    self.records = _records(self.spec, work)
                taken = []
                for record in self.records:
                    taken.append(record)
                    if len(taken) == count:
                        break
                else:
                    self.records = None
                    self.completed += 1
                if taken:
                    self.produced += len(taken)
                    return taken


def _state(store, spec):
    resources = getattr(store, "resources", None)
    if resources is None:
        raise InvalidArgumentError("TF 1 readers run in a Session (tf.compat.v1.Session); use "
                                   "tf.data.TextLineDataset or TFRecordDataset eagerly.")
    state = resources.get(spec)
    if state is None:
        state = resources.setdefault(spec, _ReaderState(spec))
    return state


def _next_work(store, queue_handle, queue):
    if type(queue) is tuple:
        queue = queue[int(np.asarray(queue_handle))]
    (element,) = buffer_of(store, queue)._dequeue(1, False)
    work = element[0].item() if isinstance(element[0], np.ndarray) else element[0]
    return work.decode() if isinstance(work, bytes) else str(work)


def _file_bytes(path, encoding=""):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    if encoding == "GZIP":
        return gzip.decompress(data)
    if encoding == "ZLIB":
        return zlib.decompress(data)
    return data


def _text_lines(work, skip_header_lines=0):
    lines = _file_bytes(work).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if number > skip_header_lines:
            yield f"{work}:{number}".encode(), line[:-1] if line.endswith(b"\r") else line


def _tfrecords(work, compression_type=""):
    offset = 0
    for record in read_records(work, compression_type, what="TFRecordReader"):
        yield f"{work}:{offset}".encode(), record
        offset += 16 + len(record)


def _fixed_length(work, record_bytes, header_bytes=0, footer_bytes=0, hop_bytes=0,
                  encoding=""):
    data = _file_bytes(work, encoding)
    end, step = len(data) - footer_bytes, hop_bytes or record_bytes
    start, index = header_bytes, 0
    while start + record_bytes <= end:
        yield f"{work}:{index}".encode(), data[start:start + record_bytes]
        start, index = start + step, index + 1


def _records(spec, work):
    kind, options = spec.kind, spec.options
    if kind == "text_line":
        return _text_lines(work, **options)
    if kind == "tf_record":
        return _tfrecords(work, **options)
    if kind == "fixed_length":
        return _fixed_length(work, **options)
    if kind == "whole_file":
        return iter([(work.encode(), _file_bytes(work))])
    return iter([(work.encode(), work.encode())])


def _strings(items):
    out = np.empty(len(items), object)
    out[:] = items
    return out


def _read(store, reader_handle, queue_handle, *, reader, queue):
    ((key, value),) = _state(store, reader).read(store, queue_handle, queue, 1)
    return np.array(key, object), np.array(value, object)


def _read_up_to(store, reader_handle, queue_handle, num_records, *, reader, queue):
    count = int(np.asarray(num_records))
    if count <= 0:
        raise InvalidArgumentError(f"ReaderReadUpTo: num_records must be > 0, got {count}.")
    pairs = _state(store, reader).read(store, queue_handle, queue, count)
    return _strings([k for k, _ in pairs]), _strings([v for _, v in pairs])


def _create(store, *, reader):
    _state(store, reader)
    return np.array(0, np.int64)


def _creator(op_type, raw):
    return defop(op_type, _create, shape=lambda *, reader: (TensorShape([]), dtypes.int64),
                 grad=None, stateful=True, raw=raw)


def _raw_reader(op_type):
    raise NotImplementedError(f"tf.raw_ops.{op_type}: make the reader with "
                              "tf.compat.v1.<Reader>() and pass it as `reader_handle` to the "
                              "other raw reader ops.")


READER_CREATORS = {
    "text_line": _creator("TextLineReaderV2", lambda skip_header_lines=0, container="",
                          shared_name="", name=None: _raw_reader("TextLineReaderV2")),
    "tf_record": _creator("TFRecordReaderV2", lambda container="", shared_name="",
                          compression_type="", name=None: _raw_reader("TFRecordReaderV2")),
    "whole_file": _creator("WholeFileReaderV2", lambda container="", shared_name="", name=None:
                           _raw_reader("WholeFileReaderV2")),
    "fixed_length": _creator(
        "FixedLengthRecordReaderV2", lambda record_bytes, header_bytes=0, footer_bytes=0,
        hop_bytes=0, container="", shared_name="", encoding="", name=None:
        _raw_reader("FixedLengthRecordReaderV2")),
    "identity": _creator("IdentityReaderV2", lambda container="", shared_name="", name=None:
                         _raw_reader("IdentityReaderV2")),
}
READER_READ = defop("ReaderReadV2", _read, grad=None, num_outputs=2, stateful=True,
                    shape=lambda r, q, *, reader, queue: [(TensorShape([]), dtypes.string)] * 2,
                    raw=lambda reader_handle, queue_handle, name=None:
                    reader_handle.read(queue_handle, name=name))
READER_READ_UP_TO = defop(
    "ReaderReadUpToV2", _read_up_to, grad=None, num_outputs=2, stateful=True,
    shape=lambda r, q, n, *, reader, queue: [(TensorShape([None]), dtypes.string)] * 2,
    raw=lambda reader_handle, queue_handle, num_records, name=None:
    reader_handle.read_up_to(queue_handle, num_records, name=name))
READER_NUM_RECORDS = defop(
    "ReaderNumRecordsProducedV2", lambda store, r, *, reader: np.array(
        _state(store, reader).produced, np.int64), grad=None, stateful=True,
    shape=lambda r, *, reader: (TensorShape([]), dtypes.int64),
    raw=lambda reader_handle, name=None: reader_handle.num_records_produced(name=name))
READER_NUM_WORK_UNITS = defop(
    "ReaderNumWorkUnitsCompletedV2", lambda store, r, *, reader: np.array(
        _state(store, reader).completed, np.int64), grad=None, stateful=True,
    shape=lambda r, *, reader: (TensorShape([]), dtypes.int64),
    raw=lambda reader_handle, name=None: reader_handle.num_work_units_completed(name=name))
READER_RESET = defop("ReaderResetV2", lambda store, r, *, reader: _state(store, reader).reset(),
                     grad=None, stateful=True, num_outputs=0, shape=lambda r, *, reader: [],
                     raw=lambda reader_handle, name=None: reader_handle.reset(name=name))
