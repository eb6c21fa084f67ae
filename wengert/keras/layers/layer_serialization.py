"""`keras.layers.serialize` and `keras.layers.deserialize`: a layer to its Keras 3 config dict
({"module", "class_name", "config", "registered_name", ...}) and back.

Both are wengert.keras.serialization's general object functions, restricted to layers:
`deserialize` looks the class up among `custom_objects`, the registered objects and Keras's own
layer names (nothing is evaluated), builds it with `from_config`, and refuses a config that does
not describe a layer.
"""
from ..serialization import deserialize_keras_object, serialize_keras_object
from .base import Layer

__all__ = ["serialize", "deserialize"]


def serialize(layer):
    """The layer's config as Keras writes it in a `.keras` file (a dict)."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """The layer a config dict describes (as `serialize` or Keras wrote it)."""
    obj = None
    if isinstance(config, dict):
        obj = deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(obj, Layer):
        raise ValueError("`keras.layers.deserialize` was passed a `config` object that is not "
                         f"a `keras.layers.Layer`. Received: {config}")
    return obj
