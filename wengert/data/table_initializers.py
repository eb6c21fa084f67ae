"""What fills a static lookup table (tf.lookup's initializers).

`KeyValueTensorInitializer(keys, values)` pairs two equally long tensors (its dtypes are theirs
unless given); `TextFileInitializer(filename, key_dtype, key_index, value_dtype, value_index)`
reads one entry per line of a text file, the key and the value being a column of the line split
at `delimiter`, the whole line (`TextFileIndex.WHOLE_LINE`, -2) or the line's number counted
from zero (`TextFileIndex.LINE_NUMBER`, -1). Each one's `initialize(table)` adds the op that
fills the table (LookupTableImportV2 or InitializeTableFromTextFileV2, ops/io/lookup_tables.py).
"""
from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..ops.io.lookup_tables import (
    LINE_NUMBER,
    TABLE_FROM_TEXT_FILE,
    TABLE_IMPORT,
    WHOLE_LINE,
)
from ..tracing.func_graph import FuncGraph, init_scope

__all__ = ["KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer"]


def _constant(value, dtype, name):
    """`value` as a tensor; made eagerly when a traced function builds the table, which is
    filled outside it (as TensorFlow lifts a table's initializer)."""
    if isinstance(state.graph, FuncGraph):
        with init_scope():
            return convert_to_tensor(value, dtype=dtype, name=name)
    return convert_to_tensor(value, dtype=dtype, name=name)


class TextFileIndex:
    """The special column numbers of TextFileInitializer."""

    WHOLE_LINE = WHOLE_LINE
    LINE_NUMBER = LINE_NUMBER


class KeyValueTensorInitializer:
    """Fills a table with the pairs (keys[i], values[i])."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = _constant(keys, key_dtype, "keys")
        self._values = _constant(values, value_dtype, "values")
        self._name = name or "key_value_init"

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    def initialize(self, table):
        """The op that fills `table` (run now when eager)."""
        return table._run(TABLE_IMPORT, (self._keys, self._values), self._name)


class TextFileInitializer:
    """Fills a table from the lines of a text file (see the module docstring)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None,
                 delimiter="\t", name=None, value_index_offset=0):
        self.key_dtype, self.value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        for what, index, dtype in (("key", key_index, self.key_dtype),
                                   ("value", value_index, self.value_dtype)):
            if index < WHOLE_LINE:
                raise ValueError(f"TextFileInitializer: invalid `{what}_index` {index}; use a "
                                 "column number, TextFileIndex.WHOLE_LINE or LINE_NUMBER.")
            if index == LINE_NUMBER and not dtype.is_integer:
                raise ValueError(f"TextFileInitializer: `{what}_dtype` must be an integer dtype "
                                 f"for TextFileIndex.LINE_NUMBER, got {dtype}.")
            if index == WHOLE_LINE and dtype != dtypes.string and not dtype.is_integer:
                raise ValueError(f"TextFileInitializer: `{what}_dtype` must be string or an "
                                 f"integer dtype for TextFileIndex.WHOLE_LINE, got {dtype}.")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"TextFileInitializer: `vocab_size` must be positive, got "
                             f"{vocab_size}.")
        self._filename = _constant(filename, dtypes.string, "asset_filepath")
        self._attrs = {"key_index": key_index, "value_index": value_index,
                       "vocab_size": -1 if vocab_size is None else vocab_size,
                       "delimiter": delimiter, "offset": value_index_offset}
        self._name = name or "text_file_init"

    def initialize(self, table):
        return table._run(TABLE_FROM_TEXT_FILE, (self._filename,), self._name, self._attrs)
