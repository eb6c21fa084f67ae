"""Lookup tables (tf.lookup) in wengert's SavedModel format.

A saved function reaches a table through the `table` attribute of its table ops (the table's
`TableStore`, ops/io/lookup_tables.py); graph_json.py writes that attribute as `{"table": i}`,
and this module keeps the document's list of tables:

    "tables": [{"key_dtype", "value_dtype", "value_shape", "static", "initialized",
                "reserved": [names]}, ...]

with each table's contents stored beside the variables as arrays "tables/<i>/keys" and
"tables/<i>/values" (a snapshot taken when the directory is written: a static table's contents
are what its initializer put there, a mutable table's what it holds then, as TensorFlow restores
the first by re-running the initializer and the second from its checkpointed table-keys and
table-values), and a DenseHashTable's reserved keys as "tables/<i>/<empty_key|deleted_key>".
A table that an object holds as an attribute is also an object node, `{"table": i, "fields":
{...}}` (its class, name, default value, OOV buckets...), restored as a table object of the same
class over the same store, so `loaded.table.lookup(...)` and the loaded functions read and write
one table. Loading reads dtypes from a fixed list and checks every reference.
"""
import numpy as np

from ..data.lookup_tables import restored_table, table_fields
from ..framework import dtypes
from ..framework.errors import DataLossError
from ..ops.io.lookup_tables import TableStore
from .graph_json import DTYPE_NAMES

__all__ = ["TableList", "decode_tables", "restore_table_object", "is_table", "ARRAY_PREFIX"]

ARRAY_PREFIX = "tables/"
_DTYPES = DTYPE_NAMES + ("string",)
_RESERVED = ("empty_key", "deleted_key")


def _bad(what):
    return DataLossError(f"SavedModel is corrupted or not a wengert SavedModel: {what}.")


def is_table(obj):
    """Whether an object of the object tree is a tf.lookup table."""
    return isinstance(getattr(obj, "_store", None), TableStore)


class TableList:
    """The tables a save reaches, numbered in order of first use."""

    def __init__(self):
        self.stores, self._ids = [], {}
        self._defaults = {}  # array key -> a table object's default value

    def table_id(self, store):
        hit = self._ids.get(id(store))
        if hit is None:
            hit = self._ids[id(store)] = len(self.stores)
            self.stores.append(store)
        return hit

    def object_node(self, table):
        """The object node of a table attribute (see the module docstring)."""
        fields = dict(table_fields(table))
        default = fields.pop("default_value")
        index = self.table_id(table._store)
        node = {"table": index, "fields": fields}
        if default is not None:
            key = f"{ARRAY_PREFIX}{index}/default_{len(self._defaults)}"
            self._defaults[key] = np.asarray(default)
            node["default"] = key
        return node

    def document(self, arrays):
        """The document's "tables" entry; the contents go into `arrays`."""
        entries = []
        for i, store in enumerate(self.stores):
            keys, values = store.arrays()
            arrays[f"{ARRAY_PREFIX}{i}/keys"] = keys
            arrays[f"{ARRAY_PREFIX}{i}/values"] = values
            for name, key in store.reserved.items():
                arrays[f"{ARRAY_PREFIX}{i}/{name}"] = np.asarray(
                    key, store.key_dtype.as_numpy_dtype)
            entries.append({"key_dtype": store.key_dtype.name,
                            "value_dtype": store.value_dtype.name,
                            "value_shape": list(store.value_shape), "static": store.static,
                            "initialized": store.initialized,
                            "reserved": sorted(store.reserved)})
        arrays.update(self._defaults)
        return entries


def _dtype(name):
    if name not in _DTYPES:
        raise _bad(f"unknown table dtype {str(name)[:40]!r}")
    return dtypes.as_dtype(name)


def _array(arrays, key):
    if key not in arrays:
        raise _bad(f"missing table array {str(key)[:60]!r}")
    return arrays[key]


def decode_tables(entries, arrays):
    """A TableStore per saved table, holding the saved contents."""
    stores = []
    for i, entry in enumerate(entries):
        shape = entry["value_shape"]
        if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
            raise _bad(f"table {i}: bad value shape {str(shape)[:40]}")
        reserved = entry["reserved"]
        if not isinstance(reserved, list) or not set(reserved) <= set(_RESERVED):
            raise _bad(f"table {i}: bad reserved keys {str(reserved)[:40]}")
        key_dtype = _dtype(entry["key_dtype"])
        keys = {name: np.asarray(_array(arrays, f"{ARRAY_PREFIX}{i}/{name}")).tolist()
                for name in reserved}
        store = TableStore(key_dtype, _dtype(entry["value_dtype"]), shape,
                           static=bool(entry["static"]), **keys)
        store.replace(_array(arrays, f"{ARRAY_PREFIX}{i}/keys"),
                      _array(arrays, f"{ARRAY_PREFIX}{i}/values"))
        store.initialized = bool(entry["initialized"])
        stores.append(store)
    return stores


def restore_table_object(node, stores, arrays):
    """The table object of an object node, over its restored store."""
    index = node["table"]
    if not isinstance(index, int) or not 0 <= index < len(stores):
        raise _bad(f"table reference {str(index)[:20]} out of range")
    default = None if node.get("default") is None else _array(arrays, node["default"])
    fields = dict(node["fields"])
    if "lookup_key_dtype" in fields:
        fields["lookup_key_dtype"] = _dtype(fields["lookup_key_dtype"])
    try:
        return restored_table(fields, stores[index], default)
    except (KeyError, TypeError, ValueError) as err:
        raise _bad(f"table object: {type(err).__name__} {str(err)[:80]}") from None
