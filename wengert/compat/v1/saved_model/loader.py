"""`wengert.compat.v1.saved_model.loader`: load a TensorFlow 1 SavedModel into a Session
(wengert/saved_model/tf1_loader.py)."""
from ....saved_model.tf1_loader import load, maybe_saved_model_directory

__all__ = ["load", "maybe_saved_model_directory"]
