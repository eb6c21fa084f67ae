"""TensorFlow's structured values (tensorflow/core/protobuf/struct.proto): a nest of Python
values and tensor specs, as a SavedModel records a function's arguments and outputs.

    StructuredValue   one of: none_value (1), float64_value (11), int64_value (12): sint64,
                      string_value (13), bool_value (14), tensor_shape_value (31),
                      tensor_dtype_value (32), tensor_spec_value (33), type_spec_value (34),
                      bounded_tensor_spec_value (35), list_value (51), tuple_value (52),
                      dict_value (53), named_tuple_value (54), tensor_value (55),
                      numpy_value (56)
    ListValue / TupleValue  values (1): repeated StructuredValue
    DictValue         fields (1): map string -> StructuredValue
    NamedTupleValue   name (1), values (2): repeated PairValue{key (1), value (2)}
    TensorSpecProto   name (1), shape (2), dtype (3)
    BoundedTensorSpecProto  name (1), shape (2), dtype (3), minimum (4), maximum (5)
    TypeSpecProto     type_spec_class (1): enum, type_state (2), type_spec_class_name (3),
                      num_flat_components (4)
"""
from .message import Field, Message
from .tensor import DATA_TYPE_NAMES, TensorProto, TensorShapeProto

__all__ = ["StructuredValue", "NoneValue", "ListValue", "TupleValue", "DictValue", "PairValue",
           "NamedTupleValue", "TensorSpecProto", "BoundedTensorSpecProto", "TypeSpecProto"]

TYPE_SPEC_CLASSES = {0: "UNKNOWN", 1: "SPARSE_TENSOR_SPEC", 2: "INDEXED_SLICES_SPEC",
                     3: "RAGGED_TENSOR_SPEC", 4: "TENSOR_ARRAY_SPEC", 5: "DATA_DATASET_SPEC",
                     6: "DATA_ITERATOR_SPEC", 7: "OPTIONAL_SPEC", 8: "PER_REPLICA_SPEC",
                     9: "VARIABLE_SPEC", 10: "ROW_PARTITION_SPEC", 12: "REGISTERED_TYPE_SPEC",
                     13: "EXTENSION_TYPE_SPEC"}


def _value():
    return StructuredValue


class NoneValue(Message):
    """Python's None."""
    FULL_NAME = "tensorflow.NoneValue"


class ListValue(Message):
    """A Python list."""
    FULL_NAME = "tensorflow.ListValue"
    FIELDS = (Field(1, "values", "message", repeated=True, message=_value),)


class TupleValue(Message):
    """A Python tuple."""
    FULL_NAME = "tensorflow.TupleValue"
    FIELDS = (Field(1, "values", "message", repeated=True, message=_value),)


class DictValue(Message):
    """A Python dict with string keys."""
    FULL_NAME = "tensorflow.DictValue"
    FIELDS = (Field(1, "fields", "message", map_key="string", message=_value),)


class PairValue(Message):
    """One named field of a named tuple."""
    FULL_NAME = "tensorflow.PairValue"
    FIELDS = (Field(1, "key", "string"), Field(2, "value", "message", message=_value))


class NamedTupleValue(Message):
    """A named tuple: its type's name and its fields in order."""
    FULL_NAME = "tensorflow.NamedTupleValue"
    FIELDS = (Field(1, "name", "string"),
              Field(2, "values", "message", repeated=True, message=PairValue))


class TensorSpecProto(Message):
    """A `tf.TensorSpec`: name, shape and dtype."""
    FULL_NAME = "tensorflow.TensorSpecProto"
    FIELDS = (Field(1, "name", "string"),
              Field(2, "shape", "message", message=TensorShapeProto),
              Field(3, "dtype", "enum", enum=DATA_TYPE_NAMES))


class BoundedTensorSpecProto(Message):
    """A TensorSpec with the least and greatest values allowed."""
    FULL_NAME = "tensorflow.BoundedTensorSpecProto"
    FIELDS = (Field(1, "name", "string"),
              Field(2, "shape", "message", message=TensorShapeProto),
              Field(3, "dtype", "enum", enum=DATA_TYPE_NAMES),
              Field(4, "minimum", "message", message=TensorProto),
              Field(5, "maximum", "message", message=TensorProto))


class TypeSpecProto(Message):
    """A composite tensor's TypeSpec: its class and the state that rebuilds it."""
    FULL_NAME = "tensorflow.TypeSpecProto"
    FIELDS = (Field(1, "type_spec_class", "enum", enum=TYPE_SPEC_CLASSES),
              Field(2, "type_state", "message", message=_value),
              Field(3, "type_spec_class_name", "string"),
              Field(4, "num_flat_components", "int32"))


class StructuredValue(Message):
    """One value of a nest: None, a number, a string, a spec, or a container of values."""
    FULL_NAME = "tensorflow.StructuredValue"
    FIELDS = (Field(1, "none_value", "message", message=NoneValue, oneof="kind"),
              Field(11, "float64_value", "double", oneof="kind"),
              Field(12, "int64_value", "sint64", oneof="kind"),
              Field(13, "string_value", "string", oneof="kind"),
              Field(14, "bool_value", "bool", oneof="kind"),
              Field(31, "tensor_shape_value", "message", message=TensorShapeProto,
                    oneof="kind"),
              Field(32, "tensor_dtype_value", "enum", enum=DATA_TYPE_NAMES, oneof="kind"),
              Field(33, "tensor_spec_value", "message", message=TensorSpecProto, oneof="kind"),
              Field(34, "type_spec_value", "message", message=TypeSpecProto, oneof="kind"),
              Field(35, "bounded_tensor_spec_value", "message", message=BoundedTensorSpecProto,
                    oneof="kind"),
              Field(51, "list_value", "message", message=ListValue, oneof="kind"),
              Field(52, "tuple_value", "message", message=TupleValue, oneof="kind"),
              Field(53, "dict_value", "message", message=DictValue, oneof="kind"),
              Field(54, "named_tuple_value", "message", message=NamedTupleValue, oneof="kind"),
              Field(55, "tensor_value", "message", message=TensorProto, oneof="kind"),
              Field(56, "numpy_value", "message", message=TensorProto, oneof="kind"))
