"""TensorFlow's table format (LevelDB's sorted string table), the file format of a checkpoint's
`.index`: an immutable map from byte-string keys to byte-string values, keys in byte order.

    file    = data block, ..., metaindex block, index block, footer
    block   = entries, restart offsets (uint32 each), number of restarts (uint32),
              then a 5-byte trailer: compression type (0: none), masked CRC32C of the block
              and the type byte
    entry   = varint shared, varint unshared, varint value length, key[shared:], value
    footer  = metaindex handle, index handle (varint offset, varint size each), zero padding
              to 40 bytes, the 8-byte magic 0xdb4775248b80fb57 (little-endian)

Within a block each key is stored as the number of bytes it shares with the previous key plus
the bytes that differ; every 16th entry (a restart point, listed at the block's end) stores its
whole key. A data block is closed once it reaches 256 KiB. The index block maps, for each data
block, a key at least its last key and below the next block's first (the shortest such) to the
block's handle. `write_table` writes what TensorFlow's table builder writes for the same
entries, without compression; `read_table` verifies every block's checksum as TensorFlow does
and raises DataLossError naming the file for a truncated or corrupted table.
"""
import struct

from ..framework.errors import DataLossError
from ..framework.protos import wire
from ..util import crc32c

__all__ = ["write_table", "read_table", "MAGIC"]

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
TRAILER_SIZE = 5
BLOCK_SIZE = 262144
RESTART_INTERVAL = 16
_U32 = struct.Struct("<I")


# -- writing ---------------------------------------------------------------------------------------
class _BlockBuilder:
    """One block's entries with shared-prefix keys and a restart point every `interval`."""

    def __init__(self, interval):
        self.interval, self.parts, self.size = interval, [], 0
        self.restarts, self.counter, self.last_key = [0], 0, b""

    def add(self, key, value):
        shared = 0
        if self.counter < self.interval:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(self.size)
            self.counter = 0
        part = b"".join((wire.varint(shared), wire.varint(len(key) - shared),
                         wire.varint(len(value)), key[shared:], value))
        self.parts.append(part)
        self.size += len(part)
        self.last_key, self.counter = key, self.counter + 1

    def estimate(self):
        return self.size + 4 * len(self.restarts) + 4

    def finish(self):
        tail = b"".join(_U32.pack(r) for r in self.restarts) + _U32.pack(len(self.restarts))
        return b"".join(self.parts) + tail


def _shortest_separator(start, limit):
    """A short key k with start <= k < limit (LevelDB's bytewise FindShortestSeparator)."""
    n = min(len(start), len(limit))
    i = 0
    while i < n and start[i] == limit[i]:
        i += 1
    if i < n and start[i] < 0xFF and start[i] + 1 < limit[i]:
        return start[:i] + bytes((start[i] + 1,))
    return start


def _short_successor(key):
    """A short key k >= key (LevelDB's bytewise FindShortSuccessor)."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes((byte + 1,))
    return key


def _handle(offset, size):
    return wire.varint(offset) + wire.varint(size)


class _TableWriter:
    def __init__(self):
        self.chunks, self.offset = [], 0

    def block(self, contents):
        """Append a block and its trailer; returns the block's handle."""
        handle = _handle(self.offset, len(contents))
        checksum = crc32c.mask(crc32c.crc32c(contents + b"\x00"))
        self.chunks += [contents, b"\x00" + _U32.pack(checksum)]
        self.offset += len(contents) + TRAILER_SIZE
        return handle


def write_table(items):
    """The bytes of a table holding `items`, (key bytes, value bytes) pairs in ascending key
    order, as TensorFlow's table builder lays them out."""
    out, index = _TableWriter(), _BlockBuilder(1)
    data, pending, last = _BlockBuilder(RESTART_INTERVAL), None, None
    for key, value in items:
        if last is not None and key <= last:
            raise ValueError(f"write_table: keys must be unique and ascending; {key!r} follows "
                             f"{last!r}.")
        if pending is not None:
            index.add(_shortest_separator(last, key), pending)
            pending = None
        data.add(key, value)
        last = key
        if data.estimate() >= BLOCK_SIZE:
            pending = out.block(data.finish())
            data = _BlockBuilder(RESTART_INTERVAL)
    if data.parts:
        pending = out.block(data.finish())
    metaindex = out.block(_BlockBuilder(RESTART_INTERVAL).finish())
    if pending is not None:
        index.add(_short_successor(last), pending)
    index_handle = out.block(index.finish())
    footer = (metaindex + index_handle).ljust(FOOTER_SIZE - 8, b"\x00")
    out.chunks.append(footer + struct.pack("<Q", MAGIC))
    return b"".join(out.chunks)


# -- reading ---------------------------------------------------------------------------------------
class _Corrupt(Exception):
    pass


def _read_handle(data, pos):
    try:
        offset, pos = wire.read_varint(data, pos)
        size, pos = wire.read_varint(data, pos)
    except DataLossError:
        raise _Corrupt("a block handle is malformed") from None
    return (offset, size), pos


def _block(data, handle, what):
    """The contents of the block at `handle`, its checksum and compression checked."""
    offset, size = handle
    end = offset + size + TRAILER_SIZE
    if end > len(data) - FOOTER_SIZE:
        raise _Corrupt(f"the {what} block at byte {offset} runs past the end of the file")
    contents = data[offset:offset + size + 1]
    (stored,) = _U32.unpack_from(data, offset + size + 1)
    if crc32c.crc32c(contents) != crc32c.unmask(stored):
        raise _Corrupt(f"block checksum mismatch in the {what} block at byte {offset}")
    if contents[-1] != 0:
        raise _Corrupt(f"the {what} block at byte {offset} has compression type "
                       f"{contents[-1]}; TensorFlow's checkpoints are not compressed")
    return contents[:-1]


def _entries(block, what):
    """[(key, value)] of a block, keys rebuilt from their shared prefixes."""
    if len(block) < 4:
        raise _Corrupt(f"a {what} block is too short")
    (restarts,) = _U32.unpack_from(block, len(block) - 4)
    end = len(block) - 4 * (restarts + 1)
    if restarts < 1 or end < 0:
        raise _Corrupt(f"a {what} block has a bad restart count")
    out, pos, key = [], 0, b""
    try:
        while pos < end:
            shared, pos = wire.read_varint(block, pos)
            unshared, pos = wire.read_varint(block, pos)
            length, pos = wire.read_varint(block, pos)
            if shared > len(key) or pos + unshared + length > end:
                raise _Corrupt(f"an entry of a {what} block is malformed")
            key = key[:shared] + block[pos:pos + unshared]
            pos += unshared
            out.append((key, block[pos:pos + length]))
            pos += length
    except DataLossError:
        raise _Corrupt(f"an entry of a {what} block is malformed") from None
    return out


def read_table(data, filename):
    """[(key, value)] of every entry of the table `data` (the bytes of file `filename`), in key
    order; DataLossError naming `filename` when it is truncated or corrupted."""
    data = bytes(data)
    try:
        if len(data) < FOOTER_SIZE:
            raise _Corrupt(f"it has {len(data)} bytes, fewer than a table's footer")
        footer = len(data) - FOOTER_SIZE
        if struct.unpack_from("<Q", data, len(data) - 8)[0] != MAGIC:
            raise _Corrupt("it does not end with the table magic number (not a TensorFlow "
                           "checkpoint index, or truncated)")
        _, pos = _read_handle(data, footer)
        index_handle, _ = _read_handle(data, pos)
        items, last = [], None
        for _, value in _entries(_block(data, index_handle, "index"), "index"):
            handle, _ = _read_handle(value, 0)
            for key, item in _entries(_block(data, handle, "data"), "data"):
                if last is not None and key <= last:
                    raise _Corrupt("its keys are out of order")
                items.append((key, item))
                last = key
    except _Corrupt as err:
        raise DataLossError(f"Checkpoint index '{filename}' is corrupted: {err}.") from None
    return items
