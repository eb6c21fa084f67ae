"""TensorFlow's tensor bundle: the `.index` and `.data-00000-of-00001` files of a checkpoint.

The data file holds each tensor's bytes one after another: numbers little-endian, row-major;
a string tensor as the varint length of every element, a 4-byte masked CRC32C of those lengths
(each taken as a little-endian uint32, or uint64 past 4 GiB), then the elements' bytes. The
index is a table (table_format.py) whose empty key holds a BundleHeaderProto (one shard,
little-endian, version 1) and whose every other key, a tensor's name, holds a BundleEntryProto:
dtype, shape, shard 0, offset and size in the data file, and the masked CRC32C of those bytes
(for a string tensor, of its lengths as uint32s, the length checksum, then the elements).

`encode_data` and `encode_index` give the bytes TensorFlow's BundleWriter writes for the same
tensors (`layout_data` the same, the numeric tensors' checksums left to compute while the bytes
are written); `BundleReader` parses an index, and reads tensors from the data file checking each
size and checksum: a mismatch is a DataLossError naming the file and the tensor.
"""
import os
import struct

import numpy as np

from ..framework import dtypes
from ..framework.errors import DataLossError, NotFoundError, UnimplementedError
from ..framework.protos import wire
from ..framework.protos.tensor_bundle import BundleEntryProto, BundleHeaderProto
from ..util import crc32c
from .bundle_checksums import Checksums
from .table_format import read_table, write_table

__all__ = ["encode_data", "layout_data", "fill_checksums", "encode_index", "BundleReader",
           "check_present", "is_bundle_index"]

VERSION = 1
_U32 = struct.Struct("<I")


def is_bundle_index(head):
    """Whether the first bytes of an index file are a table rather than JSON."""
    return not head.lstrip()[:1] in (b"{", b"[")


# -- writing ---------------------------------------------------------------------------------------
def _string_bytes(array):
    """(bytes, CRC32C) of a string tensor laid out as TensorFlow's bundle lays it out."""
    items = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in array.reshape(-1)]
    lengths = b"".join(wire.varint(len(v)) for v in items)
    sizes = b"".join(struct.pack("<I" if len(v) <= 0xFFFFFFFF else "<Q", len(v)) for v in items)
    length_checksum = _U32.pack(crc32c.mask(crc32c.crc32c(sizes)))
    body = b"".join(items)
    return lengths + length_checksum + body, crc32c.crc32c(sizes + length_checksum + body)


def _dtype_of(name, array):
    try:
        return dtypes.string if array.dtype.kind in "OSU" else dtypes.as_dtype(array.dtype)
    except TypeError:
        raise TypeError(f"Checkpoint: cannot save '{name}', a value of dtype {array.dtype}; "
                        f"save numbers, bools or strings.") from None


def layout_data(arrays):
    """([byte chunks of the data file], {name: BundleEntryProto}, [(entry, chunk)]) for
    {name: ndarray}: the chunks are the arrays' own memory where they are little-endian and
    contiguous (no copy); the entries of numeric tensors, listed with their chunk, still lack
    its CRC32C (`fill_checksums`, or bundle_checksums.py while the chunks are written)."""
    chunks, entries, unsummed, offset = [], {}, [], 0
    for name, array in arrays.items():
        array = np.asarray(array)
        dtype = _dtype_of(name, array)
        if dtype is dtypes.string:
            blob, crc = _string_bytes(array)
        else:
            little = array.astype(array.dtype.newbyteorder("<"), copy=False)
            blob, crc = np.ascontiguousarray(little).reshape(-1).view(np.uint8).data, None
        entry = BundleEntryProto(dtype=dtype.as_datatype_enum, offset=offset, size=len(blob))
        if crc is None:
            unsummed.append((entry, blob))
        else:
            entry.crc32c = crc32c.mask(crc)
        entry.shape.SetInParent()
        for size in array.shape:
            entry.shape.dim.add(size=int(size))
        chunks.append(blob)
        entries[name] = entry
        offset += len(blob)
    return chunks, entries, unsummed


def fill_checksums(unsummed):
    """Set each entry's masked CRC32C from its chunk, for `layout_data`'s [(entry, chunk)]."""
    for entry, blob in unsummed:
        entry.crc32c = crc32c.mask(crc32c.crc32c(blob))


def encode_data(arrays):
    """([byte chunks of the data file], {name: BundleEntryProto}) for {name: ndarray}."""
    chunks, entries, unsummed = layout_data(arrays)
    fill_checksums(unsummed)
    return chunks, entries


def encode_index(entries):
    """The bytes of the `.index` file for {name: BundleEntryProto}."""
    header = BundleHeaderProto(num_shards=1)
    header.version.producer = VERSION
    items = [(b"", header.SerializeToString())]
    items += sorted((name.encode("utf-8"), entry.SerializeToString())
                    for name, entry in entries.items())
    return write_table(items)


# -- reading ---------------------------------------------------------------------------------------
class BundleReader:
    """The entries of one bundle's index, and its tensors read from the data file on demand."""

    def __init__(self, index_bytes, index_file, data_file):
        self.index_file, self.data_file = index_file, data_file
        items = read_table(index_bytes, index_file)
        if not items or items[0][0] != b"":
            raise self._corrupt("it has no header entry")
        self.header = self._parse(BundleHeaderProto, items[0][1], "the header")
        if self.header.num_shards != 1:
            raise UnimplementedError(f"Checkpoint '{index_file}' is split into "
                                     f"{self.header.num_shards} data shards; wengert reads "
                                     f"single-shard checkpoints.")
        if self.header.endianness != BundleHeaderProto.LITTLE:
            raise UnimplementedError(f"Checkpoint '{index_file}' was written big-endian.")
        self.entries = {}
        for key, value in items[1:]:
            name = key.decode("utf-8", "replace")
            self.entries[name] = self._checked(name, self._parse(BundleEntryProto, value, name))
        self._check_data_size()

    def _corrupt(self, what):
        return DataLossError(f"Checkpoint index '{self.index_file}' is corrupted: {what}.")

    def _parse(self, cls, value, what):
        try:
            return cls.FromString(value)
        except DataLossError as err:
            raise self._corrupt(f"the entry of {what!r} is malformed ({err})") from None

    def _checked(self, name, entry):
        try:
            dtype = dtypes.as_dtype(entry.dtype)
        except TypeError:
            raise UnimplementedError(f"Checkpoint '{self.index_file}': tensor '{name}' has "
                                     f"DataType {entry.dtype}, which wengert does not "
                                     f"support.") from None
        shape = tuple(d.size for d in entry.shape.dim)
        if entry.slices:
            raise UnimplementedError(f"Checkpoint '{self.index_file}': tensor '{name}' is "
                                     f"saved in slices (a partitioned variable).")
        if entry.shard_id != 0 or entry.offset < 0 or entry.size < 0 \
                or any(s < 0 for s in shape) or entry.shape.unknown_rank:
            raise self._corrupt(f"bad entry for tensor '{name}'")
        if dtype is not dtypes.string:
            count = int(np.prod(shape, dtype=np.int64))
            if entry.size != count * np.dtype(dtype.as_numpy_dtype).itemsize:
                raise self._corrupt(f"bad entry for tensor '{name}': {entry.size} bytes for a "
                                    f"{dtype.name} tensor of shape {list(shape)}")
        return dtype, shape, entry.offset, entry.size, entry.crc32c

    def _check_data_size(self):
        try:
            size = os.path.getsize(self.data_file)
        except OSError:
            raise DataLossError(f"Checkpoint data file '{self.data_file}' is missing.") from None
        end = max((e[2] + e[3] for e in self.entries.values()), default=0)
        if size < end:
            raise DataLossError(f"Checkpoint data file '{self.data_file}' has {size} bytes, its "
                                f"index says {end}: it is truncated or corrupted.")

    def read(self, names, writable=True):
        """{name: ndarray} for `names`, each checked against its size and CRC32C (numeric
        tensors' in a thread while the next are read, bundle_checksums.py); with writable=False
        numeric arrays share the bytes read (read-only, one copy fewer)."""
        check_present(self.index_file, self.entries, names)
        numeric = [n for n in names if self.entries[n][0] is not dtypes.string]
        out = {}
        with Checksums(sum(self.entries[n][3] for n in numeric)) as sums, \
                open(self.data_file, "rb") as f:
            for name in names:
                dtype, shape, offset, size, stored = self.entries[name]
                f.seek(offset)
                blob = f.read(size)
                if len(blob) != size:
                    raise self._bad_tensor(name)
                out[name] = value = self._decode(name, dtype, shape, blob)
                if dtype is not dtypes.string:
                    sums.add(blob)
                elif crc32c.mask(_string_bytes(value)[1]) != stored:
                    raise self._bad_tensor(name)
            crcs = sums.results()
        for name, crc in zip(numeric, crcs):
            if crc32c.mask(crc) != self.entries[name][4]:
                raise self._bad_tensor(name)
        if writable:
            out.update((name, out[name].copy()) for name in numeric)
        return out

    def _bad_tensor(self, name):
        return DataLossError(f"Checkpoint data file '{self.data_file}' is corrupted: tensor "
                             f"'{name}' fails its checksum.")

    def _decode(self, name, dtype, shape, blob):
        if dtype is not dtypes.string:
            np_dtype = np.dtype(dtype.as_numpy_dtype)
            return np.frombuffer(blob, np_dtype.newbyteorder("<")).astype(
                np_dtype, copy=False).reshape(shape)
        count = int(np.prod(shape, dtype=np.int64))
        lengths, pos = [], 0
        try:
            for _ in range(count):
                length, pos = wire.read_varint(blob, pos)
                lengths.append(length)
        except DataLossError:
            lengths = None
        if lengths is None or pos + 4 + sum(lengths) != len(blob):
            raise DataLossError(f"Checkpoint data file '{self.data_file}' is corrupted: string "
                                f"tensor '{name}' does not hold {count} strings.")
        pos += 4
        values = np.empty(count, dtype=object)
        for i, length in enumerate(lengths):
            values[i] = bytes(blob[pos:pos + length])
            pos += length
        return values.reshape(shape)


def check_present(index_file, entries, names):
    """NotFoundError naming the checkpoint, the tensors missing from `entries` and those it has
    (both checkpoint formats' readers use it)."""
    missing = [n for n in names if n not in entries]
    if missing:
        raise NotFoundError(f"Checkpoint '{index_file[:-len('.index')]}' has no tensor named "
                            f"{', '.join(map(repr, missing))}; it has: "
                            f"{', '.join(sorted(entries)) or 'nothing'}.")
