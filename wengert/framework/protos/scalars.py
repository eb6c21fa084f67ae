"""Scalar field kinds of protocol buffers: what a value of each kind may be, its default, and
its encoding on the wire (see wire.py).

    int32 int64 uint32 uint64 enum   Python ints in the kind's range (not bools), varints
    sint32 sint64                    zigzag varints
    fixed32 fixed64                  four or eight little-endian bytes
    bool                             True/False, a varint 0 or 1
    float                            a float32 (a Python float rounded to float32), 4 bytes
    double                           a Python float, 8 bytes
    string                           text (str, or UTF-8 bytes), length-delimited UTF-8
    bytes                            bytes, length-delimited

`check(kind, value, where)` returns the value as a message stores it or raises the TypeError or
ValueError that protobuf raises; `encode_one(kind, number, value)` gives a field's bytes;
`decode_one(kind, wire_type, raw)` turns what wire.fields read back into the value.
"""
import math
import operator
import struct

import numpy as np

from . import wire

__all__ = ["RANGES", "DEFAULTS", "PACKABLE", "check", "encode_one", "encode_packed",
           "decode_one", "decode_packed", "wire_type_of", "is_default"]

RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
          "uint32": (0, (1 << 32) - 1), "uint64": (0, (1 << 64) - 1),
          "sint32": (-(1 << 31), (1 << 31) - 1), "sint64": (-(1 << 63), (1 << 63) - 1),
          "fixed32": (0, (1 << 32) - 1), "fixed64": (0, (1 << 64) - 1),
          "enum": (-(1 << 31), (1 << 31) - 1)}
DEFAULTS = {**{k: 0 for k in RANGES}, "bool": False, "float": 0.0, "double": 0.0,
            "string": "", "bytes": b""}
PACKABLE = frozenset(RANGES) | {"bool", "float", "double"}
_FLOAT = struct.Struct("<f")
_DOUBLE = struct.Struct("<d")


def check(kind, value, where):
    """`value` as a field of `kind` stores it; TypeError/ValueError naming `where` otherwise."""
    if kind in RANGES:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(f"Field {where}: Expected an int, got a boolean.")
        value = operator.index(value)
        low, high = RANGES[kind]
        if not low <= value <= high:
            raise ValueError(f"Value out of range: {value} (field {where} is {kind}).")
        return value
    if kind in ("float", "double"):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"Field {where}: must be real number, not {type(value).__name__}.")
        value = float(value)
        if kind == "float":
            with np.errstate(over="ignore"):
                value = float(np.float32(value))
        return value
    if kind == "bool":
        return bool(operator.index(value))
    if kind == "string":
        return _text(value, where)
    if kind == "bytes":
        if not isinstance(value, bytes):
            raise TypeError(f"Field {where}: expected bytes, {type(value).__name__} found.")
        return value
    raise TypeError(f"Field {where}: unknown field kind {kind!r}.")


def _text(value, where):
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"Field {where}: {value!r:.60} is not valid UTF-8; a string "
                             f"field holds text (use a bytes field for raw bytes).") from None
    raise TypeError(f"Field {where}: expected str, {type(value).__name__} found.")


def is_default(kind, value):
    """Whether proto3 leaves this scalar out (its default; -0.0 is written, as upb does)."""
    if kind in ("float", "double"):
        return value == 0.0 and math.copysign(1.0, value) > 0
    return value == DEFAULTS[kind]


def wire_type_of(kind):
    if kind in ("fixed32", "float"):
        return wire.I32
    if kind in ("fixed64", "double"):
        return wire.I64
    if kind in ("string", "bytes"):
        return wire.LEN
    return wire.VARINT


def _payload(kind, value):
    """The bytes of one value without its key (a varint, or fixed-size bytes)."""
    if kind == "float":
        return _FLOAT.pack(value)
    if kind == "double":
        return _DOUBLE.pack(value)
    if kind in ("sint32", "sint64"):
        return wire.varint(wire.zigzag(value))
    if kind == "fixed32":
        return struct.pack("<I", value)
    if kind == "fixed64":
        return struct.pack("<Q", value)
    return wire.varint(int(value))


def encode_one(kind, number, value):
    if kind == "string":
        return wire.field_bytes(number, value.encode("utf-8"))
    if kind == "bytes":
        return wire.field_bytes(number, value)
    return wire.key(number, wire_type_of(kind)) + _payload(kind, value)


def encode_packed(kind, number, values):
    if not values:
        return b""
    if kind == "float":
        return wire.packed_floats(number, values)
    if kind == "double":
        return wire.packed_doubles(number, values)
    return wire.field_bytes(number, b"".join([_payload(kind, v) for v in values]))


def _from_varint(kind, n):
    if kind in ("int64", "enum", "int32"):
        return wire.signed64(n) if kind == "int64" else wire.signed32(n)
    if kind in ("sint32", "sint64"):
        return wire.unzigzag(n & 0xFFFFFFFFFFFFFFFF)
    if kind == "bool":
        return n != 0
    return n & (0xFFFFFFFF if kind == "uint32" else 0xFFFFFFFFFFFFFFFF)


def decode_one(kind, wire_type, raw, where):
    """The value of one field read by wire.fields (`raw` an int, or bytes)."""
    if wire_type == wire.VARINT:
        return _from_varint(kind, raw)
    if kind == "float":
        return _FLOAT.unpack(raw)[0]
    if kind == "double":
        return _DOUBLE.unpack(raw)[0]
    if kind == "fixed32":
        return struct.unpack("<I", raw)[0]
    if kind == "fixed64":
        return struct.unpack("<Q", raw)[0]
    if kind == "string":
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise wire.corrupt(where, 0, "a string field holds invalid UTF-8") from None
    return raw


def decode_packed(kind, raw, where):
    """The values of a packed repeated field's bytes."""
    if kind == "float":
        return wire.unpack_floats(raw, where).tolist()
    if kind == "double":
        return wire.unpack_doubles(raw, where).tolist()
    if kind == "fixed32":
        return wire.unpack_fixed(raw, "<u4", where).tolist()
    if kind == "fixed64":
        return wire.unpack_fixed(raw, "<u8", where).tolist()
    return [_from_varint(kind, n) for n in wire.unpack_varints(raw, where)]
