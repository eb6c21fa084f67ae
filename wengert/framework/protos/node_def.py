"""TensorFlow's node messages (tensorflow/core/framework/node_def.proto, attr_value.proto,
full_type.proto): one op of a graph or of a function body, and its attributes.

    NodeDef       name (1), op (2): the op type, input (3): "node" for output 0, "node:i" for
                  output i, "^node" for a control input, device (4), attr (5): map of AttrValue,
                  experimental_debug_info (6), experimental_type (7)
    AttrValue     one of: s (2) bytes, i (3) int64, f (4) float, b (5) bool, type (6) DataType,
                  shape (7) TensorShapeProto, tensor (8) TensorProto, list (1) ListValue,
                  func (10) NameAttrList, placeholder (9)
    ListValue     s (2), i (3), f (4), b (5), type (6), shape (7), tensor (8), func (9), all
                  repeated (numbers packed)
    NameAttrList  name (1), attr (2): map of AttrValue (a function and its attributes)

A node's full type (FullTypeDef) is declared without its fields: its bytes are kept as read.
"""
from .message import Field, Message
from .tensor import DATA_TYPE_NAMES, TensorProto, TensorShapeProto

__all__ = ["AttrValue", "NameAttrList", "NodeDef", "FullTypeDef"]


class NameAttrList(Message):
    """A function named with its attributes (an AttrValue's `func`)."""
    FULL_NAME = "tensorflow.NameAttrList"
    FIELDS = (Field(1, "name", "string"),
              Field(2, "attr", "message", map_key="string", message=lambda: AttrValue))


class _ListValue(Message):
    FULL_NAME = "tensorflow.AttrValue.ListValue"
    FIELDS = (Field(2, "s", "bytes", repeated=True), Field(3, "i", "int64", repeated=True),
              Field(4, "f", "float", repeated=True), Field(5, "b", "bool", repeated=True),
              Field(6, "type", "enum", repeated=True, enum=DATA_TYPE_NAMES),
              Field(7, "shape", "message", repeated=True, message=TensorShapeProto),
              Field(8, "tensor", "message", repeated=True, message=TensorProto),
              Field(9, "func", "message", repeated=True, message=NameAttrList))


class AttrValue(Message):
    """One attribute of a node: a scalar, a type, a shape, a tensor, a function or a list."""
    FULL_NAME = "tensorflow.AttrValue"
    FIELDS = (Field(1, "list", "message", message=_ListValue, oneof="value"),
              Field(2, "s", "bytes", oneof="value"), Field(3, "i", "int64", oneof="value"),
              Field(4, "f", "float", oneof="value"), Field(5, "b", "bool", oneof="value"),
              Field(6, "type", "enum", oneof="value", enum=DATA_TYPE_NAMES),
              Field(7, "shape", "message", message=TensorShapeProto, oneof="value"),
              Field(8, "tensor", "message", message=TensorProto, oneof="value"),
              Field(9, "placeholder", "string", oneof="value"),
              Field(10, "func", "message", message=NameAttrList, oneof="value"))
    ListValue = _ListValue


class _ExperimentalDebugInfo(Message):
    FULL_NAME = "tensorflow.NodeDef.ExperimentalDebugInfo"
    FIELDS = (Field(1, "original_node_names", "string", repeated=True),
              Field(2, "original_func_names", "string", repeated=True))


class FullTypeDef(Message):
    """TensorFlow's full type of a node's outputs (kept as read)."""
    FULL_NAME = "tensorflow.FullTypeDef"


class NodeDef(Message):
    """One op of a graph: its name, op type, inputs, device and attributes."""
    FULL_NAME = "tensorflow.NodeDef"
    FIELDS = (Field(1, "name", "string"), Field(2, "op", "string"),
              Field(3, "input", "string", repeated=True), Field(4, "device", "string"),
              Field(5, "attr", "message", map_key="string", message=AttrValue),
              Field(6, "experimental_debug_info", "message", message=_ExperimentalDebugInfo),
              Field(7, "experimental_type", "message", message=FullTypeDef))
    ExperimentalDebugInfo = _ExperimentalDebugInfo
