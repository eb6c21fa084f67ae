"""`wengert.math`: TensorFlow's `tf.math` namespace (the same functions as the top level)."""
from .ops.array_core import add_n  # noqa: F401
from .ops.math_ops import *  # noqa: F403
from .ops.unary_ops import *  # noqa: F403
from .ops.reduce_ops import *  # noqa: F403
from .ops.nn_ops import log_softmax, softmax  # noqa: F401  (tf.math.softmax too)
