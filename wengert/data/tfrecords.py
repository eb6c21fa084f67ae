"""`tf.data.TFRecordDataset`: the records of TFRecord files as a dataset of scalar strings.

The files are read one after another, or, with `num_parallel_reads=n`, n at a time with their
records interleaved as TensorFlow interleaves them (one record from each open file in turn; a
file that ends frees its place in the cycle, and the next file opens there when the turn comes
back to it). `compression_type` ('', 'ZLIB', 'GZIP') applies to every file; `buffer_size` is
the read buffer in bytes. Each record's checksums are checked (ops/io/tfrecords.py): a damaged
record is a DataLossError naming the file and offset, raised by `next()`.
"""
import itertools

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import convert_to_tensor
from ..ops.io.tfrecords import compression_of, read_record_blocks, read_records
from ..tracing.signatures import TensorSpec
from .dataset import AUTOTUNE, UNKNOWN, Dataset, Stage

__all__ = ["TFRecordDataset"]


def _path(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class _FileNames:
    """The file names of one pass: from a list, a string tensor, or a dataset of strings."""

    def __init__(self, filenames):
        if isinstance(filenames, Dataset):
            spec = filenames.element_spec
            if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.string:
                raise TypeError(f"TFRecordDataset: a dataset of file names must hold scalar "
                                f"strings, its elements are {spec}.")
            self._dataset, self._names = filenames, None
            return
        if isinstance(filenames, (str, bytes)):
            filenames = [filenames]
        array = np.asarray(getattr(convert_to_tensor(filenames, dtype_hint=dtypes.string),
                                   "_value", None) if not isinstance(filenames, list) else
                           np.array(filenames, dtype=object))
        if array.dtype != object or array.ndim > 1:
            raise TypeError(f"TFRecordDataset: filenames must be a string, a list of strings, "
                            f"a string tensor of rank 0 or 1, or a dataset of strings; got "
                            f"{array.dtype} of shape {list(array.shape)}.")
        self._dataset, self._names = None, [_path(v) for v in array.reshape(-1)]

    def __iter__(self):
        if self._names is not None:
            return iter(self._names)
        return (_path(components[0]) for components in self._dataset._stage())


class _RecordStage(Stage):
    def __init__(self, dataset):
        self._ds = dataset
        self._files = iter(dataset._filenames)
        self._slots = [None] * dataset._cycle
        self._index, self._open, self._files_done = 0, 0, False

    def _open_next(self):
        path = next(self._files, None)
        if path is None:
            self._files_done = True
            return None
        ds = self._ds
        return read_records(path, ds._compression, ds._buffer_size)

    def __next__(self):
        slots = self._slots
        while not self._files_done or self._open:
            i = self._index
            if slots[i] is not None:
                record = next(slots[i], None)
                if record is not None:
                    self._index = (i + 1) % len(slots)
                    return (np.array(record, dtype=object),)
                slots[i] = None
                self._open -= 1
                self._index = (i + 1) % len(slots)
            elif not self._files_done:
                slots[i] = self._open_next()
                self._open += slots[i] is not None
            else:
                self._index = (i + 1) % len(slots)
        raise StopIteration


class _SequentialRecordStage(Stage):
    """The records of the files one file after another, taken from the framing's lists: one
    at a time, or `take_column(n)`, the next n as one object column (what batch asks)."""

    def __init__(self, dataset):
        self._ds = dataset
        self._files = iter(dataset._filenames)
        self._blocks, self._block, self._at = None, [], 0

    def _refill(self):
        while True:
            if self._blocks is not None:
                block = next(self._blocks, None)
                if block is not None:
                    self._block, self._at = block, 0
                    return True
            path = next(self._files, None)
            if path is None:
                return False
            self._blocks = read_record_blocks(path, self._ds._compression, self._ds._buffer_size)

    def __next__(self):
        if self._at >= len(self._block) and not self._refill():
            raise StopIteration
        record = self._block[self._at]
        self._at += 1
        return (np.array(record, dtype=object),)

    def take_column(self, n):
        parts, count = [], 0
        while count < n:
            if self._at >= len(self._block) and not self._refill():
                break
            piece = self._block[self._at:self._at + n - count]
            self._at += len(piece)
            count += len(piece)
            parts.append(piece)
        column = np.empty(count, dtype=object)
        column[:] = parts[0] if len(parts) == 1 else list(itertools.chain.from_iterable(parts))
        return column


class TFRecordDataset(Dataset):
    """The records of TFRecord files: `tf.data.TFRecordDataset(filenames, compression_type=None,
    buffer_size=None, num_parallel_reads=None)`; each element is a scalar tf.string."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._filenames = _FileNames(filenames)
        self._compression = compression_of(compression_type, "TFRecordDataset")
        if buffer_size is not None and int(buffer_size) < 0:
            raise InvalidArgumentError(f"TFRecordDataset: buffer_size must be >= 0 bytes, got "
                                       f"{buffer_size}.")
        self._buffer_size = None if buffer_size is None else int(buffer_size) or 1
        if num_parallel_reads is None:
            self._cycle = 1
        elif int(num_parallel_reads) == AUTOTUNE:
            self._cycle = 8
        elif int(num_parallel_reads) < 1:
            raise InvalidArgumentError(f"TFRecordDataset: num_parallel_reads must be positive "
                                       f"or tf.data.AUTOTUNE, got {num_parallel_reads}.")
        else:
            self._cycle = int(num_parallel_reads)
        self._name = name
        inputs = (self._filenames._dataset,) if self._filenames._dataset is not None else ()
        super().__init__(None, [TensorSpec([], dtypes.string)], UNKNOWN, inputs)

    def _stage(self):
        return _SequentialRecordStage(self) if self._cycle == 1 else _RecordStage(self)
