"""`wengert.nn`: TensorFlow's `tf.nn` namespace (activations, softmax, losses)."""
from .ops.nn_ops import *  # noqa: F403
from .ops.conv_ops import *  # noqa: F403,E402  (conv2d, conv2d_transpose, ...)
from .ops.pool_ops import *  # noqa: F403,E402  (max_pool2d, avg_pool2d, ...)
