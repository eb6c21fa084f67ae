"""Checkpoints: saving and restoring variables, models and optimizers, as `tf.train.Checkpoint`.

    ckpt = train.Checkpoint(model=model, optimizer=opt)
    path = ckpt.save("/tmp/run/ckpt")          # "/tmp/run/ckpt-1"
    ckpt.restore(train.latest_checkpoint("/tmp/run")).assert_consumed()

What is saved is a tree of objects: each keyword object is a Variable, or a trackable, an object
whose `_checkpoint_children()` returns an ordered {name: Variable or trackable} (Keras models and
layers, optimizers, another Checkpoint). Every variable is saved under its path from the root,
names joined with "/" ("model/dense/kernel", "optimizer/slots/0/m"), plus the Checkpoint's own
`save_counter`.

The format runs no code on load (no pickle). A checkpoint `PATH` is two files:
  - `PATH.data-00000-of-00001`: the tensors' raw little-endian bytes, one after another;
  - `PATH.index`: JSON naming each tensor with its dtype, shape, byte offset, byte count and the
    SHA-256 of its bytes, plus the data file's total size.
Each file is written to a temporary file in the same directory, flushed to disk and renamed over
its final name, data first, then the index, then the directory's `checkpoint` state file (the
latest checkpoint, in TensorFlow's text format). A crash mid-save therefore leaves the previous
checkpoint and the state file pointing at it untouched. Reading checks the JSON, the sizes and
every checksum: a truncated or corrupted file is a `DataLossError` naming it.

`restore` first matches every saved name against the objects, checks shapes and dtypes and reads
(and verifies) every value; only when all of that succeeded does it assign, so a mismatch raises
an error listing all mismatches and changes nothing. Values for variables that do not exist yet
(optimizer slots, unbuilt layers) are handed to the nearest trackable that has
`_defer_restore({relative name: ndarray})`, which applies them when it creates the variables.
"""
import hashlib
import json
import os
import re
import tempfile

import numpy as np

from ..framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from ..framework.variables import Variable
from ..graph.func_graph import init_scope
from ..graph.variables import GraphVariable

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointReader", "latest_checkpoint",
           "load_checkpoint", "list_variables"]

FORMAT, VERSION = "wengert-checkpoint", 1
INDEX_SUFFIX, DATA_SUFFIX = ".index", ".data-00000-of-00001"
STATE_FILE = "checkpoint"
_DTYPES = {name: np.dtype(name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool", "complex64", "complex128")}
_CHUNK = 1 << 20


# -- files written atomically ----------------------------------------------------------------------
def _fsync_directory(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # e.g. Windows: directories cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _atomic_write(path, chunks):
    """Write the byte strings `chunks` to `path`: a temporary file beside it, fsync, rename."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_directory(directory)


def _tensor_bytes(array):
    array = np.asarray(array)
    if array.dtype.name not in _DTYPES:
        raise TypeError(f"Checkpoint: cannot save a value of dtype {array.dtype}.")
    return np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()


def _write_data(path, arrays):
    """Write the data file of checkpoint `path`; returns the index entries."""
    entries, blobs, offset = {}, [], 0
    for key, array in arrays.items():
        blob = _tensor_bytes(array)
        entries[key] = {"dtype": array.dtype.name, "shape": list(array.shape), "offset": offset,
                        "nbytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        blobs.append(blob)
        offset += len(blob)
    _atomic_write(path + DATA_SUFFIX, blobs)
    return entries, offset


def _write_index(path, entries, data_bytes):
    index = {"format": FORMAT, "version": VERSION,
             "data_file": os.path.basename(path) + DATA_SUFFIX, "data_bytes": data_bytes,
             "tensors": entries}
    _atomic_write(path + INDEX_SUFFIX, [json.dumps(index, indent=1).encode("utf-8")])


def _write_checkpoint(path, arrays):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    entries, data_bytes = _write_data(path, arrays)
    _write_index(path, entries, data_bytes)


# -- the "checkpoint" state file: which checkpoints exist, the latest last -------------------------
_STATE_LINE = re.compile(r'^\s*(model_checkpoint_path|all_model_checkpoint_paths)\s*:\s*(".*")\s*$')


def _read_state(directory):
    """(latest, [all]) as written in `directory/checkpoint`, relative paths made absolute."""
    file = os.path.join(directory, STATE_FILE)
    if not os.path.isfile(file):
        return None, []
    latest, paths = None, []
    try:
        with open(file, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                match = _STATE_LINE.match(line)
                if match is None:
                    raise ValueError(f"unexpected line {line.strip()[:80]!r}")
                value = os.path.join(directory, json.loads(match.group(2)))
                if match.group(1) == "model_checkpoint_path":
                    latest = value
                else:
                    paths.append(value)
    except (ValueError, UnicodeDecodeError) as err:
        raise DataLossError(f"Checkpoint state file '{file}' is corrupted ({err}).") from None
    return latest, paths


def _write_state(directory, latest, paths):
    def relative(path):
        rel = os.path.relpath(path, directory)
        return path if rel.startswith("..") else rel
    lines = [f"model_checkpoint_path: {json.dumps(relative(latest))}"]
    lines += [f"all_model_checkpoint_paths: {json.dumps(relative(p))}" for p in paths]
    _atomic_write(os.path.join(directory, STATE_FILE), ["\n".join(lines).encode() + b"\n"])


def _exists(path):
    return os.path.isfile(path + INDEX_SUFFIX)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The path of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    latest, _ = _read_state(checkpoint_dir)
    return latest if latest is not None and _exists(latest) else None


# -- reading ---------------------------------------------------------------------------------------
class CheckpointReader:
    """Reads one checkpoint: names, shapes, dtypes and values, verifying sizes and checksums."""

    def __init__(self, path):
        path = os.fspath(path)
        if os.path.isdir(path):
            found = latest_checkpoint(path)
            if found is None:
                raise NotFoundError(f"No checkpoint found in directory '{path}'.")
            path = found
        self._path = path
        self._index_file = path + INDEX_SUFFIX
        if not os.path.isfile(self._index_file):
            raise NotFoundError(f"No checkpoint at '{path}': '{self._index_file}' does not exist.")
        self._entries, self._data_file, self._data_bytes = self._read_index()
        self._check_data_size()

    def _corrupt(self, what):
        return DataLossError(f"Checkpoint index '{self._index_file}' is corrupted: {what}.")

    def _read_index(self):
        try:
            with open(self._index_file, "rb") as f:
                index = json.loads(f.read().decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as err:
            raise self._corrupt(f"not valid JSON ({err})") from None
        if not isinstance(index, dict) or index.get("format") != FORMAT:
            raise self._corrupt(f"not a {FORMAT} index")
        if index.get("version") != VERSION:
            raise self._corrupt(f"unknown version {index.get('version')!r}")
        data_file, data_bytes = index.get("data_file"), index.get("data_bytes")
        if not isinstance(data_file, str) or os.path.basename(data_file) != data_file \
                or data_file in ("", ".", ".."):
            raise self._corrupt(f"bad data file name {data_file!r}")
        if not _is_count(data_bytes) or not isinstance(index.get("tensors"), dict):
            raise self._corrupt("missing data size or tensor table")
        entries = {}
        for name, entry in index["tensors"].items():
            entries[name] = self._checked_entry(name, entry, data_bytes)
        return entries, os.path.join(os.path.dirname(self._index_file), data_file), data_bytes

    def _checked_entry(self, name, entry, data_bytes):
        try:
            dtype = _DTYPES[entry["dtype"]]
            shape = tuple(entry["shape"])
            offset, nbytes, digest = entry["offset"], entry["nbytes"], entry["sha256"]
            ok = (all(_is_count(d) for d in shape) and _is_count(offset) and _is_count(nbytes)
                  and isinstance(digest, str) and re.fullmatch("[0-9a-f]{64}", digest)
                  and nbytes == int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                  and offset + nbytes <= data_bytes)
        except (KeyError, TypeError):
            ok = False
        if not ok:
            raise self._corrupt(f"bad entry for tensor '{name}'")
        return dtype, shape, offset, nbytes, digest

    def _check_data_size(self):
        try:
            size = os.path.getsize(self._data_file)
        except OSError:
            raise DataLossError(f"Checkpoint data file '{self._data_file}' is missing.") from None
        if size != self._data_bytes:
            raise DataLossError(f"Checkpoint data file '{self._data_file}' has {size} bytes, its "
                                f"index says {self._data_bytes}: it is truncated or corrupted.")

    # -- TensorFlow's reader API ------------------------------------------------------------------
    def get_variable_to_shape_map(self):
        return {name: list(entry[1]) for name, entry in self._entries.items()}

    def get_variable_to_dtype_map(self):
        from ..framework import dtypes
        return {name: dtypes.as_dtype(entry[0]) for name, entry in self._entries.items()}

    def has_tensor(self, name):
        return name in self._entries

    def get_tensor(self, name):
        return self.get_tensors([name])[name]

    def get_tensors(self, names):
        """{name: ndarray} for `names`, each checked against its SHA-256."""
        missing = [n for n in names if n not in self._entries]
        if missing:
            raise NotFoundError(f"Checkpoint '{self._path}' has no tensor named "
                                f"{', '.join(map(repr, missing))}; it has: "
                                f"{', '.join(sorted(self._entries)) or 'nothing'}.")
        out = {}
        with open(self._data_file, "rb") as f:
            for name in names:
                dtype, shape, offset, nbytes, digest = self._entries[name]
                f.seek(offset)
                blob = f.read(nbytes)
                if len(blob) != nbytes or hashlib.sha256(blob).hexdigest() != digest:
                    raise DataLossError(f"Checkpoint data file '{self._data_file}' is corrupted: "
                                        f"tensor '{name}' fails its checksum.")
                out[name] = np.frombuffer(blob, dtype=dtype.newbyteorder("<")).astype(
                    dtype, copy=True).reshape(shape)
        return out


def _is_count(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` for a checkpoint path, or the latest checkpoint in a directory."""
    return CheckpointReader(ckpt_dir_or_file)


def list_variables(ckpt_dir_or_file):
    """[(name, shape)] of every tensor in the checkpoint, sorted by name."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


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
        return {"save_counter": self._save_counter, **self._objects}

    def _arrays(self):
        variables, _ = _walk(self._checkpoint_children())
        return {path: np.asarray(var.numpy()) for path, var in variables.items()}

    def write(self, file_prefix):
        """Save to exactly `file_prefix` (no counter, no state file); returns the path."""
        path = os.fspath(file_prefix)
        _write_checkpoint(path, self._arrays())
        return path

    def save(self, file_prefix):
        """Save to `file_prefix-N` (N = the save counter, incremented) and record it as the
        latest checkpoint of its directory; returns the path."""
        number = int(self._save_counter.numpy()) + 1
        self._save_counter.assign(np.int64(number))
        try:
            path = self.write(f"{os.fspath(file_prefix)}-{number}")
        except BaseException:
            self._save_counter.assign(np.int64(number - 1))
            raise
        directory = os.path.dirname(os.path.abspath(path))
        _, paths = _read_state(directory)
        paths = [p for p in paths if p != os.path.abspath(path) and _exists(p)]
        _write_state(directory, os.path.abspath(path), paths + [os.path.abspath(path)])
        return path

    def restore(self, save_path):
        """Restore the values saved at `save_path` (None: nothing, a fresh start)."""
        if save_path is None:
            return _NothingRestored()
        reader = load_checkpoint(save_path)
        variables, trackables = _walk(self._checkpoint_children())
        saved = reader.get_variable_to_shape_map()
        dtypes = {name: dtype.as_numpy_dtype for name, dtype in
                  reader.get_variable_to_dtype_map().items()}
        matched = [path for path in variables if path in saved]
        _check_compatible(reader._path, matched, variables, saved, dtypes)
        values = reader.get_tensors(matched + [n for n in saved if n not in variables])
        deferred = _deferred_values(values, variables, trackables)
        _assign_all([(variables[p], values[p]) for p in matched])
        taken = []
        for owner, pending in deferred:
            owner._defer_restore(pending[0])
            taken += pending[1]
        unused = sorted(n for n in saved if n not in variables and n not in taken)
        missing = [p for p in variables if p not in saved]
        return CheckpointLoadStatus(reader._path, matched, unused, missing, sorted(taken))

    read = restore


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
    """[(trackable, ({relative name: value}, [names]))] for saved values with no variable yet,
    each given to the deepest trackable on its path that accepts deferred restores."""
    owners = {}
    for name, value in values.items():
        if name in variables:
            continue
        prefix = name
        while "/" in prefix:
            prefix = prefix.rsplit("/", 1)[0]
            owner = trackables.get(prefix)
            if owner is not None and callable(getattr(owner, "_defer_restore", None)):
                pending = owners.setdefault(id(owner), (owner, ({}, [])))[1]
                pending[0][name[len(prefix) + 1:]] = value
                pending[1].append(name)
                break
    return list(owners.values())


def _assign_all(pairs):
    """Assign every (variable, value); if one fails, put back the ones already assigned."""
    done = []
    try:
        for var, value in pairs:
            old = var._value
            var.assign(value)
            done.append((var, old))
    except BaseException:
        for var, old in reversed(done):
            var._value = old
        raise


# -- CheckpointManager -----------------------------------------------------------------------------
class CheckpointManager:
    """Numbered checkpoints in one directory, keeping the newest `max_to_keep` (None: all)."""

    def __init__(self, checkpoint, directory, max_to_keep, checkpoint_name="ckpt"):
        if max_to_keep is not None and max_to_keep < 1:
            raise ValueError(f"CheckpointManager: max_to_keep must be None or >= 1, "
                             f"not {max_to_keep}.")
        self._checkpoint = checkpoint
        self._directory = os.path.abspath(os.fspath(directory))
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        _, paths = _read_state(self._directory)
        self._checkpoints = [p for p in paths if _exists(p)]

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

    def save(self, checkpoint_number=None):
        """Save a checkpoint numbered `checkpoint_number` (default: the save counter, incremented),
        then delete the oldest beyond `max_to_keep`; returns its path."""
        counter = self._checkpoint.save_counter
        counter.assign(counter.numpy() + 1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        os.makedirs(self._directory, exist_ok=True)
        try:
            path = os.path.abspath(self._checkpoint.write(f"{self._prefix}-{number}"))
        except BaseException:
            counter.assign(counter.numpy() - 1)
            raise
        kept = [p for p in self._checkpoints if p != path] + [path]
        removed = [] if self._max_to_keep is None else kept[:-self._max_to_keep]
        self._checkpoints = kept[len(removed):]
        _write_state(self._directory, path, self._checkpoints)
        for old in removed:
            for suffix in (INDEX_SUFFIX, DATA_SUFFIX):
                if os.path.exists(old + suffix):
                    os.unlink(old + suffix)
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint if there is one; returns its path or None."""
        if self.latest_checkpoint is None:
            return None
        self._checkpoint.restore(self.latest_checkpoint)
        return self.latest_checkpoint
