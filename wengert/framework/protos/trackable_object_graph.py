"""The object graph TensorFlow stores in every object-based checkpoint, under the key
`_CHECKPOINTABLE_OBJECT_GRAPH` (tensorflow/core/protobuf/trackable_object_graph.proto):

    TrackableObjectGraph   nodes (1): repeated TrackableObject, node 0 the root
    TrackableObject        children (1): repeated ObjectReference{node_id (1): int32,
                                                                  local_name (2): string}
                           attributes (2): repeated SerializedTensor{name (1), full_name (2),
                                                                      checkpoint_key (3)}
                           slot_variables (3): repeated SlotVariableReference{
                               original_variable_node_id (1): int32, slot_name (2): string,
                               slot_variable_node_id (3): int32}
                           registered_saver (4): RegisteredSaver{name (1), object_name (2)}
                           has_checkpoint_values (5): google.protobuf.BoolValue{value (1)}

Each node is one saved object; its children are the objects it holds, by the name it holds them
under; a variable's node has the attribute VARIABLE_VALUE whose checkpoint_key names its tensor
in the bundle. Restoring walks this graph from the root alongside the live objects.
"""
from .message import Field, Message

__all__ = ["BoolValue", "RegisteredSaver", "TrackableObjectGraph"]


class BoolValue(Message):
    """google.protobuf.BoolValue: a bool that can be absent."""
    FULL_NAME = "google.protobuf.BoolValue"
    FIELDS = (Field(1, "value", "bool"),)


class RegisteredSaver(Message):
    FULL_NAME = "tensorflow.RegisteredSaver"
    FIELDS = (Field(1, "name", "string"), Field(2, "object_name", "string"))


class _ObjectReference(Message):
    FULL_NAME = "tensorflow.TrackableObjectGraph.TrackableObject.ObjectReference"
    FIELDS = (Field(1, "node_id", "int32"), Field(2, "local_name", "string"))


class _SerializedTensor(Message):
    FULL_NAME = "tensorflow.TrackableObjectGraph.TrackableObject.SerializedTensor"
    FIELDS = (Field(1, "name", "string"), Field(2, "full_name", "string"),
              Field(3, "checkpoint_key", "string"))


class _SlotVariableReference(Message):
    FULL_NAME = "tensorflow.TrackableObjectGraph.TrackableObject.SlotVariableReference"
    FIELDS = (Field(1, "original_variable_node_id", "int32"), Field(2, "slot_name", "string"),
              Field(3, "slot_variable_node_id", "int32"))


class _TrackableObject(Message):
    FULL_NAME = "tensorflow.TrackableObjectGraph.TrackableObject"
    FIELDS = (Field(1, "children", "message", repeated=True, message=_ObjectReference),
              Field(2, "attributes", "message", repeated=True, message=_SerializedTensor),
              Field(3, "slot_variables", "message", repeated=True,
                    message=_SlotVariableReference),
              Field(4, "registered_saver", "message", message=RegisteredSaver),
              Field(5, "has_checkpoint_values", "message", message=BoolValue))
    ObjectReference = _ObjectReference
    SerializedTensor = _SerializedTensor
    SlotVariableReference = _SlotVariableReference


class TrackableObjectGraph(Message):
    """The saved objects, node 0 the root, each with its children and saved tensors."""
    FULL_NAME = "tensorflow.TrackableObjectGraph"
    FIELDS = (Field(1, "nodes", "message", repeated=True, message=_TrackableObject),)
    TrackableObject = _TrackableObject
