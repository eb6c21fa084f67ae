"""`wengert.nn`: TensorFlow's `tf.nn` namespace (activations, softmax, losses)."""
from .ops.nn_ops import *  # noqa: F403
