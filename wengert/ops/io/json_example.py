"""`tf.io.decode_json_example`: tf.train.Example records written in protobuf's JSON mapping,
turned into their serialized (binary) form, as TensorFlow's DecodeJSONExample.

The JSON of an Example is {"features": {"feature": {name: Feature}}} with each Feature one of
{"bytesList" | "floatList" | "int64List": {"value": [...]}} (protobuf's original snake_case
field names are accepted too): int64 values as JSON integers or decimal strings, floats as
numbers, decimal strings or "NaN" / "Infinity" / "-Infinity", bytes as base64 (standard or URL
alphabet, padding optional). The text is parsed with Python's json module, and the Example is written with the features
in the JSON's order and each list's values unpacked (one field per value), as TensorFlow's
streaming converter writes them (tf.train.Feature's field numbers, the wire codec of
framework/protos), so the bytes equal TensorFlow's. A field the Example does not have, a value of the wrong kind, or two kinds in one
Feature is an InvalidArgumentError naming the record. Strings in, strings out; no gradient.
"""
import base64
import binascii
import json
import math

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.protos import wire
from ...framework.protos.example import Feature
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor

__all__ = ["decode_json_example"]

_KINDS = {"bytesList": "bytes_list", "bytes_list": "bytes_list", "floatList": "float_list",
          "float_list": "float_list", "int64List": "int64_list", "int64_list": "int64_list"}
_FLOAT_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
_INT64 = (-(1 << 63), (1 << 63) - 1)


class _JSONError(ValueError):
    """A record that is not an Example's JSON; the message says where and why."""


def _object(value, where):
    if value is None:
        return {}
    if not isinstance(value, list):
        raise _JSONError(f"{where}: expected a JSON object, got {json.dumps(value)[:40]}")
    fields = {}
    for name, item in value:
        if name in fields:
            raise _JSONError(f"{where}: '{name}' has already been set")
        fields[name] = item
    return fields


def _only(fields, allowed, where):
    for name in fields:
        if name not in allowed:
            raise _JSONError(f"{where}: no such field: '{name}'")


def _int64(v, where):
    if isinstance(v, str):
        try:
            v = int(v, 10)
        except ValueError:
            raise _JSONError(f"{where}: invalid int64 value {v!r}") from None
    if isinstance(v, bool) or not isinstance(v, int) or not _INT64[0] <= v <= _INT64[1]:
        raise _JSONError(f"{where}: expected an int64 integer, got {v!r}")
    return v


def _float(v, where):
    if isinstance(v, str):
        try:
            v = _FLOAT_WORDS[v] if v in _FLOAT_WORDS else float(v)
        except ValueError:
            raise _JSONError(f"{where}: invalid float value {v!r}") from None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _JSONError(f"{where}: expected a float, got {v!r}")
    if math.isfinite(v) and abs(v) > float(np.finfo(np.float32).max):
        raise _JSONError(f"{where}: float value {v!r} is out of range")
    return float(v)


def _bytes(v, where):
    if not isinstance(v, str):
        raise _JSONError(f"{where}: expected a base64 string, got {v!r}")
    text = v.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise _JSONError(f"{where}: invalid base64 bytes {v!r}") from None


_PARSE = {"bytes_list": (_bytes, wire.field_bytes), "float_list": (_float, wire.field_float),
          "int64_list": (_int64, wire.field_varint)}
_NUMBERS = {f.name: f.number for f in Feature.FIELDS}


def _feature(value, where):
    fields = _object(value, where)
    _only(fields, _KINDS, where)
    kinds = [name for name in fields if fields[name] is not None]
    if len(kinds) > 1:
        raise _JSONError(f"{where}.{kinds[1]}: a Feature holds one kind, but '{kinds[0]}' "
                         f"has already been set")
    if not kinds:
        return b""
    attr = _KINDS[kinds[0]]
    inner = _object(fields[kinds[0]], f"{where}.{kinds[0]}")
    _only(inner, ("value",), f"{where}.{kinds[0]}")
    values = inner.get("value") or []
    if not isinstance(values, list) or (values and isinstance(values[0], tuple)):
        raise _JSONError(f"{where}.{kinds[0]}.value: expected a JSON array")
    parse, write = _PARSE[attr]
    items = b"".join(write(1, parse(v, f"{where}.{kinds[0]}.value[{i}]"))
                     for i, v in enumerate(values))
    return wire.field_bytes(_NUMBERS[attr], items)


def _example_bytes(text):
    """The serialized Example of one JSON record."""
    try:
        root = json.loads(text, object_pairs_hook=lambda pairs: pairs)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise _JSONError(f"invalid JSON: {err}") from None
    fields = _object(root, "Example")
    _only(fields, ("features",), "Example")
    if fields.get("features") is None:
        return b""
    features = _object(fields["features"], "features")
    _only(features, ("feature",), "features")
    entries = b""
    for name, value in _object(features.get("feature"), "features.feature").items():
        feature = _feature(value, f"features.feature[{name!r}]")
        entry = wire.field_bytes(1, name.encode()) + wire.field_bytes(2, feature)
        entries += wire.field_bytes(1, entry)
    return wire.field_bytes(1, entries)


def _decode_kernel(json_examples):
    values = np.asarray(json_examples, dtype=object)
    out = np.empty(values.shape, dtype=object)
    for at, text in np.ndenumerate(values):
        try:
            out[at] = _example_bytes(text)
        except _JSONError as err:
            raise InvalidArgumentError(f"DecodeJSONExample: error while parsing JSON record "
                                       f"{list(at)} as a tensorflow.Example: {err}") from None
    return out


DECODE_JSON_EXAMPLE = defop(
    "DecodeJSONExample", _decode_kernel, shape=lambda x: (x.shape, dtypes.string), grad=None,
    raw=lambda json_examples, name=None: decode_json_example(json_examples, name))


def decode_json_example(json_examples, name=None):
    """Each string of `json_examples` (an Example in protobuf's JSON mapping) as the serialized
    tf.train.Example it describes, same shape."""
    x = convert_to_tensor(json_examples)
    if x.dtype is not dtypes.string:
        raise TypeError(f"decode_json_example: json_examples must be a string tensor, got "
                        f"{x.dtype.name}.")
    return execute(DECODE_JSON_EXAMPLE, (x,), name=name)
