"""`wengert.linalg`: TensorFlow's `tf.linalg` namespace."""
from .ops.linalg_ops import *  # noqa: F403
from .ops.linalg_ops import matrix_transpose as transpose  # noqa: F401,E402
from .ops.linalg_ops import matrix_transpose as adjoint  # noqa: F401,E402
