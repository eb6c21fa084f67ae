"""Event files: TFRecord framing with masked CRC32C checksums, written by a background thread.

A TFRecord file is a sequence of records, each

    uint64 length | uint32 masked_crc32c(length bytes) | data | uint32 masked_crc32c(data)

little-endian (ops/io/tfrecords.py frames them). CRC32C is the CRC with the Castagnoli
polynomial 0x82F63B78 (reflected), computed by util/crc32c.py. A checksum is stored *masked*,
rotated right by 15 bits plus the constant 0xA282EAD8 (mod 2^32), so that the CRC of data that
itself holds CRCs does not degenerate. An event file's first record is the `Event` with `file_version: "brain.Event:2"`;
every other record is one serialized `Event`.

`EventFileWriter` owns one file, named as TensorFlow 2 names them
(`events.out.tfevents.<seconds>.<host>.<pid>.<n><suffix>`, suffix ".v2" by default). The training
thread only appends to a queue: an item is either finished event bytes or a small closure that
builds them (encoding a PNG, bucketing a histogram, serializing). A background thread wakes when
`max_queue` items are waiting or `flush_millis` have passed, builds and writes what is queued, and
flushes the file; `flush()` does the same on the caller's thread and returns when everything
queued before it is on disk. An error while encoding is kept and raised by the next `flush` or
write, on the caller's thread. Open writers are flushed when the interpreter exits.
"""
import atexit
import collections
import itertools
import os
import socket
import threading
import time
import weakref

from ..ops.io.tfrecords import frame as tfrecord
from ..util.crc32c import crc32c, masked_crc32c  # noqa: F401  (this module's names, as before)
from . import protobuf

__all__ = ["crc32c", "masked_crc32c", "tfrecord", "EventFileWriter"]

_FILE_NUMBER = itertools.count()
_OPEN_WRITERS = weakref.WeakSet()


def event_file_name(logdir, filename_suffix):
    return os.path.join(logdir, f"events.out.tfevents.{int(time.time()):010d}."
                                f"{socket.gethostname()}.{os.getpid()}.{next(_FILE_NUMBER)}"
                                f"{filename_suffix}")


class EventFileWriter:
    """One event file, written off the caller's thread (see the module docstring)."""

    def __init__(self, logdir, max_queue=10, flush_millis=120000, filename_suffix=".v2",
                 source="wengert"):
        os.makedirs(logdir, exist_ok=True)
        self.path = event_file_name(logdir, filename_suffix)
        self._file = open(self.path, "wb")  # noqa: SIM115 - closed by close()
        self._max_queue = max(int(max_queue), 1)
        self._interval = max(flush_millis, 1) / 1000.0
        self._pending = collections.deque()
        self._lock = threading.Lock()      # one writer of the file at a time
        self._wake = threading.Event()
        self._error = None
        self._closed = False
        first = protobuf.event(time.time(), file_version="brain.Event:2", source_writer=source)
        self._file.write(tfrecord(first))
        self._file.flush()
        self._thread = threading.Thread(target=self._run, name="wengert-event-writer",
                                        daemon=True)
        self._thread.start()
        _OPEN_WRITERS.add(self)

    @property
    def closed(self):
        return self._closed

    def add(self, item):
        """Queue an event: its bytes, or a function of no arguments returning them."""
        if self._error is not None:
            self._raise_error()
        pending = self._pending
        pending.append(item)
        if len(pending) >= self._max_queue and not self._wake.is_set():
            self._wake.set()

    def flush(self):
        """Write everything queued so far and flush the file to the operating system."""
        self._drain()
        if self._error is not None:
            self._raise_error()

    def close(self):
        if self._closed:
            return
        self._closed = True
        self._wake.set()
        self._thread.join()
        self._drain()
        with self._lock:
            self._file.close()
        _OPEN_WRITERS.discard(self)
        if self._error is not None:
            self._raise_error()

    def _raise_error(self):
        error, self._error = self._error, None
        raise error

    def _run(self):
        while not self._closed:
            self._wake.wait(self._interval)
            self._wake.clear()
            self._drain()

    def _drain(self):
        with self._lock:
            if self._file.closed:
                return
            pending = self._pending
            wrote = False
            while pending:
                item = pending.popleft()
                try:
                    data = item if isinstance(item, bytes) else item()
                except Exception as err:  # noqa: BLE001 - reported on the caller's thread
                    self._error = err
                    continue
                self._file.write(tfrecord(data))
                wrote = True
            if wrote:
                self._file.flush()


@atexit.register
def _flush_open_writers():
    for writer in list(_OPEN_WRITERS):
        try:
            writer.close()
        except Exception:  # noqa: BLE001, S110 - nothing to report to at exit
            pass
