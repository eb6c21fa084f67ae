"""The top-level graph of TensorFlow's SavedModel, which TensorFlow 1's loader, TensorFlow
Serving and `saved_model_cli run` use (TensorFlow 2's `tf.saved_model.load` reads the object
graph instead): one VarHandleOp per saved variable (shared_name its node name), and per
signature a Placeholder per input ("<signature>_<keyword>") and a StatefulPartitionedCall of the
signature's function on those placeholders and the variables' handles, whose outputs the
signature def names ("StatefulPartitionedCall:0", ...). Each lookup table is made by a copy of
its creator's nodes (HashTableV2 ..., the same shared_name) and filled by a call of its
initializer function (on a string Placeholder per asset, named as asset_file_def names it,
which TensorFlow 1's loader feeds with the asset's path); the NoOp after those calls is the
main op (collection "saved_model_main_op", signature "__saved_model_init_op"). The saver: a
string Placeholder "saver_filename" and two more calls, of a save function (SaveV2 of every
variable's value under its checkpoint key) and a restore function (RestoreV2 of those keys,
each assigned to its variable), which the SaverDef names, so that a loader restores the
variables from variables/ (and the mutable tables: LookupTableExportV2 of each into SaveV2,
LookupTableImportV2 of what RestoreV2 reads).
"""
import numpy as np

from ..framework import dtypes
from ..framework.protos.function import FunctionDef
from ..framework.protos.meta_graph import SaverDef
from ..framework.protos.tensor import to_proto
from ..framework.variables import variable_op_name
from ..ops.array_ops import IDENTITY
from ..ops.io.lookup_tables import TableStore
from .structured_values import shape_into

__all__ = ["write_graph"]

_RESOURCE, _STRING, _INT32 = 20, dtypes.string.as_datatype_enum, dtypes.int32.as_datatype_enum


class _Graph:
    def __init__(self, graph_def):
        self.graph_def, self.taken = graph_def, set()

    def add(self, name, op, inputs=(), **types):
        unique, n = name, 0
        while unique in self.taken:
            n += 1
            unique = f"{name}_{n}"
        self.taken.add(unique)
        node = self.graph_def.node.add(name=unique, op=op, input=list(inputs))
        for key, value in types.items():
            node.attr[key].type = value
        return node


def _call(graph, function_name, inputs, in_types, out_types):
    node = graph.add("StatefulPartitionedCall", "StatefulPartitionedCall", inputs)
    node.attr["f"].func.name = function_name
    node.attr["Tin"].list.type.extend(in_types)
    node.attr["Tout"].list.type.extend(out_types)
    for key in ("config", "config_proto", "executor_type"):
        node.attr[key].s = b""
    return node.name


def write_graph(meta, variables, calls, name_prefix, tables=(), saved_tables=()):
    """Fill meta.graph_def's nodes and meta.saver_def, and add the saver's functions to the
    library. variables: [(id of the variable, Variable, checkpoint key)]; calls: [(signature
    key, function name, [(keyword, dtype, shape)], [variable or table ids], [output dtypes])];
    tables: [(table id, creator FunctionDef, initializer FunctionDef, asset index or None)];
    saved_tables: [(table id, TableStore, checkpoint key)] of the tables whose contents the
    checkpoint holds ("<key>-keys", "<key>-values"). Returns {signature key: call node name}."""
    graph = _Graph(meta.graph_def)
    handles = _tables(meta, graph, tables)
    for var_id, var, _ in variables:
        node = graph.add(variable_op_name(var), "VarHandleOp", dtype=var.dtype.as_datatype_enum)
        node.attr["shared_name"].s = node.name.encode("utf-8")
        node.attr["container"].s = b""
        shape_into(node.attr["shape"].shape, var.shape)
        handles[var_id] = node.name
    out = {}
    for key, function, inputs, bound, out_types in calls:
        names = []
        for keyword, dtype, shape in inputs:
            node = graph.add(f"{key}_{keyword}", "Placeholder",
                             dtype=dtypes.as_dtype(dtype).as_datatype_enum)
            shape_into(node.attr["shape"].shape, shape)
            names.append(node.name)
        in_types = [dtypes.as_dtype(d).as_datatype_enum for _, d, _ in inputs]
        out[key] = _call(graph, function, names + [handles[v] for v in bound],
                         in_types + [_RESOURCE] * len(bound),
                         [dtypes.as_dtype(d).as_datatype_enum for d in out_types])
    if variables or saved_tables:
        _saver(meta, graph, list(variables) + list(saved_tables), handles, name_prefix)
    return out


def _tables(meta, graph, tables):
    """Make and fill the tables (see the module docstring); {table id: handle node name}."""
    assets = []
    for entry in meta.asset_file_def:
        node = graph.add(entry.tensor_info.name.split(":")[0], "Placeholder", dtype=_STRING)
        node.attr["shape"].shape.SetInParent()
        assets.append(node.name)
    handles, inits = {}, []
    for table_id, creator, initializer, asset in tables:
        renamed = {}
        for body in creator.node_def:
            if body.op == IDENTITY.type:
                continue
            node = graph.add(body.name, body.op, [renamed[t.split(":")[0]] for t in body.input])
            for key in body.attr:
                node.attr[key].CopyFrom(body.attr[key])
            renamed[body.name] = node.name
        handles[table_id] = node.name
        inputs = [a.type for a in initializer.signature.input_arg]
        if inputs:
            args = [node.name] + ([assets[asset]] if asset is not None else [])
            inits.append(_call(graph, initializer.signature.name, args, inputs, [_INT32]))
    if inits:
        main = graph.add("NoOp", "NoOp", [f"^{n}" for n in inits])
        meta.collection_def["saved_model_main_op"].node_list.value.append(main.name)
        info = meta.signature_def["__saved_model_init_op"].outputs["__saved_model_init_op"]
        info.name = main.name
        info.tensor_shape.unknown_rank = True
    return handles


def _saver(meta, graph, variables, handles, name_prefix):
    filename = graph.add("saver_filename", "Placeholder", dtype=_STRING)
    filename.attr["shape"].shape.SetInParent()
    inputs = [filename.name] + [handles[v] for v, _, _ in variables]
    in_types = [_STRING] + [_RESOURCE] * len(variables)
    save_name, restore_name = f"{name_prefix}_traced_save", f"{name_prefix}_traced_restore"
    meta.graph_def.library.function.append(_save_function(save_name, variables))
    meta.graph_def.library.function.append(_restore_function(restore_name, variables))
    save = _call(graph, save_name, inputs, in_types, [_STRING])
    restore = _call(graph, restore_name, inputs, in_types, [_STRING])
    meta.saver_def.CopyFrom(SaverDef(filename_tensor_name=f"{filename.name}:0",
                                     save_tensor_name=f"{save}:0", restore_op_name=restore,
                                     version=SaverDef.V2))


def _body_node(fdef, name, op_type, inputs=()):
    """A node of a function body (op_type: TensorFlow's op type name)."""
    return fdef.node_def.add(name=name, op=op_type, input=list(inputs))


def _signature(name, variables):
    fdef = FunctionDef()
    fdef.signature.name = name
    fdef.signature.is_stateful = True
    fdef.signature.input_arg.add(name="file_prefix", type=_STRING)
    for i, (_, var, _) in enumerate(variables):
        arg = fdef.signature.input_arg.add(name=f"variable_{i}", type=_RESOURCE)
        if not isinstance(var, TableStore):
            handle = arg.handle_data.add(dtype=var.dtype.as_datatype_enum)
            shape_into(handle.shape, var.shape)
    fdef.signature.output_arg.add(name="identity", type=_STRING)
    return fdef


def _saved_keys(variables):
    """[(checkpoint key, dtype enum)] of the saved tensors: a variable's value, a table's keys
    and values."""
    out = []
    for _, var, key in variables:
        if isinstance(var, TableStore):
            out += [(f"{key}-keys", var.key_dtype.as_datatype_enum),
                    (f"{key}-values", var.value_dtype.as_datatype_enum)]
        else:
            out.append((key, var.dtype.as_datatype_enum))
    return out


def _strings(fdef, name, values):
    node = _body_node(fdef, name, "Const")
    array = np.empty(len(values), dtype=object)
    array[:] = [v.encode("utf-8") for v in values]
    node.attr["value"].tensor.CopyFrom(to_proto(array, dtypes.string))
    node.attr["dtype"].type = _STRING
    return f"{name}:output:0"


def _finish(fdef, after):
    node = _body_node(fdef, "Identity", "Identity", ["file_prefix"])
    node.input.extend(f"^{n}" for n in after)
    node.attr["T"].type = _STRING
    fdef.ret["identity"] = "Identity:output:0"
    for n in after:
        fdef.signature.control_output.append(n)
        fdef.control_ret[n] = n
    return fdef


def _save_function(name, variables):
    """file_prefix, handles -> SaveV2 of the variables' values under their keys."""
    fdef = _signature(name, variables)
    reads = []
    for i, (_, var, _) in enumerate(variables):
        if isinstance(var, TableStore):
            export = _body_node(fdef, f"export_{i}", "LookupTableExportV2", [f"variable_{i}"])
            export.attr["Tkeys"].type = var.key_dtype.as_datatype_enum
            export.attr["Tvalues"].type = var.value_dtype.as_datatype_enum
            reads += [f"export_{i}:keys:0", f"export_{i}:values:0"]
            continue
        read = _body_node(fdef, f"read_{i}", "ReadVariableOp", [f"variable_{i}"])
        read.attr["dtype"].type = var.dtype.as_datatype_enum
        reads.append(f"read_{i}:value:0")
    saved = _saved_keys(variables)
    keys = _strings(fdef, "tensor_names", [k for k, _ in saved])
    slices = _strings(fdef, "shape_and_slices", [""] * len(saved))
    save = _body_node(fdef, "SaveV2", "SaveV2", ["file_prefix", keys, slices] + reads)
    save.attr["dtypes"].list.type.extend(d for _, d in saved)
    return _finish(fdef, ["SaveV2"])


def _restore_function(name, variables):
    """file_prefix, handles -> each variable assigned the value RestoreV2 reads for its key."""
    fdef = _signature(name, variables)
    saved = _saved_keys(variables)
    keys = _strings(fdef, "tensor_names", [k for k, _ in saved])
    slices = _strings(fdef, "shape_and_slices", [""] * len(saved))
    restore = _body_node(fdef, "RestoreV2", "RestoreV2", ["file_prefix", keys, slices])
    restore.attr["dtypes"].list.type.extend(d for _, d in saved)
    assigns, at = [], 0
    for i, (_, var, _) in enumerate(variables):
        if isinstance(var, TableStore):
            node = _body_node(fdef, f"import_{i}", "LookupTableImportV2",
                              [f"variable_{i}", f"RestoreV2:tensors:{at}",
                               f"RestoreV2:tensors:{at + 1}"])
            node.attr["Tin"].type = var.key_dtype.as_datatype_enum
            node.attr["Tout"].type = var.value_dtype.as_datatype_enum
            at += 2
        else:
            node = _body_node(fdef, f"assign_{i}", "AssignVariableOp",
                              [f"variable_{i}", f"RestoreV2:tensors:{at}"])
            node.attr["dtype"].type = var.dtype.as_datatype_enum
            at += 1
        assigns.append(node.name)
    return _finish(fdef, assigns)
