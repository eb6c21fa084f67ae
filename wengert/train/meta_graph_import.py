"""`import_meta_graph`: a graph written by `export_meta_graph` (train/meta_graph.py, where the
file's format is described) rebuilt in the default graph, with a Saver for its variables.

Nothing from the file runs as code: op types are looked up in wengert's op registry (an unknown
one is an error naming it), attribute values are read by graph_json's fixed table of tags, every
op is rebuilt through the graph's `create_op` (its shape rule checks the inputs) in the order the
file lists them, and each variable is made anew, as `Variable(initial value)` would make it,
when the file reaches its initializer; the file's own assign and read ops of a variable are
those of the new variable. Collections are refilled by name. A malformed file is a
`DataLossError` naming it.
"""
import base64
import json
import os

import numpy as np

from ..framework.errors import DataLossError, UnimplementedError
from ..graph.graph import get_default_graph
from ..graph.variables import GraphVariable
from ..saved_model.graph_json import DTYPE_NAMES, _Decoder, _decode_op
from .meta_graph import FORMAT, VERSION
from .saver import Saver
from .saver_def import SaverDef

__all__ = ["import_meta_graph"]


def _bad(filename, what):
    return DataLossError(f"import_meta_graph: '{filename}' is corrupted or not a wengert meta "
                         f"graph: {what}.")


def _read(meta_graph_or_file):
    if isinstance(meta_graph_or_file, dict):
        return meta_graph_or_file, "<meta graph>"
    filename = os.fspath(meta_graph_or_file)
    try:
        with open(filename, "rb") as f:
            meta = json.loads(f.read().decode("utf-8"))
    except OSError:
        raise OSError(f"import_meta_graph: cannot read '{filename}'.") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as err:
        raise _bad(filename, f"not JSON ({err})") from None
    return meta, filename


def _decoded_arrays(entries, filename):
    arrays = {}
    for key, entry in entries.items():
        if entry.get("dtype") == "string":
            items = [base64.b64decode(x, validate=True) for x in entry["items"]]
            arrays[key] = np.array(items + [None], dtype=object)[:-1].reshape(
                tuple(int(d) for d in entry["shape"]))
            continue
        if entry.get("dtype") not in DTYPE_NAMES:
            raise _bad(filename, f"constant {key!r} has an unknown dtype")
        dtype = np.dtype(entry["dtype"])
        blob = base64.b64decode(entry["data"], validate=True)
        shape = tuple(int(d) for d in entry["shape"])
        if len(blob) != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
            raise _bad(filename, f"constant {key!r} has the wrong number of bytes")
        arrays[key] = np.frombuffer(blob, dtype.newbyteorder("<")).astype(dtype).reshape(shape)
    return arrays


def _rebuild(graph, meta, arrays):
    """Rebuild the nodes and variables in `graph`; returns {variable name: variable}."""
    by_node = {}
    for record in meta["variables"]:
        for role in ("handle", "initializer", "read"):
            by_node[record[role]] = (role, record)
    variables, tensors, ops = {}, [], []
    dec = _Decoder(arrays, [])
    for i, node in enumerate(meta["nodes"]):
        role, record = by_node.get(i, (None, None))
        if role == "handle":
            tensors.append(None)
            ops.append(None)
            continue
        if role == "initializer":
            a, b = record["initial"]
            initial = tensors[a][b] if isinstance(tensors[a], tuple) else tensors[a]
            with graph.name_scope(""):
                var = GraphVariable(initial, trainable=record["trainable"],
                                    name=record["name"], collections=[])
            variables[record["name"]] = var
            ops[record["handle"]], tensors[record["handle"]] = var.op, var.op
            tensors.append(var.initializer)
            ops.append(var.initializer)
            continue
        if role == "read":
            var = variables[record["name"]]
            tensors.append(var._snapshot)
            ops.append(var._snapshot.op)
            continue
        tensors.append(_decode_op(graph, node, tensors, ops, variables, dec))
        ops.append(graph.get_operations()[-1])
    return variables


def _restore_collections(graph, collections, variables, import_scope):
    for key, items in collections.items():
        ref = graph.get_collection_ref(key)
        for item in items:
            if "variable" in item:
                value = variables.get(item["variable"])
            elif "tensor" in item:
                value = graph.get_tensor_by_name(_scoped(item["tensor"], import_scope))
            elif "op" in item:
                value = graph.get_operation_by_name(_scoped(item["op"], import_scope))
            else:
                value = item.get("value")
            if value is not None and all(value is not x for x in ref):
                ref.append(value)


def _scoped(name, scope):
    return f"{scope}/{name}" if scope else name


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Rebuild an exported graph in the default graph; returns a Saver for its variables (None
    when it had none)."""
    unknown = sorted(set(kwargs) - {"return_elements"})
    if unknown:
        raise TypeError(f"import_meta_graph: unexpected arguments {unknown}.")
    if import_scope:
        raise UnimplementedError(f"import_meta_graph: import_scope={import_scope!r} is not "
                                 "supported; import into the graph's root.")
    meta, filename = _read(meta_graph_or_file)
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _bad(filename, f"not a {FORMAT} file")
    if meta.get("version") != VERSION:
        raise _bad(filename, f"unknown version {meta.get('version')!r}")
    graph = get_default_graph()
    try:
        arrays = _decoded_arrays(meta["arrays"], filename)
        with graph.as_default(), graph.name_scope(""):
            variables = _rebuild(graph, meta, arrays)
        _restore_collections(graph, meta["collections"], variables, import_scope)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as err:
        raise _bad(filename, f"{type(err).__name__} {err}") from None
    if clear_devices:  # wengert's graphs carry no device placements to clear
        meta["meta_info_def"]["cleared_devices"] = True
    names = kwargs.get("return_elements")
    if names:
        return [graph.get_tensor_by_name(n) if ":" in n else graph.get_operation_by_name(n)
                for n in names]
    if not variables:
        return None
    keys = meta.get("saver_keys") or {name: name for name in variables}
    saver_def = SaverDef(**meta["saver_def"]) if meta.get("saver_def") else None
    return Saver({key: variables[name] for key, name in keys.items()}, saver_def=saver_def)
