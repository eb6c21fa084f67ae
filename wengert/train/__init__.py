"""`wengert.train` (TensorFlow's `tf.train` and `tf.compat.v1.train`): checkpoints, TF1 optimizers
and the global step.
"""
# -- checkpoints (data/checkpoint helper) ---------------------------------------------------------
from .checkpoint import *  # noqa: F401,F403

# -- TF1 optimizers (optimizers helper) -----------------------------------------------------------
from .v1_optimizers import *  # noqa: F401,F403
