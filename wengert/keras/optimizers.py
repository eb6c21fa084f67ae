"""`keras.optimizers`: the TensorFlow 2 optimizers of `wengert.optimizers`, re-exported."""
from ..optimizers import *  # noqa: F403
from ..optimizers import __all__  # noqa: F401
