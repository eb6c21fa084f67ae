"""`wengert.linalg`: TensorFlow's `tf.linalg` namespace."""
from .ops.linalg_ops import *  # noqa: F403
