"""tf.lookup tables in the object graph of TensorFlow's SavedModel, as TensorFlow 2.21 writes them,
so that its `tf.saved_model.load` makes and fills each table before any function runs.

A table (an object's attribute, or a table a saved function uses that no object holds, then a
child "_captured_table_<i>" of the root) is a SavedResource node whose children are functions
of the library (table_defs.py): "_create_resource", "_initialize" and "_destroy_resource", each
a SavedFunction with one trace. A static table also has an "_initializer" child (a user object)
whose "_filename" child, for a TextFileInitializer whose file exists, is a SavedAsset: the file
is copied into assets/ (under its base name) and listed in the MetaGraphDef's asset_file_def
with the tensor "asset_path_initializer[_<n>]:0", and "_initialize" takes its path (the asset is
a bound input of the trace). Otherwise "_initialize" imports the table's contents, written as
Consts. A mutable table (MutableHashTable, DenseHashTable) has the saveable "table": its save
and restore functions are bare concrete functions, and the checkpoint holds its contents under
"<path>/.ATTRIBUTES/table-keys" and "-values", the object graph an attribute "table" with key
"<path>/.ATTRIBUTES/table". A DenseHashTable's are TensorFlow's bucket arrays (dense_buckets).
"""
import os

import numpy as np

from ..data.table_initializers import TextFileInitializer
from ..framework import dtypes
from ..framework.protos.saved_object_graph import SaveableObject
from ..ops.io.hashing import hash64
from ..ops.io.lookup_tables import TableStore
from ..framework.protos.struct import StructuredValue
from .structured_values import function_spec, nest_value, shape_into
from .table_defs import resource_functions

__all__ = ["store_of", "add_table", "table_arrays", "dense_buckets"]

_BUCKETS, _LOAD = 131072, 0.8


def store_of(obj):
    """The TableStore of a table object (or the store itself)."""
    return obj if isinstance(obj, TableStore) else obj._store


def _text_source(obj):
    """("text", attrs, path) of a static table filled from an existing text file, else None."""
    init = getattr(obj, "_initializer", None)
    if not isinstance(init, TextFileInitializer):
        return None
    path = np.asarray(init._filename.numpy()).item()
    path = path.decode("utf-8") if isinstance(path, bytes) else str(path)
    return ("text", dict(init._attrs), path) if os.path.isfile(path) else None


def add_table(builder, node_id):
    """Fill node `node_id` (a table) of the builder (tensorflow_format._Builder): its resource
    proto, function children, initializer and asset nodes and library functions."""
    obj, path, children = builder.nodes[node_id]
    store = store_of(obj)
    source = None
    if store.static:
        source = _text_source(obj) or ("arrays",) + store.arrays()
    functions = resource_functions(builder.function_name, store, store.value_shape, source)
    builder.graph.nodes[node_id].resource.SetInParent()
    asset = None
    if store.static:
        init_id = builder.user_node(path + ("_initializer",))
        children["_initializer"] = init_id
        if source[0] == "text":
            asset = builder.asset_node(path + ("_initializer", "_filename"), source[2])
            builder.nodes[init_id].children["_filename"] = asset
    bound = {"table": node_id, "asset": asset}
    for name in ("_create_resource", "_initialize", "_destroy_resource"):
        children[name] = _function_node(builder, path + (name,), functions[name], bound)
    builder.table_entries.append((node_id, functions["_create_resource"].fdef,
                                  functions["_initialize"].fdef, None if asset is None else
                                  builder.graph.nodes[asset].asset.asset_file_def_index))
    if not store.static:
        saveable = SaveableObject(
            save_function=_bare_node(builder, functions["save_function"], bound),
            restore_function=_bare_node(builder, functions["restore_function"], bound))
        builder.graph.nodes[node_id].saveable_objects["table"].CopyFrom(saveable)


def _spec(name, shape, dtype_enum):
    """A TensorSpec value of a DataType enum (DT_RESOURCE has no wengert dtype)."""
    out = StructuredValue()
    out.tensor_spec_value.name = name
    shape_into(out.tensor_spec_value.shape, shape)
    out.tensor_spec_value.dtype = dtype_enum
    return out


def _concrete(builder, function, bound, inputs):
    fdef = function.fdef
    builder.library.function.append(fdef)
    saved = builder.graph.concrete_functions[fdef.signature.name]
    saved.bound_inputs.extend(bound[kind] for kind in function.bound)
    saved.canonicalized_input_signature.CopyFrom(nest_value((tuple(inputs), {}),
                                                            lambda x: x))
    outputs = [_spec("unknown", [], d) for d in function.outputs]
    if len(outputs) == 1:
        saved.output_signature.CopyFrom(outputs[0])
    else:  # a save function's [{name, slice_spec, tensor}] per saved tensor
        parts = [{"name": outputs[k], "slice_spec": outputs[k + 1], "tensor": outputs[k + 2]}
                 for k in range(0, len(outputs), 3)]
        saved.output_signature.CopyFrom(nest_value(parts, lambda x: x))
    return fdef.signature.name


def _function_node(builder, path, function, bound):
    node_id = builder.user_node(path, kind=None)
    name = _concrete(builder, function, bound, [])
    saved = builder.graph.nodes[node_id].function
    saved.concrete_functions.append(name)
    saved.function_spec.CopyFrom(function_spec(lambda: None, False, ()))
    return node_id


def _bare_node(builder, function, bound):
    args = function.fdef.signature.input_arg[:len(function.arguments)]
    inputs = [_spec(a.name, [] if a.name == "checkpoint_key" else None, a.type)
              for a in args]
    name = _concrete(builder, function, bound, inputs)
    node_id = builder.user_node(None, kind=None)
    bare = builder.graph.nodes[node_id].bare_concrete_function
    bare.concrete_function_name = name
    bare.argument_keywords.extend(function.arguments)
    bare.allowed_positional_arguments = len(function.arguments)
    return node_id


# -- the checkpoint --------------------------------------------------------------------------------
def table_arrays(obj, key):
    """{checkpoint key: array} of a mutable table's contents, `key` its "table" attribute's."""
    store = store_of(obj)
    keys, values = store.arrays()
    if "empty_key" in store.reserved:
        keys, values = dense_buckets(store, keys, values,
                                     getattr(obj, "_initial_num_buckets", None) or _BUCKETS)
    return {f"{key}-keys": keys, f"{key}-values": values}


def _hash(key):
    if isinstance(key, bytes):
        return hash64(key)
    return int(key) & 0xFFFFFFFFFFFFFFFF  # std::hash of an integer is the integer


def dense_buckets(store, keys, values, buckets):
    """TensorFlow's MutableDenseHashTable as its export gives it: keys [buckets, 1] holding each
    key in the bucket its quadratic probing from hash(key) & (buckets - 1) reaches first
    (empty buckets hold empty_key), values [buckets, value size]; the bucket count doubles while
    the keys exceed max_load_factor (0.8) of it, as TensorFlow grows the table."""
    while len(keys) > buckets * _LOAD:
        buckets *= 2
    empty = store.reserved["empty_key"]
    out_keys = np.full((buckets, 1), empty, store.key_dtype.as_numpy_dtype)
    width = int(np.prod(store.value_shape, dtype=np.int64))
    out_values = np.zeros((buckets, width), store.value_dtype.as_numpy_dtype)
    if store.value_dtype == dtypes.string:
        out_values[:] = b""
    filled = np.zeros(buckets, bool)
    for key, value in zip(keys.tolist(), values.reshape(len(keys), width)):
        at, probes = _hash(key) & (buckets - 1), 0
        while filled[at]:
            probes += 1
            at = (at + probes) & (buckets - 1)
        filled[at] = True
        out_keys[at, 0], out_values[at] = key, value
    return out_keys, out_values
