"""The objects of a SavedModel (tensorflow/core/protobuf/saved_object_graph.proto): what
`tf.saved_model.load` rebuilds, node 0 the root, each node one object.

    SavedObjectGraph   nodes (1): repeated SavedObject, concrete_functions (2): map name ->
                       SavedConcreteFunction
    SavedObject        children (1), dependencies (15): repeated ObjectReference,
                       slot_variables (3), one of (kind): user_object (4), asset (5),
                       function (6), variable (7), bare_concrete_function (8), constant (9),
                       resource (10), captured_tensor (12); saveable_objects (11): map name ->
                       SaveableObject, registered_name (13), serialized_user_proto (14): Any,
                       registered_saver (16)
    SavedUserObject    identifier (1) ("_generic_user_object", "signature_map"...),
                       version (2): VersionDef, metadata (3)
    SavedFunction      concrete_functions (1): names in the library, function_spec (2)
    SavedConcreteFunction  bound_inputs (2): node ids of the captured inputs,
                       canonicalized_input_signature (3), output_signature (4): StructuredValue
    SavedBareConcreteFunction  concrete_function_name (1), argument_keywords (2),
                       allowed_positional_arguments (3), function_spec (4)
    FunctionSpec       fullargspec (1), is_method (2), input_signature (5): StructuredValue,
                       jit_compile (6): DEFAULT / ON / OFF
    SavedVariable      dtype (1), shape (2), trainable (3), synchronization (4),
                       aggregation (5), name (6), device (7),
                       experimental_distributed_variable_components (8)
    SavedAsset (asset_file_def_index 1), SavedConstant (operation 1), SavedResource
    (device 1), CapturedTensor (name 1, concrete_function 2), SaveableObject
    (save_function 2, restore_function 3)
"""
from .any_message import Any
from .graph import VersionDef
from .message import Field, Message
from .struct import StructuredValue
from .tensor import DATA_TYPE_NAMES, TensorShapeProto
from .trackable_object_graph import TrackableObjectGraph

__all__ = ["SavedObjectGraph", "SavedObject", "SavedUserObject", "SavedAsset", "SavedFunction",
           "SavedConcreteFunction", "SavedBareConcreteFunction", "SavedConstant",
           "SavedVariable", "FunctionSpec", "SavedResource", "CapturedTensor",
           "SaveableObject"]

_Reference = TrackableObjectGraph.TrackableObject.ObjectReference
_SlotReference = TrackableObjectGraph.TrackableObject.SlotVariableReference


class SavedUserObject(Message):
    """A Python object rebuilt by its registered identifier, or as a generic object."""
    FULL_NAME = "tensorflow.SavedUserObject"
    FIELDS = (Field(1, "identifier", "string"),
              Field(2, "version", "message", message=VersionDef),
              Field(3, "metadata", "string"))


class SavedAsset(Message):
    FULL_NAME = "tensorflow.SavedAsset"
    FIELDS = (Field(1, "asset_file_def_index", "int32"),)


class FunctionSpec(Message):
    """How a function is called: its Python argument spec and input signature."""
    FULL_NAME = "tensorflow.FunctionSpec"
    FIELDS = (Field(1, "fullargspec", "message", message=StructuredValue),
              Field(2, "is_method", "bool"),
              Field(5, "input_signature", "message", message=StructuredValue),
              Field(6, "jit_compile", "enum", enum={0: "DEFAULT", 1: "ON", 2: "OFF"}))
    DEFAULT, ON, OFF = 0, 1, 2


class SavedFunction(Message):
    """A tf.function: the names of its traces in the library and its call spec."""
    FULL_NAME = "tensorflow.SavedFunction"
    FIELDS = (Field(1, "concrete_functions", "string", repeated=True),
              Field(2, "function_spec", "message", message=FunctionSpec))


class CapturedTensor(Message):
    FULL_NAME = "tensorflow.CapturedTensor"
    FIELDS = (Field(1, "name", "string"), Field(2, "concrete_function", "string"))


class SavedConcreteFunction(Message):
    """One trace: the objects bound to its captured inputs, its input and output nests."""
    FULL_NAME = "tensorflow.SavedConcreteFunction"
    FIELDS = (Field(2, "bound_inputs", "int32", repeated=True),
              Field(3, "canonicalized_input_signature", "message", message=StructuredValue),
              Field(4, "output_signature", "message", message=StructuredValue))


class SavedBareConcreteFunction(Message):
    """A ConcreteFunction saved on its own (a signature): its keyword argument names."""
    FULL_NAME = "tensorflow.SavedBareConcreteFunction"
    FIELDS = (Field(1, "concrete_function_name", "string"),
              Field(2, "argument_keywords", "string", repeated=True),
              Field(3, "allowed_positional_arguments", "int64"),
              Field(4, "function_spec", "message", message=FunctionSpec))


class SavedConstant(Message):
    FULL_NAME = "tensorflow.SavedConstant"
    FIELDS = (Field(1, "operation", "string"),)


class SavedVariable(Message):
    """A variable: dtype, shape, trainable, its name (its value is in variables/)."""
    FULL_NAME = "tensorflow.SavedVariable"
    FIELDS = (Field(1, "dtype", "enum", enum=DATA_TYPE_NAMES),
              Field(2, "shape", "message", message=TensorShapeProto),
              Field(3, "trainable", "bool"), Field(4, "synchronization", "enum"),
              Field(5, "aggregation", "enum"), Field(6, "name", "string"),
              Field(7, "device", "string"),
              Field(8, "experimental_distributed_variable_components", "message",
                    repeated=True, message=lambda: SavedVariable))


class SavedResource(Message):
    FULL_NAME = "tensorflow.SavedResource"
    FIELDS = (Field(1, "device", "string"),)


class SaveableObject(Message):
    FULL_NAME = "tensorflow.SaveableObject"
    FIELDS = (Field(2, "save_function", "int32"), Field(3, "restore_function", "int32"))


class SavedObject(Message):
    """One saved object: its children by name and what kind of object it is."""
    FULL_NAME = "tensorflow.SavedObject"
    FIELDS = (Field(1, "children", "message", repeated=True, message=_Reference),
              Field(15, "dependencies", "message", repeated=True, message=_Reference),
              Field(3, "slot_variables", "message", repeated=True, message=_SlotReference),
              Field(4, "user_object", "message", message=SavedUserObject, oneof="kind"),
              Field(5, "asset", "message", message=SavedAsset, oneof="kind"),
              Field(6, "function", "message", message=SavedFunction, oneof="kind"),
              Field(7, "variable", "message", message=SavedVariable, oneof="kind"),
              Field(8, "bare_concrete_function", "message", message=SavedBareConcreteFunction,
                    oneof="kind"),
              Field(9, "constant", "message", message=SavedConstant, oneof="kind"),
              Field(10, "resource", "message", message=SavedResource, oneof="kind"),
              Field(12, "captured_tensor", "message", message=CapturedTensor, oneof="kind"),
              Field(11, "saveable_objects", "message", map_key="string",
                    message=SaveableObject),
              Field(13, "registered_name", "string"),
              Field(14, "serialized_user_proto", "message", message=Any),
              Field(16, "registered_saver", "string"))


class SavedObjectGraph(Message):
    """A SavedModel's objects (node 0 the root) and its traced functions' call data."""
    FULL_NAME = "tensorflow.SavedObjectGraph"
    FIELDS = (Field(1, "nodes", "message", repeated=True, message=SavedObject),
              Field(2, "concrete_functions", "message", map_key="string",
                    message=SavedConcreteFunction))
