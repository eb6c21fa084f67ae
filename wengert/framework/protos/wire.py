"""The protocol-buffer wire format: encoding and decoding of fields, with no protobuf library.

A message is a sequence of fields. Each starts with a key, `(field_number << 3) | wire_type`,
written as a varint (7 bits per byte, least significant group first, the high bit set on every
byte but the last). The value follows, by wire type:

    0 VARINT  an integer as a varint; a negative int32/int64 is its 64-bit two's complement
              (ten bytes); sint32/sint64 use the zigzag map n -> (n << 1) ^ (n >> 63)
    1 I64     eight little-endian bytes (double, fixed64, sfixed64)
    2 LEN     a varint length, then that many bytes (string, bytes, a nested message, or a
              packed repeated field: the numbers' encodings back to back)
    5 I32     four little-endian bytes (float, fixed32, sfixed32)

Wire types 3 and 4 (groups) are deprecated and appear in no TensorFlow message: decoding them
is a DataLossError, as is a truncated varint, a length past the end of the buffer, or a field
number of 0. Concatenating the bytes of two messages merges them, which is what composing
messages by hand relies on.
"""
import struct

import numpy as np

from ..errors import DataLossError

__all__ = ["VARINT", "I64", "LEN", "I32", "varint", "key", "field_varint", "field_bytes",
           "field_double", "field_float", "field_fixed32", "field_fixed64", "packed_varints",
           "packed_floats", "packed_doubles", "zigzag", "unzigzag", "read_varint", "fields",
           "unpack_varints", "unpack_fixed", "unpack_floats", "corrupt", "unpack_doubles", "signed64", "signed32"]

VARINT, I64, LEN, I32 = 0, 1, 2, 5
_DOUBLE = struct.Struct("<d")
_FLOAT = struct.Struct("<f")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_SIZES = {I64: 8, I32: 4}


# -- encoding --------------------------------------------------------------------------------------
def varint(n):
    """A non-negative int (or a negative int64, as its 64-bit two's complement) as a varint."""
    if n < 0:
        n += 1 << 64
    if n < 0x80:
        return bytes((n,))
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def key(number, wire_type):
    return varint((number << 3) | wire_type)


def field_varint(number, value):
    return varint(number << 3) + varint(int(value))


def field_bytes(number, data):
    """A LEN field: bytes, a str (written as UTF-8), or an encoded message."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return varint((number << 3) | LEN) + varint(len(data)) + data


def field_double(number, value):
    return varint((number << 3) | I64) + _DOUBLE.pack(value)


def field_float(number, value):
    return varint((number << 3) | I32) + _FLOAT.pack(value)


def field_fixed32(number, value):
    return varint((number << 3) | I32) + _U32.pack(value & 0xFFFFFFFF)


def field_fixed64(number, value):
    return varint((number << 3) | I64) + _U64.pack(value & 0xFFFFFFFFFFFFFFFF)


def packed_varints(number, values):
    """A packed repeated varint field (nothing for no values, as protobuf writes it)."""
    if not len(values):
        return b""
    return field_bytes(number, b"".join([varint(int(v)) for v in values]))


def packed_floats(number, values):
    if not len(values):
        return b""
    return field_bytes(number, np.asarray(values, dtype="<f4").tobytes())


def packed_doubles(number, values):
    if not len(values):
        return b""
    return field_bytes(number, np.asarray(values, dtype="<f8").tobytes())


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def unzigzag(n):
    return (n >> 1) ^ -(n & 1)


# -- decoding --------------------------------------------------------------------------------------
def corrupt(what, position, problem):
    return DataLossError(f"{what}: the protocol-buffer bytes are malformed at byte {position}: "
                         f"{problem}. The data is truncated or corrupted, or is not this "
                         f"message.")


def read_varint(data, pos, what="protocol buffer"):
    """(value, next position) of the varint at `pos` of `data` (bytes or memoryview)."""
    start, result, shift = pos, 0, 0
    end = len(data)
    while True:
        if pos >= end:
            raise corrupt(what, start, "a varint runs past the end")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise corrupt(what, start, "a varint is longer than ten bytes")


def fields(data, what="protocol buffer"):
    """Yield (field number, wire type, value, start, end) for each field of an encoded message:
    the value is an int for VARINT, the raw little-endian bytes for I64 and I32, and the bytes
    for LEN; data[start:end] is the whole field. `what` names the message in errors."""
    pos, end = 0, len(data)
    while pos < end:
        start = pos
        tag, pos = read_varint(data, pos, what)
        number, wire_type = tag >> 3, tag & 7
        if number == 0:
            raise corrupt(what, start, "a field number is 0")
        if wire_type == VARINT:
            value, pos = read_varint(data, pos, what)
        elif wire_type == LEN:
            size, pos = read_varint(data, pos, what)
            if pos + size > end:
                raise corrupt(what, start, f"field {number} says {size} bytes follow, but "
                                            f"only {end - pos} do")
            value = bytes(data[pos:pos + size])
            pos += size
        elif wire_type in _SIZES:
            size = _SIZES[wire_type]
            if pos + size > end:
                raise corrupt(what, start, f"field {number} is cut short")
            value = bytes(data[pos:pos + size])
            pos += size
        else:
            raise corrupt(what, start, f"field {number} has wire type {wire_type}, which no "
                                        f"message here uses")
        yield number, wire_type, value, start, pos


def unpack_varints(data, what="protocol buffer"):
    """The unsigned ints of a packed repeated varint field's bytes."""
    out, pos, end = [], 0, len(data)
    while pos < end:
        value, pos = read_varint(data, pos, what)
        out.append(value)
    return out


def _unpack(data, dtype, size, what):
    if len(data) % size:
        raise corrupt(what, 0, f"a packed field of {size}-byte numbers holds {len(data)} bytes")
    return np.frombuffer(data, dtype=dtype)


def unpack_fixed(data, dtype, what="protocol buffer"):
    """The numbers of a packed fixed-size field (`dtype` "<u4", "<i8", ...)."""
    return _unpack(data, dtype, np.dtype(dtype).itemsize, what)


def unpack_floats(data, what="protocol buffer"):
    """The float32 values (a NumPy array) of a packed float field's bytes, or of one I32 value."""
    return _unpack(data, "<f4", 4, what)


def unpack_doubles(data, what="protocol buffer"):
    return _unpack(data, "<f8", 8, what)


def signed64(n):
    """An int64 from its varint (two's complement)."""
    n &= 0xFFFFFFFFFFFFFFFF
    return n - (1 << 64) if n >= 1 << 63 else n


def signed32(n):
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n >= 1 << 31 else n
