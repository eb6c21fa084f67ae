"""Lookup tables as graph ops: hash maps from keys to values that live outside the tensors.

    HashTableV2 / MutableHashTableV2 / MutableDenseHashTableV2   make a table; return its handle
    LookupTableImportV2(handle, keys, values)     fills a table (a static table's initializer)
    InitializeTableV2(handle, keys, values)       the same, TensorFlow's older initializer op
    InitializeTableFromTextFileV2(handle, filename)  fills it from the lines of a text file
    LookupTableFindV2(handle, keys, default)      values[i] = table[keys[i]], or the default
                                                  (one value, or one per key: default[i]);
                                                  with `oov_buckets` n > 0, a missing key's
                                                  id is size + Fingerprint64(key) mod n
    LookupTableInsertV2 / LookupTableRemoveV2     add or overwrite / delete keys
    LookupTableSizeV2(handle)                     the number of keys (int64)
    LookupTableExportV2(handle)                   (keys, values) in the table's order

The table's contents are a Python dict held by a `TableStore`, which travels in the `table`
attribute as a dataset iterator does; the handle input only orders the ops. A key is the
array element as a Python value (bytes for strings), so lookup costs one dict probe per key.
Filling a static table twice with a different value for one key is TensorFlow's
FailedPreconditionError; looking up in a table not yet filled (a TF 1 graph before
`tables_initializer` runs) is one too. No op here has a gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    NotFoundError,
)
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from .hashing import fingerprint64

__all__ = [
    "HASH_TABLE",
    "LINE_NUMBER",
    "MUTABLE_DENSE_HASH_TABLE",
    "MUTABLE_HASH_TABLE",
    "TABLE_EXPORT",
    "TABLE_FIND",
    "TABLE_FROM_TEXT_FILE",
    "TABLE_IMPORT",
    "TABLE_INITIALIZE",
    "TABLE_INSERT",
    "TABLE_REMOVE",
    "TABLE_SIZE",
    "WHOLE_LINE",
    "TableStore",
]

WHOLE_LINE, LINE_NUMBER = -2, -1


class TableStore:
    """The contents of one table: key and value dtypes, the value shape, the dict."""

    def __init__(self, key_dtype, value_dtype, value_shape=(), static=False, empty_key=None,
                 deleted_key=None):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.value_shape = tuple(value_shape)
        self.static = static
        self.reserved = {k: v for k, v in (("empty_key", empty_key), ("deleted_key", deleted_key))
                         if v is not None}
        self.data = {}
        self.initialized = not static

    def require_initialized(self):
        if not self.initialized:
            raise FailedPreconditionError("LookupTableFindV2: Table not initialized.")

    def check_reserved(self, keys, op_type):
        for name, reserved in self.reserved.items():
            if any(k == reserved for k in keys):
                raise InvalidArgumentError(f"{op_type}: Using the {name} as a table key is not "
                                           "allowed")

    def put(self, keys, values, check_same, op_type):
        values = np.asarray(values).reshape((len(keys),) + self.value_shape)
        self.check_reserved(keys, op_type)
        if check_same:
            seen = dict(self.data)
            for key, value in zip(keys, values):
                old = seen.setdefault(key, value)
                if old is not value and not np.array_equal(old, value):
                    raise FailedPreconditionError(
                        f"{op_type}: HashTable has different value for same key. Key "
                        f"{_text(key)} has {_text(old)} and trying to add value {_text(value)}")
        self.data.update(zip(keys, values))

    def arrays(self):
        """(keys, values) as arrays, in insertion order."""
        keys = np.array(list(self.data), self.key_dtype.as_numpy_dtype).reshape(-1)
        values = np.array(list(self.data.values()), self.value_dtype.as_numpy_dtype)
        return keys, values.reshape((len(keys),) + self.value_shape)

    def replace(self, keys, values):
        """Make (keys, values) the whole contents (a restored checkpoint)."""
        keys = _keys(keys)
        self.check_reserved(keys, "restore")
        self.data = dict(zip(keys, np.asarray(values, self.value_dtype.as_numpy_dtype).reshape(
            (len(keys),) + self.value_shape)))
        self.initialized = True

    def __repr__(self):
        return f"<lookup table {self.key_dtype.name} -> {self.value_dtype.name}>"


def _text(value):
    value = value.tolist() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _keys(array):
    return np.asarray(array).reshape(-1).tolist()


def _handle(*, table):
    return np.array(0, np.int64)


def _import(handle, keys, values, *, table):
    table.put(_keys(keys), values, table.static, "LookupTableImportV2")
    table.initialized = True


def _text_file_rows(filename, vocab_size, delimiter):
    with open(filename, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lines = lines if vocab_size < 0 else lines[:vocab_size]
    if vocab_size >= 0 and len(lines) < vocab_size:
        raise InvalidArgumentError(f"Invalid vocab_size in {filename}: expected {vocab_size} "
                                   f"lines, the file has {len(lines)}.")
    sep = delimiter.encode() if isinstance(delimiter, str) else delimiter
    return [(i, line.rstrip(b"\r"), line.rstrip(b"\r").split(sep)) for i, line in enumerate(lines)]


def _column(number, line, fields, index, dtype, filename):
    if index == LINE_NUMBER:
        return number
    if index == WHOLE_LINE:
        return line if dtype == dtypes.string else dtype.as_numpy_dtype(line.decode())
    if index >= len(fields):
        raise InvalidArgumentError(f"Invalid number of columns in {filename} line {number} "
                                   f"({line.decode('utf-8', 'replace')}) : expected at least "
                                   f"{index + 1}, got {len(fields)}")
    field = fields[index]
    return field if dtype == dtypes.string else dtype.as_numpy_dtype(field.decode())


def _from_text_file(handle, filename, *, table, key_index, value_index, vocab_size=-1,
                    delimiter="\t", offset=0):
    name = np.asarray(filename).item()
    name = name.decode() if isinstance(name, bytes) else name
    keys, values = [], []
    for number, line, fields in _text_file_rows(name, vocab_size, delimiter):
        keys.append(_column(number, line, fields, key_index, table.key_dtype, name))
        values.append(_column(number + offset, line, fields, value_index, table.value_dtype,
                              name))
    keys = np.array(keys, table.key_dtype.as_numpy_dtype).tolist()
    table.put(keys, np.array(values, table.value_dtype.as_numpy_dtype), True,
              "InitializeTableFromTextFileV2")
    table.initialized = True


def _oov_bucket(key, size, buckets):
    text = key if isinstance(key, bytes) else str(key).encode()
    return size + fingerprint64(text) % buckets


def _find(handle, keys, default_value, *, table, oov_buckets=0):
    table.require_initialized()
    keys = np.asarray(keys)
    if oov_buckets:
        size, get = len(table.data), table.data.get
        flat = [get(k) for k in keys.reshape(-1).tolist()]
        return np.array([_oov_bucket(k, size, oov_buckets) if v is None else v
                         for k, v in zip(keys.reshape(-1).tolist(), flat)],
                        np.int64).reshape(keys.shape)
    default = np.asarray(default_value, table.value_dtype.as_numpy_dtype)
    full = keys.shape + table.value_shape
    out = np.empty((keys.size,) + table.value_shape, table.value_dtype.as_numpy_dtype)
    get = table.data.get
    if default.shape == table.value_shape:
        default = default[()] if default.ndim == 0 else default  # a 0-d array is no string
        for i, key in enumerate(keys.reshape(-1).tolist()):
            out[i] = get(key, default)
        return out.reshape(full)
    _check_default(default.shape, table.value_shape, full)
    per_key = default.reshape((keys.size,) + table.value_shape)
    for i, key in enumerate(keys.reshape(-1).tolist()):
        out[i] = get(key, per_key[i])
    return out.reshape(full)


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_default(shape, value_shape, full):
    """A default value is one value (value_shape) or one per key (keys.shape + value_shape),
    TensorFlow's `dynamic_default_values`."""
    if tuple(shape) not in (tuple(value_shape), tuple(full)):
        raise InvalidArgumentError(
            f"LookupTableFindV2: Expected shape {_shape_text(value_shape)} or "
            f"{_shape_text(full)} for default value, got {_shape_text(shape)}")


def _insert(handle, keys, values, *, table):
    table.put(_keys(keys), values, False, "LookupTableInsertV2")


def _remove(handle, keys, *, table):
    keys = _keys(keys)
    table.check_reserved(keys, "LookupTableRemoveV2")
    for key in keys:
        table.data.pop(key, None)


def _size(handle, *, table):
    return np.array(len(table.data), np.int64)


def _export(handle, *, table):
    table.require_initialized()
    return table.arrays()


def _no_outputs(*inputs, **attrs):
    return []


def _find_shape(handle, keys, default_value, *, table, oov_buckets=0):
    full = TensorShape(keys.shape).concatenate(TensorShape(table.value_shape))
    given = TensorShape(default_value.shape)
    if given.is_fully_defined() and full.is_fully_defined() and \
            tuple(given.as_list()) != table.value_shape:
        _check_default(given.as_list(), table.value_shape, full.as_list())
    return full, table.value_dtype


def _export_shape(handle, *, table):
    return [(TensorShape([None]), table.key_dtype),
            (TensorShape([None]).concatenate(TensorShape(table.value_shape)), table.value_dtype)]


def _not_a_handle(op_type):
    def refuse(*args, **kwargs):
        raise NotFoundError(
            f"tf.raw_ops.{op_type}: wengert keeps a table's contents in the table object; make "
            "it with tf.lookup.StaticHashTable or tf.lookup.experimental.MutableHashTable and "
            "pass that object as `table_handle` to the other raw table ops.")
    return refuse


def _handle_rule(*, table):
    return TensorShape([]), dtypes.int64


HASH_TABLE = defop("HashTableV2", _handle, shape=_handle_rule, grad=None, pure=False,
                   raw=lambda key_dtype, value_dtype, container="", shared_name="",
                   use_node_name_sharing=False, name=None: _not_a_handle("HashTableV2")())
MUTABLE_HASH_TABLE = defop(
    "MutableHashTableV2", _handle, shape=_handle_rule, grad=None, pure=False,
    raw=lambda key_dtype, value_dtype, container="", shared_name="",
    use_node_name_sharing=False, name=None: _not_a_handle("MutableHashTableV2")())
MUTABLE_DENSE_HASH_TABLE = defop(
    "MutableDenseHashTableV2", lambda empty_key, deleted_key, *, table: _handle(table=table),
    shape=lambda empty_key, deleted_key, *, table: _handle_rule(table=table), grad=None,
    pure=False, raw=lambda empty_key, deleted_key, value_dtype, container="", shared_name="",
    use_node_name_sharing=False, value_shape=(), initial_num_buckets=131072,
    max_load_factor=0.8, name=None: _not_a_handle("MutableDenseHashTableV2")())
TABLE_IMPORT = defop("LookupTableImportV2", lambda store, *a, **k: _import(*a, **k),
                     shape=_no_outputs, grad=None, num_outputs=0, stateful=True,
                     raw=lambda table_handle, keys, values, name=None:
                     table_handle._import(keys, values, name))
TABLE_INITIALIZE = defop("InitializeTableV2", lambda store, *a, **k: _import(*a, **k),
                         shape=_no_outputs, grad=None, num_outputs=0, stateful=True,
                         raw=lambda table_handle, keys, values, name=None:
                         table_handle._import(keys, values, name))
TABLE_FROM_TEXT_FILE = defop(
    "InitializeTableFromTextFileV2", lambda store, *a, **k: _from_text_file(*a, **k),
    shape=_no_outputs, grad=None, num_outputs=0, stateful=True,
    raw=lambda table_handle, filename, key_index, value_index, vocab_size=-1, delimiter="\t",
    offset=0, name=None: _not_a_handle("InitializeTableFromTextFileV2")())
TABLE_FIND = defop("LookupTableFindV2", _find, shape=_find_shape, grad=None, pure=False,
                   raw=lambda table_handle, keys, default_value, name=None:
                   table_handle._find(keys, default_value, name))
TABLE_INSERT = defop("LookupTableInsertV2", lambda store, *a, **k: _insert(*a, **k),
                     shape=_no_outputs, grad=None, num_outputs=0, stateful=True,
                     raw=lambda table_handle, keys, values, name=None:
                     table_handle.insert(keys, values, name))
TABLE_REMOVE = defop("LookupTableRemoveV2", lambda store, *a, **k: _remove(*a, **k),
                     shape=_no_outputs, grad=None, num_outputs=0, stateful=True,
                     raw=lambda table_handle, keys, name=None: table_handle.remove(keys, name))
TABLE_SIZE = defop("LookupTableSizeV2", _size, grad=None, pure=False,
                   shape=lambda handle, *, table: (TensorShape([]), dtypes.int64),
                   raw=lambda table_handle, name=None: table_handle.size(name))
TABLE_EXPORT = defop("LookupTableExportV2", _export, shape=_export_shape, grad=None,
                     num_outputs=2, pure=False,
                     raw=lambda table_handle, Tkeys, Tvalues, name=None:
                     table_handle.export(name))
