"""Protocol buffers' text format, as `str(message)` prints it: one `name: value` line per
scalar (a line per item of a repeated field), `name {` ... `}` around a nested message with its
lines indented two spaces, and a map as one such block per entry holding `key` and `value`.

Numbers print as protobuf's C library prints them: a float32 with the shortest of "%.6g" and
"%.9g" that reads back to the same float32, a double likewise with 15 and 17 digits, `nan`,
`inf`, `-0`. An enum prints its value's name where its field knows it. Strings are quoted with C escapes (\\n \\r \\t \\" \\' \\\\) and any other byte
outside printable ASCII as three octal digits; a `string` field (text) keeps its non-ASCII
UTF-8 bytes as they are, a `bytes` field escapes them.
"""
import math

import numpy as np

__all__ = ["to_text", "quote", "format_float", "format_double"]

_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def quote(value, text=False):
    """A string or bytes value between double quotes, escaped as protobuf escapes it."""
    data = value.encode("utf-8") if isinstance(value, str) else value
    out = []
    for byte in data:
        escape = _ESCAPES.get(byte)
        if escape is not None:
            out.append(escape)
        elif 0x20 <= byte < 0x7F or (text and byte >= 0x80):
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    body = "".join(out)
    if text:
        body = body.encode("latin-1").decode("utf-8", "replace")
    return f'"{body}"'


def _special(value):
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return None


def format_float(value):
    special = _special(value)
    if special is not None:
        return special
    short = "%.6g" % value
    return short if np.float32(float(short)) == np.float32(value) else "%.9g" % value


def format_double(value):
    special = _special(value)
    if special is not None:
        return special
    short = "%.15g" % value
    return short if float(short) == value else "%.17g" % value


def _scalar(kind, value):
    if kind == "float":
        return format_float(value)
    if kind == "double":
        return format_double(value)
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("string", "bytes"):
        return quote(value, text=kind == "string")
    return str(value)


def _lines(message, indent, out):
    pad = " " * indent
    for field, value in message.ListFields():
        name = field.name
        if field.map_key is not None:
            for key, item in value.items():
                out.append(f"{pad}{name} {{\n{pad}  key: {_scalar(field.map_key, key)}\n")
                _value_lines("value", field.kind, item, indent + 2, out)
                out.append(f"{pad}}}\n")
        else:
            for item in (value if field.repeated else (value,)):
                _value_lines(name, field.kind, item, indent, out, field.enum)


def _value_lines(name, kind, value, indent, out, enum=None):
    pad = " " * indent
    if kind == "message":
        out.append(f"{pad}{name} {{\n")
        _lines(value, indent + 2, out)
        out.append(f"{pad}}}\n")
    else:
        text = enum.get(value) if enum else None
        out.append(f"{pad}{name}: {text or _scalar(kind, value)}\n")


def to_text(message):
    """The text format of a message (empty for an empty message)."""
    out = []
    _lines(message, 0, out)
    return "".join(out)
