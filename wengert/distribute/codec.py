"""A safe encoding of Python objects for `broadcast_object`: JSON text, with NumPy arrays as
raw bytes, and nothing that runs code when decoded (no pickle).

Encoded: None, bool, int, float (NaN and infinities too), str, bytes, list, tuple, dict (any
keys of these kinds), NumPy arrays and scalars of numeric or bool dtype, and tensors and
variables (sent as their arrays). Lists and numbers are JSON as they are; the other kinds are a
JSON object {"~": kind, ...}:

    {"~": "tuple", "items": [...]}            {"~": "dict", "items": [[key, value], ...]}
    {"~": "bytes", "b64": "..."}              {"~": "array", "dtype": "<f4", "shape": [2, 3],
                                               "b64": "..."}

Decoding checks every tag, dtype (numeric or bool only, never object) and that an array's byte
count matches its shape, and raises ValueError otherwise. Anything else raises TypeError when
encoding, naming the type.
"""
import base64
import json

import numpy as np

__all__ = ["encode", "decode"]

_KIND = "~"


def _encode(obj):
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (int, float)) and not isinstance(obj, np.generic):
        return obj
    if isinstance(obj, list):
        return [_encode(v) for v in obj]
    if isinstance(obj, tuple):
        return {_KIND: "tuple", "items": [_encode(v) for v in obj]}
    if isinstance(obj, dict):
        return {_KIND: "dict", "items": [[_encode(k), _encode(v)] for k, v in obj.items()]}
    if isinstance(obj, (bytes, bytearray)):
        return {_KIND: "bytes", "b64": base64.b64encode(bytes(obj)).decode("ascii")}
    if isinstance(obj, np.generic):
        return {_KIND: "scalar", **_array_fields(np.asarray(obj))}
    if isinstance(obj, np.ndarray):
        return {_KIND: "array", **_array_fields(obj)}
    numpy_method = getattr(obj, "numpy", None)
    if callable(numpy_method):  # a tensor or a variable
        return {_KIND: "array", **_array_fields(np.asarray(numpy_method()))}
    raise TypeError(f"broadcast_object cannot send a {type(obj).__name__}: it sends None, bool, "
                    "int, float, str, bytes, lists, tuples, dicts, NumPy arrays and tensors "
                    "(no pickle, so that nothing received can run code).")


def _array_fields(array):
    if array.dtype.kind not in "biuf" or array.dtype.hasobject:
        raise TypeError(f"broadcast_object cannot send an array of dtype {array.dtype}.")
    data = np.ascontiguousarray(array).tobytes()
    return {"dtype": array.dtype.str, "shape": list(array.shape),
            "b64": base64.b64encode(data).decode("ascii")}


def encode(obj):
    """The bytes that `decode` turns back into `obj`."""
    return json.dumps(_encode(obj), separators=(",", ":")).encode("utf-8")


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    kind = value.get(_KIND)
    if kind == "tuple":
        return tuple(_decode(v) for v in _items(value))
    if kind == "dict":
        out = {}
        for pair in _items(value):
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError("broadcast_object: a malformed dict entry.")
            key = _decode(pair[0])
            if isinstance(key, (list, dict)):
                raise ValueError("broadcast_object: a dict key must be hashable.")
            out[key] = _decode(pair[1])
        return out
    if kind == "bytes":
        return base64.b64decode(value["b64"], validate=True)
    if kind in ("array", "scalar"):
        array = _array(value)
        return array[()] if kind == "scalar" else array
    raise ValueError(f"broadcast_object: unknown encoded kind {kind!r}.")


def _items(value):
    items = value.get("items")
    if not isinstance(items, list):
        raise ValueError("broadcast_object: a malformed container.")
    return items


def _array(value):
    dtype = np.dtype(str(value["dtype"]))
    if dtype.kind not in "biuf" or dtype.hasobject:
        raise ValueError(f"broadcast_object: arrays of dtype {dtype} are not accepted.")
    shape = value["shape"]
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise ValueError("broadcast_object: a malformed array shape.")
    data = base64.b64decode(value["b64"], validate=True)
    count = int(np.prod(shape, dtype=np.int64))
    if len(data) != count * dtype.itemsize:
        raise ValueError(f"broadcast_object: an array of shape {shape} and dtype {dtype} needs "
                         f"{count * dtype.itemsize} bytes, got {len(data)}.")
    return np.frombuffer(data, dtype).reshape(shape).copy()


def decode(data):
    """The object `encode` encoded (see the module docstring for what is checked)."""
    return _decode(json.loads(bytes(data).decode("utf-8")))
