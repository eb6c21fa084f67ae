"""The CRC32C of a checkpoint's tensors, computed in a thread while their bytes are written.

A checkpoint's data file holds each tensor's bytes and its index each tensor's masked CRC32C
(tensor_bundle.py): two passes over the same memory, of about the same cost (100 MB: some 25 ms
of CRC with the SSE 4.2 instruction, 40 ms of copying into the page cache). The write runs in
the kernel without the GIL, so `checksums_while_writing` computes the checksums in a thread
while the caller writes. The thread calls the C library that the optional google-crc32c package
ships (`crc32c_extend(crc, bytes, length)`, CRC32C from register value 0) through ctypes, which
releases the GIL for the call: the package's own binding holds it for any buffer that is not
`bytes`, and would stall the writing thread. Where that library cannot be loaded (google-crc32c
absent, or built another way) the checksums are computed in the caller's thread after the write,
as before. Either way each entry gets `mask(crc32c(chunk))`, the same number.
"""
import contextlib
import ctypes
import functools
import threading

import numpy as np

from ..util import crc32c
from .tensor_bundle import fill_checksums

__all__ = ["checksums_while_writing"]

_CHECK = (b"123456789", 0xE3069283)  # CRC32C's check value


@functools.lru_cache(maxsize=1)
def _unlocked_extend():
    """google-crc32c's C `crc32c_extend`, callable without the GIL; None when unavailable."""
    if crc32c.LIBRARY != "google-crc32c":
        return None
    try:
        from google_crc32c import _crc32c  # optional dependency
        extend = ctypes.CDLL(_crc32c.__file__).crc32c_extend  # resolved in its libcrc32c
    except (ImportError, OSError, AttributeError):
        return None
    extend.restype = ctypes.c_uint32
    extend.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.c_size_t]
    return extend if extend(0, _CHECK[0], len(_CHECK[0])) == _CHECK[1] else None


def _checksum(extend, chunk):
    data = np.frombuffer(chunk, dtype=np.uint8)
    return extend(0, data.ctypes.data, data.nbytes) if data.nbytes else 0


class _Summing(threading.Thread):
    def __init__(self, extend, unsummed):
        super().__init__(name="wengert-checkpoint-crc32c", daemon=True)
        self.extend, self.unsummed, self.error = extend, unsummed, None

    def run(self):
        try:
            for entry, chunk in self.unsummed:
                entry.crc32c = crc32c.mask(_checksum(self.extend, chunk))
        except BaseException as err:  # raised in the caller's thread
            self.error = err


@contextlib.contextmanager
def checksums_while_writing(unsummed):
    """`with checksums_while_writing(unsummed): write the chunks`: on leaving, every entry of
    `layout_data`'s [(entry, chunk)] has its masked CRC32C; an error while writing is raised
    once the thread has stopped reading the chunks."""
    extend = _unlocked_extend() if unsummed else None
    if extend is None:
        yield
        fill_checksums(unsummed)
        return
    thread = _Summing(extend, unsummed)
    thread.start()
    try:
        yield
    finally:
        thread.join()
    if thread.error is not None:
        raise thread.error
