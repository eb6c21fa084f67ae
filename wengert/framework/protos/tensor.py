"""TensorFlow's `TensorProto` and `TensorShapeProto` (tensorflow/core/framework/tensor.proto,
tensor_shape.proto), and the conversions between them and NumPy arrays.

    TensorShapeProto  dim (2): repeated Dim{size (1): int64, name (2)}, unknown_rank (3): bool
    TensorProto       dtype (1): DataType enum, tensor_shape (2), version_number (3),
                      tensor_content (4): the values' little-endian bytes, row-major,
                      half_val (13), float_val (5), double_val (6), int_val (7),
                      string_val (8), scomplex_val (9), int64_val (10), bool_val (11),
                      dcomplex_val (12), uint32_val (16), uint64_val (17): the values one by
                      one (a shorter list than the tensor repeats its last value)

`to_proto` writes what TensorFlow's `tf.io.serialize_tensor` writes: the shape, and numbers as
tensor_content, strings as string_val. `from_proto` reads either form back.
"""
import numpy as np

from .. import dtypes
from ..errors import DataLossError
from .data_types import DATA_TYPE_NAMES
from .message import Field, Message

__all__ = ["TensorShapeProto", "TensorProto", "to_proto", "from_proto", "DATA_TYPE_NAMES"]


class _Dim(Message):
    FULL_NAME = "tensorflow.TensorShapeProto.Dim"
    FIELDS = (Field(1, "size", "int64"), Field(2, "name", "string"))


class TensorShapeProto(Message):
    FULL_NAME = "tensorflow.TensorShapeProto"
    FIELDS = (Field(2, "dim", "message", repeated=True, message=_Dim),
              Field(3, "unknown_rank", "bool"))
    Dim = _Dim


class TensorProto(Message):
    FULL_NAME = "tensorflow.TensorProto"
    FIELDS = (Field(1, "dtype", "enum", enum=DATA_TYPE_NAMES), Field(2, "tensor_shape", "message",
                                               message=TensorShapeProto),
              Field(3, "version_number", "int32"), Field(4, "tensor_content", "bytes"),
              Field(13, "half_val", "int32", repeated=True),
              Field(5, "float_val", "float", repeated=True),
              Field(6, "double_val", "double", repeated=True),
              Field(7, "int_val", "int32", repeated=True),
              Field(8, "string_val", "bytes", repeated=True),
              Field(9, "scomplex_val", "float", repeated=True),
              Field(10, "int64_val", "int64", repeated=True),
              Field(11, "bool_val", "bool", repeated=True),
              Field(12, "dcomplex_val", "double", repeated=True),
              Field(16, "uint32_val", "uint32", repeated=True),
              Field(17, "uint64_val", "uint64", repeated=True))


# the repeated field holding each dtype's values one by one
_VALUE_FIELDS = {"float16": "half_val", "float32": "float_val", "float64": "double_val",
                 "int8": "int_val", "int16": "int_val", "int32": "int_val", "uint8": "int_val",
                 "uint16": "int_val", "string": "string_val", "complex64": "scomplex_val",
                 "int64": "int64_val", "bool": "bool_val", "complex128": "dcomplex_val",
                 "uint32": "uint32_val", "uint64": "uint64_val"}


def to_proto(array, dtype):
    """The TensorProto of a NumPy array of wengert dtype `dtype`."""
    proto = TensorProto(dtype=dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for size in array.shape:
        proto.tensor_shape.dim.add(size=int(size))
    if dtype is dtypes.string:
        proto.string_val.extend(array.reshape(-1).tolist())
    elif array.size:
        little = array.astype(array.dtype.newbyteorder("<"), copy=False)
        proto.tensor_content = np.ascontiguousarray(little).tobytes()
    return proto


def from_proto(proto, what="TensorProto"):
    """(NumPy array, wengert dtype) of a TensorProto; DataLossError when its values do not fit
    its dtype and shape."""
    try:
        dtype = dtypes.as_dtype(proto.dtype)
    except TypeError as err:
        raise DataLossError(f"{what}: {err}") from None
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    if any(s < 0 for s in shape) or proto.tensor_shape.unknown_rank:
        raise DataLossError(f"{what}: the shape {list(shape)} is not fully known.")
    count = int(np.prod(shape, dtype=np.int64))
    if dtype is dtypes.string:
        values = np.empty(len(proto.string_val), dtype=object)
        values[:] = list(proto.string_val)
    elif proto.tensor_content:
        np_dtype = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
        if len(proto.tensor_content) != count * np_dtype.itemsize:
            raise DataLossError(f"{what}: tensor_content holds {len(proto.tensor_content)} "
                                f"bytes, a {dtype.name} tensor of shape {list(shape)} needs "
                                f"{count * np_dtype.itemsize}.")
        return np.frombuffer(proto.tensor_content, np_dtype).astype(
            dtype.as_numpy_dtype).reshape(shape), dtype
    else:
        values = _listed_values(proto, dtype)
    return _fill(values, count, shape, dtype, what), dtype


def _listed_values(proto, dtype):
    name = _VALUE_FIELDS.get(dtype.name)
    if name is None:
        raise DataLossError(f"TensorProto: dtype {dtype.name} cannot be read from a proto.")
    raw = list(getattr(proto, name))
    if dtype.name == "float16":
        return np.asarray(raw, np.uint16).view(np.float16)
    if dtype.is_complex:
        pairs = np.asarray(raw, np.float64).reshape(-1, 2)
        return (pairs[:, 0] + 1j * pairs[:, 1]).astype(dtype.as_numpy_dtype)
    return np.asarray(raw).astype(dtype.as_numpy_dtype)


def _fill(values, count, shape, dtype, what):
    if len(values) > count:
        raise DataLossError(f"{what}: {len(values)} values for a tensor of shape {list(shape)}.")
    if len(values) < count:
        if not len(values):
            out = np.zeros(count, dtype=values.dtype if dtype is not dtypes.string else object)
            if dtype is dtypes.string:
                out[:] = b""
            values = out
        else:
            values = np.concatenate([values, np.repeat(values[-1:], count - len(values))])
    return values.reshape(shape)
