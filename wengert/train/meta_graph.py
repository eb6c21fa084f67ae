"""Meta graphs: a TensorFlow 1 graph with its variables, collections and Saver, in one file.

`export_meta_graph(filename)` writes the default graph so that `import_meta_graph(filename)`
(train/meta_graph_import.py) rebuilds it in another program, with the same op and tensor names,
and returns a Saver for its variables:

    saver = tf.compat.v1.train.import_meta_graph("/tmp/run/model.ckpt-100.meta")
    saver.restore(sess, "/tmp/run/model.ckpt-100")
    logits = tf.compat.v1.get_default_graph().get_tensor_by_name("logits:0")

The file is JSON (`format: wengert-meta-graph`), not TensorFlow's MetaGraphDef protocol buffer:
the ops in creation order, encoded as SavedModels encode a traced function's ops
(saved_model/graph_json.py: an input is `[op index, output index]` or `["var", name]`, attribute
values tagged), constants' arrays inline in base64, one record per variable (its op, initial
value, initializer, read op, trainable, dtype, shape), the collections (variables, tensors and
ops by name, plain numbers and strings as they are) and the SaverDef. Importing never runs code
from the file: op types are looked up in the op registry, each op is rebuilt through the graph's
`create_op` (shape rules check it) and each variable is made anew from its imported initial
value. Control-flow ops (cond, while_loop), whose sub-graphs the format does not hold yet, are
refused by name when exporting.
"""
import base64
import json
import os

import numpy as np

from ..framework.errors import UnimplementedError
from ..framework.variables import Variable, variable_op_name
from ..graph.graph import NO_OP, get_default_graph
from ..graph.variables import GraphVariable
from ..saved_model.graph_json import DTYPE_NAMES, _Encoder, _encode_op

__all__ = ["export_meta_graph", "meta_graph_text", "write_meta_graph_text"]

FORMAT, VERSION = "wengert-meta-graph", 1


def _no_subgraphs(subgraph):
    raise UnimplementedError(f"export_meta_graph: the control-flow sub-graph "
                             f"'{subgraph.name}' (cond / while_loop) cannot be exported yet; "
                             "export a graph without control-flow ops.")


def _graph_variables(graph):
    """The graph's variables, in the order of their ops."""
    found = {}
    for op in graph.get_operations():
        for t in op.inputs:
            if isinstance(t, GraphVariable) and t.graph is graph:
                found.setdefault(id(t), t)
    return sorted(found.values(), key=lambda v: graph.get_operations().index(v.op))


def _variable_record(var, index):
    initial = var.initial_value
    return {"name": variable_op_name(var), "handle": index[id(var.op)],
            "initial": [index[id(initial.op)], initial.value_index],
            "initializer": index[id(var.initializer)], "read": index[id(var._snapshot.op)],
            "trainable": var.trainable}


def _collection_item(item):
    if isinstance(item, Variable):
        return {"variable": variable_op_name(item)}
    if hasattr(item, "op") and hasattr(item, "value_index"):
        return {"tensor": item.name}
    if hasattr(item, "outputs") and hasattr(item, "control_inputs"):
        return {"op": item.name}
    if isinstance(item, (bool, int, float, str)):
        return {"value": item}
    return None


def _saver_keys(saver):
    """{checkpoint key: variable name} of the Saver exported with the graph."""
    if saver is None or not getattr(saver, "_keyed", None):
        return None
    return {key: variable_op_name(var) for key, var in saver._keyed.items()}


class _MetaEncoder(_Encoder):
    """graph_json's encoder, keeping string arrays too (the meta graph stores them itself)."""

    def array(self, value, where):
        key = f"{self.prefix}/{len(self.arrays)}"
        self.arrays[key] = value
        return {"array": key}


def _encoded_array(array):
    if array.dtype == object:  # strings: each element's bytes
        items = [x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in array.ravel()]
        return {"dtype": "string", "shape": list(array.shape),
                "items": [base64.b64encode(x).decode("ascii") for x in items]}
    if array.dtype.name not in DTYPE_NAMES:
        raise UnimplementedError(f"export_meta_graph: a constant of dtype {array.dtype} "
                                 "cannot be exported.")
    data = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    return {"dtype": array.dtype.name, "shape": list(array.shape),
            "data": base64.b64encode(data).decode("ascii")}


def _encoded_arrays(arrays):
    return {key: _encoded_array(np.asarray(array)) for key, array in arrays.items()}


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, saver=None, **kwargs):
    """Write the graph (default: the default graph) to `filename` when given; returns the meta
    graph as plain data."""
    if kwargs:
        raise TypeError(f"export_meta_graph: unexpected arguments {sorted(kwargs)}.")
    for arg, value in (("graph_def", graph_def), ("export_scope", export_scope),
                       ("save_debug_info", save_debug_info or None)):
        if value is not None:
            raise UnimplementedError(f"export_meta_graph: {arg}={value!r:.40} is not supported;"
                                     " export the whole graph.")
    graph = graph if graph is not None else get_default_graph()
    if saver_def is None and saver is not None:
        saver_def = saver.saver_def
    ops = graph.get_operations()
    if clear_extraneous_savers and saver_def is not None:
        ops = [op for op in ops if not (op.op_def is NO_OP and op.name.endswith("/restore_all")
                                        and op.name != saver_def.restore_op_name)]
    index = {id(op): i for i, op in enumerate(ops)}
    arrays = {}
    enc = _MetaEncoder(lambda v, where: variable_op_name(v), arrays, "const", _no_subgraphs)
    nodes = [_encode_op(enc, op, index) for op in ops]
    keys = graph.get_all_collection_keys() if collection_list is None else collection_list
    collections = {}
    for key in keys:
        items = [_collection_item(x) for x in graph.get_collection(key)]
        collections[key] = [x for x in items if x is not None]
    meta = {"format": FORMAT, "version": VERSION, "nodes": nodes,
            "variables": [_variable_record(v, index) for v in _graph_variables(graph)
                          if id(v.op) in index],
            "arrays": _encoded_arrays(arrays), "collections": collections,
            "saver_def": saver_def.as_dict() if saver_def is not None else None,
            "saver_keys": _saver_keys(saver),
            "meta_info_def": dict(meta_info_def or {},
                                  stripped_default_attrs=bool(strip_default_attrs),
                                  cleared_devices=bool(clear_devices))}
    if filename is not None:
        write_meta_graph_text(filename, meta_graph_text(meta, as_text))
    return meta


def meta_graph_text(meta, as_text=False):
    """The file's text for the meta graph `meta` (export_meta_graph's return value)."""
    return json.dumps(meta, indent=1 if as_text else None)


def write_meta_graph_text(filename, text):
    with open(os.fspath(filename), "w", encoding="utf-8") as f:
        f.write(text)
