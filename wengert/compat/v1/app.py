"""`tf.compat.v1.app`: `run` and the `flags` module of TensorFlow 1 scripts."""
from ...tf1.app import run  # noqa: F401
from . import flags  # noqa: F401
