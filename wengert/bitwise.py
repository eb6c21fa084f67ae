"""`wengert.bitwise`: TensorFlow's `tf.bitwise` namespace (integer bit operations)."""
from .ops.bitwise_ops import *  # noqa: F401,F403
