"""Reading IDX files, the format MNIST is distributed in, with every byte accounted for.

An IDX file is a 4-byte magic number, one big-endian 32-bit size per dimension, then the values
in row-major order. The magic number is two zero bytes, a type code (0x08 unsigned byte, 0x09
signed byte, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64) and the number of dimensions:
MNIST images are 0x00000803 = 2051 (uint8, 3 dims: count, rows, columns), labels 0x00000801 = 2049
(uint8, 1 dim). Files may be gzip-compressed (".gz").

`read_idx` checks, in order, the file's SHA-256 (when a digest is given), that it decompresses,
the magic number, and that the number of data bytes is exactly what the dimensions say. Any
failure is a `DataLossError` that names the file and what is wrong with it.
"""
import gzip
import hashlib
import struct
import zlib

import numpy as np

from ..framework.errors import DataLossError, NotFoundError

__all__ = ["read_idx", "sha256_of", "IDX_TYPES"]

IDX_TYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"),
             0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def sha256_of(data):
    return hashlib.sha256(data).hexdigest()


def _read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise NotFoundError(f"IDX file '{path}' does not exist.") from None


def _decompress(path, raw):
    if not str(path).endswith(".gz"):
        return raw
    try:
        return gzip.decompress(raw)
    except (EOFError, OSError, zlib.error) as err:
        raise DataLossError(f"'{path}' is not a complete gzip file ({err}); the file is "
                            "truncated or corrupted: delete it and download it again.") from None


def _parse_header(path, data, expected_magic):
    if len(data) < 4:
        raise DataLossError(f"'{path}' is too short ({len(data)} bytes) to hold an IDX header.")
    magic, = struct.unpack(">i", data[:4])
    if expected_magic is not None and magic != expected_magic:
        raise DataLossError(f"'{path}' has magic number {magic}, expected {expected_magic}: "
                            "this is not the IDX file it is named as (or it is corrupted).")
    zero, type_code, ndim = data[0] << 8 | data[1], data[2], data[3]
    if zero != 0 or type_code not in IDX_TYPES:
        raise DataLossError(f"'{path}' does not start with an IDX magic number (got "
                            f"0x{magic & 0xFFFFFFFF:08x}).")
    end = 4 + 4 * ndim
    if len(data) < end:
        raise DataLossError(f"'{path}' is truncated inside its IDX header ({ndim} dimensions "
                            f"need {end} bytes, the file has {len(data)}).")
    dims = struct.unpack(f">{ndim}i", data[4:end])
    if any(d < 0 for d in dims):
        raise DataLossError(f"'{path}' has negative dimensions {dims} in its IDX header.")
    return IDX_TYPES[type_code], dims, end


def read_idx(path, expected_magic=None, sha256=None, nbytes=None):
    """The array stored in the IDX file `path` (gzip-compressed when it ends in ".gz").

    `sha256`/`nbytes`: the digest and size the file on disk must have (known files). Raises
    DataLossError naming the file when it is truncated, corrupted or not what it claims to be."""
    raw = _read_bytes(path)
    if nbytes is not None and len(raw) != nbytes:
        raise DataLossError(f"'{path}' has {len(raw)} bytes, expected {nbytes}: the file is "
                            "truncated or not the official one; delete it and download it again.")
    if sha256 is not None and sha256_of(raw) != sha256:
        raise DataLossError(f"'{path}' has SHA-256 {sha256_of(raw)}, expected {sha256}: the "
                            "file is corrupted or not the official one; delete it and download "
                            "it again.")
    data = _decompress(path, raw)
    dtype, dims, start = _parse_header(path, data, expected_magic)
    expected = int(np.prod(dims, dtype=np.int64)) * dtype.itemsize
    if len(data) - start != expected:
        state = "truncated" if len(data) - start < expected else "longer than its header says"
        raise DataLossError(f"'{path}' is {state}: its header says {dims} values of "
                            f"{dtype.itemsize} byte(s) = {expected} bytes, the file has "
                            f"{len(data) - start} bytes of data.")
    array = np.frombuffer(data, dtype=dtype, offset=start).reshape(dims)
    return array.astype(dtype.newbyteorder("="), copy=True)
