"""tf.lookup's tables: maps from keys to values that live beside the tensors.

`StaticHashTable(initializer, default_value)` is filled once by its initializer and then only
read: `lookup(keys)` gives each key's value, or `default_value` for a key it lacks.
`StaticVocabularyTable(initializer, num_oov_buckets)` gives a key outside the vocabulary the id
vocab_size + Fingerprint64(key) mod num_oov_buckets (the key as a string, integers in decimal),
TensorFlow's hash buckets. `experimental.MutableHashTable` and `DenseHashTable` (whose
`empty_key` and `deleted_key` may not be used as keys) take `insert` and `remove` as well;
MutableHashTable's `lookup(keys, dynamic_default_values)` takes a default per key (shape
keys.shape + value shape) or one for all, as TensorFlow's does.

Each call is an op (ops/io/lookup_tables.py) over the table's store, so tables work eagerly,
inside `tf.function` and `Dataset.map`, and in TF 1 graphs, where a static table's initializer
joins the TABLE_INITIALIZERS collection and runs with `tables_initializer()`; built inside a
traced function, a table is made and filled eagerly, outside it (init_scope), as TensorFlow lifts
it.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..graph.collections import GraphKeys, add_to_collection
from ..ops.cast_ops import cast
from ..ops.io.lookup_tables import (
    HASH_TABLE,
    MUTABLE_DENSE_HASH_TABLE,
    MUTABLE_HASH_TABLE,
    TABLE_EXPORT,
    TABLE_FIND,
    TABLE_IMPORT,
    TABLE_INSERT,
    TABLE_REMOVE,
    TABLE_SIZE,
    TableStore,
)
from ..tracing.func_graph import FuncGraph, init_scope

__all__ = ["DenseHashTable", "MutableHashTable", "StaticHashTable", "StaticHashTableV1",
           "StaticVocabularyTable", "StaticVocabularyTableV1", "restored_table", "table_fields"]


def _in_tf1_graph():
    return state.graph is not None and not isinstance(state.graph, FuncGraph)


class _Table:
    """A table's store and handle, and the ops over them."""

    def __init__(self, store, create, create_inputs, name):
        self._store = store
        self._name = name
        if _in_tf1_graph():
            self._handle = execute(create, create_inputs, {"table": store}, name)
        else:
            with init_scope():
                inputs = tuple(convert_to_tensor(t) for t in create_inputs)
                self._handle = execute(create, inputs, {"table": store}, name)

    @property
    def key_dtype(self):
        return self._store.key_dtype

    @property
    def value_dtype(self):
        return self._store.value_dtype

    @property
    def name(self):
        return self._name

    @property
    def resource_handle(self):
        return self._handle

    def _run(self, op_def, inputs, name, attrs=None):
        attrs = {"table": self._store, **(attrs or {})}
        inputs = (self._handle,) + tuple(inputs)
        if state.graph is not None or not op_def.stateful:
            return execute(op_def, inputs, attrs, name)
        out = op_def.kernel(None, *[array_of(t) for t in inputs], **attrs)
        return None if op_def.num_outputs == 0 else Tensor(out)

    def _keys(self, keys, dtype=None):
        dtype = dtype or self.key_dtype
        keys = keys if isinstance(keys, Tensor) else convert_to_tensor(keys, dtype=dtype)
        if keys.dtype != dtype:
            raise TypeError(f"Dtype of argument `keys` must be {dtype}, received: "
                            f"{keys.dtype}")
        return keys

    def _find(self, keys, default_value, name=None, key_dtype=None, attrs=None):
        """Look up a tensor's keys, or a sparse or ragged tensor's values (keeping its
        structure, as TensorFlow does)."""
        if isinstance(keys, SparseTensor):
            values = self._find(keys.values, default_value, name, key_dtype, attrs)
            return SparseTensor(keys.indices, values, keys.dense_shape)
        if hasattr(keys, "with_flat_values"):  # a RaggedTensor
            return keys.with_flat_values(self._find(keys.flat_values, default_value, name,
                                                    key_dtype, attrs))
        keys = self._keys(keys, key_dtype)
        if keys.dtype != self.key_dtype:
            keys = cast(keys, self.key_dtype)
        default = convert_to_tensor(default_value, dtype=self.value_dtype)
        return self._run(TABLE_FIND, (keys, default), name or "LookupTableFindV2", attrs)

    def size(self, name=None):
        """The number of keys in the table (int64)."""
        return self._run(TABLE_SIZE, (), name or "LookupTableSizeV2")

    def _checkpoint_children(self):
        return {}  # a leaf of the object graph (checkpoints, SavedModels)

    def export(self, name=None):
        """(keys, values): every key in the table and its value."""
        return self._run(TABLE_EXPORT, (), name or "LookupTableExportV2")


class StaticHashTable(_Table):
    """A table filled once by `initializer`; keys it lacks give `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        del experimental_is_anonymous  # every wengert table is reached through its object
        store = TableStore(initializer.key_dtype, initializer.value_dtype, static=True)
        super().__init__(store, HASH_TABLE, (), name or "hash_table")
        self._default_value = convert_to_tensor(default_value, dtype=self.value_dtype)
        self._initializer = initializer
        self._init_op = None
        if _in_tf1_graph():
            initializer.initialize(self)
            self._init_op = state.graph._ops[-1]
            add_to_collection(GraphKeys.TABLE_INITIALIZERS, self._init_op)
        else:
            with init_scope():
                initializer.initialize(self)

    @property
    def default_value(self):
        return self._default_value

    def lookup(self, keys, name=None):
        """Each key's value, or `default_value` where the table lacks the key."""
        return self._find(keys, self._default_value, name)

    def _import(self, keys, values, name=None):
        return self._run(TABLE_IMPORT, (convert_to_tensor(keys), convert_to_tensor(values)),
                         name or "LookupTableImportV2")


class StaticVocabularyTable(StaticHashTable):
    """Ids for a vocabulary, and hash buckets after it for the keys outside it."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        self._num_oov_buckets = int(num_oov_buckets)
        if initializer is None:  # every key goes to a bucket
            self._lookup_key_dtype = dtypes.string
            store = TableStore(dtypes.string, dtypes.int64)
            _Table.__init__(self, store, HASH_TABLE, (), name or "hash_bucket")
            self._default_value = convert_to_tensor(-1, dtype=dtypes.int64)
            return
        if initializer.key_dtype not in (dtypes.int64, dtypes.string):
            raise TypeError(f"Invalid `key_dtype`, expected one of "
                            f"{(dtypes.int64, dtypes.string)}, but got {initializer.key_dtype}.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                            f"{initializer.value_dtype}.")
        lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype or initializer.key_dtype)
        if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
            raise TypeError(f"Invalid `key_dtype`, expected "
                            f"{'integer' if lookup_key_dtype.is_integer else 'non-integer'} "
                            f"but got {initializer.key_dtype}.")
        super().__init__(initializer, -1, name=name or "hash_table",
                         experimental_is_anonymous=experimental_is_anonymous)
        self._lookup_key_dtype = lookup_key_dtype

    def size(self, name=None):
        """The vocabulary's size plus the number of OOV buckets."""
        return super().size(name) + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """Each key's id: its vocabulary index, or its hash bucket after the vocabulary."""
        return self._find(keys, -1, name, self._lookup_key_dtype,
                          {"oov_buckets": self._num_oov_buckets})


class StaticHashTableV1(StaticHashTable):
    """TensorFlow 1's StaticHashTable: also `initializer`, the op that fills the table in a
    graph (None eagerly, where the table is filled when made)."""

    @property
    def initializer(self):
        return self._init_op


class StaticVocabularyTableV1(StaticVocabularyTable):
    """TensorFlow 1's StaticVocabularyTable, with `initializer` as StaticHashTableV1's."""

    @property
    def initializer(self):
        return getattr(self, "_init_op", None)


class MutableHashTable(_Table):
    """A table that takes `insert` and `remove`; keys it lacks give `default_value`."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        del experimental_is_anonymous
        self._saves = bool(checkpoint)
        default = convert_to_tensor(default_value, dtype=value_dtype)
        store = TableStore(dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype),
                           value_shape=default.shape.as_list())
        super().__init__(store, MUTABLE_HASH_TABLE, (), name)
        self._default_value = default

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """Each key's value, or the default: `dynamic_default_values` (one value, or one per
        key: shape keys.shape + the value shape) where given, else the table's."""
        if dynamic_default_values is None:
            return self._find(keys, self._default_value, name)
        default = convert_to_tensor(dynamic_default_values)
        if default.dtype != self.value_dtype:
            raise InvalidArgumentError(
                f"LookupTableFindV2: Signature mismatch, have: resource, {self.key_dtype.name}, "
                f"{default.dtype.name}->{default.dtype.name} expected: resource, "
                f"{self.key_dtype.name}, {self.value_dtype.name}->{self.value_dtype.name}")
        return self._find(keys, default, name)

    def insert(self, keys, values, name=None):
        """Add the pairs (keys[i], values[i]), overwriting existing keys' values."""
        keys = convert_to_tensor(keys, dtype=self.key_dtype, name="keys")
        values = convert_to_tensor(values, dtype=self.value_dtype, name="values")
        return self._run(TABLE_INSERT, (keys, values), name or "LookupTableInsertV2")

    def remove(self, keys, name=None):
        """Delete `keys` from the table (keys it lacks are ignored)."""
        keys = self._keys(keys)
        return self._run(TABLE_REMOVE, (keys,), name or "LookupTableRemoveV2")

    def _checkpoint_tensors(self):
        """What tf.train.Checkpoint saves: TensorFlow's table-keys and table-values."""
        if not self._saves:
            return {}
        keys, values = self._store.arrays()
        return {"table-keys": keys, "table-values": values}

    def _restore_tensors(self, tensors):
        if not self._saves:
            return
        if set(tensors) != {"table-keys", "table-values"}:
            raise ValueError(f"{type(self).__name__}: the checkpoint has {sorted(tensors)} for "
                             "this table, not its table-keys and table-values.")
        self._store.replace(tensors["table-keys"], tensors["table-values"])


class DenseHashTable(MutableHashTable):
    """A MutableHashTable whose `empty_key` and `deleted_key` are reserved (TensorFlow's open
    addressing needs them; they may not be inserted or removed)."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        del experimental_is_anonymous
        self._saves = bool(checkpoint)
        if initial_num_buckets is not None and initial_num_buckets & (initial_num_buckets - 1):
            raise ValueError(f"DenseHashTable: initial_num_buckets must be a power of two, got "
                             f"{initial_num_buckets}.")
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        empty, deleted = (np.asarray(k, key_dtype.as_numpy_dtype) for k in (empty_key,
                                                                             deleted_key))
        if empty.tolist() == deleted.tolist():
            raise ValueError("DenseHashTable: empty_key and deleted_key must differ, both are "
                             f"{empty.tolist()!r}.")
        default = convert_to_tensor(default_value, dtype=value_dtype)
        store = TableStore(key_dtype, value_dtype, value_shape=default.shape.as_list(),
                           empty_key=empty.tolist(), deleted_key=deleted.tolist())
        _Table.__init__(self, store, MUTABLE_DENSE_HASH_TABLE, (empty, deleted), name)
        self._default_value = default

    def lookup(self, keys, name=None):
        """Each key's value, or the table's default (TensorFlow's DenseHashTable takes no
        dynamic_default_values)."""
        return self._find(keys, self._default_value, name)

    def insert_or_assign(self, keys, values, name=None):
        """`insert`: add the pairs, overwriting existing keys' values."""
        return self.insert(keys, values, name)

    def erase(self, keys, name=None):
        """`remove`: delete `keys` from the table."""
        return self.remove(keys, name)


# -- SavedModels (saved_model/saved_tables.py) ------------------------------------------------------
_CLASSES = (StaticHashTable, StaticHashTableV1, StaticVocabularyTable, StaticVocabularyTableV1,
            MutableHashTable, DenseHashTable)
_CREATE = {StaticHashTable: HASH_TABLE, MutableHashTable: MUTABLE_HASH_TABLE,
           DenseHashTable: MUTABLE_DENSE_HASH_TABLE}


def table_fields(table):
    """What a SavedModel keeps of a table object besides its contents: its class (the nearest
    of tf.lookup's), name, default value (an array or None), OOV buckets, lookup key dtype and
    whether a checkpoint saves it."""
    cls = next(c for c in type(table).__mro__ if c in _CLASSES)
    default = getattr(table, "_default_value", None)
    fields = {"class": cls.__name__, "name": str(table._name),
              "default_value": None if default is None else default.numpy(),
              "checkpoint": bool(getattr(table, "_saves", True))}
    if isinstance(table, StaticVocabularyTable):
        fields["num_oov_buckets"] = table._num_oov_buckets
        fields["lookup_key_dtype"] = table._lookup_key_dtype.name
    return fields


def restored_table(fields, store, default):
    """A table object of `fields["class"]` over `store` (a restored SavedModel's), whose
    contents are already in the store; `default` is its default value array or None."""
    cls = {c.__name__: c for c in _CLASSES}[fields["class"]]
    table = cls.__new__(cls)
    create = next(op for c, op in reversed(list(_CREATE.items())) if issubclass(cls, c))
    inputs = tuple(np.asarray(store.reserved[k], store.key_dtype.as_numpy_dtype)
                   for k in ("empty_key", "deleted_key")) if cls is DenseHashTable else ()
    _Table.__init__(table, store, create, inputs, str(fields["name"]))
    table._default_value = None if default is None else convert_to_tensor(
        default, dtype=store.value_dtype)
    table._saves = bool(fields["checkpoint"])
    table._initializer = table._init_op = None
    if issubclass(cls, StaticVocabularyTable):
        table._num_oov_buckets = int(fields["num_oov_buckets"])
        table._lookup_key_dtype = fields["lookup_key_dtype"]
    return table
