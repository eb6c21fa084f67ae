"""TensorFlow's `DataType` enum (tensorflow/core/framework/types.proto) by number, and the
`SerializedDType` message a `tf.DType` serializes to:

    SerializedDType   datatype (1): DataType enum (DT_FLOAT = 1, DT_DOUBLE = 2, ...)
"""
from .message import Field, Message

__all__ = ["DATA_TYPE_NAMES", "SerializedDType"]

DATA_TYPE_NAMES = dict(enumerate((
    "DT_INVALID", "DT_FLOAT", "DT_DOUBLE", "DT_INT32", "DT_UINT8", "DT_INT16", "DT_INT8",
    "DT_STRING", "DT_COMPLEX64", "DT_INT64", "DT_BOOL", "DT_QINT8", "DT_QUINT8", "DT_QINT32",
    "DT_BFLOAT16", "DT_QINT16", "DT_QUINT16", "DT_UINT16", "DT_COMPLEX128", "DT_HALF",
    "DT_RESOURCE", "DT_VARIANT", "DT_UINT32", "DT_UINT64")))


class SerializedDType(Message):
    """A `tf.DType` as `DType.experimental_as_proto()` writes it."""
    FULL_NAME = "tensorflow.SerializedDType"
    FIELDS = (Field(1, "datatype", "enum", enum=DATA_TYPE_NAMES),)
