"""`tf.compat.v1.saved_model.loader.load(sess, tags, export_dir)`: a TensorFlow 1 SavedModel
that TensorFlow wrote (`saved_model.pb` and a `variables/` checkpoint in its tensor-bundle
format), loaded into a Session's graph.

`saved_model.pb` is a SavedModel message (framework/protos/meta_graph.py); the MetaGraphDef whose
tags equal `tags` is chosen. Its GraphDef is imported with import_graph_def (graph/
graph_import.py: every op type must be one wengert runs, else NotFoundError naming the node and
op type, before any op is made), leaving out the Saver's own nodes (the scope of its
`restore_op_name`: SaveV2, RestoreV2 and the file-name ops), whose work is done here instead:
each variable of the graph takes the value the checkpoint holds under its name, in `sess`. A
main op (`saved_model_main_op`) or legacy init op in the collections then runs. The
MetaGraphDef is returned, so its `signature_def` gives the tensor names to feed and fetch.
Nothing in the directory is executed as code.
"""
import os

from ..framework.errors import NotFoundError
from ..framework.protos.meta_graph import SavedModel
from ..graph.graph_def import GraphDef
from ..framework.registry import raw_op_entry
from ..graph.graph_import import import_with_variables
from ..graph.variables import VAR_HANDLE
from .checkpoint_format import CheckpointReader
from .constants import (LEGACY_INIT_OP_KEY, MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB,
                            SAVED_MODEL_FILENAME_PBTXT)

__all__ = ["load", "read_saved_model", "contains_saved_model", "maybe_saved_model_directory"]

_MAIN_OPS = (MAIN_OP_KEY, LEGACY_INIT_OP_KEY)


def contains_saved_model(export_dir):
    """Whether `export_dir` holds a saved_model.pb (or .pbtxt)."""
    return any(os.path.isfile(os.path.join(os.fspath(export_dir), name))
               for name in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT))


maybe_saved_model_directory = contains_saved_model


def read_saved_model(export_dir):
    """The SavedModel message of `export_dir/saved_model.pb`."""
    path = os.path.join(os.fspath(export_dir), "saved_model.pb")
    if not os.path.isfile(path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}"
                      "{saved_model.pbtxt|saved_model.pb}")
    with open(path, "rb") as f:
        return SavedModel.FromString(f.read())


def _meta_graph(saved_model, tags):
    wanted = set(tags)
    for meta in saved_model.meta_graphs:
        if set(meta.meta_info_def.tags) == wanted:
            return meta
    available = [list(m.meta_info_def.tags) for m in saved_model.meta_graphs]
    raise RuntimeError(f"MetaGraphDef associated with tags {list(tags)!r} could not be found "
                       f"in SavedModel, with available tags '{available}'. To inspect "
                       "available tag-sets in the SavedModel, please use the SavedModel CLI: "
                       "`saved_model_cli`.")


def _without_saver(meta):
    restore = meta.saver_def.restore_op_name
    scope = restore.rsplit("/", 1)[0] + "/" if "/" in restore else None
    out = GraphDef()
    out.node.extend(n for n in meta.graph_def.node
                    if scope is None or not n.name.startswith(scope))
    out.versions.CopyFrom(meta.graph_def.versions)
    return out


def _is_variable(node):
    entry = raw_op_entry(node.op)
    return entry is not None and entry[0] is VAR_HANDLE


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Load the MetaGraphDef tagged `tags` from `export_dir` into `sess` (see the module
    docstring); returns it."""
    if isinstance(tags, str):
        tags = [tags]
    meta = _meta_graph(read_saved_model(export_dir), tags)
    reader = CheckpointReader(os.path.join(os.fspath(export_dir), "variables", "variables"))
    saved = reader.get_variable_to_shape_map()
    graph_def = _without_saver(meta)
    missing = [n.name for n in graph_def.node if _is_variable(n) and n.name not in saved]
    if missing:
        raise NotFoundError(f"loader.load: the SavedModel's checkpoint has no values for the "
                            f"variables {missing}.")
    with sess.graph.as_default():
        _, variables = import_with_variables(graph_def, name=import_scope or "")
    values = reader.get_tensors(list(variables))
    for name, variable in variables.items():
        variable.load(values[name], sess)
    _run_main_ops(sess, meta, import_scope)
    return meta


def _run_main_ops(sess, meta, import_scope):
    prefix = f"{import_scope}/" if import_scope else ""
    for key in _MAIN_OPS:
        if key in meta.collection_def:
            for name in meta.collection_def[key].node_list.value:
                sess.run(prefix + name)
            return
