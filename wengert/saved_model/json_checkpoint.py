"""wengert's first checkpoint format, still read (and written on request, for tests and old
tools): beside the data file of raw little-endian tensor bytes, the `.index` file is JSON naming
each tensor with its dtype, shape, byte offset, byte count and the SHA-256 of its bytes, plus the
data file's name and total size. The data file took turns between two names
(`PATH.data-00000-of-00001` and `PATH.data-00000-of-00001.1`) so that overwriting a checkpoint
never left a half-written one; the index names the current one.

`JsonCheckpoint` checks the JSON, every entry, the data file's size, and each tensor's SHA-256
when it is read: anything inconsistent is a DataLossError naming the file.
"""
import hashlib
import json
import os
import re

import numpy as np

from ..framework import dtypes
from ..framework.errors import DataLossError
from .tensor_bundle import check_present

__all__ = ["JsonCheckpoint", "encode_json_index", "FORMAT", "VERSION"]

FORMAT, VERSION = "wengert-checkpoint", 1
_DTYPES = {name: np.dtype(name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool", "complex64", "complex128")}


def encode_json_index(arrays, data_file):
    """(data chunks, index bytes) of the old format for {name: ndarray}."""
    entries, blobs, offset = {}, [], 0
    for key, array in arrays.items():
        array = np.asarray(array)
        if array.dtype.name not in _DTYPES:
            raise TypeError(f"Checkpoint: cannot save a value of dtype {array.dtype}.")
        blob = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
        entries[key] = {"dtype": array.dtype.name, "shape": list(array.shape), "offset": offset,
                        "nbytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        blobs.append(blob)
        offset += len(blob)
    index = {"format": FORMAT, "version": VERSION, "data_file": data_file, "data_bytes": offset,
             "tensors": entries}
    return blobs, json.dumps(index, indent=1).encode("utf-8")


def _is_count(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


class JsonCheckpoint:
    """One old-format checkpoint: its entries, and its tensors read with their checksums."""

    def __init__(self, index_bytes, index_file):
        self.index_file = index_file
        self.entries, self.data_file, data_bytes = self._read_index(index_bytes)
        try:
            size = os.path.getsize(self.data_file)
        except OSError:
            raise DataLossError(f"Checkpoint data file '{self.data_file}' is missing.") from None
        if size != data_bytes:
            raise DataLossError(f"Checkpoint data file '{self.data_file}' has {size} bytes, its "
                                f"index says {data_bytes}: it is truncated or corrupted.")

    def _corrupt(self, what):
        return DataLossError(f"Checkpoint index '{self.index_file}' is corrupted: {what}.")

    def _read_index(self, raw):
        try:
            index = json.loads(raw.decode("utf-8"))
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
        entries = {name: self._checked_entry(name, entry, data_bytes)
                   for name, entry in index["tensors"].items()}
        return entries, os.path.join(os.path.dirname(self.index_file), data_file), data_bytes

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
        return dtypes.as_dtype(dtype), shape, offset, nbytes, digest

    def read(self, names, writable=True):
        """{name: ndarray} for `names`, each checked against its SHA-256 (always writable)."""
        check_present(self.index_file, self.entries, names)
        out = {}
        with open(self.data_file, "rb") as f:
            for name in names:
                dtype, shape, offset, nbytes, digest = self.entries[name]
                f.seek(offset)
                blob = f.read(nbytes)
                if len(blob) != nbytes or hashlib.sha256(blob).hexdigest() != digest:
                    raise DataLossError(f"Checkpoint data file '{self.data_file}' is corrupted: "
                                        f"tensor '{name}' fails its checksum.")
                np_dtype = np.dtype(dtype.as_numpy_dtype)
                out[name] = np.frombuffer(blob, dtype=np_dtype.newbyteorder("<")).astype(
                    np_dtype, copy=True).reshape(shape)
        return out
