"""TensorFlow 1's SavedModel writer: `tf.compat.v1.saved_model.Builder` (`builder.
SavedModelBuilder`) and `simple_save`.

A TF 1 SavedModel directory holds `saved_model.pb`, a SavedModel message (schema version 1 and
one MetaGraphDef per tag set), and `variables/variables.{index,data-00000-of-00001}`, the
variables' values in TensorFlow's tensor-bundle checkpoint format, keyed by variable name.
`add_meta_graph_and_variables(sess, tags, ...)` writes the variables as `sess` holds them (the
local ones at their initial values, as wengert's loader expects every variable there) and
adds the session graph's MetaGraphDef: its tags, the GraphDef of the graph (Graph.as_graph_def),
the signatures given, and the main op (or legacy init op) in its collection, which the loader
runs after restoring. `add_meta_graph(tags, ...)` adds another MetaGraphDef of the default
graph over the same variables; `save(as_text=False)` writes saved_model.pb (or the text form,
saved_model.pbtxt) and returns its path. tf.compat.v1.saved_model.load (saved_model/
tf1_loader.py) reads the directory back into a Session. As in TensorFlow, the export directory
must not exist or be empty, variables are written once, and signatures must be SignatureDefs.
`simple_save(session, export_dir, inputs, outputs)` writes a serving SavedModel with one
Predict signature under "serving_default". `MethodNameUpdater(export_dir)` rewrites the method
name of signatures in an existing SavedModel (in the meta graphs of the given tags, or in all).
"""
import os

from ..framework.protos.meta_graph import MetaGraphDef, SavedModel, SignatureDef
from ..graph.collections import GraphKeys
from ..graph.graph import get_default_graph
from ..saved_model.checkpoint_format import _write_checkpoint
from ..saved_model.constants import (DEFAULT_SERVING_SIGNATURE_DEF_KEY, LEGACY_INIT_OP_KEY,
                                     MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB,
                                     SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION,
                                     SERVING, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
from ..saved_model.tf1_loader import read_saved_model
from .signature_defs import predict_signature_def

__all__ = ["MethodNameUpdater", "SavedModelBuilder", "simple_save"]


def _check_signatures(signature_def_map):
    for key, signature in (signature_def_map or {}).items():
        if not isinstance(signature, SignatureDef):
            raise TypeError(f"signature_def_map['{key}'] must be a SignatureDef proto (build one "
                            f"with tf.compat.v1.saved_model.predict_signature_def), got "
                            f"{type(signature).__name__}.")


def _check_op(op, what):
    if op is not None and not hasattr(op, "type"):
        raise TypeError(f"{what} needs to be an Operation, got {op!r:.60}.")


def _variable_values(sess):
    """{name: value}: the global variables as `sess` holds them, the local ones (which TF 1
    programs initialize after loading) at their initial values."""
    graph = sess.graph
    held = graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
    local = [v for v in graph.get_collection(GraphKeys.LOCAL_VARIABLES) if v not in held]
    fetches = list(held) + [v.initial_value for v in local]
    values = sess.run(fetches) if fetches else []
    return {v.op.name: value for v, value in zip(held + local, values)}


class SavedModelBuilder:
    """Builds a TF 1 SavedModel in `export_dir` (see the module docstring)."""

    def __init__(self, export_dir):
        export_dir = os.fspath(export_dir)
        if os.path.exists(export_dir) and os.listdir(export_dir):
            raise AssertionError(f"Export directory already exists, and isn't empty. Please "
                                 f"choose a different export directory, or delete all the "
                                 f"contents of the specified directory: {export_dir}")
        os.makedirs(export_dir, exist_ok=True)
        self._export_dir = export_dir
        self._saved_model = SavedModel(saved_model_schema_version=SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False

    def _meta_graph(self, graph, tags, signature_def_map, main_op, legacy_init_op,
                    strip_default_attrs, clear_devices):
        _check_signatures(signature_def_map)
        _check_op(main_op, "main_op")
        _check_op(legacy_init_op, "legacy_init_op")
        meta = MetaGraphDef()
        meta.meta_info_def.tags.extend(tags)
        meta.meta_info_def.stripped_default_attrs = bool(strip_default_attrs)
        meta.graph_def.MergeFromString(graph.as_graph_def().SerializeToString())
        if clear_devices:
            for node in meta.graph_def.node:
                node.device = ""
        for key, signature in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(signature)
        for key, op in ((MAIN_OP_KEY, main_op), (LEGACY_INIT_OP_KEY, legacy_init_op)):
            if op is not None:
                meta.collection_def[key].node_list.value.append(op.name)
        self._saved_model.meta_graphs.append(meta)

    def _check_assets(self, assets_collection):
        if assets_collection:
            raise NotImplementedError(f"SavedModelBuilder: assets_collection holds "
                                      f"{len(assets_collection)} asset files; wengert's TF 1 "
                                      f"SavedModels carry no assets yet.")

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Write the variables of `sess`'s graph with their values in `sess`, and add its
        MetaGraphDef under `tags`."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been "
                                 "saved. Please invoke `add_meta_graph()` instead.")
        self._check_assets(assets_collection)
        _check_signatures(signature_def_map)
        path = os.path.join(self._export_dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
        if saver is not None:
            saver.save(sess, path, write_meta_graph=False, write_state=False)
        else:
            _write_checkpoint(path, _variable_values(sess))
        self._meta_graph(sess.graph, tags, signature_def_map, main_op, legacy_init_op,
                         strip_default_attrs, clear_devices)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                       legacy_init_op=None, clear_devices=False, main_op=None,
                       strip_default_attrs=False, saver=None):
        """Add the default graph's MetaGraphDef under `tags`, over the variables already
        written (a `saver`, if given, must save the same variables)."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved "
                                 "yet. Please invoke `add_meta_graph_and_variables()` first.")
        self._check_assets(assets_collection)
        if saver is not None and not hasattr(saver, "save"):
            raise TypeError(f"add_meta_graph: saver must be a tf.compat.v1.train.Saver, got "
                            f"{type(saver).__name__}.")
        self._meta_graph(get_default_graph(), tags, signature_def_map, main_op, legacy_init_op,
                         strip_default_attrs, clear_devices)

    def save(self, as_text=False):
        """Write saved_model.pb (saved_model.pbtxt when `as_text`); returns its path."""
        name = SAVED_MODEL_FILENAME_PBTXT if as_text else SAVED_MODEL_FILENAME_PB
        path = os.path.join(self._export_dir, name)
        if as_text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(str(self._saved_model))
        else:
            with open(path, "wb") as f:
                f.write(self._saved_model.SerializeToString())
        return path


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Write a serving SavedModel of `session`'s graph: tag "serve", one Predict signature of
    `inputs` and `outputs` ({name: tensor}) under "serving_default"."""
    signature = predict_signature_def(inputs, outputs)
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(
        session, [SERVING], signature_def_map={DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature},
        main_op=legacy_init_op, clear_devices=True)
    builder.save()


class MethodNameUpdater:
    """Changes the method names of signatures in the SavedModel at `export_dir`."""

    def __init__(self, export_dir):
        self._export_dir = os.fspath(export_dir)
        self._saved_model = read_saved_model(self._export_dir)

    def replace_method_name(self, signature_key, method_name, tags=None):
        """Set the method name of signature `signature_key` in the meta graphs tagged `tags`
        (all meta graphs when None)."""
        if not signature_key:
            raise ValueError("`signature_key` must be defined.")
        if not method_name:
            raise ValueError("`method_name` must be defined.")
        if tags is not None and not isinstance(tags, list):
            tags = [tags]
        found = False
        for meta in self._saved_model.meta_graphs:
            if tags is None or set(tags) == set(meta.meta_info_def.tags):
                if signature_key not in meta.signature_def:
                    raise ValueError(
                        f"MetaGraphDef associated with tags {tags} does not have a "
                        f"signature_def with key: '{signature_key}'. This means either you "
                        "specified the wrong signature key or forgot to put the signature_def "
                        "with the corresponding key in your SavedModel.")
                meta.signature_def[signature_key].method_name = method_name
                found = True
        if not found:
            raise ValueError(f"MetaGraphDef associated with tags {tags} could not be found in "
                             "SavedModel. This means either you specified invalid tags or your "
                             "SavedModel does not have a MetaGraphDef with the specified tags.")

    def save(self, new_export_dir=None):
        """Write the updated saved_model.pb to `new_export_dir` (default: where it was read)."""
        directory = os.fspath(new_export_dir) if new_export_dir else self._export_dir
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, SAVED_MODEL_FILENAME_PB), "wb") as f:
            f.write(self._saved_model.SerializeToString())
