"""TFRecord files: TensorFlow's framing of a sequence of byte strings, written and read.

Each record is

    uint64 length | uint32 masked_crc32c(length bytes) | data | uint32 masked_crc32c(data)

little-endian, with CRC32C and its mask as util/crc32c.py computes them. A file may be
compressed as a whole, as TensorFlow compresses it: ZLIB (a zlib stream) or GZIP (a gzip
member with zlib's header: no name, time 0), deflated with TensorFlow's settings (level -1,
window 15 bits, memory level 9), so that the bytes written equal TensorFlow's. Reading checks
both checksums: a length or data checksum that does not match, or a record cut short, is a
DataLossError naming the file and the record's offset (in the uncompressed stream, as
TensorFlow counts it); a file that ends exactly between records ends the reading.

`TFRecordWriter` and `TFRecordOptions` are TensorFlow's `tf.io` classes; `tf_record_iterator`
is `tf.compat.v1.io`'s; `read_records` is what `tf.data.TFRecordDataset` iterates.
"""
import os
import struct
import zlib

import numpy as np

from ...framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from ...util.crc32c import MASK_DELTA as _MASK_DELTA, bytes_crc32c, masked_crc32c

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "frame",
           "read_records", "read_record_blocks", "tf_record_iterator", "compression_of"]

_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")
_HEADER = struct.Struct("<QI")
_DEFAULT_BUFFER = 256 * 1024


class TFRecordCompressionType:
    """The compression of a TFRecord file (tf.compat.v1.io.TFRecordCompressionType)."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


_NAMES = {None: "", "": "", "NONE": "", "ZLIB": "ZLIB", "GZIP": "GZIP",
          TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
          TFRecordCompressionType.GZIP: "GZIP"}


def compression_of(value, what):
    """"", "ZLIB" or "GZIP" from a compression type (a string, None, a TFRecordCompressionType
    or TFRecordOptions)."""
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    value = value.numpy() if hasattr(value, "numpy") else value
    value = value.decode() if isinstance(value, bytes) else value
    try:
        return _NAMES[value.upper() if isinstance(value, str) else value]
    except (KeyError, TypeError):
        raise InvalidArgumentError(f"{what}: compression_type must be '', 'ZLIB' or 'GZIP', "
                                   f"got {value!r}.") from None


class TFRecordOptions:
    """How a TFRecord file is compressed: compression_type '', 'ZLIB' or 'GZIP', and zlib's
    settings (None keeps TensorFlow's default for each)."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = compression_of(compression_type, "TFRecordOptions")
        for what, value in (("input_buffer_size", input_buffer_size),
                            ("output_buffer_size", output_buffer_size)):
            if value is not None and int(value) <= 0:
                raise InvalidArgumentError(f"TFRecordOptions: {what} must be positive, got "
                                           f"{value}.")
        if compression_method not in (None, zlib.DEFLATED):
            raise InvalidArgumentError(f"TFRecordOptions: compression_method must be "
                                       f"{zlib.DEFLATED} (deflate), got {compression_method}.")
        self.flush_mode, self.window_bits = flush_mode, window_bits
        self.input_buffer_size, self.output_buffer_size = input_buffer_size, output_buffer_size
        self.compression_level, self.compression_method = compression_level, compression_method
        self.mem_level, self.compression_strategy = mem_level, compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """The compression type of `options` (TFRecordOptions, a string or None) as a string."""
        return compression_of(options, "TFRecordOptions.get_compression_type_string")

    def compressor(self):
        """A zlib compressor with TensorFlow's settings, or None for no compression."""
        if not self.compression_type:
            return None
        bits = 15 if self.window_bits is None else int(self.window_bits)
        return zlib.compressobj(
            -1 if self.compression_level is None else int(self.compression_level),
            zlib.DEFLATED, bits + 16 if self.compression_type == "GZIP" else bits,
            9 if self.mem_level is None else int(self.mem_level),
            zlib.Z_DEFAULT_STRATEGY if self.compression_strategy is None
            else int(self.compression_strategy))

    def __repr__(self):
        return f"TFRecordOptions(compression_type={self.compression_type!r})"


def frame(data):
    """One record's bytes: the framed `data`."""
    header = _LENGTH.pack(len(data))
    return header + _CRC.pack(masked_crc32c(header)) + data + _CRC.pack(masked_crc32c(data))


def _record_bytes(record):
    record = record.numpy() if hasattr(record, "numpy") else record
    if isinstance(record, str):
        return record.encode("utf-8")
    if isinstance(record, (bytes, bytearray, memoryview)):
        return bytes(record)
    if hasattr(record, "item") and getattr(record, "ndim", None) == 0:
        return _record_bytes(record.item())
    raise TypeError(f"TFRecordWriter.write: a record is a byte string (bytes, str or a scalar "
                    f"string tensor), got {type(record).__name__}.")


class TFRecordWriter:
    """Writes records to a TFRecord file: `with tf.io.TFRecordWriter(path) as w: w.write(b)`.
    `options` is a TFRecordOptions or a compression type ('', 'ZLIB', 'GZIP')."""

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_of(options, "TFRecordWriter"))
        self._options = options
        self._path = os.fspath(path.numpy() if hasattr(path, "numpy") else path)
        self._path = self._path.decode() if isinstance(self._path, bytes) else self._path
        try:
            self._file = open(self._path, "wb",  # noqa: SIM115 - closed by close()
                              buffering=options.output_buffer_size or _DEFAULT_BUFFER)
        except FileNotFoundError:
            raise NotFoundError(f"TFRecordWriter: cannot create '{self._path}': its directory "
                                f"does not exist (make it with tf.io.gfile.makedirs).") from None
        self._compressor = options.compressor()

    def write(self, record):
        """Append one record (bytes, or a str written as UTF-8)."""
        if self._file is None:
            raise ValueError(f"TFRecordWriter: '{self._path}' is closed; open a new writer.")
        data = frame(_record_bytes(record))
        if self._compressor is not None:
            data = self._compressor.compress(data)
        self._file.write(data)

    def flush(self):
        """Hand what is written to the operating system (with the flush_mode of the options
        for a compressed file: zlib.Z_SYNC_FLUSH or Z_FULL_FLUSH make a point a reader can
        stop at)."""
        if self._file is None:
            return
        mode = self._options.flush_mode
        if self._compressor is not None and mode in (zlib.Z_SYNC_FLUSH, zlib.Z_FULL_FLUSH):
            self._file.write(self._compressor.flush(mode))
        self._file.flush()

    def close(self):
        if self._file is None:
            return
        if self._compressor is not None:
            self._file.write(self._compressor.flush(zlib.Z_FINISH))
        self._file.close()
        self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        if getattr(self, "_file", None) is not None:
            self.close()


class _Inflated:
    """A file read through zlib: `read(n)` of the uncompressed bytes. A file of several
    compressed streams one after another (`cat a.gz b.gz`) reads as their concatenation, as
    TensorFlow reads it."""

    def __init__(self, file, compression, chunk, path):
        self._file, self._chunk, self._path = file, chunk, path
        self._bits = 31 if compression == "GZIP" else 15
        self._inflate = zlib.decompressobj(self._bits)
        self._buffer = b""

    def read(self, n):
        while len(self._buffer) < n:
            if self._inflate.eof:  # a stream ended: another may follow
                raw = self._inflate.unused_data or self._file.read(self._chunk)
                if not raw:
                    break
                self._inflate = zlib.decompressobj(self._bits)
            else:
                raw = self._file.read(self._chunk)
            try:
                self._buffer += (self._inflate.decompress(raw) if raw else
                                 self._inflate.flush())
            except zlib.error as err:
                raise DataLossError(f"'{self._path}' is not a valid compressed TFRecord file "
                                    f"({err}); check compression_type.") from None
            if not raw:
                break
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


def read_records(path, compression_type="", buffer_size=None, what="TFRecordDataset"):
    """Yield the records of one TFRecord file, checking their checksums."""
    for block in read_record_blocks(path, compression_type, buffer_size, what):
        yield from block


def read_record_blocks(path, compression_type="", buffer_size=None, what="TFRecordDataset"):
    """Yield the records of one TFRecord file as lists, one list per buffer read, every
    record's checksums checked; a damaged record ends its list and raises on the next call."""
    compression = compression_of(compression_type, what)
    path = os.fspath(path)
    buffer_size = _DEFAULT_BUFFER if buffer_size is None else max(int(buffer_size), 1)
    try:
        file = open(path, "rb", buffering=buffer_size)  # noqa: SIM115 - closed below
    except FileNotFoundError:
        raise NotFoundError(f"{what}: no such file '{path}'.") from None
    with file:
        stream = _Inflated(file, compression, buffer_size, path) if compression else file
        yield from _framed_blocks(stream.read, max(buffer_size, _DEFAULT_BUFFER), path)


def _framed_blocks(read, chunk, path):
    """The records in the bytes `read(n)` gives, read `chunk` bytes at a time: the records
    lying whole in the buffer are found by their lengths, then checked together (every
    length's checksum once per distinct length, the data's masks in one NumPy pass)."""
    buffer, offset, want = b"", 0, chunk
    while True:
        more = read(want)
        buffer = buffer + more if buffer else more
        if not buffer:
            return
        starts, lengths, at = _scan(buffer)
        if not starts:
            want = _wanted(buffer, chunk, bool(more), path, offset)
            continue
        records, error = _checked(buffer, starts, lengths, path, offset)
        if records:
            yield records
        if error is not None:
            raise error
        buffer, offset, want = buffer[at:], offset + at, chunk


def _scan(buffer):
    """The starts and lengths of the records lying whole in `buffer`, and where the rest
    begins (lengths are read from the starts after the loop)."""
    starts, at, n = [], 0, len(buffer)
    unpack, append, limit = _LENGTH.unpack_from, starts.append, n - 12
    while at <= limit:
        end = at + 16 + unpack(buffer, at)[0]
        if end > n:
            break
        append(at)
        at = end
    lengths = [b - a - 16 for a, b in zip(starts, starts[1:] + [at])]
    return starts, lengths, at


def _wanted(buffer, chunk, grew, path, offset):
    """How many bytes to read for the record the buffer holds only the start of (its length's
    checksum checked before it is trusted); at the end of the file, the error it is."""
    if len(buffer) >= 12:
        length, length_crc = _HEADER.unpack_from(buffer, 0)
        if masked_crc32c(buffer[:8]) != length_crc:
            raise _loss(path, offset, "corrupted record", "the checksum of its length does "
                                                          "not match")
        if not grew:
            raise _loss(path, offset, "truncated record", f"it says {length} bytes of data, "
                                                          f"the file ends after "
                                                          f"{len(buffer) - 12}")
        return max(chunk, 16 + length - len(buffer))
    if not grew:
        raise _loss(path, offset, "truncated record", f"the file ends inside its header "
                                                      f"({len(buffer)} of 12 bytes)")
    return chunk


def _masked(crcs):
    return (((crcs >> 15) | (crcs << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def _u32_at(u8, positions):
    return u8[positions[:, None] + np.arange(4)].view("<u4").ravel().astype(np.uint64)


def _checked(buffer, starts, lengths, path, offset):
    """The records at `starts`, up to the first whose checksums do not match, and that
    record's DataLossError (None when all match)."""
    u8 = np.frombuffer(buffer, np.uint8)
    at = np.array(starts, np.int64)
    size = np.array(lengths, np.int64)
    distinct, which = np.unique(size, return_inverse=True)
    expected = np.array([masked_crc32c(_LENGTH.pack(int(v))) for v in distinct], np.uint64)
    length_ok = expected[which.ravel()] == _u32_at(u8, at + 8)
    records = [buffer[a + 12:a + 12 + n] for a, n in zip(starts, lengths)]
    checksum = bytes_crc32c()
    crcs = np.fromiter(map(checksum, records), np.uint64, len(records))
    data_ok = _masked(crcs) == _u32_at(u8, at + 12 + size)
    good = length_ok & data_ok
    if good.all():
        return records, None
    k = int(np.argmin(good))
    detail = ("the checksum of its data does not match" if length_ok[k] else
              "the checksum of its length does not match")
    return records[:k], _loss(path, offset + starts[k], "corrupted record", detail)


def _loss(path, offset, kind, detail):
    return DataLossError(f"{kind} at {offset} in '{path}': {detail}. The file is damaged or "
                         f"is not a TFRecord file of this compression type.")


def tf_record_iterator(path, options=None):
    """The records of a TFRecord file, as bytes (tf.compat.v1.io.tf_record_iterator)."""
    return read_records(path, compression_of(options, "tf_record_iterator"),
                        options.input_buffer_size if isinstance(options, TFRecordOptions)
                        else None, "tf_record_iterator")
