"""tf.lookup tables in TensorFlow's FunctionDef form, as TensorFlow 2.21 writes a SavedModel.

Inside a traced function a table op holds its table (a `TableStore`) as an attribute and takes
a placeholder handle; TensorFlow's takes the table as a DT_RESOURCE input instead. So a function
using tables gets one "table_handle" argument per table (after its variables' handles), bound to
the table's resource node, and each table op becomes TensorFlow's node over that argument:

    LookupTableFindV2(handle, keys, default)   Tin, Tout          output "values"
    LookupTableInsertV2(handle, keys, values)  Tin, Tout
    LookupTableRemoveV2(handle, keys)          Tin
    LookupTableSizeV2(handle)                                     output "size"
    LookupTableExportV2(handle)                Tkeys, Tvalues     outputs "keys", "values"
    LookupTableImportV2(handle, keys, values)  Tin, Tout

A StaticVocabularyTable's lookup (one find op with `oov_buckets` n here) is written as
TensorFlow's StaticVocabularyTable.lookup builds it: ids = find(keys, -1); buckets =
StringToHashBucketFast(keys as strings, n) + size(); SelectV2(ids != -1, ids, buckets).
The placeholder handles (Consts) are left out.

The table itself is a resource of the object graph, made and filled by functions of its own
(`resource_functions`): "_create_resource" (HashTableV2, MutableHashTableV2,
MutableHashTableOfTensorsV2 for non-scalar values, MutableDenseHashTableV2 with its empty and
deleted keys Consts; each with a unique shared_name), "_initialize" (a static table's
LookupTableImportV2 of its keys and values as Consts, or InitializeTableFromTextFileV2 of its
asset's path, an argument; nothing for a mutable table), "_destroy_resource" (nothing). Each
returns what TensorFlow's return (the handle; the int32 1). A mutable table's contents are its
checkpoint's "table" saveable: `save_function` (checkpoint_key, handle) -> (key + "-keys", "",
exported keys, key + "-values", "", exported values) and `restore_function` (keys, values,
handle) -> LookupTableImportV2.
"""
import uuid

import numpy as np

from ..framework import dtypes
from ..framework.protos.function import FunctionDef
from ..framework.protos.graph import NodeDef
from ..framework.protos.tensor import to_proto
from ..ops.io.lookup_tables import (HASH_TABLE, MUTABLE_DENSE_HASH_TABLE, MUTABLE_HASH_TABLE,
                                    TABLE_EXPORT, TABLE_FIND, TABLE_IMPORT, TABLE_INITIALIZE,
                                    TABLE_INSERT, TABLE_REMOVE, TABLE_SIZE, TableStore)
from .structured_values import shape_into

__all__ = ["is_table_op", "handle_consts", "table_node", "table_ref",
           "resource_functions", "ResourceFunction", "MUTABLE_OF_TENSORS"]

_RESOURCE, _INT32, _INT64 = 20, 3, 9
_STRING = dtypes.string.as_datatype_enum
MUTABLE_OF_TENSORS = "MutableHashTableOfTensorsV2"
_OUTPUTS = {TABLE_FIND.type: ("values",), TABLE_SIZE.type: ("size",),
            TABLE_EXPORT.type: ("keys", "values")}
_TYPES = {TABLE_FIND.type: ("Tin", "Tout"), TABLE_INSERT.type: ("Tin", "Tout"),
          TABLE_IMPORT.type: ("Tin", "Tout"), TABLE_INITIALIZE.type: ("Tkey", "Tval"),
          TABLE_REMOVE.type: ("Tin",), TABLE_SIZE.type: (), TABLE_EXPORT.type: ()}


def is_table_op(op):
    return isinstance(op.attrs.get("table"), TableStore)


def table_ref(store):
    """The body-local name of the handle of the table `store` (not a tensor name)."""
    return f"#table:{id(store)}"


def handle_consts(ops):
    """ids of the ops (placeholder handles) whose outputs only table ops take as handles."""
    handles = {id(op.inputs[0].op) for op in ops if is_table_op(op) and op.inputs}
    for op in ops:
        skip = 1 if is_table_op(op) else 0
        handles.difference_update(id(t.op) for t in op.inputs[skip:] if hasattr(t, "op"))
    return handles


def _unique(name, taken):
    unique, n = name, 0
    while unique in taken:
        n += 1
        unique = f"{name}_{n}"
    taken.add(unique)
    return unique


def _node(fdef_or_list, name, op_type, inputs, **types):
    if isinstance(fdef_or_list, list):
        node = NodeDef(name=name, op=op_type, input=list(inputs))
        fdef_or_list.append(node)
    else:
        node = fdef_or_list.node_def.add(name=name, op=op_type, input=list(inputs))
    for key, value in types.items():
        node.attr[key].type = value
    return node


def table_node(op, handle, refs_of, after=None):
    """([(op, NodeDef)], {wengert ref: TensorFlow ref}) of a table op whose table's handle is
    the body name `handle`; `refs_of(t)` is the wengert ref of an input tensor; `after` the
    previous node over the same table, which this one follows (a control input, as
    TensorFlow's automatic control dependencies order the ops of one resource)."""
    pairs, refs = _table_node(op, handle, refs_of)
    first = pairs[0][1]
    if after is not None:
        first.input.append(f"^{after}")
    first.input.extend(f"^{c.name}" for c in op.control_inputs)
    return pairs, refs


def _table_node(op, handle, refs_of):
    if op.type not in _TYPES:
        raise ValueError(f"{op.type} inside a function has no TensorFlow form here (a table "
                         "is made and filled by its own functions)")
    if op.attrs.get("oov_buckets"):
        return _vocabulary_lookup(op, handle, refs_of)
    nodes = []
    inputs = [handle] + [refs_of(t) for t in op.inputs[1:]]
    node = _node(nodes, op.name, op.type, inputs)
    dtypes_in = [t.dtype for t in op.inputs[1:]]
    if op.type == TABLE_EXPORT.type:
        dtypes_in = [t.dtype for t in op.outputs]
        names = ("Tkeys", "Tvalues")
    else:
        names = _TYPES[op.type]
    for key, dtype in zip(names, dtypes_in):
        node.attr[key].type = dtypes.as_dtype(dtype).as_datatype_enum
    refs = {}
    for k, arg in enumerate(_OUTPUTS.get(op.type, ())):
        refs[op.name if k == 0 else f"{op.name}:{k}"] = f"{op.name}:{arg}:0"
    return [(op, node)], refs


def _vocabulary_lookup(op, handle, refs_of):
    """TensorFlow's StaticVocabularyTable.lookup (see the module docstring)."""
    keys, default = (refs_of(t) for t in op.inputs[1:3])
    key_dtype = op.inputs[1].dtype
    nodes, base = [], op.name
    strings = keys
    if key_dtype != dtypes.string:
        cast = _node(nodes, f"{base}/as_string", "AsString", [keys],
                     T=key_dtype.as_datatype_enum)
        for key, value in (("precision", -1), ("width", -1)):
            cast.attr[key].i = value
        cast.attr["scientific"].b = cast.attr["shortest"].b = False
        cast.attr["fill"].s = b""
        strings = f"{base}/as_string:output:0"
    bucket = _node(nodes, f"{base}/hash_bucket", "StringToHashBucketFast", [strings])
    bucket.attr["num_buckets"].i = int(op.attrs["oov_buckets"])
    _node(nodes, f"{base}/find", TABLE_FIND.type, [handle, keys, default],
          Tin=key_dtype.as_datatype_enum, Tout=_INT64)
    _node(nodes, f"{base}/size", TABLE_SIZE.type, [handle, f"^{base}/find"])
    _node(nodes, f"{base}/add", "AddV2", [f"{base}/hash_bucket:output:0",
                                          f"{base}/size:size:0"], T=_INT64)
    ne = _node(nodes, f"{base}/not_equal", "NotEqual", [f"{base}/find:values:0", default],
               T=_INT64)
    ne.attr["incompatible_shape_error"].b = True
    _node(nodes, base, "SelectV2", [f"{base}/not_equal:z:0", f"{base}/find:values:0",
                                    f"{base}/add:z:0"], T=_INT64)
    refs = {op.name: f"{base}:output:0"}
    for node in nodes[:-1]:  # the lowering's own tensors keep their names
        for arg in ("output", "values", "size", "z"):
            refs[f"{node.name}:{arg}:0"] = f"{node.name}:{arg}:0"
    return [(op, node) for node in nodes], refs


# -- the resource's own functions ----------------------------------------------------------------
class ResourceFunction:
    """A function of a table resource: its FunctionDef, the kinds of what it is bound to
    ("table", "asset"), its argument keywords and output dtypes (for its SavedConcreteFunction)."""

    def __init__(self, fdef, bound, arguments=(), outputs=(_INT32,)):
        self.fdef, self.bound = fdef, list(bound)
        self.arguments, self.outputs = list(arguments), list(outputs)


def _start(name, stateful=True):
    fdef = FunctionDef()
    fdef.signature.name = name
    fdef.signature.is_stateful = stateful
    return fdef


def _const(fdef, name, array, dtype):
    node = _node(fdef, name, "Const", [])
    node.attr["value"].tensor.CopyFrom(to_proto(np.asarray(array), dtype))
    node.attr["dtype"].type = dtype.as_datatype_enum
    return f"{name}:output:0"


def _return(fdef, refs_and_types, controls=()):
    """Each output through an Identity ("identity", "identity_1", ...); `controls` the
    stateful nodes, TensorFlow's control outputs."""
    for i, (ref, dtype) in enumerate(refs_and_types):
        suffix = "" if i == 0 else f"_{i}"
        _node(fdef, f"Identity{suffix}", "Identity", [ref], T=dtype)
        fdef.signature.output_arg.add(name=f"identity{suffix}", type=dtype)
        fdef.ret[f"identity{suffix}"] = f"Identity{suffix}:output:0"
    for name in controls:
        fdef.signature.control_output.append(name)
        fdef.control_ret[name] = name
    return fdef


def _one(fdef, controls=()):
    return _return(fdef, [(_const(fdef, "Const", np.int32(1), dtypes.int32), _INT32)], controls)


def _handle_arg(fdef):
    arg = fdef.signature.input_arg.add(name="table_handle", type=_RESOURCE)
    fdef.arg_attr[len(fdef.signature.input_arg) - 1].attr["_user_specified_name"].s = \
        b"table_handle"
    return arg.name


def _creator(name, store, value_shape):
    fdef = _start(name)
    if store.static:
        op_type, node_name, inputs = HASH_TABLE.type, "hash_table", []
    elif "empty_key" in store.reserved:
        op_type, node_name = MUTABLE_DENSE_HASH_TABLE.type, "MutableDenseHashTable"
        inputs = [_const(fdef, key, np.asarray(store.reserved[key],
                                               store.key_dtype.as_numpy_dtype), store.key_dtype)
                  for key in ("empty_key", "deleted_key")]
    elif value_shape:
        op_type, node_name, inputs = MUTABLE_OF_TENSORS, "MutableHashTable", []
    else:
        op_type, node_name, inputs = MUTABLE_HASH_TABLE.type, "MutableHashTable", []
    node = _node(fdef, node_name, op_type, inputs, key_dtype=store.key_dtype.as_datatype_enum,
                 value_dtype=store.value_dtype.as_datatype_enum)
    prefix = "hash_table" if store.static else "table"
    node.attr["shared_name"].s = f"{prefix}_{uuid.uuid4().hex}".encode()
    node.attr["container"].s = b""
    node.attr["use_node_name_sharing"].b = False
    if op_type != HASH_TABLE.type and op_type != MUTABLE_HASH_TABLE.type:
        shape_into(node.attr["value_shape"].shape, value_shape)
    if op_type == MUTABLE_DENSE_HASH_TABLE.type:
        node.attr["initial_num_buckets"].i = 131072
        node.attr["max_load_factor"].f = 0.8
    return _return(fdef, [(f"{node_name}:table_handle:0", _RESOURCE)], [node_name])


def _initializer(name, store, source):
    """A static table's filling: source ("arrays", keys, values) or ("text", attrs)."""
    if not store.static:
        return ResourceFunction(_one(_start(name, stateful=False)), [])
    fdef = _start(name)
    handle = _handle_arg(fdef)
    if source[0] == "text":
        filename = fdef.signature.input_arg.add(name="asset_filepath", type=_STRING).name
        node = _node(fdef, "text_file_init/InitializeTableFromTextFileV2",
                     "InitializeTableFromTextFileV2", [handle, filename])
        attrs = source[1]
        for key in ("key_index", "value_index", "vocab_size", "offset"):
            node.attr[key].i = int(attrs[key])
        node.attr["delimiter"].s = str(attrs["delimiter"]).encode("utf-8")
        return ResourceFunction(_one(fdef, [node.name]), ["table", "asset"])
    keys = _const(fdef, "keys", source[1], store.key_dtype)
    values = _const(fdef, "values", source[2], store.value_dtype)
    node = _node(fdef, "key_value_init/LookupTableImportV2", TABLE_IMPORT.type,
                 [handle, keys, values], Tin=store.key_dtype.as_datatype_enum,
                 Tout=store.value_dtype.as_datatype_enum)
    return ResourceFunction(_one(fdef, [node.name]), ["table"])


def _save(name, store):
    fdef = _start(name)
    key = fdef.signature.input_arg.add(name="checkpoint_key", type=_STRING).name
    fdef.arg_attr[0].attr["_user_specified_name"].s = b"checkpoint_key"
    handle = _handle_arg(fdef)
    export = "lookup_table_export_values/LookupTableExportV2"
    _node(fdef, export, TABLE_EXPORT.type, [handle], Tkeys=store.key_dtype.as_datatype_enum,
          Tvalues=store.value_dtype.as_datatype_enum)
    outputs = []
    for i, (suffix, arg, dtype) in enumerate((("-keys", "keys", store.key_dtype),
                                              ("-values", "values", store.value_dtype))):
        add = f"add_{i}" if i else "add"
        y = _const(fdef, f"{add}/y", np.array(suffix.encode(), object), dtypes.string)
        _node(fdef, add, "Add", [key, y], T=_STRING)
        empty = _const(fdef, f"Const_{i}" if i else "Const", np.array(b"", object),
                       dtypes.string)
        outputs += [(f"{add}:z:0", _STRING), (empty, _STRING),
                    (f"{export}:{arg}:0", dtype.as_datatype_enum)]
    return ResourceFunction(_return(fdef, outputs, [export]), ["table"], ["checkpoint_key"],
                            [dtype for _, dtype in outputs])


def _restore(name, store):
    fdef = _start(name)
    args = [fdef.signature.input_arg.add(name=f"restored_tensors_{i}",
                                         type=d.as_datatype_enum).name
            for i, d in enumerate((store.key_dtype, store.value_dtype))]
    for i, arg in enumerate(args):
        fdef.arg_attr[i].attr["_user_specified_name"].s = arg.encode()
    handle = _handle_arg(fdef)
    node = _node(fdef, "table_restore/LookupTableImportV2", TABLE_IMPORT.type,
                 [handle] + args, Tin=store.key_dtype.as_datatype_enum,
                 Tout=store.value_dtype.as_datatype_enum)
    return ResourceFunction(_one(fdef, [node.name]), ["table"], args)


def resource_functions(names, store, value_shape, source):
    """{child name: ResourceFunction} of a table (see the module docstring); `names(kind)`
    gives each function's library name; source: ("arrays", keys, values) or ("text",
    attrs) for a static table, None for a mutable one."""
    out = {"_create_resource": ResourceFunction(
        _creator(names("_creator"), store, value_shape), [], outputs=[_RESOURCE]),
        "_initialize": _initializer(names("_initializer"), store, source),
        "_destroy_resource": ResourceFunction(_one(_start(names("_destroyer"), False)), [])}
    if not store.static:
        out["save_function"] = _save(names("save_fn"), store)
        out["restore_function"] = _restore(names("restore_fn"), store)
    return out
