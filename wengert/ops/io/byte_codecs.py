"""Ops between byte strings and tensors: `decode_raw`, `encode_base64`/`decode_base64`,
`decode_compressed`, `serialize_tensor`/`parse_tensor`, and the file ops `read_file`,
`write_file`, `matching_files`.

decode_raw reads each string of a tensor as an array of `out_type` (little- or big-endian):
the result has the input's shape plus one dimension, the values per string (every string must
have the same length, a multiple of the type's size; with `fixed_length`, each string is cut or
zero-padded to that many bytes first). Base64 here is the URL-safe alphabet TensorFlow uses
('-' and '_'), written without '=' padding unless `pad=True`, read with or without it.
decode_compressed inflates ZLIB or GZIP strings. serialize_tensor writes a tensor as a
TensorProto (framework/protos/tensor.py: dtype, shape, raw little-endian content or, for
strings, one entry each), byte for byte as TensorFlow does; parse_tensor reads one back and
checks its dtype. The file ops are stateful, so a traced function runs them in program
order (a read after a write sees it). read_file gives a file's bytes as a scalar string,
write_file writes one (making missing directories), matching_files the sorted paths a glob
pattern matches. None of these has a gradient.
"""
import base64
import binascii
import glob as _glob
import os
import zlib

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import fixed_dtype_error
from ...framework.protos.tensor import TensorProto, from_proto, to_proto
from ...framework.registry import defop
from ...framework.tensor import Tensor, array_of, convert_to_tensor
from ...framework.tensor_shape import TensorShape

__all__ = ["decode_raw", "decode_raw_v1", "encode_base64", "decode_base64", "decode_compressed",
           "serialize_tensor", "parse_tensor", "read_file", "write_file", "matching_files"]


def _map(fn, array, dtype=object):
    flat = [fn(v) for v in np.asarray(array, dtype=object).reshape(-1)]
    out = np.empty(len(flat), dtype=dtype)
    out[:] = flat
    return out.reshape(np.shape(array))


def _strings(value, what, arg="input"):
    t = convert_to_tensor(value, dtype_hint=dtypes.string)
    if t.dtype is not dtypes.string:  # TensorFlow's ops take string only there
        raise fixed_dtype_error(what, arg, t, "string")
    return t


def _same_shape_string(x, **_):
    return x.shape, dtypes.string


# -- decode_raw ------------------------------------------------------------------------------------
def _raw_dtype(out_type, little_endian):
    dtype = np.dtype(dtypes.as_dtype(out_type).as_numpy_dtype)
    return dtype.newbyteorder("<" if little_endian else ">")


def _decode_raw_kernel(data, *, out_type, little_endian, fixed_length=None):
    dtype = _raw_dtype(out_type, little_endian)
    flat = list(np.asarray(data, dtype=object).reshape(-1))
    if fixed_length is not None:
        flat = [v[:fixed_length].ljust(fixed_length, b"\0") for v in flat]
    sizes = {len(v) for v in flat}
    if len(sizes) > 1:
        first = len(flat[0])
        bad = next(i for i, v in enumerate(flat) if len(v) != first)
        raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, "
                                   f"but element {bad} has size {len(flat[bad])} != {first}")
    size = sizes.pop() if sizes else 0
    if size % dtype.itemsize:
        raise InvalidArgumentError(f"Input to DecodeRaw has length {size} that is not a "
                                   f"multiple of {dtype.itemsize}, the size of "
                                   f"{dtypes.as_dtype(out_type).name}")
    per = size // dtype.itemsize
    out = np.frombuffer(b"".join(flat), dtype=dtype).astype(dtype.newbyteorder("="))
    return out.reshape(np.shape(data) + (per,))


def _decode_raw_rule(data, *, out_type, little_endian, fixed_length=None):
    per = None
    if fixed_length is not None:
        per = fixed_length // np.dtype(dtypes.as_dtype(out_type).as_numpy_dtype).itemsize
    return TensorShape(data.shape.as_list() + [per] if data.shape.rank is not None
                       else None), dtypes.as_dtype(out_type)


DECODE_RAW = defop("DecodeRaw", _decode_raw_kernel, shape=_decode_raw_rule, grad=None,
                   raw=lambda bytes, out_type, little_endian=True, name=None: decode_raw(
                       bytes, out_type, little_endian, name=name))


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string of `input_bytes` read as a vector of `out_type` values."""
    data = _strings(input_bytes, "decode_raw", "input_bytes")
    attrs = {"out_type": dtypes.as_dtype(out_type).name, "little_endian": bool(little_endian)}
    if fixed_length is not None:
        fixed = int(np.asarray(getattr(fixed_length, "_value", fixed_length)))
        if fixed < 0:
            raise InvalidArgumentError(f"decode_raw: fixed_length must be >= 0, got {fixed}.")
        attrs["fixed_length"] = fixed
    return execute(DECODE_RAW, (data,), attrs, name)


def decode_raw_v1(input_bytes=None, out_type=None, little_endian=True, name=None,
                  bytes=None):  # noqa: A002 - TensorFlow 1's name
    """TensorFlow 1's decode_raw, which also takes the bytes as `bytes`."""
    if (input_bytes is None) == (bytes is None):
        raise ValueError("decode_raw: give the strings as input_bytes (or, TensorFlow 1's old "
                         "name, bytes), exactly one of them.")
    if out_type is None:
        raise ValueError("decode_raw: out_type is required.")
    return decode_raw(input_bytes if bytes is None else bytes, out_type, little_endian,
                      name=name)


# -- base64 ----------------------------------------------------------------------------------------
def _b64decode(value):
    text = value.rstrip(b"=")
    try:
        return base64.b64decode(text + b"=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except binascii.Error:
        raise InvalidArgumentError(f"Invalid character found in base64: {value[:60]!r}") \
            from None


ENCODE_BASE64 = defop(
    "EncodeBase64", lambda x, pad: _map(lambda v: base64.urlsafe_b64encode(v) if pad else
                                        base64.urlsafe_b64encode(v).rstrip(b"="), x),
    shape=_same_shape_string, grad=None,
    raw=lambda input, pad=False, name=None: encode_base64(input, pad, name))
DECODE_BASE64 = defop("DecodeBase64", lambda x: _map(_b64decode, x), shape=_same_shape_string,
                      grad=None, args=("input",))


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's name
    """Each string in web-safe base64 ('-' and '_'), '='-padded only with pad=True."""
    return execute(ENCODE_BASE64, (_strings(input, "encode_base64"),), {"pad": bool(pad)}, name)


def decode_base64(input, name=None):  # noqa: A002 - TensorFlow's name
    """Each web-safe base64 string decoded (padding optional)."""
    return execute(DECODE_BASE64, (_strings(input, "decode_base64"),), {}, name)


# -- compression -----------------------------------------------------------------------------------
def _inflate(value, compression_type):
    if not compression_type:
        return value
    try:
        return zlib.decompress(value, 31 if compression_type == "GZIP" else 15)
    except zlib.error as err:
        raise DataLossError(f"decode_compressed: the data is not valid {compression_type} "
                            f"({err}).") from None


DECODE_COMPRESSED = defop(
    "DecodeCompressed", lambda x, compression_type: _map(
        lambda v: _inflate(v, compression_type), x),
    shape=_same_shape_string, grad=None,
    raw=lambda bytes, compression_type="", name=None: decode_compressed(
        bytes, compression_type, name))


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 - TensorFlow's name
    """Each string inflated: compression_type '' (unchanged), 'ZLIB' or 'GZIP'."""
    kind = compression_type.upper() if isinstance(compression_type, str) else compression_type
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError(f"decode_compressed: compression_type must be '', 'ZLIB' or "
                                   f"'GZIP', got {compression_type!r}.")
    return execute(DECODE_COMPRESSED, (_strings(bytes, "decode_compressed", "bytes"),),
                   {"compression_type": kind}, name)


# -- tensors as protocol buffers -------------------------------------------------------------------
def _serialize_kernel(x, *, dtype):
    return np.array(to_proto(np.asarray(x), dtypes.as_dtype(dtype)).SerializeToString(),
                    dtype=object)


def _parse_kernel(serialized, *, out_type):
    value = np.asarray(serialized, dtype=object)
    if value.shape:
        raise InvalidArgumentError(f"ParseTensor: serialized must be a scalar string, got "
                                   f"shape {list(value.shape)}.")
    array, dtype = from_proto(TensorProto.FromString(value.item()), "ParseTensor")
    if dtype.name != out_type:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({dtype.name}) and "
                                   f"dtype ({out_type})")
    return array


SERIALIZE_TENSOR = defop("SerializeTensor", _serialize_kernel,
                         shape=lambda x, dtype: (TensorShape([]), dtypes.string), grad=None,
                         raw=lambda tensor, name=None: serialize_tensor(tensor, name))
PARSE_TENSOR = defop("ParseTensor", _parse_kernel,
                     shape=lambda s, out_type: (TensorShape(None), dtypes.as_dtype(out_type)),
                     grad=None, raw=lambda serialized, out_type, name=None: parse_tensor(
                         serialized, out_type, name))


def serialize_tensor(tensor, name=None):
    """`tensor` as a serialized TensorProto (a scalar string)."""
    tensor = convert_to_tensor(tensor)
    return execute(SERIALIZE_TENSOR, (tensor,), {"dtype": tensor.dtype.name}, name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor a serialized TensorProto holds; its dtype must be `out_type`."""
    return execute(PARSE_TENSOR, (_strings(serialized, "parse_tensor", "serialized"),),
                   {"out_type": dtypes.as_dtype(out_type).name}, name)


# -- files -----------------------------------------------------------------------------------------
def _path(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _read_kernel(store, filename):
    path = _path(filename)
    try:
        with open(path, "rb") as f:
            return np.array(f.read(), dtype=object)
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"{path}; Is a directory") from None


def _write_kernel(store, filename, contents):
    path = _path(filename)
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(np.asarray(contents, dtype=object).item())
    return np.zeros(0, np.float32)


def _matching_kernel(store, pattern):
    patterns = [_path(p) for p in np.asarray(pattern, dtype=object).reshape(-1)]
    found = sorted({m for p in patterns for m in _glob.glob(p)})
    out = np.empty(len(found), dtype=object)
    out[:] = [m.encode("utf-8") for m in found]
    return out


READ_FILE = defop("ReadFile", _read_kernel, shape=lambda f: (TensorShape([]), dtypes.string),
                  grad=None, pure=False, stateful=True, args=("filename",))
WRITE_FILE = defop("WriteFile", _write_kernel, shape=lambda f, c: (TensorShape([0]),
                                                                    dtypes.float32),
                   grad=None, pure=False, stateful=True, args=("filename", "contents"))
MATCHING_FILES = defop("MatchingFiles", _matching_kernel,
                       shape=lambda p: (TensorShape([None]), dtypes.string), grad=None,
                       pure=False, stateful=True, args=("pattern",))


def _scalar_string(value, what, arg):
    t = _strings(value, what, arg)
    if t.shape.rank not in (None, 0):
        raise InvalidArgumentError(f"{what}: {arg} must be a scalar string, got shape "
                                   f"{t.shape}.")
    return t


def _file_op(op_def, inputs, name):
    """Run a file op: its kernel now when eager (it takes no variable store), the op in a
    graph being built (stateful, so it keeps its place in program order)."""
    if state.graph is None:
        return Tensor(op_def.kernel(None, *[array_of(t) for t in inputs]))
    return execute(op_def, inputs, {}, name)


def read_file(filename, name=None):
    """The bytes of file `filename`, as a scalar string."""
    return _file_op(READ_FILE, (_scalar_string(filename, "read_file", "filename"),), name)


def write_file(filename, contents, name=None):
    """Write the scalar string `contents` to file `filename` (its directories made); returns
    None eagerly, the op in a graph."""
    out = _file_op(WRITE_FILE, (_scalar_string(filename, "write_file", "filename"),
                                _scalar_string(contents, "write_file", "contents")), name)
    return out if state.graph is not None else None


def matching_files(pattern, name=None):
    """The sorted file names matching the glob `pattern` (a string or a vector of them)."""
    return _file_op(MATCHING_FILES, (_strings(pattern, "matching_files", "pattern"),), name)
