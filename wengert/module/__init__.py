"""`wengert.module`: TensorFlow's `tf.Module` (module.py) and the tracking of what a module holds."""
from .module import Module

__all__ = ["Module"]
