"""The checkpoint file format: writing files atomically, reading and verifying them. Both
`train.Checkpoint` and SavedModels (their variables/ and constants) are written in it.

A checkpoint `PATH` is two files:
  - `PATH.data-00000-of-00001`: the tensors' raw little-endian bytes, one after another;
  - `PATH.index`: JSON naming each tensor with its dtype, shape, byte offset, byte count and the
    SHA-256 of its bytes, plus the data file's total size.
Each file is written to a temporary file in the same directory, flushed to disk and renamed over
its final name, data first, then the index, then the directory's `checkpoint` state file (the
latest checkpoint, in TensorFlow's text format). Writing over an existing checkpoint puts the new
data beside the old (`PATH.data-00000-of-00001` and `PATH.data-00000-of-00001.1` take turns) and
removes the old data only once the new index names the new file: an interruption at any point
leaves either the old checkpoint or the new one, whole. Reading checks the JSON, the sizes and every
checksum: a truncated or corrupted file is a `DataLossError` naming it. Nothing here runs code
from a file (no pickle).
"""
import hashlib
import json
import os
import re
import tempfile

import numpy as np

from ..framework import dtypes
from ..framework.errors import DataLossError, NotFoundError

__all__ = ["CheckpointReader", "latest_checkpoint", "load_checkpoint", "list_variables"]

FORMAT, VERSION = "wengert-checkpoint", 1
INDEX_SUFFIX, DATA_SUFFIX = ".index", ".data-00000-of-00001"
ALTERNATE_DATA_SUFFIX = DATA_SUFFIX + ".1"  # the other of the two names data takes in turn
STATE_FILE = "checkpoint"
_DTYPES = {name: np.dtype(name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool", "complex64", "complex128")}


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


def _write_data(path, arrays, data_suffix=DATA_SUFFIX):
    """Write the data file of checkpoint `path`; returns the index entries."""
    entries, blobs, offset = {}, [], 0
    for key, array in arrays.items():
        blob = _tensor_bytes(array)
        entries[key] = {"dtype": array.dtype.name, "shape": list(array.shape), "offset": offset,
                        "nbytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        blobs.append(blob)
        offset += len(blob)
    _atomic_write(path + data_suffix, blobs)
    return entries, offset


def _write_index(path, entries, data_bytes, data_suffix=DATA_SUFFIX):
    index = {"format": FORMAT, "version": VERSION,
             "data_file": os.path.basename(path) + data_suffix, "data_bytes": data_bytes,
             "tensors": entries}
    _atomic_write(path + INDEX_SUFFIX, [json.dumps(index, indent=1).encode("utf-8")])


def _current_data_suffix(path):
    """The data file suffix the existing index at `path` names, or None (no readable index)."""
    try:
        with open(path + INDEX_SUFFIX, "rb") as f:
            named = json.loads(f.read().decode("utf-8")).get("data_file")
    except (OSError, ValueError, UnicodeDecodeError, AttributeError, RecursionError):
        return None
    base = os.path.basename(path)
    for suffix in (DATA_SUFFIX, ALTERNATE_DATA_SUFFIX):
        if named == base + suffix:
            return suffix
    return None


def _write_checkpoint(path, arrays):
    """Write checkpoint `path` (see the module docstring for why data files take turns)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    current = _current_data_suffix(path)
    suffix = ALTERNATE_DATA_SUFFIX if current == DATA_SUFFIX else DATA_SUFFIX
    entries, data_bytes = _write_data(path, arrays, suffix)
    _write_index(path, entries, data_bytes, suffix)
    if current is not None and current != suffix and os.path.exists(path + current):
        os.unlink(path + current)


def checkpoint_files(path):
    """The files checkpoint `path` may have on disk (for deleting it)."""
    return [path + suffix for suffix in (INDEX_SUFFIX, DATA_SUFFIX, ALTERNATE_DATA_SUFFIX)]


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
        except (ValueError, UnicodeDecodeError, RecursionError) as err:  # too deep: corrupt too
            raise self._corrupt(f"not valid JSON ({type(err).__name__}: {err})") from None
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
