"""Datasets of file contents: `TextLineDataset`, `FixedLengthRecordDataset`, `list_files`.

`TextLineDataset(filenames)` yields each line of each file as a scalar string, without its line
ending ("\\n", or "\\r\\n" with the "\\r" dropped); a last line without a newline still counts,
and a newline at the very end adds no empty line. `FixedLengthRecordDataset(filenames,
record_bytes, header_bytes, footer_bytes)` skips `header_bytes` at the start of each file and
`footer_bytes` at its end and cuts the body into records of `record_bytes`; a body whose length is
not a multiple of `record_bytes` is TensorFlow's InvalidArgumentError naming the file and the
lengths, raised by `next()` in place of that file's records (the pass goes on with the next file).

Both read their files one after another, or, with `num_parallel_reads=n`, n files at a time with
their elements interleaved one by one (TensorFlow's order, as TFRecordDataset does).
`compression_type` ('', 'ZLIB', 'GZIP') applies to every file; each file is read (and
inflated) whole when its turn comes. `list_files(pattern)` is the sorted matches of one or more
glob patterns, shuffled (each pass anew) unless `shuffle=False`; no match is an
InvalidArgumentError at construction, in TensorFlow's words.
"""
import glob
import zlib

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError, NotFoundError
from ..framework.tensor import convert_to_tensor
from ..ops.io.tfrecords import compression_of
from ..tracing.signatures import TensorSpec
from .dataset import AUTOTUNE, UNKNOWN, Dataset, Stage
from .tfrecords import _FileNames

__all__ = ["TextLineDataset", "FixedLengthRecordDataset", "list_files", "read_whole",
           "cycle_length", "FileCycleStage"]


def read_whole(path, compression, what):
    """The (inflated) bytes of the file at `path`."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{what}: no such file '{path}'.") from None
    if not compression:
        return data
    try:
        return zlib.decompress(data, 31 if compression == "GZIP" else 15)
    except zlib.error as err:
        raise InvalidArgumentError(f"{what}: '{path}' is not a valid {compression} file "
                                   f"({err}); check compression_type.") from None


def cycle_length(num_parallel_reads, what):
    """How many files are read at once for `num_parallel_reads`."""
    if num_parallel_reads is None:
        return 1
    n = int(np.asarray(getattr(num_parallel_reads, "_value", num_parallel_reads)))
    if n == AUTOTUNE:
        return 8
    if n < 1:
        raise InvalidArgumentError(f"{what}: num_parallel_reads must be positive or "
                                   f"tf.data.AUTOTUNE, got {n}.")
    return n


class FileCycleStage(Stage):
    """Elements from `open_file(path)` iterators, `cycle` files at a time, one element from
    each open file in turn (an element may be an exception, raised in its place)."""

    def __init__(self, paths, cycle, open_file):
        self._files, self._open_file = iter(paths), open_file
        self._slots, self._index, self._live, self._done = [None] * cycle, 0, 0, False

    def __next__(self):
        slots = self._slots
        while not self._done or self._live:
            i = self._index
            if slots[i] is None and not self._done:
                path = next(self._files, None)
                if path is None:
                    self._done = True
                    continue
                slots[i] = iter(self._open_file(path))
                self._live += 1
            if slots[i] is not None:
                item = next(slots[i], StopIteration)
                if item is not StopIteration:
                    self._index = (i + 1) % len(slots)
                    if isinstance(item, Exception):
                        raise item
                    return item
                slots[i] = None
                self._live -= 1
            self._index = (i + 1) % len(slots)
        raise StopIteration


class _FileDataset(Dataset):
    """What the file readers share: file names, compression, how many read at once."""

    def __init__(self, filenames, compression_type, num_parallel_reads, what):
        self._filenames = _FileNames(filenames)
        self._compression = compression_of(compression_type, what)
        self._cycle = cycle_length(num_parallel_reads, what)
        self._what = what
        inputs = (self._filenames._dataset,) if self._filenames._dataset is not None else ()
        super().__init__(None, [TensorSpec([], dtypes.string)], UNKNOWN, inputs)

    def _elements(self, path):
        raise NotImplementedError

    def _stage(self):
        return FileCycleStage(self._filenames, self._cycle, self._elements)


def _check_buffer(buffer_size, what):
    if buffer_size is not None and int(np.asarray(getattr(buffer_size, "_value",
                                                          buffer_size))) < 0:
        raise InvalidArgumentError(f"{what}: buffer_size must be >= 0 bytes, got {buffer_size}.")


class TextLineDataset(_FileDataset):
    """The lines of text files: `tf.data.TextLineDataset(filenames, compression_type=None,
    buffer_size=None, num_parallel_reads=None)`; each element is a scalar tf.string."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        _check_buffer(buffer_size, "TextLineDataset")
        self._name = name
        super().__init__(filenames, compression_type, num_parallel_reads, "TextLineDataset")

    def _elements(self, path):
        data = read_whole(path, self._compression, self._what)
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        return ((np.array(line[:-1] if line.endswith(b"\r") else line, dtype=object),)
                for line in lines)


def _int_arg(value, what, low):
    value = int(np.asarray(getattr(value, "_value", value)))
    if value < low:
        raise InvalidArgumentError(f"FixedLengthRecordDataset: {what} must be >= {low}, got "
                                   f"{value}.")
    return value


class FixedLengthRecordDataset(_FileDataset):
    """Records of `record_bytes` bytes from binary files: `tf.data.FixedLengthRecordDataset(
    filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
    compression_type=None, num_parallel_reads=None)`; each element is a scalar tf.string."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        self._record = _int_arg(record_bytes, "record_bytes", 1)
        self._header = _int_arg(header_bytes or 0, "header_bytes", 0)
        self._footer = _int_arg(footer_bytes or 0, "footer_bytes", 0)
        _check_buffer(buffer_size, "FixedLengthRecordDataset")
        self._name = name
        super().__init__(filenames, compression_type, num_parallel_reads,
                         "FixedLengthRecordDataset")

    def _elements(self, path):
        data = read_whole(path, self._compression, self._what)
        body = data[self._header:len(data) - self._footer]
        if len(body) % self._record:
            return [InvalidArgumentError(
                f"Excluding the header ({self._header} bytes) and footer ({self._footer} "
                f"bytes), input file \"{path}\" has body length {len(body)} bytes, which is "
                f"not an exact multiple of the record length ({self._record} bytes).")]
        r = self._record
        return ((np.array(body[i:i + r], dtype=object),) for i in range(0, len(body), r))


def _patterns(file_pattern):
    if isinstance(file_pattern, (str, bytes)):
        file_pattern = [file_pattern]
    array = np.asarray(getattr(convert_to_tensor(file_pattern, dtype_hint=dtypes.string),
                               "_value", None) if not isinstance(file_pattern, list) else
                       np.array(file_pattern, dtype=object))
    if array.dtype != object or array.ndim > 1:
        raise TypeError(f"list_files: file_pattern must be a string or a list or vector of "
                        f"strings, got {array.dtype} of shape {list(array.shape)}.")
    return [p.decode() if isinstance(p, bytes) else str(p) for p in array.reshape(-1)]


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """The files matching `file_pattern` (a glob, or a list of them) as a dataset of scalar
    strings: sorted, then shuffled each pass unless `shuffle=False`."""
    patterns = _patterns(file_pattern)
    names = sorted({m for p in patterns for m in glob.glob(p)})
    if not names:
        raise InvalidArgumentError(f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                   f"true. Summarized data: b'No files matched pattern: "
                                   f"{', '.join(patterns)}'")
    dataset = Dataset.from_tensor_slices(np.array(names, dtype=object))
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(names), seed=seed)
    return dataset
