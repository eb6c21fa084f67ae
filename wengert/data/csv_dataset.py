"""`tf.data.experimental.CsvDataset`: the records of CSV files as tuples of scalars.

Each file is read whole (csv_columns.py cuts it into records and parses them into one NumPy
array per selected column, block by block); the element of record r is the tuple of the
columns' values at r, in column order. `record_defaults` gives one entry per output column: a
dtype (float32, float64, int32, int64, string) for a required column, or a tensor holding
one default for an empty field (or one equal to `na_value`). `select_cols` (ascending indices)
keeps those columns, and a record need only reach the last of them; `exclude_cols` keeps the
others, and then a record has exactly len(record_defaults) + len(exclude_cols) fields.
`header=True` skips each file's first record.

A bad record (wrong number of fields, a missing required field, a number that does not parse,
a stray quote) is an InvalidArgumentError in TensorFlow's words, naming the record (counted from
0 in its file, the header included) and the file, raised by `next()` in that record's place;
the next `next()` goes on with the following record, as TensorFlow's iterator does.

Fast path. When every file parses without error, the dataset offers its rows (`_rows()`, see
dataset.py) so that shuffle/repeat/batch gather whole batches with one NumPy indexing per column.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.tensor import array_of, convert_to_tensor
from ..ops.io.tfrecords import compression_of
from ..tracing.signatures import TensorSpec
from .csv_columns import parse_csv
from .dataset import UNKNOWN, Dataset
from .text_files import FileCycleStage, cycle_length, read_whole
from .tfrecords import _FileNames

__all__ = ["CsvDataset", "CSV_TYPES", "column_default"]

CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def column_default(value, index, what):
    """(dtype, default array of 0 or 1 values) of one entry of record_defaults."""
    if isinstance(value, dtypes.DType) or (isinstance(value, type) and issubclass(
            value, np.generic)):
        dtype = dtypes.as_dtype(value)
        default = np.zeros([0], dtype.as_numpy_dtype)
    else:
        t = convert_to_tensor(value)
        dtype, default = t.dtype, np.asarray(array_of(t)).reshape(-1)
        if default.size > 1:
            raise ValueError(f"{what}: record_defaults[{index}] must hold one default value "
                             f"or none (a required column), got {default.size} values.")
    if dtype not in CSV_TYPES:
        raise TypeError(f"{what}: record_defaults[{index}] has dtype {dtype.name}; a CSV "
                        f"column is float32, float64, int32, int64 or string.")
    return dtype, default


def _columns(select_cols, exclude_cols, n_defaults):
    """(selected column indices or None, exact field count or None)."""
    if select_cols is not None and exclude_cols is not None:
        raise ValueError("CsvDataset: select_cols and exclude_cols cannot both be given.")
    if exclude_cols is not None:
        excluded = sorted(int(c) for c in exclude_cols)
        total = n_defaults + len(excluded)
        keep = [c for c in range(total) if c not in set(excluded)]
        if len(set(excluded)) != len(excluded) or (excluded and not
                                                   0 <= excluded[0] <= excluded[-1] < total):
            raise InvalidArgumentError(f"CsvDataset: exclude_cols must be unique column indices "
                                       f"below {total}, got {list(exclude_cols)}.")
        return keep, total
    if select_cols is None:
        return None, n_defaults
    cols = [int(c) for c in select_cols]
    if cols != sorted(set(cols)) or (cols and cols[0] < 0):
        raise InvalidArgumentError(f"CsvDataset: select_cols must be ascending and unique "
                                   f"non-negative column indices, got {list(select_cols)}.")
    if len(cols) != n_defaults:
        raise InvalidArgumentError("select_cols should match output size")
    return cols, None


class CsvDataset(Dataset):
    """Records of CSV files: `tf.data.experimental.CsvDataset(filenames, record_defaults,
    compression_type=None, buffer_size=None, header=False, field_delim=',',
    use_quote_delim=True, na_value='', select_cols=None, exclude_cols=None)`."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None, name=None):
        what = "CsvDataset"
        self._filenames = _FileNames(filenames)
        self._compression = compression_of(compression_type, what)
        if buffer_size is not None and int(buffer_size) <= 0:
            raise InvalidArgumentError(f"{what}: buffer_size must be positive, got "
                                       f"{buffer_size}.")
        if len(field_delim) != 1:
            raise InvalidArgumentError(f"{what}: field_delim must be one character, got "
                                       f"{field_delim!r}.")
        defaults = [column_default(d, i, what) for i, d in enumerate(record_defaults)]
        if not defaults:
            raise ValueError(f"{what}: record_defaults must name at least one column.")
        cols, exact = _columns(select_cols, exclude_cols, len(defaults))
        self._parse = dict(types=[d[0] for d in defaults], defaults=[d[1] for d in defaults],
                           cols=cols, exact=exact, delim=field_delim.encode(),
                           quotes=bool(use_quote_delim), na=na_value.encode(),
                           header=bool(header))
        self._cycle = 1
        inputs = (self._filenames._dataset,) if self._filenames._dataset is not None else ()
        super().__init__(tuple([None] * len(defaults)),
                         [TensorSpec([], d[0]) for d in defaults], UNKNOWN, inputs)

    def _parsed(self, path):
        return parse_csv(read_whole(path, self._compression, "CsvDataset"), path, **self._parse)

    def _file_rows(self, path):
        for segment in self._parsed(path):
            if isinstance(segment, Exception):
                yield segment
                continue
            for i in range(len(segment[0])):
                yield tuple(c[i, ...] for c in segment)

    def _stage(self):
        return FileCycleStage(self._filenames, self._cycle, self._file_rows)

    def _rows(self):
        if self._filenames._names is None:
            return None
        parts = [self._parsed(path) for path in self._filenames._names]
        if any(isinstance(s, Exception) for segments in parts for s in segments):
            return None
        columns = [np.concatenate([s[j] for segments in parts for s in segments] or
                                  [np.zeros([0], t.as_numpy_dtype)])
                   for j, t in enumerate(self._parse["types"])]
        counts = [sum(len(s[0]) for s in segments) if segments else 0 for segments in parts]
        order = _cycle_order(counts, self._cycle)
        return tuple(columns), lambda: order


def _cycle_order(counts, cycle):
    """Row indices of files of `counts` rows (stored one after another) read `cycle` at a
    time, one row from each open file in turn."""
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    if cycle == 1 or len(counts) <= 1:
        return np.arange(starts[-1], dtype=np.int64)
    out, slots, pending = [], [None] * cycle, list(range(len(counts)))
    live, index = 0, 0
    while pending or live:
        if slots[index] is None and pending:
            f = pending.pop(0)
            slots[index] = [starts[f], starts[f + 1]]
            live += 1
        slot = slots[index]
        if slot is not None:
            if slot[0] < slot[1]:
                out.append(slot[0])
                slot[0] += 1
                index = (index + 1) % cycle
                continue
            slots[index] = None
            live -= 1
        index = (index + 1) % cycle
    return np.array(out, dtype=np.int64)


def set_cycle(dataset, num_parallel_reads):
    """Read `num_parallel_reads` files at a time (make_csv_dataset's interleave)."""
    dataset._cycle = cycle_length(num_parallel_reads, "make_csv_dataset")
    return dataset
