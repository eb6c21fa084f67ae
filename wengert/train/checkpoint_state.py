"""The `checkpoint` state file of a checkpoint directory, as TensorFlow 1 keeps it.

A directory of checkpoints holds one small text file (named `checkpoint` unless a
`latest_filename` is given) that records which checkpoints exist, oldest first, and which is the
newest, in the text form of TensorFlow's `CheckpointState` message:

    model_checkpoint_path: "/tmp/run/model.ckpt-2"
    all_model_checkpoint_paths: "/tmp/run/model.ckpt-1"
    all_model_checkpoint_paths: "/tmp/run/model.ckpt-2"
    all_model_checkpoint_timestamps: 1700000000.5
    last_preserved_timestamp: 1699999990.25

`Saver` rewrites it after each save; `latest_checkpoint` reads it back. Paths written relative
are taken relative to the directory. Strings are C-escaped as protocol buffers' text format
escapes them (UTF-8 bytes outside printable ASCII as octal), so any path survives the round trip.
The file is written whole to a temporary file and renamed over the old one, so a reader never
sees half of it.
"""
import glob
import os
import re
import tempfile

from ..framework.errors import DataLossError
from ..framework.protos.text_format import to_text
from .saver_def import CheckpointState

__all__ = ["generate_checkpoint_state_proto", "update_checkpoint_state",
           "get_checkpoint_state", "latest_checkpoint", "checkpoint_exists",
           "get_checkpoint_mtimes", "remove_checkpoint"]

STATE_FILE = "checkpoint"
_LINE = re.compile(r'^\s*([a-z_]+)\s*:\s*(".*"|[-+0-9.eE]+)\s*$')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\"}


def _unescape(quoted):
    body, out, i = quoted[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out += char.encode("utf-8")
            i += 1
        elif re.match(r"[0-7]{3}", body[i + 1:i + 4]):
            out.append(int(body[i + 1:i + 4], 8))
            i += 4
        elif i + 1 < len(body) and body[i + 1] in _ESCAPES:
            out += _ESCAPES[body[i + 1]].encode("utf-8")
            i += 2
        else:
            raise ValueError(f"bad escape in {quoted[:80]!r}")
    return out.decode("utf-8")


def _parse(text, file):
    state = CheckpointState()
    try:
        for line in text.splitlines():
            if not line.strip():
                continue
            match = _LINE.match(line)
            if match is None:
                raise ValueError(f"unexpected line {line.strip()[:80]!r}")
            field, value = match.groups()
            if field == "model_checkpoint_path":
                state.model_checkpoint_path = _unescape(value)
            elif field == "all_model_checkpoint_paths":
                state.all_model_checkpoint_paths.append(_unescape(value))
            elif field == "all_model_checkpoint_timestamps":
                state.all_model_checkpoint_timestamps.append(float(value))
            elif field == "last_preserved_timestamp":
                state.last_preserved_timestamp = float(value)
            else:
                raise ValueError(f"unknown field {field!r}")
    except (ValueError, UnicodeDecodeError) as err:
        raise DataLossError(f"get_checkpoint_state: the state file '{file}' is corrupted "
                            f"({err}).") from None
    return state


def _state_file(checkpoint_dir, latest_filename):
    name = latest_filename or STATE_FILE
    if os.path.basename(name) != name:
        raise ValueError("'latest_filename' must not contain path components")
    return os.path.join(os.fspath(checkpoint_dir), name)


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
    """A CheckpointState whose path list ends with `model_checkpoint_path`; paths inside
    `save_dir` are kept relative when `model_checkpoint_path` is relative."""
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    stamps = list(all_model_checkpoint_timestamps or [])
    if stamps and len(stamps) != len(paths):
        raise ValueError(f"generate_checkpoint_state_proto: {len(stamps)} timestamps for "
                         f"{len(paths)} checkpoint paths; give one per path.")
    if not os.path.isabs(save_dir) and not os.path.isabs(model_checkpoint_path):
        model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        paths = [os.path.relpath(p, save_dir) if not os.path.isabs(p) else p for p in paths]
    return CheckpointState(model_checkpoint_path=model_checkpoint_path,
                           all_model_checkpoint_paths=paths,
                           all_model_checkpoint_timestamps=stamps,
                           last_preserved_timestamp=last_preserved_timestamp or 0.0)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None):
    """Rewrite the state file of `save_dir` to name `model_checkpoint_path` as the newest."""
    file = _state_file(save_dir, latest_filename)
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                            all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps,
                                            last_preserved_timestamp)
    if os.path.abspath(file) == os.path.abspath(model_checkpoint_path):
        raise RuntimeError(f"update_checkpoint_state: save path '{model_checkpoint_path}' "
                           f"collides with the state file '{file}'; pick another name.")
    _write_text(file, to_text(state))


def _write_text(file, text):
    directory = os.path.dirname(os.path.abspath(file))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=os.path.basename(file) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, file)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's CheckpointState (relative paths joined to the directory), or None when it
    has no state file."""
    file = _state_file(checkpoint_dir, latest_filename)
    if not os.path.isfile(file):
        return None
    with open(file, "rb") as f:
        state = _parse(f.read().decode("utf-8", "strict"), file)
    if not state.model_checkpoint_path:
        raise DataLossError(f"get_checkpoint_state: invalid checkpoint state loaded from "
                            f"'{checkpoint_dir}': it names no model_checkpoint_path.")
    directory = os.fspath(checkpoint_dir)
    state.model_checkpoint_path = os.path.join(directory, state.model_checkpoint_path)
    paths = [os.path.join(directory, p) for p in state.all_model_checkpoint_paths]
    del state.all_model_checkpoint_paths[:]
    state.all_model_checkpoint_paths.extend(paths)
    return state


def checkpoint_exists(checkpoint_prefix):
    """Whether a checkpoint (its `.index` file, or a TF 1 V1 file) exists at the prefix."""
    prefix = os.fspath(checkpoint_prefix)
    return bool(os.path.isfile(prefix + ".index") or glob.glob(prefix + ".index")
                or os.path.isfile(prefix))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint the directory's state file names, or None (no file, or the
    checkpoint it names is gone)."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not checkpoint_exists(state.model_checkpoint_path):
        return None
    return state.model_checkpoint_path


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification time of each existing checkpoint (its `.index` file)."""
    times = []
    for prefix in checkpoint_prefixes:
        for file in (prefix + ".index", prefix):
            if os.path.isfile(file):
                times.append(os.path.getmtime(file))
                break
    return times


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Delete the checkpoint's files that exist: its index and data shards (format 2) or its one
    file (format 1), and its meta graph."""
    if checkpoint_format_version not in (1, 2):
        raise ValueError(f"remove_checkpoint: checkpoint_format_version must be 1 or 2, got "
                         f"{checkpoint_format_version!r}.")
    prefix = os.fspath(checkpoint_prefix)
    files = [prefix + "." + meta_graph_suffix]
    if checkpoint_format_version == 1:
        files.append(prefix)
    else:
        files += [prefix + ".index"] + glob.glob(glob.escape(prefix) + ".data-*")
    for file in files:
        if os.path.isfile(file):
            os.unlink(file)
