"""The CRC32C of a checkpoint's tensors, computed in a thread while their bytes are written or
read.

A checkpoint's data file holds each tensor's bytes and its index each tensor's masked CRC32C
(tensor_bundle.py): saving and restoring both make two passes over the same memory, of about the
same cost (100 MB: some 25 ms of CRC with the SSE 4.2 instruction, 30-40 ms of copying to or from
the page cache). The copy runs in the kernel without the GIL, so `Checksums` computes the CRCs of
the chunks handed to it in a thread while the caller writes or reads the next ones. The thread
calls the C library that the optional google-crc32c package ships (`crc32c_extend(crc, bytes,
length)`, from register value 0) through ctypes, which releases the GIL for the call: the
package's own binding holds it for any buffer that is not `bytes`, and would stall the caller.
Where that library cannot be loaded (google-crc32c absent, or built another way), or for less
than a megabyte, there is no thread: the CRCs are computed when asked for, as before. Either way
each chunk gets crc32c(chunk), the same number.
"""
import _thread
import contextlib
import ctypes
import functools
import queue
import threading

import numpy as np

from ..util import crc32c

__all__ = ["Checksums", "checksums_while_writing"]

_CHECK = (b"123456789", 0xE3069283)  # CRC32C's check value
THREAD_FROM = 1 << 20  # bytes: below this a thread costs more than it saves
_DONE = object()


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


class Checksums:
    """`with Checksums(total_bytes) as sums:` hand chunks over with `sums.add(chunk)` (they
    must not change until `results()`), then `sums.results()`: their CRC32C, in order. Leaving
    the block stops the thread, whether or not results were asked for."""

    def __init__(self, total_bytes):
        extend = _unlocked_extend() if total_bytes >= THREAD_FROM else None
        self._extend, self._chunks, self._crcs, self._error = extend, [], [], None
        self._queue = self._finished = None
        if extend is not None:
            self._queue, self._finished = queue.SimpleQueue(), threading.Event()

    def __enter__(self):
        if self._queue is not None:  # not threading.Thread: its start() waits for the thread
            _thread.start_new_thread(self._run, ())  # to run, milliseconds on a busy machine
        return self

    def __exit__(self, kind, error, trace):
        self._stop()
        return False

    def _run(self):
        extend, crcs = self._extend, self._crcs
        try:
            while True:
                chunk = self._queue.get()
                if chunk is _DONE:
                    return
                if self._error is None:
                    try:
                        crcs.append(_checksum(extend, chunk))
                    except BaseException as err:  # raised in the caller's thread by results()
                        self._error = err
        finally:
            self._finished.set()

    def _stop(self):
        if self._queue is not None and not self._finished.is_set():
            self._queue.put(_DONE)
            self._finished.wait()

    def add(self, chunk):
        if self._queue is None:
            self._chunks.append(chunk)
        else:
            self._queue.put(chunk)

    def results(self):
        """[crc32c(chunk)] of the chunks added, in order (waits for the thread)."""
        if self._queue is None:
            return [crc32c.crc32c(chunk) for chunk in self._chunks]
        self._stop()
        if self._error is not None:
            raise self._error
        return list(self._crcs)


@contextlib.contextmanager
def checksums_while_writing(unsummed):
    """`with checksums_while_writing(unsummed): write the chunks`: on leaving, every entry of
    tensor_bundle.layout_data's [(entry, chunk)] has its masked CRC32C."""
    with Checksums(sum(len(chunk) for _, chunk in unsummed)) as sums:
        for _, chunk in unsummed:
            sums.add(chunk)
        yield
        crcs = sums.results()
    for (entry, _), crc in zip(unsummed, crcs):
        entry.crc32c = crc32c.mask(crc)
