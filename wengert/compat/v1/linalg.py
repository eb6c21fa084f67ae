"""`wengert.compat.v1.linalg`: TensorFlow 1's `tf.linalg`, which is `tf.linalg` with norm's
`keep_dims` (tf1/reductions_v1.py) and matmul's `grad_a`/`grad_b` hints
(tf1/arrays_v1.py)."""
from ...linalg import *  # noqa: F403
from ...tf1.arrays_v1 import matmul  # noqa: F401
from ...tf1.reductions_v1 import norm  # noqa: F401
