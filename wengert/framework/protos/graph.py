"""TensorFlow's graph messages (tensorflow/core/framework/graph.proto, versions.proto): a graph
as TensorFlow 1 hands it around.

    GraphDef      node (1): repeated NodeDef, versions (4): VersionDef, version (3),
                  library (2): FunctionDefLibrary, debug_info (5)
    VersionDef    producer (1), min_consumer (2), bad_consumers (3)

NodeDef, AttrValue and NameAttrList (the nodes and their attributes) are declared in
node_def.py and importable from here; the function library in function.py. The debug
information is declared without its fields: its bytes are kept as read and written back
unchanged. `DATA_TYPE_NAMES` gives the DataType enum's names (DT_FLOAT = 1, ...), which text
format prints.
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
