"""TensorFlow's `make_tensor_proto(values, dtype, shape)` and `make_ndarray(proto)`: a value as
a TensorProto and back, byte for byte as TensorFlow writes it. A value of more than one element
whose size matches the shape is written as raw little-endian bytes (`tensor_content`) for the
numeric dtypes TensorFlow packs that way (float16/32/64, int8/16/32/64, uint8/32/64); other
values list their elements in the dtype's repeated field (float_val, int_val, bool_val,
string_val, ...), and a value smaller than the shape lists what it has, the reader repeating the
last element. Without `dtype`, Python floats become float32 and Python ints int32 when they fit,
as in TensorFlow."""
import numpy as np

from ..framework import dtypes
from ..framework.protos.tensor import TensorProto, from_proto

__all__ = ["make_tensor_proto", "make_ndarray"]

_CONTENT = {"float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64",
            "uint32", "uint64"}
_LISTED = {"float16": "half_val", "float32": "float_val", "float64": "double_val",
           "int8": "int_val", "int16": "int_val", "int32": "int_val", "uint8": "int_val",
           "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
           "uint64": "uint64_val", "bool": "bool_val", "complex64": "scomplex_val",
           "complex128": "dcomplex_val"}


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """The TensorProto of `values` (an array, a Python value or a TensorProto)."""
    if allow_broadcast and verify_shape:
        raise ValueError("allow_broadcast and verify_shape are not both allowed.")
    if isinstance(values, TensorProto):
        return values
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    array = _array(values, dtype, shape)
    kind = dtypes.as_dtype(object if array.dtype.kind in "OSU" else array.dtype)
    if dtype is not None and dtype is not kind:
        raise TypeError(f"`dtype` {dtype} is not compatible with {values} of dtype "
                        f"{array.dtype}.")
    shape, same_size = _shape(array, shape, verify_shape, allow_broadcast)
    proto = TensorProto(dtype=kind.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for size in shape:
        proto.tensor_shape.dim.add(size=int(size))
    if same_size and kind.name in _CONTENT and array.size > 1:
        proto.tensor_content = np.ascontiguousarray(
            array.astype(array.dtype.newbyteorder("<"), copy=False)).tobytes()
    elif kind is dtypes.string:
        proto.string_val.extend(_as_bytes(v) for v in array.reshape(-1).tolist())
    else:
        _list_values(proto, array, kind)
    return proto


def make_ndarray(tensor):
    """The NumPy array a TensorProto holds."""
    return from_proto(tensor, "make_ndarray")[0]


def _array(values, dtype, shape):
    if values is None:
        raise ValueError("None values not supported.")
    numpy_dtype = dtype.as_numpy_dtype if dtype is not None and dtype is not dtypes.string \
        else None
    if isinstance(values, (np.ndarray, np.generic)):
        return values.astype(numpy_dtype) if numpy_dtype is not None else np.asarray(values)
    if shape is not None and int(np.prod(shape, dtype=np.int64)) == 0:
        return np.empty(shape, dtype=numpy_dtype)
    if dtype is not None and (dtype.is_integer or dtype is dtypes.bool):
        for value in np.array(values, dtype=object).reshape(-1).tolist():
            if isinstance(value, float):
                raise TypeError(f"Expected {dtype.name}, but got {value} of type 'float'.")
    array = np.array(values, dtype=numpy_dtype)
    if array.dtype.kind in "SU":
        array = np.array(values, dtype=object)
    if dtype is None and array.dtype == np.float64:
        array = array.astype(np.float32)
    elif dtype is None and array.dtype == np.int64:
        small = array.astype(np.int32)
        array = small if np.array_equal(small, array) else array
    return array


def _shape(array, shape, verify_shape, allow_broadcast):
    if shape is None:
        return array.shape, True
    shape = [int(d) for d in shape]
    size = int(np.prod(shape, dtype=np.int64))
    if allow_broadcast:
        if array.shape not in ((1,), ()) and array.size != size:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
    else:
        if verify_shape and array.shape != tuple(shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
        if array.size > size:
            raise ValueError(f"Too many elements provided. Takes at most {size:d}, but got "
                             f"{array.size:d}.")
    return shape, size == array.size


def _list_values(proto, array, kind):
    field = _LISTED.get(kind.name)
    if field is None:
        raise TypeError(f"Element type not supported in TensorProto: {kind.name}.")
    flat = array.reshape(-1)
    if kind is dtypes.float16:
        values = flat.view(np.uint16).tolist()
    elif kind.is_complex:
        values = np.stack([flat.real, flat.imag], axis=-1).reshape(-1).tolist()
    else:
        values = flat.tolist()
    getattr(proto, field).extend(values)


def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"Failed to convert elements of {value!r} to Tensor.")
