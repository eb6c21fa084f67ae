"""`tf.data.experimental.SqlDataset`: the rows of an SQL query as a dataset.

SqlDataset(driver_name, data_source_name, query, output_types) runs `query` on the database
`data_source_name` each pass and yields one element per row: the row's columns converted to
`output_types` (a dtype for a one-column query, a tuple of them otherwise). The one driver is
"sqlite", through Python's sqlite3 module, opened read-only. As TensorFlow's: an unknown
driver is an InvalidArgumentError when the dataset is made; a query whose column count differs
from output_types is an InvalidArgumentError, and one the database rejects an error naming the
query, when the first element is asked for.
"""
import sqlite3

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError, OpError
from ..tracing.signatures import TensorSpec
from . import structure as st
from .dataset import UNKNOWN, Dataset, Stage

__all__ = ["SqlDataset"]

_TYPES = (dtypes.string, dtypes.bool, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
          dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.float32,
          dtypes.float64)


class _SqlStage(Stage):
    def __init__(self, dataset):
        self._ds, self._rows = dataset, None

    def _open(self):
        ds = self._ds
        try:
            connection = sqlite3.connect(f"file:{ds._source}?mode=ro", uri=True)
            cursor = connection.execute(ds._query)
        except sqlite3.Error as err:
            raise OpError(f"SqlDataset: Prepare() failed: {err}: {ds._query}") from None
        width = len(cursor.description or ())
        if width != len(ds._specs):
            raise InvalidArgumentError(
                f"The number of columns in query ({width}) must match the number of elements "
                f"in output_types ({len(ds._specs)})")
        self._rows = cursor

    def __next__(self):
        if self._rows is None:
            self._open()
        row = self._rows.fetchone()
        if row is None:
            raise StopIteration
        return tuple(_value(v, spec.dtype) for v, spec in zip(row, self._ds._specs))


def _value(value, dtype):
    if dtype is dtypes.string:
        text = value if isinstance(value, bytes) else str(value).encode()
        return np.array(text, dtype=object)
    return np.array(value, dtype=dtype.as_numpy_dtype)


class SqlDataset(Dataset):
    """Rows of an SQL query: `SqlDataset(driver_name, data_source_name, query, output_types)`."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        driver = driver_name.decode() if isinstance(driver_name, bytes) else str(driver_name)
        if driver != "sqlite":
            raise InvalidArgumentError(f"The database type, {driver}, is not supported by "
                                       f"SqlDataset. The set of supported databases is: "
                                       f"{{'sqlite'}}.")
        types = output_types if isinstance(output_types, tuple) else (output_types,)
        specs = [TensorSpec([], dtypes.as_dtype(t)) for t in types]
        for spec in specs:
            if spec.dtype not in _TYPES:
                raise TypeError(f"SqlDataset: output_types may hold strings, bools, integers "
                                f"and floats, got {spec.dtype.name}.")
        self._source, self._query = str(data_source_name), str(query)
        structure = st.structure_of(output_types) if isinstance(output_types, tuple) else None
        super().__init__(structure, specs, UNKNOWN)

    def _stage(self):
        return _SqlStage(self)
