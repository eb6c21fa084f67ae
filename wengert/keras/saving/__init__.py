"""`keras.saving`: Keras 3's `.keras` and `.weights.h5` files, and object configs.

serialization.py turns objects into the configs a `.keras` file holds and back (no code is
evaluated: classes are found by name); object_tables.py maps Keras's module names to wengert's;
savedmodel_dir.py writes and reads the SavedModel directory form (tf.saved_model).
"""
from .savedmodel_dir import input_signature, load_model, save_model, serving_functions
from .serialization import (CustomObjectScope, custom_object_scope, deserialize_keras_object,
                            get_custom_objects, get_registered_name, get_registered_object,
                            register_keras_serializable, serialize_keras_object)

__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object",
           "register_keras_serializable", "serialize_keras_object", "save_model", "load_model",
           "input_signature", "serving_functions"]
