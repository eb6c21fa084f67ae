"""TensorFlow's meta-graph and SavedModel messages (tensorflow/core/protobuf/meta_graph.proto,
saver.proto, saved_model.proto): a graph with what a program needs to run it again.

    SavedModel     saved_model_schema_version (1), meta_graphs (2): repeated MetaGraphDef
    MetaGraphDef   meta_info_def (1), graph_def (2): GraphDef, saver_def (3),
                   collection_def (4): map of CollectionDef, signature_def (5): map of
                   SignatureDef, asset_file_def (6), object_graph_def (7): SavedObjectGraph
    MetaInfoDef    meta_graph_version (1), stripped_op_list (2), any_info (3), tags (4),
                   tensorflow_version (5), tensorflow_git_version (6),
                   stripped_default_attrs (7), function_aliases (8): map string -> string
    CollectionDef  one of node_list (1), bytes_list (2), int64_list (3), float_list (4),
                   any_list (5), each a message of one repeated `value` (1)
    TensorInfo     one of name (1), coo_sparse (4), composite_tensor (5); dtype (2),
                   tensor_shape (3); CompositeTensor: type_spec (1): TypeSpecProto,
                   components (2): repeated TensorInfo
    SignatureDef   inputs (1), outputs (2): maps of TensorInfo, method_name (3), defaults (4)
    SaverDef       filename_tensor_name (1), save_tensor_name (2), restore_op_name (3),
                   max_to_keep (4), sharded (5), keep_checkpoint_every_n_hours (6), version (7)
    Any            type_url (1), value (2)

The stripped op list is an OpList (op_def.py), the object graph a SavedObjectGraph
(saved_object_graph.py).
"""
from .any_message import Any
from .graph import GraphDef
from .message import Field, Message
from .op_def import OpList
from .saved_object_graph import SavedObjectGraph
from .struct import TypeSpecProto
from .tensor import DATA_TYPE_NAMES, TensorProto, TensorShapeProto

__all__ = ["Any", "AssetFileDef", "CollectionDef", "MetaGraphDef", "SavedModel", "SaverDef",
           "SignatureDef", "TensorInfo"]


class _MetaInfoDef(Message):
    FULL_NAME = "tensorflow.MetaGraphDef.MetaInfoDef"
    FIELDS = (Field(1, "meta_graph_version", "string"),
              Field(2, "stripped_op_list", "message", message=OpList),
              Field(3, "any_info", "message", message=Any),
              Field(4, "tags", "string", repeated=True),
              Field(5, "tensorflow_version", "string"),
              Field(6, "tensorflow_git_version", "string"),
              Field(7, "stripped_default_attrs", "bool"),
              Field(8, "function_aliases", "string", map_key="string"))


def _list(name, kind, message=None):
    return type(name, (Message,), {
        "FULL_NAME": f"tensorflow.CollectionDef.{name}", "__module__": __name__,
        "FIELDS": (Field(1, "value", kind, repeated=True, message=message),)})


class CollectionDef(Message):
    """One graph collection: node names, serialized protos, numbers or Any messages."""
    FULL_NAME = "tensorflow.CollectionDef"
    NodeList = _list("NodeList", "string")
    BytesList = _list("BytesList", "bytes")
    Int64List = _list("Int64List", "int64")
    FloatList = _list("FloatList", "float")
    AnyList = _list("AnyList", "message", Any)
    FIELDS = (Field(1, "node_list", "message", message=NodeList, oneof="kind"),
              Field(2, "bytes_list", "message", message=BytesList, oneof="kind"),
              Field(3, "int64_list", "message", message=Int64List, oneof="kind"),
              Field(4, "float_list", "message", message=FloatList, oneof="kind"),
              Field(5, "any_list", "message", message=AnyList, oneof="kind"))


class _CooSparse(Message):
    FULL_NAME = "tensorflow.TensorInfo.CooSparse"
    FIELDS = (Field(1, "values_tensor_name", "string"),
              Field(2, "indices_tensor_name", "string"),
              Field(3, "dense_shape_tensor_name", "string"))


def _tensor_info():
    return TensorInfo


class _CompositeTensor(Message):
    FULL_NAME = "tensorflow.TensorInfo.CompositeTensor"
    FIELDS = (Field(1, "type_spec", "message", message=TypeSpecProto),
              Field(2, "components", "message", repeated=True, message=_tensor_info))


class TensorInfo(Message):
    """A signature's tensor: its name in the graph (or its parts'), dtype and shape."""
    FULL_NAME = "tensorflow.TensorInfo"
    FIELDS = (Field(1, "name", "string", oneof="encoding"),
              Field(2, "dtype", "enum", enum=DATA_TYPE_NAMES),
              Field(3, "tensor_shape", "message", message=TensorShapeProto),
              Field(4, "coo_sparse", "message", message=_CooSparse, oneof="encoding"),
              Field(5, "composite_tensor", "message", message=_CompositeTensor,
                    oneof="encoding"))
    CooSparse, CompositeTensor = _CooSparse, _CompositeTensor


class SignatureDef(Message):
    """A signature: named input and output tensors and the method they serve."""
    FULL_NAME = "tensorflow.SignatureDef"
    FIELDS = (Field(1, "inputs", "message", map_key="string", message=TensorInfo),
              Field(2, "outputs", "message", map_key="string", message=TensorInfo),
              Field(3, "method_name", "string"),
              Field(4, "defaults", "message", map_key="string", message=TensorProto))


class AssetFileDef(Message):
    """An asset file and the tensor that holds its path."""
    FULL_NAME = "tensorflow.AssetFileDef"
    FIELDS = (Field(1, "tensor_info", "message", message=TensorInfo),
              Field(2, "filename", "string"))


class SaverDef(Message):
    """`tf.compat.v1.train.SaverDef`: the tensors and ops a Saver saves and restores with."""
    FULL_NAME = "tensorflow.SaverDef"
    FIELDS = (Field(1, "filename_tensor_name", "string"),
              Field(2, "save_tensor_name", "string"), Field(3, "restore_op_name", "string"),
              Field(4, "max_to_keep", "int32"), Field(5, "sharded", "bool"),
              Field(6, "keep_checkpoint_every_n_hours", "float"),
              Field(7, "version", "enum", enum={0: "LEGACY", 1: "V1", 2: "V2"}))
    LEGACY, V1, V2 = 0, 1, 2


class MetaGraphDef(Message):
    """`tf.compat.v1.MetaGraphDef`: a GraphDef with its saver, collections and signatures."""
    FULL_NAME = "tensorflow.MetaGraphDef"
    MetaInfoDef = _MetaInfoDef
    FIELDS = (Field(1, "meta_info_def", "message", message=_MetaInfoDef),
              Field(2, "graph_def", "message", message=GraphDef),
              Field(3, "saver_def", "message", message=SaverDef),
              Field(4, "collection_def", "message", map_key="string", message=CollectionDef),
              Field(5, "signature_def", "message", map_key="string", message=SignatureDef),
              Field(6, "asset_file_def", "message", repeated=True, message=AssetFileDef),
              Field(7, "object_graph_def", "message", message=SavedObjectGraph))


class SavedModel(Message):
    """A SavedModel's `saved_model.pb`: its schema version and meta graphs."""
    FULL_NAME = "tensorflow.SavedModel"
    FIELDS = (Field(1, "saved_model_schema_version", "int64"),
              Field(2, "meta_graphs", "message", repeated=True, message=MetaGraphDef))
