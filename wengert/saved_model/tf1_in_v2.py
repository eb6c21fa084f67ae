"""`tf.saved_model.load` of a TensorFlow 1 SavedModel that TensorFlow wrote (`saved_model.pb`
with a MetaGraphDef and its signatures, `variables/` in the tensor-bundle format), as TensorFlow
2 loads one: an object whose `signatures` are functions of keyword tensors returning a dict, and
whose `variables` are eager variables holding the checkpoint's values.

The MetaGraphDef is chosen by `tags` (or is the only one). Each variable node (VarHandleOp)
becomes an eager Variable with the value the checkpoint holds under its name. Each signature is
traced once into a function: the sub-graph that reaches its outputs is imported with
import_graph_def inside the trace, the signature's inputs and the variables replacing the graph's
placeholders and variable reads through `input_map` (each variable node written as a
placeholder, each read of it as an Identity), so calling a signature runs wengert's ops on the
current values of the variables, and a GradientTape sees the variables (fine-tuning works).
Nothing in the directory is executed as code; an op type wengert lacks is a NotFoundError naming
the node, before any variable is made. A MetaGraphDef with an object graph (TensorFlow 2 wrote
it: traced functions and the objects holding them) is rebuilt by tf2_loader.py instead.
"""
import os

from ..framework import dtypes
from ..framework.registry import raw_op_entry
from ..framework.variables import READ_VARIABLE, Variable
from ..framework.errors import NotFoundError
from ..graph.graph import PLACEHOLDER
from ..graph.graph_def import GraphDef
from ..graph.graph_import import import_graph_def
from ..graph.variables import VAR_HANDLE
from ..module.module import Module
from ..ops.array_ops import IDENTITY
from ..tf1.graph_util import extract_sub_graph
from ..tracing.function import function
from ..tracing.func_graph import init_scope
from ..tracing.signatures import TensorSpec
from .checkpoint_format import CheckpointReader
from .load import TENSORFLOW_LOADERS, SignatureFunction
from .tf1_loader import read_saved_model
from .tf2_loader import load_tf2

__all__ = ["load_v1_in_v2"]


def _op_def(node):
    entry = raw_op_entry(node.op)
    return entry[0] if entry else None


def _choose(saved_model, tags):
    metas = list(saved_model.meta_graphs)
    if tags is None:
        if len(metas) != 1:
            raise ValueError(f"Importing a SavedModel with tf.saved_model.load requires a "
                             f"'tags=' argument if there is more than one MetaGraph. Got "
                             f"'tags=None', but there are {len(metas)} MetaGraphs in the "
                             f"SavedModel with tag sets: "
                             f"{[list(m.meta_info_def.tags) for m in metas]}.")
        return metas[0]
    wanted = {tags} if isinstance(tags, str) else set(tags)
    for meta in metas:
        if set(meta.meta_info_def.tags) == wanted:
            return meta
    raise RuntimeError(f"MetaGraphDef associated with tags {sorted(wanted)!r} could not be "
                       "found in SavedModel.")


def _rewritten(graph_def):
    """The GraphDef with variable nodes as placeholders and their reads as Identities."""
    out = GraphDef()
    for node in graph_def.node:
        copy = out.node.add()
        copy.CopyFrom(node)
        op_def = _op_def(node)
        if op_def is VAR_HANDLE:
            copy.op = PLACEHOLDER.type
            for key in [k for k in copy.attr if k not in ("dtype", "shape")]:
                del copy.attr[key]
        elif op_def is READ_VARIABLE:
            copy.op = IDENTITY.type
            copy.attr["T"].type = node.attr["dtype"].type
            del copy.attr["dtype"]
    out.versions.CopyFrom(graph_def.versions)
    return out


def _spec(name, info):
    dims = None if info.tensor_shape.unknown_rank else [
        None if d.size < 0 else d.size for d in info.tensor_shape.dim]
    return TensorSpec(dims, dtypes.as_dtype(info.dtype), name=name)


def _signature(graph_def, signature, variables):
    in_names, out_names = sorted(signature.inputs), sorted(signature.outputs)
    sub = extract_sub_graph(graph_def, [signature.outputs[k].name.split(":")[0]
                                        for k in out_names])
    used = {n.name for n in sub.node}
    fetch = [signature.outputs[k].name for k in out_names]

    def call(*args):
        mapping = {signature.inputs[k].name: a for k, a in zip(in_names, args)}
        mapping.update({f"{name}:0": v for name, v in variables.items() if name in used})
        return import_graph_def(sub, input_map=mapping, return_elements=fetch, name="")

    specs = [_spec(k, signature.inputs[k]) for k in in_names]
    concrete = function(call, input_signature=specs).get_concrete_function()
    return SignatureFunction(concrete, in_names, out_names)


class _LoadedV1(Module):
    """A TensorFlow 1 SavedModel loaded for TensorFlow 2 code: `signatures` and `variables`."""

    def __init__(self, variables, signatures):
        super().__init__(name="loaded_v1")
        self._loaded_variables = list(variables)
        self.signatures = signatures


def _check_op_types(meta):
    for node in meta.graph_def.node:
        if raw_op_entry(node.op) is None and not node.name.startswith(_saver_scope(meta)):
            raise NotFoundError(f"tf.saved_model.load: node '{node.name}' has op type "
                                f"'{node.op}', which wengert does not run (Op type not "
                                f"registered '{node.op}').")


def _saver_scope(meta):
    restore = meta.saver_def.restore_op_name
    return restore.rsplit("/", 1)[0] + "/" if "/" in restore else "\0"


def load_v1_in_v2(export_dir, tags=None):
    """The TensorFlow 1 SavedModel in `export_dir` (see the module docstring)."""
    meta = _choose(read_saved_model(export_dir), tags)
    if meta.HasField("object_graph_def"):
        return load_tf2(export_dir, meta)
    _check_op_types(meta)
    graph_def = _rewritten(meta.graph_def)
    names = [n.name for n in meta.graph_def.node if _op_def(n) is VAR_HANDLE]
    reader = CheckpointReader(os.path.join(os.fspath(export_dir), "variables", "variables"))
    missing = [n for n in names if n not in reader.get_variable_to_shape_map()]
    if missing:
        raise NotFoundError(f"tf.saved_model.load: the SavedModel's checkpoint has no values "
                            f"for the variables {missing}.")
    values = reader.get_tensors(names)
    with init_scope():
        variables = {name: Variable(values[name], name=name) for name in names}
    signatures = {key: _signature(graph_def, sig, variables)
                  for key, sig in meta.signature_def.items()}
    return _LoadedV1(variables.values(), signatures)


TENSORFLOW_LOADERS.append(load_v1_in_v2)
