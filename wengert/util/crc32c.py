"""CRC32C, the checksum of TFRecord files, and its masked form.

CRC32C is the cyclic redundancy check with the Castagnoli polynomial (0x82F63B78 reflected):
the register starts at 0xFFFFFFFF, each byte b updates it as
`crc = T[(crc ^ b) & 0xFF] ^ (crc >> 8)` with T the table of the polynomial's remainders, and
the result is the register XOR 0xFFFFFFFF. TFRecord stores checksums *masked*: rotated right by
15 bits plus 0xA282EAD8 (mod 2^32), so that checksums of data holding checksums stay strong.

When the optional `google-crc32c` package (or `crc32c`) is installed, its C code computes the
CRC. Otherwise short inputs go through the table a byte at a time, and long ones through NumPy:
the register is linear over GF(2), so the input is cut into L equal lanes whose registers
advance together (one NumPy table lookup per byte position across all lanes, L times fewer
Python steps), and the lanes are joined pairwise, a lane's register carried past the next
lane's bytes by the linear map "feed k zero bytes" (a 32x32 bit matrix applied as four byte
tables, built by repeated squaring and kept per k).
"""
import functools

import numpy as np

try:  # optional dependency: C code for CRC32C
    from google_crc32c import extend as _library_extend, value as _library_crc32c
    LIBRARY = "google-crc32c"
except ImportError:  # pragma: no cover - depends on what is installed
    _library_extend = None
    try:  # optional dependency: the other well-kept CRC32C package
        from crc32c import crc32c as _library_crc32c
        LIBRARY = "crc32c"
    except ImportError:
        _library_crc32c, LIBRARY = None, None

__all__ = ["crc32c", "masked_crc32c", "python_crc32c", "mask", "unmask", "LIBRARY",
           "bytes_crc32c", "MASK_DELTA"]

_POLY = 0x82F63B78
MASK_DELTA = _MASK_DELTA = 0xA282EAD8
_U32 = 0xFFFFFFFF
_LANES = 1024
_VECTOR_FROM = 16384
_CHUNK = 1 << 20  # a buffer that is not bytes goes to the library in copies of this size


def _table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _table()
_NP_TABLE = np.array(_TABLE, dtype=np.uint32)


def _update(crc, data):
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def _byte_tables(columns):
    """Four 256-entry tables applying the bit matrix with these 32 columns to a uint32."""
    bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1
    cols = np.asarray(columns, dtype=np.uint32).reshape(4, 8)
    out = np.zeros((4, 256), dtype=np.uint32)
    for j in range(8):
        out ^= np.where(bits[:, j][None, :] == 1, cols[:, j][:, None], np.uint32(0))
    return out


def _apply(tables, x):
    return (tables[0][x & 0xFF] ^ tables[1][(x >> 8) & 0xFF] ^ tables[2][(x >> 16) & 0xFF]
            ^ tables[3][x >> 24])


@functools.lru_cache(maxsize=64)
def _zeros_operator(nbytes):
    """Byte tables of the map 'feed `nbytes` zero bytes' on the raw register."""
    one = np.array([_update(1 << j, b"\0") for j in range(32)], dtype=np.uint32)
    result, power, k = None, _byte_tables(one), nbytes
    while k:
        if k & 1:
            result = power if result is None else _byte_tables(_apply(power, _columns(result)))
        k >>= 1
        if k:
            power = _byte_tables(_apply(power, _columns(power)))
    return result


def _columns(tables):
    return _apply(tables, np.uint32(1) << np.arange(32, dtype=np.uint32))


def _vector_update(crc, data):
    lanes = _LANES
    size = len(data) // lanes
    block = np.frombuffer(data, dtype=np.uint8, count=size * lanes).reshape(lanes, size)
    state = np.zeros(lanes, dtype=np.uint32)
    state[0] = crc
    table = _NP_TABLE
    for j in range(size):
        state = table[(state ^ block[:, j]) & 0xFF] ^ (state >> 8)
    span = size
    while len(state) > 1:
        state = _apply(_zeros_operator(span), state[0::2]) ^ state[1::2]
        span *= 2
    return _update(int(state[0]), memoryview(data)[size * lanes:])


def python_crc32c(data):
    """CRC32C of `data` without the optional library (the fallback, kept for tests)."""
    data = bytes(data) if not isinstance(data, (bytes, bytearray, memoryview)) else data
    if len(data) >= _VECTOR_FROM:
        return _vector_update(_U32, data) ^ _U32
    return _update(_U32, data) ^ _U32


def crc32c(data):
    """CRC32C (Castagnoli) of `data` (bytes-like)."""
    if _library_crc32c is not None:
        if isinstance(data, bytes):
            return _library_crc32c(data)
        return _library_chunks(data)
    return python_crc32c(data)


def bytes_crc32c():
    """The CRC32C function for `bytes`: the library's own when it is installed (no checks in
    between, for loops over many short records), else python_crc32c."""
    return _library_crc32c if _library_crc32c is not None else python_crc32c


def _library_chunks(data):
    """The library's CRC of a buffer that is not `bytes` (a bytearray, a NumPy array's memory).
    google_crc32c takes any read-only buffer, so the memory is handed over as a read-only NumPy
    view, without a copy; a library that takes only bytes gets copies a megabyte at a time, so
    the copies stay in the cache."""
    try:
        view = memoryview(data).cast("B")
    except (TypeError, ValueError):
        view = memoryview(bytes(data))
    if _library_extend is None or view.nbytes <= _CHUNK:
        return _library_crc32c(bytes(view))
    whole = np.frombuffer(view, dtype=np.uint8)
    whole.flags.writeable = False
    try:
        return _library_extend(0, whole)
    except TypeError:
        pass
    crc = 0
    for start in range(0, view.nbytes, _CHUNK):
        crc = _library_extend(crc, bytes(view[start:start + _CHUNK]))
    return crc


def mask(crc):
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & _U32


def unmask(masked):
    rot = (masked - _MASK_DELTA) & _U32
    return ((rot >> 17) | (rot << 15)) & _U32


def masked_crc32c(data):
    """The masked CRC32C TFRecord stores."""
    return mask(crc32c(data))

