"""`keras.saving`: Keras 3's `.keras` and `.weights.h5` files, and object configs.

`save_model(model, "m.keras")` / `load_model("m.keras")` use Keras 3's zip format
(keras_file.py: config.json + model.weights.h5 written with h5py, the optional extra
`wengert[h5]`), which TensorFlow's Keras reads and writes too; any other path is a SavedModel
directory (savedmodel_dir.py, tf.saved_model). model_config.py writes and rebuilds Sequential
and functional models; h5_weights.py is the weights file. Turning objects into configs and back
is keras/serialization.py's (no code is evaluated: classes are found by name, through
keras/object_tables.py), below the layers that use it; this namespace exports its functions
too.
"""
import os

from ..serialization import (CustomObjectScope, custom_object_scope, deserialize_keras_object,
                             get_custom_objects, get_registered_name, get_registered_object,
                             register_keras_serializable, serialize_keras_object)
from . import savedmodel_dir
from .keras_file import load_keras_file, save_keras_file
from .savedmodel_dir import input_signature, serving_functions

_LEGACY_H5 = (".h5", ".hdf5")


def save_model(model, filepath, overwrite=True, save_format=None, **kwargs):
    """Save a whole model: a `.keras` file (Keras 3's format) or a SavedModel directory."""
    path = os.fspath(filepath)
    if path.endswith(".keras") or save_format == "keras":
        return save_keras_file(model, path, overwrite=overwrite)
    if path.endswith(_LEGACY_H5) or save_format == "h5":
        raise NotImplementedError(f"save_model: the legacy whole-model HDF5 format ({path!r}) "
                                  "is not available; save to a `.keras` file (or use "
                                  "save_weights for a `.weights.h5` file).")
    return savedmodel_dir.save_model(model, path, overwrite=overwrite, save_format=save_format,
                                     **kwargs)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):  # noqa
    """Load a `.keras` file (rebuilt as a Keras model) or a SavedModel directory."""
    path = os.fspath(filepath)
    if path.endswith(".keras") or (os.path.isfile(path) and not path.endswith(_LEGACY_H5)):
        return load_keras_file(path, custom_objects=custom_objects, compile=compile,
                               safe_mode=safe_mode)
    if path.endswith(_LEGACY_H5):
        raise NotImplementedError(f"load_model: the legacy whole-model HDF5 format ({path!r}) "
                                  "is not available; load a `.keras` file.")
    return savedmodel_dir.load_model(path, custom_objects=custom_objects, compile=compile,
                                     safe_mode=safe_mode, **kwargs)


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """`model.save_weights(filepath, overwrite=...)`: a `.weights.h5` file (or a checkpoint)."""
    if max_shard_size is not None:
        raise ValueError(f"keras.saving.save_weights: max_shard_size={max_shard_size!r} asks "
                         "for a sharded weights file, which wengert does not write; leave it "
                         "None for one .weights.h5 file.")
    return model.save_weights(filepath, overwrite=overwrite, **kwargs)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """`model.load_weights(filepath, skip_mismatch=...)`."""
    return model.load_weights(filepath, skip_mismatch=skip_mismatch, **kwargs)


__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object",
           "register_keras_serializable", "serialize_keras_object", "save_model", "load_model",
           "input_signature", "serving_functions", "save_weights", "load_weights"]
