"""`tf.data.experimental.make_csv_dataset`: batches of CSV records as feature dictionaries.

make_csv_dataset(file_pattern, batch_size, ...) reads the files matching `file_pattern`
(sorted; shuffled with `shuffle_seed` when `shuffle`) with CsvDataset, then, as TensorFlow
builds it: shuffle(shuffle_buffer_size, shuffle_seed) when `shuffle`, repeat(num_epochs) unless
num_epochs == 1 (None: forever), batch(batch_size, drop_remainder=num_epochs is None), and each
batch becomes an OrderedDict of column name to column (in the files' column order), with the
`label_name` column taken out as a second element: (features, label).

Column names come from `column_names` or the header row (every file's header must agree);
`select_columns` (names or indices) keeps some columns. Column types come from
`column_defaults` (dtypes or defaults), or are inferred from the first `num_rows_for_inference`
records, as TensorFlow infers them: each column takes the narrowest of int32, int64, float32,
float64, string that holds every non-empty value seen, and its default is 0 (or "").
`ignore_errors=True` drops bad records. When the files parse without error, every batch is
gathered from the parsed columns with one NumPy indexing per column, epoch after epoch
(EpochBatches), and reaches the user through a restructuring stage that only relabels the
components (no function call per batch).
"""
import collections
import csv
import io

import numpy as np

from ..framework import dtypes
from ..ops.io.tfrecords import compression_of
from .csv_dataset import CsvDataset, set_cycle
from .dataset import AUTOTUNE, Dataset, Stage
from .options import Options
from .text_files import list_files, read_whole
from . import structure as st

__all__ = ["make_csv_dataset", "Restructured"]


class Restructured(Dataset):
    """`dataset`'s elements with their components `order`ed into `structure`."""

    def __init__(self, dataset, structure, order):
        self._input, self._order = dataset, tuple(order)
        super().__init__(structure, [dataset._specs[i] for i in order], dataset._cardinality,
                         (dataset,))

    def _stage(self):
        return _ReorderStage(self._input._stage(), self._order)


class _ReorderStage(Stage):
    def __init__(self, upstream, order):
        self._up, self._order = upstream, order

    def __next__(self):
        components = next(self._up)
        return tuple(components[i] for i in self._order)


_HEAD = 1 << 20


class _RowEpochStage(Stage):
    """Batches gathered from `arrays` over the row orders of successive epochs (`order()`
    gives the next epoch's), `epochs` of them or forever (None)."""

    def __init__(self, arrays, order, epochs, size, drop):
        self._arrays, self._order, self._left = arrays, order, epochs
        self._size, self._drop, self._pending = size, drop, np.zeros(0, np.int64)

    def __next__(self):
        while len(self._pending) < self._size and self._left != 0:
            epoch = np.asarray(self._order(), np.int64)
            if not len(epoch):
                break
            self._pending = np.concatenate([self._pending, epoch])
            self._left = None if self._left is None else self._left - 1
        if not len(self._pending) or (self._drop and len(self._pending) < self._size):
            raise StopIteration
        index, self._pending = self._pending[:self._size], self._pending[self._size:]
        return tuple(a[index] for a in self._arrays)


class EpochBatches(Dataset):
    """`batched` (epochs.repeat(n).batch(...)), gathering each batch from the rows of `epochs`
    when it has them (the fast path of dataset.py, for any number of epochs)."""

    def __init__(self, epochs, batched, num_epochs):
        self._epochs, self._batched = epochs, batched
        self._count = None if num_epochs is None or int(num_epochs) < 0 else int(num_epochs)
        super().__init__(batched._structure, batched._specs, batched._cardinality, (batched,))

    def _stage(self):
        rows = self._epochs._rows()
        if rows is None:
            return self._batched._stage()
        arrays, order = rows
        return _RowEpochStage(arrays, order, self._count, self._batched._size,
                              self._batched._drop)


def _reader(path, compression, field_delim, use_quote_delim, encoding, whole):
    """A csv.reader over the file, or over its first whole lines in _HEAD bytes."""
    if whole or compression:
        data = read_whole(path, compression, "make_csv_dataset")
    else:
        with open(path, "rb") as f:
            data = f.read(_HEAD + 1)
        if len(data) > _HEAD:
            data = data[:data.rfind(b"\n") + 1]
    text = data.decode(encoding)
    return csv.reader(io.StringIO(text), delimiter=field_delim,
                      quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)


def _header_names(files, read):
    names = None
    for path in files:
        row = next(read(path), None)
        if row is None:
            raise ValueError(f"Failed when reading the header line of {path}. Is it an empty "
                             f"file?")
        if names is not None and row != names:
            raise ValueError(f"All input CSV files should have the same column names in the "
                             f"header row. File {path} has different column names.")
        names = row
    return names


def _narrowest(text, previous):
    order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string]
    for i, dtype in enumerate(order):
        if _fits(text, dtype) and (previous is None or previous in order[:i + 1]):
            return dtype
    return previous


def _fits(text, dtype):
    try:
        if dtype.is_integer:
            value = int(text)
            bits = 31 if dtype is dtypes.int32 else 63
            return -2 ** bits <= value < 2 ** bits
        if dtype.is_floating:
            return float(np.asarray(text).astype(dtype.as_numpy_dtype)) < np.inf
    except (ValueError, OverflowError):
        return False
    return True


def _inferred_defaults(files, read, n_cols, na_value, header, rows, selected):
    types = [None] * len(selected)
    seen = 0
    for path in files:
        reader = read(path)
        if header:
            next(reader, None)
        for line, row in enumerate(reader, 2 if header else 1):
            if rows is not None and seen >= rows:
                break
            if len(row) != n_cols:
                raise ValueError(f"Problem inferring types: CSV row {line} has {len(row)} "
                                 f"number of fields. Expected: {n_cols}.")
            for j, c in enumerate(selected):
                if row[c] not in ("", na_value):
                    types[j] = _narrowest(row[c], types[j])
            seen += 1
    types = [t or dtypes.string for t in types]
    return [np.array([b""], dtype=object) if t is dtypes.string else
            np.array([0], dtype=t.as_numpy_dtype) for t in types]


def _selected(select_columns, names):
    index = {n: i for i, n in enumerate(names)}
    out = []
    for v in select_columns:
        if isinstance(v, (int, np.integer)):
            if not 0 <= v < len(names):
                raise ValueError(f"Column index {v} specified in `select_columns` should be > 0 "
                                 f" and <= {len(names)}, which is the number of columns.")
            out.append(int(v))
        elif v not in index:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of the "
                             f"columns: {index.keys()}.")
        else:
            out.append(index[v])
    if len(set(out)) != len(out):
        raise ValueError(f"The `select_columns` argument contains duplicate columns: "
                         f"{sorted({c for c in out if out.count(c) > 1})}.")
    return sorted(out)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    """Batches of CSV records as (OrderedDict of columns, label) or OrderedDict of columns."""
    files = [f.decode() if isinstance(f, bytes) else f for f in
             list_files(file_pattern, shuffle=False).as_numpy_iterator()]
    compression = compression_of(compression_type, "make_csv_dataset")

    def read(path):
        return _reader(path, compression, field_delim, use_quote_delim, encoding,
                       num_rows_for_inference is None)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        column_names = _header_names(files, read)
    column_names = list(column_names)
    if len(column_names) != len(set(column_names)):
        twice = {n for n in column_names if column_names.count(n) > 1}
        raise ValueError(f"Either `column_names` argument or CSV header row contains duplicate "
                         f"column names: {twice}.")
    selected = (_selected(select_columns, column_names) if select_columns is not None
                else None)
    if column_defaults is not None:
        defaults = list(column_defaults)
    else:
        defaults = _inferred_defaults(files, read, len(column_names), na_value, header,
                                      num_rows_for_inference,
                                      selected or range(len(column_names)))
    if selected is not None and len(defaults) != len(selected):
        raise ValueError(f"If specified, `column_defaults` and `select_columns` must have the "
                         f"same length: `column_defaults` has length {len(defaults)}, "
                         f"`select_columns` has length {len(selected)}.")
    if selected is not None:
        column_names = [column_names[i] for i in selected]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. "
                         f"Received: {label_name}.")
    names = Dataset.from_tensor_slices(np.array(files, dtype=object))
    if shuffle and len(files) > 1:
        names = names.shuffle(len(files), shuffle_seed)
    dataset = CsvDataset(files if not shuffle or len(files) == 1 else names, defaults,
                         compression_type=compression, header=header, field_delim=field_delim,
                         use_quote_delim=use_quote_delim, na_value=na_value,
                         select_cols=selected)
    dataset = set_cycle(dataset, num_parallel_reads)
    if ignore_errors:
        dataset = dataset.ignore_errors()
    options = Options()
    options.deterministic = not sloppy
    dataset = dataset.with_options(options)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    epochs = dataset
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = EpochBatches(epochs, dataset.batch(batch_size, drop_remainder=num_epochs is None),
                           num_epochs)
    dataset = _as_features(dataset, column_names, label_name)
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


def _as_features(dataset, column_names, label_name):
    features = collections.OrderedDict((n, i) for i, n in enumerate(column_names)
                                       if n != label_name)
    template = features if label_name is None else (features, column_names.index(label_name))
    order = st._flatten(template)
    structure = st.structure_of(template)
    return Restructured(dataset, structure, order)
