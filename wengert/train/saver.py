"""`tf.compat.v1.train.Saver`: TensorFlow 1's name-based checkpoints of variables.

    saver = tf.compat.v1.train.Saver(max_to_keep=3)
    path = saver.save(sess, "/tmp/run/model.ckpt", global_step=step)   # ".../model.ckpt-100"
    saver.restore(sess, tf.compat.v1.train.latest_checkpoint("/tmp/run"))

A Saver maps checkpoint keys to variables. By default (graph mode only) it takes the graph's
global variables and saveable objects as they are when it is built, each keyed by its op name
("layer1/w", no ":0"); `var_list` may instead list the variables (keyed the same way) or map
chosen keys to variables. `save` reads every value through the session (or eagerly), writes
the checkpoint files (saved_model/checkpoint_format.py), records the path among the last
checkpoints, deletes the oldest beyond `max_to_keep` unless it falls on the
`keep_checkpoint_every_n_hours` schedule, rewrites the directory's state file
(train/checkpoint_state.py) and, in graph mode, writes the meta graph of the session's graph
beside the checkpoint (of `sess.graph`, as TensorFlow's does, also when save is called under
another default graph; the text of the previous save is written again while the graph, its
collections and the SaverDef are unchanged).
`restore` reads and checks every key, dtype and shape first and only then assigns, so a
checkpoint that lacks a key raises TensorFlow's NotFoundError naming it and changes nothing.
"""
import os
import threading
import time

import numpy as np

from ..framework.context import state
from ..framework.errors import InvalidArgumentError, NotFoundError
from ..framework.variables import Variable, variable_op_name
from ..graph.collections import GraphKeys
from ..graph.graph import NO_OP
from ..graph.variables import GraphVariable
from ..runtime.session import Session
from ..saved_model.checkpoint_format import CheckpointReader, _write_checkpoint
from .checkpoint_state import checkpoint_exists, get_checkpoint_mtimes, remove_checkpoint, \
    update_checkpoint_state
from .meta_graph import export_meta_graph, meta_graph_text, write_meta_graph_text
from .saver_def import SaverDef

__all__ = ["Saver"]

_NOT_FOUND = ("Restoring from checkpoint failed. This is most likely due to a Variable name or "
              "other graph key that is missing from the checkpoint. Please ensure that you have "
              "not altered the graph expected based on the checkpoint. Original error:\n\n")
_MISMATCH = ("Restoring from checkpoint failed. This is most likely due to a mismatch between "
             "the current graph and the graph from the checkpoint. Please ensure that you have "
             "not altered the graph expected based on the checkpoint. Original error:\n\n")


def _keyed(var_list):
    """{checkpoint key: variable} from a list (keys: op names) or a dict of variables."""
    if isinstance(var_list, dict):
        items = list(var_list.items())
    else:
        items = []
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError(f"Saver: var_list holds {var!r:.80} ({type(var).__name__}); "
                                "give variables, or a dict of checkpoint key -> variable.")
            items.append((variable_op_name(var), var))
    keyed = {}
    for key, var in items:
        if not isinstance(key, str) or not isinstance(var, Variable):
            raise TypeError(f"Saver: var_list maps {key!r:.60} to {var!r:.60}; keys must be "
                            "strings and values variables.")
        if key in keyed:
            raise ValueError(f"At least two variables have the same name: {key}")
        keyed[key] = var
    return keyed


class Saver:
    """Saves and restores variables by name (see the module docstring)."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False,
                 filename=None):
        if builder is not None:
            raise NotImplementedError("Saver: builder= (a custom BaseSaverBuilder) is not "
                                      "supported; leave it None.")
        if write_version != 2:
            raise ValueError(f"Saver: write_version={write_version!r}: only SaverDef.V2 (2), "
                             "the index + data files format, is written.")
        if state.graph is None and var_list is None:
            raise RuntimeError("When eager execution is enabled, `var_list` must specify a "
                               "list or dict of variables to save")
        if saver_def is not None:
            max_to_keep = saver_def.max_to_keep
            keep_checkpoint_every_n_hours = saver_def.keep_checkpoint_every_n_hours
            sharded = saver_def.sharded
        self._var_list, self._reshape, self._allow_empty = var_list, reshape, allow_empty
        self._pad_step_number = pad_step_number
        self._save_relative_paths = save_relative_paths
        self._restore_sequentially = restore_sequentially
        self._name, self._filename = name, filename
        self.saver_def = saver_def or SaverDef(
            max_to_keep=max_to_keep or 0, sharded=bool(sharded),
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours, version=SaverDef.V2)
        self._last_checkpoints = []
        self._next_checkpoint_time = time.time() + keep_checkpoint_every_n_hours * 3600
        self._keyed = None
        self._meta_graph = None  # (what it was exported from, its text): see _write_meta_graph
        self._lock = threading.Lock()
        if not defer_build:
            self.build()

    # -- what is saved --------------------------------------------------------------------------
    def build(self):
        """Resolve the variables to save (done at construction unless `defer_build`)."""
        if self._keyed is not None:
            return
        var_list = self._var_list
        if var_list is None:
            graph = state.graph
            var_list = [v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
                        + graph.get_collection(GraphKeys.SAVEABLE_OBJECTS)
                        if isinstance(v, Variable)]
        self._keyed = _keyed(var_list)
        if not self._keyed and not self._allow_empty:
            raise ValueError("No variables to save")
        graph = state.graph
        if graph is not None and not self.saver_def.restore_op_name:
            self._name_ops(graph)

    def _name_ops(self, graph):
        """TensorFlow's save/ ops stand in the graph as one no-op named like its restore op."""
        with graph.name_scope(self._name or "save"):
            restore = graph.create_op(NO_OP, (), {}, "restore_all")
        scope = restore.name.rsplit("/", 1)[0]
        self.saver_def.filename_tensor_name = f"{scope}/Const:0"
        self.saver_def.save_tensor_name = f"{scope}/control_dependency:0"
        self.saver_def.restore_op_name = restore.name

    def _values(self, sess):
        variables = list(self._keyed.values())
        if any(isinstance(v, GraphVariable) for v in variables):
            _check_session(sess)
            values = sess.run(variables)
        else:
            values = [v.numpy() for v in variables]
        return {key: np.asarray(value) for key, value in zip(self._keyed, values)}

    # -- saving ---------------------------------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Write the variables to `save_path` (suffixed "-<global_step>" when given) and return
        that path (None for a Saver with nothing to save, which writes only the meta graph)."""
        self.build()
        latest_filename = latest_filename or "checkpoint"
        if os.path.basename(latest_filename) != latest_filename:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if global_step is not None:
            step = _step_number(sess, global_step)
            template = "%s-%08d" if self._pad_step_number else "%s-%d"
            checkpoint_file = template % (save_path, step)
        else:
            checkpoint_file = save_path
        parent = os.path.dirname(save_path)
        if parent and not os.path.isdir(parent):
            raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.")
        if state.graph is not None:
            _check_session(sess)
        if self._keyed:
            values = self._values(sess)
            with self._lock:  # a service thread may save beside the training loop
                _write_checkpoint(checkpoint_file, values)
                if write_state:
                    self._record(checkpoint_file, meta_graph_suffix)
                    self._write_state(parent, checkpoint_file, latest_filename)
        if write_meta_graph and state.graph is not None:
            self._write_meta_graph(sess.graph, checkpoint_file + "." + meta_graph_suffix,
                                   strip_default_attrs, save_debug_info)
        return checkpoint_file if self._keyed else None

    def _write_meta_graph(self, graph, filename, strip_default_attrs, save_debug_info):
        """Write the meta graph of `graph` (the session's, wherever save is called). When the
        graph's ops, its collections and the SaverDef are as at the previous save, the text
        exported then is written again: the same bytes, without encoding the graph and its
        constants anew (for bench_tf1_loop.py's MLP with Adam, ~14 ms and 1.1 MB of JSON)."""
        key = (graph, graph.version, strip_default_attrs, save_debug_info,
               repr(self.saver_def.as_dict()),
               tuple((name, tuple(map(id, graph.get_collection(name))))
                     for name in graph.get_all_collection_keys()))
        if self._meta_graph is None or self._meta_graph[0] != key:
            with graph.as_default():
                meta = self.export_meta_graph(strip_default_attrs=strip_default_attrs,
                                              save_debug_info=save_debug_info)
            self._meta_graph = (key, meta_graph_text(meta))
        write_meta_graph_text(filename, self._meta_graph[1])

    def _write_state(self, parent, checkpoint_file, latest_filename):
        paths = self.last_checkpoints
        if self._save_relative_paths:  # relative paths are made relative to parent below
            checkpoint_file, *paths = [os.path.relpath(p, parent) if os.path.isabs(p) else p
                                       for p in [checkpoint_file] + paths]
        update_checkpoint_state(parent or ".", checkpoint_file, paths, latest_filename)

    def _record(self, path, meta_graph_suffix):
        """Put `path` last among the kept checkpoints; delete the oldest beyond max_to_keep."""
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints if p[0] != path]
        self._last_checkpoints.append((path, time.time()))
        while len(self._last_checkpoints) > self.saver_def.max_to_keep:
            oldest, stamp = self._last_checkpoints.pop(0)
            hours = self.saver_def.keep_checkpoint_every_n_hours
            if hours and stamp - self._next_checkpoint_time >= 0:
                self._next_checkpoint_time += hours * 3600
                continue
            remove_checkpoint(oldest, meta_graph_suffix=meta_graph_suffix)

    @property
    def last_checkpoints(self):
        """The kept checkpoints, oldest first."""
        return [path for path, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        """Replace the kept list (paths); their times are taken as now."""
        if not isinstance(last_checkpoints, list):
            raise TypeError(f"set_last_checkpoints: last_checkpoints must be a list, got "
                            f"{type(last_checkpoints).__name__}.")
        self._last_checkpoints = [(p, time.time()) for p in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """Replace the kept list with (path, timestamp) pairs."""
        if not isinstance(last_checkpoints_with_time, list):
            raise TypeError("set_last_checkpoints_with_time: give a list of (path, time).")
        self._last_checkpoints = [(p, float(t)) for p, t in last_checkpoints_with_time]

    def recover_last_checkpoints(self, checkpoint_paths):
        """Take the checkpoints of `checkpoint_paths` that still exist as the kept list, with
        their files' modification times."""
        existing = [p for p in checkpoint_paths if checkpoint_exists(p)]
        self.set_last_checkpoints_with_time(list(zip(existing, get_checkpoint_mtimes(existing))))

    # -- restoring ------------------------------------------------------------------------------
    def restore(self, sess, save_path):
        """Assign every variable its value from checkpoint `save_path` (all checked first)."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        self.build()
        save_path = os.fspath(save_path)
        if not self._keyed:
            return
        if not checkpoint_exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        reader = CheckpointReader(save_path)
        for key in self._keyed:
            if not reader.has_tensor(key):
                raise NotFoundError(_NOT_FOUND + f"Key {key} not found in checkpoint")
        values = reader.get_tensors(list(self._keyed))
        checked = [(var, self._checked(key, var, values[key]))
                   for key, var in self._keyed.items()]
        if any(isinstance(v, GraphVariable) for v, _ in checked):
            _check_session(sess)
        for var, value in checked:
            if isinstance(var, GraphVariable):
                var.load(value, sess)
            else:
                var.assign(value)

    def _checked(self, key, var, value):
        dtype = var.dtype.as_numpy_dtype
        if value.dtype != np.dtype(dtype):
            raise InvalidArgumentError(
                _MISMATCH + f"tensor_name = {key}; expected dtype {var.dtype.name} does not "
                f"equal original dtype {value.dtype.name}")
        if var.shape.is_compatible_with(value.shape):
            return value
        if self._reshape and var.shape.is_fully_defined() \
                and var.shape.num_elements() == value.size:
            return value.reshape(var.shape.as_list())
        raise InvalidArgumentError(
            _MISMATCH + f"Assign requires shapes of both tensors to match. lhs shape= "
            f"{var.shape.as_list()} rhs shape= {list(value.shape)} (tensor_name = {key}; "
            "Saver(reshape=True) restores a value of the same size into another shape)")

    # -- the SaverDef and the meta graph ---------------------------------------------------------
    def as_saver_def(self):
        return self.saver_def

    def to_proto(self, export_scope=None):
        return self.saver_def.scoped(export_scope, strip=True)

    @staticmethod
    def from_proto(saver_def, import_scope=None):
        return Saver(saver_def=saver_def.scoped(import_scope, strip=False), defer_build=True,
                     allow_empty=True) if state.graph is not None else None

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                          export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                          strip_default_attrs=False, save_debug_info=False):
        """Write the graph, its collections and this SaverDef to `filename` (see
        train/meta_graph.py); returns the meta graph."""
        return export_meta_graph(filename, graph=state.graph, saver=self,
                                 collection_list=collection_list, as_text=as_text,
                                 export_scope=export_scope, clear_devices=clear_devices,
                                 clear_extraneous_savers=clear_extraneous_savers,
                                 strip_default_attrs=strip_default_attrs,
                                 save_debug_info=save_debug_info)


def _check_session(sess):
    if not isinstance(sess, Session):
        raise TypeError(f"'sess' must be a Session; {sess}")


def _step_number(sess, global_step):
    """The integer step: a number as given, or a tensor/variable's value (run in `sess`)."""
    if isinstance(global_step, (int, np.integer)):
        return int(global_step)
    if isinstance(global_step, GraphVariable) or state.graph is not None and \
            hasattr(global_step, "graph"):
        _check_session(sess)
        return int(sess.run(global_step))
    return int(np.asarray(global_step.numpy() if hasattr(global_step, "numpy")
                          else global_step))
