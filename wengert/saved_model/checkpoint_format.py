"""The checkpoint files: writing them atomically, reading and verifying them. `train.Checkpoint`,
SavedModels (their variables/) and `compat.v1.train.Saver` all write them through
`_write_checkpoint(path, {name: ndarray})` and read them through `CheckpointReader`.

A checkpoint `PATH` is TensorFlow's tensor bundle (tensor_bundle.py):
  - `PATH.data-00000-of-00001`: the tensors' bytes, one after another;
  - `PATH.index`: a table mapping each tensor's name to its dtype, shape, place in the data
    file and CRC32C.
Both files are first written whole to temporary files in the same directory, then renamed over
their final names, data first, then the index, then the directory's `checkpoint` state file (the
latest checkpoint, in TensorFlow's text format) is replaced the same way: an error or interruption
while writing leaves the previous checkpoint untouched; one between the two renames of an
overwrite in place leaves a data file its index does not describe, which reading reports as
corrupted rather than returning wrong values. The renamed files are then flushed to disk in the
background (disk_flush.py): the next write, `sync()` and the interpreter's exit wait for that. A
data file written over keeps a hidden second name until then, so that its blocks are freed in the
background too.

Reading tells the format from the index's first bytes: wengert's earlier checkpoints have a JSON
index (json_checkpoint.py), still read. Every size and checksum is checked: a truncated or
corrupted file is a `DataLossError` naming it. Nothing here runs code from a file (no pickle).
"""
import json
import os
import re
import tempfile

from ..framework.errors import DataLossError, NotFoundError
from .disk_flush import aside, flush_later, fsync_directory, wait_for_disk
from .json_checkpoint import JsonCheckpoint, encode_json_index
from .bundle_checksums import checksums_while_writing
from .tensor_bundle import BundleReader, encode_index, is_bundle_index, layout_data

__all__ = ["CheckpointReader", "latest_checkpoint", "load_checkpoint", "list_variables",
           "load_variable", "wait_for_disk"]

INDEX_SUFFIX, DATA_SUFFIX = ".index", ".data-00000-of-00001"
ALTERNATE_DATA_SUFFIX = DATA_SUFFIX + ".1"  # where wengert's first format put data in turns
STATE_FILE = "checkpoint"


# -- files written atomically ----------------------------------------------------------------------
def _write_temporary(path, chunks, durable=True):
    """Write the byte strings `chunks` to a temporary file beside `path`; its name. `durable`:
    on disk before returning (fsync), else only handed to the kernel."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            if durable:
                os.fsync(f.fileno())
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _remove(path):
    if path is not None and os.path.exists(path):
        os.unlink(path)


def _atomic_write(path, chunks, durable=True):
    """Write the byte strings `chunks` to `path`: a temporary file beside it, renamed over `path`.
    `durable`: on disk (fsync) before the rename; else flushed in the background after it."""
    tmp = _write_temporary(path, chunks, durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    directory = os.path.dirname(os.path.abspath(path))
    if durable:
        fsync_directory(directory)
    else:
        flush_later([path], directory)


def _write_index(path, entries):
    """The index of checkpoint `path` for {name: BundleEntryProto}, in a temporary file."""
    return _write_temporary(path + INDEX_SUFFIX, [encode_index(entries)], durable=False)


def _write_checkpoint(path, arrays):
    """Write checkpoint `path` holding {name: ndarray} (see the module docstring)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    wait_for_disk()
    chunks, entries, unsummed = layout_data(arrays)
    data_tmp = index_tmp = old_data = None
    try:
        with checksums_while_writing(unsummed):  # in a thread, as the bytes go to the kernel
            data_tmp = _write_temporary(path + DATA_SUFFIX, chunks, durable=False)
        index_tmp = _write_index(path, entries)
        old_data = aside(path + DATA_SUFFIX)  # its blocks are freed in the background
        os.replace(data_tmp, path + DATA_SUFFIX)
        os.replace(index_tmp, path + INDEX_SUFFIX)
    except BaseException:
        for tmp in (data_tmp, index_tmp, old_data):
            _remove(tmp)
        raise
    _remove(path + ALTERNATE_DATA_SUFFIX)
    flush_later([path + DATA_SUFFIX, path + INDEX_SUFFIX], directory,
                remove=[old_data] if old_data else [])


def _write_json_checkpoint(path, arrays):
    """Write checkpoint `path` in wengert's first format (JSON index), for tests of reading it."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    blobs, index = encode_json_index(arrays, os.path.basename(path) + DATA_SUFFIX)
    _atomic_write(path + DATA_SUFFIX, blobs)
    _atomic_write(path + INDEX_SUFFIX, [index])


def checkpoint_files(path):
    """The files checkpoint `path` may have on disk (for deleting it)."""
    return [path + suffix for suffix in (INDEX_SUFFIX, DATA_SUFFIX, ALTERNATE_DATA_SUFFIX)]


# -- the "checkpoint" state file: which checkpoints exist, the latest last -------------------------
_STATE_LINE = re.compile(r'^\s*(model_checkpoint_path|all_model_checkpoint_paths)\s*:\s*(".*")\s*$')
_TIMESTAMP_LINE = re.compile(r'^\s*(all_model_checkpoint_timestamps|last_preserved_timestamp)'
                             r'\s*:\s*[-+0-9.eE]+\s*$')


def _read_state(directory):
    """(latest, [all]) as written in `directory/checkpoint`, relative paths made absolute."""
    file = os.path.join(directory, STATE_FILE)
    if not os.path.isfile(file):
        return None, []
    latest, paths = None, []
    try:
        with open(file, encoding="utf-8") as f:
            for line in f:
                if not line.strip() or _TIMESTAMP_LINE.match(line):
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
    _atomic_write(os.path.join(directory, STATE_FILE), ["\n".join(lines).encode() + b"\n"],
                  durable=False)


def _exists(path):
    return os.path.isfile(path + INDEX_SUFFIX)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The path of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    latest, _ = _read_state(checkpoint_dir)
    return latest if latest is not None and _exists(latest) else None


# -- reading ---------------------------------------------------------------------------------------
class CheckpointReader:
    """Reads one checkpoint, in either format: names, shapes, dtypes and values, verifying sizes
    and checksums."""

    def __init__(self, path):
        path = os.fspath(path)
        if os.path.isdir(path):
            found = latest_checkpoint(path)
            if found is None:
                raise NotFoundError(f"No checkpoint found in directory '{path}'.")
            path = found
        self._path = path
        index_file = path + INDEX_SUFFIX
        if not os.path.isfile(index_file):
            raise NotFoundError(f"No checkpoint at '{path}': '{index_file}' does not exist.")
        with open(index_file, "rb") as f:
            raw = f.read()
        if is_bundle_index(raw[:64]):
            self._format = BundleReader(raw, index_file, path + DATA_SUFFIX)
        else:
            self._format = JsonCheckpoint(raw, index_file)

    @property
    def is_tensorflow_format(self):
        return isinstance(self._format, BundleReader)

    # -- TensorFlow's reader API ------------------------------------------------------------------
    def get_variable_to_shape_map(self):
        return {name: list(entry[1]) for name, entry in self._format.entries.items()}

    def get_variable_to_dtype_map(self):
        return {name: entry[0] for name, entry in self._format.entries.items()}

    def has_tensor(self, name):
        return name in self._format.entries

    def get_tensor(self, name):
        return self.get_tensors([name])[name]

    def get_tensors(self, names, writable=True):
        """{name: ndarray} for `names`, each checked against its checksum; writable=False lets
        numeric arrays share the bytes read (read-only), for restoring into variables."""
        return self._format.read(list(names), writable)


def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` for a checkpoint path, or the latest checkpoint in a directory."""
    return CheckpointReader(ckpt_dir_or_file)


def list_variables(ckpt_dir_or_file):
    """[(name, shape)] of every tensor in the checkpoint, sorted by name."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value saved under `name` (a trailing ":0" is ignored, as in TensorFlow)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
