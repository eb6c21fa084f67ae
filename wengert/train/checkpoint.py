"""Checkpoints: saving and restoring variables, models and optimizers, as `tf.train.Checkpoint`.

    ckpt = train.Checkpoint(model=model, optimizer=opt)
    path = ckpt.save("/tmp/run/ckpt")          # "/tmp/run/ckpt-1"
    ckpt.restore(train.latest_checkpoint("/tmp/run")).assert_consumed()

What is saved is a graph of objects: each keyword object is a Variable, or a trackable, an
object whose `_checkpoint_children()` returns an ordered {name: Variable or trackable} (tf.Modules,
keyed by attribute name and list position; Keras models and layers, optimizers, another
Checkpoint; a Keras layer keys its sublayers by the attribute holding them, else by position,
never by their counter-made names). The files are TensorFlow's (object_graph.py): every variable
is saved under its first path from the root, breadth first, as TensorFlow names it
("model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"),
with the object graph under "_CHECKPOINTABLE_OBJECT_GRAPH", so that TensorFlow restores a
wengert checkpoint of the same objects, and wengert TensorFlow's.

The format runs no code on load (no pickle): see saved_model/checkpoint_format.py (SavedModels
store their variables in it too). A crash mid-save leaves the
previous checkpoint and the state file pointing at it untouched; a truncated or corrupted file is a
`DataLossError` naming it.

`restore` first matches the saved object graph against the live objects (a checkpoint without
one, wengert's first format, by the variables' paths), checks shapes and dtypes and reads
(and verifies) every value; only when all of that succeeded does it assign, so a mismatch raises
an error listing all mismatches and changes nothing. Values for variables that do not exist yet
(optimizer slots, unbuilt layers) are handed to the nearest trackable that has
`_defer_restore({relative name: ndarray})`, which applies them when it creates the variables.

Under MultiWorkerMirroredStrategy every rank calls save and restore: rank 0 writes the files
(then the ranks wait for it), and restore reads on rank 0 and broadcasts the values, so every
rank restores the same values (distribute/checkpointing.py).

write/save/restore take a tf.train.CheckpointOptions (checkpoint_options.py): its write
callbacks run after each write; writes finish before returning, so `sync()` has nothing to wait
for. A CheckpointManager with `checkpoint_interval` and `step_counter` saves (with
check_interval=True) only once the step counter moved `checkpoint_interval` past the step of
its last save (never twice at one step), returning None when it skips; `init_fn` initializes when
`restore_or_initialize` finds no checkpoint; `keep_checkpoint_every_n_hours` keeps, among the
checkpoints max_to_keep would delete, one every n hours (their save times are kept in memory,
so checkpoints found on disk count from when the manager was made).
"""
import os
import time

import numpy as np

from ..distribute import checkpointing
from ..framework.errors import DataLossError, InvalidArgumentError
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from .checkpoint_options import after_write, checked_options
from ..tracing.func_graph import init_scope
from ..graph.variables import GraphVariable
from ..framework.protos.trackable_object_graph import TrackableObjectGraph
from ..saved_model.checkpoint_format import (CheckpointReader, DATA_SUFFIX, INDEX_SUFFIX, _exists, checkpoint_files, _read_state, _write_checkpoint, _write_state, latest_checkpoint, list_variables, load_checkpoint, load_variable, wait_for_disk)  # noqa: F401
from . import object_graph

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointReader", "latest_checkpoint",
           "load_checkpoint", "list_variables", "load_variable"]



# -- the object tree -------------------------------------------------------------------------------
def _is_trackable(obj):
    return callable(getattr(obj, "_checkpoint_children", None))


def _walk(objects):
    """({path: Variable}, {path: trackable}) for the tree under `objects`, in order.

    A trackable reached twice (shared, or a cycle) is walked once, at its first path."""
    variables, trackables, seen = {}, {}, set()
    stack = list(reversed(list(objects.items())))
    while stack:
        path, obj = stack.pop()
        if isinstance(obj, GraphVariable):
            raise TypeError(f"Checkpoint: '{path}' is a graph variable, whose value lives in a "
                            "Session; train.Checkpoint saves and restores eager variables.")
        if isinstance(obj, Variable):
            variables.setdefault(path, obj)
        elif _is_trackable(obj):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            trackables[path] = obj
            children = list(obj._checkpoint_children().items())
            stack.extend((f"{path}/{name}", child) for name, child in reversed(children))
        else:
            raise TypeError(f"Checkpoint: '{path}' is a {type(obj).__name__}; only Variables and "
                            "trackable objects (models, layers, optimizers) can be saved.")
    return variables, trackables




# -- restore status --------------------------------------------------------------------------------
class CheckpointLoadStatus:
    """What `restore` matched, as TensorFlow's status: `assert_consumed()` etc."""

    def __init__(self, path, restored, unused, missing, deferred):
        self.save_path = path
        self.restored, self.unused = restored, unused
        self.missing, self.deferred = missing, deferred

    def _fail(self, problems):
        raise AssertionError(f"Checkpoint '{self.save_path}' was not fully matched: "
                             + "; ".join(problems))

    def assert_consumed(self):
        """Every saved value was restored into an existing variable, and every variable got one."""
        problems = []
        if self.unused:
            problems.append(f"values with no object to restore into: {', '.join(self.unused)}")
        if self.missing:
            problems.append(f"variables not in the checkpoint: {', '.join(self.missing)}")
        if self.deferred:
            problems.append("values waiting for variables not created yet: "
                            + ", ".join(self.deferred))
        if problems:
            self._fail(problems)
        return self

    def assert_existing_objects_matched(self):
        """Every variable that exists now was found in the checkpoint."""
        if self.missing:
            self._fail([f"variables not in the checkpoint: {', '.join(self.missing)}"])
        return self

    def assert_nontrivial_match(self):
        if not self.restored and not self.deferred:
            self._fail(["nothing was restored"])
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class _NothingRestored(CheckpointLoadStatus):
    """`restore(None)`: a fresh start; asserting a match fails, as in TensorFlow."""

    def __init__(self):
        super().__init__(None, [], [], [], [])

    def assert_consumed(self):
        self._fail(["no checkpoint was given (restore(None))"])

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed


# -- Checkpoint ------------------------------------------------------------------------------------
class Checkpoint:
    """Groups variables and trackable objects to save and restore together."""

    def __init__(self, **objects):
        for name, obj in objects.items():
            if name == "save_counter":
                raise ValueError("Checkpoint: 'save_counter' is reserved for the save count.")
            if not isinstance(obj, Variable) and not _is_trackable(obj):
                raise TypeError(f"Checkpoint: '{name}' is a {type(obj).__name__}; pass Variables "
                                "and trackable objects (models, layers, optimizers).")
        self._objects = dict(objects)
        with init_scope():  # an eager variable, even when made while a graph is being built
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")

    def __getattr__(self, name):
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    @property
    def save_counter(self):
        return self._save_counter

    def _checkpoint_children(self):
        """The objects by keyword in name order, then the save counter, as TensorFlow's."""
        return {**dict(sorted(self._objects.items())), "save_counter": self._save_counter}

    def _arrays(self):
        """{checkpoint key: value} in TensorFlow's order, the object graph last."""
        return object_graph.serialize(self)

    def write(self, file_prefix, options=None):
        """Save to exactly `file_prefix` (no counter, no state file); returns the path."""
        options = checked_options(options, "Checkpoint.write")
        path = os.fspath(file_prefix)
        checkpointing.write_once(lambda: _write_checkpoint(path, self._arrays()))
        after_write(options, path)
        return path

    def sync(self):
        """Wait until the checkpoints written are on disk (their files are written and renamed
        before `write`/`save` return, then flushed in the background); raise a flush's error."""
        wait_for_disk()

    def save(self, file_prefix, options=None):
        """Save to `file_prefix-N` (N = the save counter, incremented) and record it as the
        latest checkpoint of its directory; returns the path."""
        options = checked_options(options, "Checkpoint.save")
        number = int(self._save_counter.numpy()) + 1
        self._save_counter.assign(np.int64(number))
        path = f"{os.fspath(file_prefix)}-{number}"

        def write_and_record():
            _write_checkpoint(path, self._arrays())
            directory = os.path.dirname(os.path.abspath(path))
            _, paths = _read_state(directory)
            paths = [p for p in paths if p != os.path.abspath(path) and _exists(p)]
            _write_state(directory, os.path.abspath(path), paths + [os.path.abspath(path)])
        try:
            checkpointing.write_once(write_and_record)
        except BaseException:
            self._save_counter.assign(np.int64(number - 1))
            raise
        after_write(options, path)
        return path

    def restore(self, save_path, options=None):
        """Restore the values saved at `save_path` (None: nothing, a fresh start)."""
        checked_options(options, "Checkpoint.restore", restoring=True)
        save_path = checkpointing.decide_on_root(
            None if save_path is None else os.fspath(save_path), "the checkpoint to restore")
        if save_path is None:
            return _NothingRestored()
        read_path, values = checkpointing.read_on_root(lambda: _read_all(save_path))
        graph = values.pop(object_graph.OBJECT_GRAPH_KEY, None)
        if graph is None:
            plan = _match_by_path(values, self._checkpoint_children())
        else:
            plan = object_graph.match(_parse_graph(read_path, graph), self)
        matched = list(plan.restored)
        _check_compatible(read_path, matched, plan.restored,
                          {k: values[k].shape for k in matched},
                          {k: values[k].dtype for k in matched})
        _assign_all([(plan.restored[k], values[k]) for k in matched])
        taken = []
        for obj, keys in getattr(plan, "saveables", ()):
            obj._restore_tensors({name: values[key] for name, key in keys.items()})
            taken += keys.values()
        for owner, pending in plan.deferred:
            owner._defer_restore({rel: values[key] for rel, key in pending.items()})
            taken += pending.values()
        return CheckpointLoadStatus(read_path, matched, sorted(plan.unused), plan.missing,
                                    sorted(taken))

    read = restore


def _read_all(save_path):
    """(the checkpoint's path, {name: ndarray} of every value in it), each value verified; the
    object graph as uint8 bytes (so that it broadcasts as numbers do)."""
    reader = load_checkpoint(save_path)
    values = reader.get_tensors(list(reader.get_variable_to_shape_map()), writable=False)
    graph = values.get(object_graph.OBJECT_GRAPH_KEY)
    if graph is not None:
        values[object_graph.OBJECT_GRAPH_KEY] = np.frombuffer(bytes(graph.reshape(-1)[0]),
                                                              np.uint8)
    return reader._path, values


def _parse_graph(path, graph):
    try:
        return TrackableObjectGraph.FromString(graph.tobytes())
    except DataLossError as err:
        raise DataLossError(f"Checkpoint '{path}': its object graph is corrupted ({err}).") \
            from None


class _PathMatch:
    """A checkpoint without an object graph (wengert's first format, TF1 names): values are
    matched to variables by their path of names."""

    def __init__(self, restored, deferred, unused, missing):
        self.restored, self.deferred = restored, deferred
        self.unused, self.missing = unused, missing


def _match_by_path(values, children):
    variables, trackables = _walk(children)
    restored = {path: var for path, var in variables.items() if path in values}
    deferred = _deferred_values(values, variables, trackables)
    taken = {key for _, pending in deferred for key in pending.values()}
    unused = [n for n in values if n not in variables and n not in taken]
    missing = [p for p in variables if p not in values]
    return _PathMatch(restored, deferred, unused, missing)


def _check_compatible(path, matched, variables, saved, dtypes):
    problems = []
    for key in matched:
        var = variables[key]
        shape, dtype = tuple(saved[key]), np.dtype(dtypes[key])
        var_shape = tuple(var.shape.as_list()) if var.shape.rank is not None else None
        if var_shape != shape:
            problems.append(f"'{key}': the checkpoint has shape {list(shape)}, the variable "
                            f"{var.shape}")
        if np.dtype(var.dtype.as_numpy_dtype) != dtype:
            problems.append(f"'{key}': the checkpoint has dtype {dtype.name}, the variable "
                            f"{var.dtype.name}")
    if problems:
        raise InvalidArgumentError(f"Cannot restore checkpoint '{path}' (nothing was changed): "
                                   + "; ".join(problems))


def _deferred_values(values, variables, trackables):
    """[(trackable, {relative name: key})] for saved values with no variable yet, each given to
    the deepest trackable on its path that accepts deferred restores."""
    owners = {}
    for name, value in values.items():
        if name in variables:
            continue
        prefix = name
        while "/" in prefix:
            prefix = prefix.rsplit("/", 1)[0]
            owner = trackables.get(prefix)
            if owner is not None and callable(getattr(owner, "_defer_restore", None)):
                owners.setdefault(id(owner), (owner, {}))[1][name[len(prefix) + 1:]] = name
                break
    return list(owners.values())


def _assign_all(pairs):
    """Assign every (variable, value); if one fails, put back the ones already assigned."""
    done = []
    try:
        for var, value in pairs:
            old = var._value
            var.assign(Tensor(value) if isinstance(value, np.ndarray) else value)  # no copy
            done.append((var, old))
    except BaseException:
        for var, old in reversed(done):
            var._value = old
        raise


# -- CheckpointManager -----------------------------------------------------------------------------
class CheckpointManager:
    """Numbered checkpoints in one directory, keeping the newest `max_to_keep` (None: all)."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None, last_checkpoint_step=None):
        if max_to_keep is not None and max_to_keep < 1:
            raise ValueError(f"CheckpointManager: max_to_keep must be None or >= 1, "
                             f"not {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not "
                             "None.")
        self._keep_hours = keep_checkpoint_every_n_hours
        self._step_counter, self._checkpoint_interval = step_counter, checkpoint_interval
        self._last_checkpoint_step = last_checkpoint_step
        self._init_fn = init_fn
        self._last_preserved = time.time() - 1.0  # as TensorFlow's, a second back
        self._saved_at = {}
        self._checkpoint = checkpoint
        self._directory = os.path.abspath(os.fspath(directory))
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        _, paths = _read_state(self._directory)
        self._checkpoints = checkpointing.decide_on_root(
            [p for p in paths if _exists(p)], "the checkpoints kept in the directory")

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoints(self):
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self):
        return self._checkpoints[-1] if self._checkpoints else None

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    def _interval_passed(self, check_interval):
        """Whether a save at the step counter's value is due (recording that step if so)."""
        if self._checkpoint_interval is None:
            return True
        step = int(np.asarray(self._step_counter))
        last = self._last_checkpoint_step
        if last is not None and (step == last or check_interval and
                                 step < last + self._checkpoint_interval):
            return False
        self._last_checkpoint_step = step
        return True

    def _to_delete(self, removed):
        """The checkpoints beyond max_to_keep whose files go: all but one every n hours."""
        gone = []
        for old in removed:
            stamp = self._saved_at.pop(old, self._last_preserved)
            if self._keep_hours and stamp - self._keep_hours * 3600.0 >= self._last_preserved:
                self._last_preserved = stamp
            else:
                gone.append(old)
        return gone

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Save a checkpoint numbered `checkpoint_number` (default: the save counter, incremented),
        then delete the oldest beyond `max_to_keep`; returns its path, or None when the step
        counter has not moved `checkpoint_interval` since the last save."""
        options = checked_options(options, "CheckpointManager.save")
        if not self._interval_passed(check_interval):
            return None
        counter = self._checkpoint.save_counter
        counter.assign(counter.numpy() + 1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = os.path.abspath(f"{self._prefix}-{number}")
        kept = [p for p in self._checkpoints if p != path] + [path]
        removed = [] if self._max_to_keep is None else kept[:-self._max_to_keep]
        self._saved_at[path] = time.time()
        deleted = self._to_delete(removed)

        def write_and_record():
            os.makedirs(self._directory, exist_ok=True)
            _write_checkpoint(path, self._checkpoint._arrays())
            _write_state(self._directory, path, kept[len(removed):])
            for old in deleted:
                for file in checkpoint_files(old):
                    if os.path.exists(file):
                        os.unlink(file)
        try:
            checkpointing.write_once(write_and_record)
        except BaseException:
            counter.assign(counter.numpy() - 1)
            raise
        self._checkpoints = kept[len(removed):]
        after_write(options, path)
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint if there is one (the step counter's value becomes
        the last checkpoint's step) and return its path; else call `init_fn` and return None."""
        if self.latest_checkpoint is None:
            if self._init_fn is not None:
                self._init_fn()
            return None
        self._checkpoint.restore(self.latest_checkpoint)
        if self._checkpoint_interval is not None:
            self._last_checkpoint_step = int(np.asarray(self._step_counter))
        return self.latest_checkpoint

    def sync(self):
        """Wait until the checkpoints written are on disk (see Checkpoint.sync)."""
        if self._checkpoint is not None:
            self._checkpoint.sync()
