"""TensorFlow's op definitions (tensorflow/core/framework/op_def.proto, resource_handle.proto):
the signature of an op type, which a FunctionDef also uses for its own inputs and outputs.

    OpDef          name (1), input_arg (2) / output_arg (3): repeated ArgDef,
                   control_output (20): repeated string, attr (4): repeated AttrDef,
                   deprecation (8): OpDeprecation, summary (5), description (6),
                   is_commutative (18), is_aggregate (16), is_stateful (17),
                   allows_uninitialized_input (19), is_distributed_communication (21)
    ArgDef         name (1), description (2), type (3): DataType, type_attr (4),
                   number_attr (5), type_list_attr (6), handle_data (7): repeated
                   DtypeAndShape, is_ref (16), experimental_full_type (17): FullTypeDef
    AttrDef        name (1), type (2): "int", "type", "list(type)"..., default_value (3),
                   description (4), has_minimum (5), minimum (6), allowed_values (7)
    OpDeprecation  version (1), explanation (2)
    OpList         op (1): repeated OpDef
    DtypeAndShape  dtype (1), shape (2): what a resource handle (a variable) holds

An argument is one tensor of a fixed `type` or of the type named by `type_attr`, or a list:
`number_attr` tensors of one type, or the types listed by `type_list_attr`.
"""
from .message import Field, Message
from .node_def import AttrValue, FullTypeDef
from .tensor import DATA_TYPE_NAMES, TensorShapeProto

__all__ = ["DtypeAndShape", "OpDef", "OpDeprecation", "OpList"]


class DtypeAndShape(Message):
    """The dtype and shape of what a resource handle points to (ResourceHandleProto's)."""
    FULL_NAME = "tensorflow.ResourceHandleProto.DtypeAndShape"
    FIELDS = (Field(1, "dtype", "enum", enum=DATA_TYPE_NAMES),
              Field(2, "shape", "message", message=TensorShapeProto))


class _ArgDef(Message):
    FULL_NAME = "tensorflow.OpDef.ArgDef"
    FIELDS = (Field(1, "name", "string"), Field(2, "description", "string"),
              Field(3, "type", "enum", enum=DATA_TYPE_NAMES), Field(4, "type_attr", "string"),
              Field(5, "number_attr", "string"), Field(6, "type_list_attr", "string"),
              Field(7, "handle_data", "message", repeated=True, message=DtypeAndShape),
              Field(16, "is_ref", "bool"),
              Field(17, "experimental_full_type", "message", message=FullTypeDef))


class _AttrDef(Message):
    FULL_NAME = "tensorflow.OpDef.AttrDef"
    FIELDS = (Field(1, "name", "string"), Field(2, "type", "string"),
              Field(3, "default_value", "message", message=AttrValue),
              Field(4, "description", "string"), Field(5, "has_minimum", "bool"),
              Field(6, "minimum", "int64"),
              Field(7, "allowed_values", "message", message=AttrValue))


class OpDeprecation(Message):
    """Since which graph version an op type is deprecated, and why."""
    FULL_NAME = "tensorflow.OpDeprecation"
    FIELDS = (Field(1, "version", "int32"), Field(2, "explanation", "string"))


class OpDef(Message):
    """An op type's (or a function's) name, inputs, outputs, attributes and properties."""
    FULL_NAME = "tensorflow.OpDef"
    ArgDef, AttrDef = _ArgDef, _AttrDef
    FIELDS = (Field(1, "name", "string"),
              Field(2, "input_arg", "message", repeated=True, message=_ArgDef),
              Field(3, "output_arg", "message", repeated=True, message=_ArgDef),
              Field(20, "control_output", "string", repeated=True),
              Field(4, "attr", "message", repeated=True, message=_AttrDef),
              Field(8, "deprecation", "message", message=OpDeprecation),
              Field(5, "summary", "string"), Field(6, "description", "string"),
              Field(18, "is_commutative", "bool"), Field(16, "is_aggregate", "bool"),
              Field(17, "is_stateful", "bool"), Field(19, "allows_uninitialized_input", "bool"),
              Field(21, "is_distributed_communication", "bool"))


class OpList(Message):
    """A list of op definitions (a MetaGraphDef's stripped_op_list)."""
    FULL_NAME = "tensorflow.OpList"
    FIELDS = (Field(1, "op", "message", repeated=True, message=OpDef),)
