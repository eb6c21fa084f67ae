"""TensorFlow's graph messages (tensorflow/core/framework/graph.proto, node_def.proto,
attr_value.proto, versions.proto, types.proto): a graph as TensorFlow 1 hands it around.

    GraphDef      node (1): repeated NodeDef, versions (4): VersionDef, version (3),
                  library (2): FunctionDefLibrary, debug_info (5)
    NodeDef       name (1), op (2): the op type, input (3): "node" for output 0, "node:i" for
                  output i, "^node" for a control input, device (4), attr (5): map of AttrValue,
                  experimental_debug_info (6), experimental_type (7)
    AttrValue     one of: s (2) bytes, i (3) int64, f (4) float, b (5) bool, type (6) DataType,
                  shape (7) TensorShapeProto, tensor (8) TensorProto, list (1) ListValue,
                  func (10) NameAttrList, placeholder (9)
    ListValue     s (2), i (3), f (4), b (5), type (6), shape (7), tensor (8), func (9), all
                  repeated (numbers packed)
    NameAttrList  name (1), attr (2): map of AttrValue (a function and its attributes)
    VersionDef    producer (1), min_consumer (2), bad_consumers (3)

NodeDef, AttrValue and NameAttrList are declared in node_def.py (and importable from here), the
function library in function.py; the debug information is declared without its fields: its
bytes are kept as read and written back unchanged.
`DATA_TYPE_NAMES` gives the DataType enum's names (DT_FLOAT = 1, ...), which text format prints.
"""
from .function import FunctionDefLibrary
from .message import Field, Message
from .node_def import AttrValue, FullTypeDef, NameAttrList, NodeDef
from .tensor import DATA_TYPE_NAMES

__all__ = ["AttrValue", "NameAttrList", "NodeDef", "FullTypeDef", "VersionDef", "GraphDebugInfo",
           "GraphDef", "DATA_TYPE_NAMES"]


class VersionDef(Message):
    """The versions of the code that wrote a graph and the oldest that may read it."""
    FULL_NAME = "tensorflow.VersionDef"
    FIELDS = (Field(1, "producer", "int32"), Field(2, "min_consumer", "int32"),
              Field(3, "bad_consumers", "int32", repeated=True))


class GraphDebugInfo(Message):
    """Where each node was made in the writer's source (kept as read)."""
    FULL_NAME = "tensorflow.GraphDebugInfo"


class GraphDef(Message):
    """`tf.compat.v1.GraphDef`: a graph's nodes and the versions it was written with."""
    FULL_NAME = "tensorflow.GraphDef"
    FIELDS = (Field(1, "node", "message", repeated=True, message=NodeDef),
              Field(2, "library", "message", message=FunctionDefLibrary),
              Field(3, "version", "int32"),
              Field(4, "versions", "message", message=VersionDef),
              Field(5, "debug_info", "message", message=GraphDebugInfo))
