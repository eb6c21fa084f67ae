"""`keras.ops.numpy`: Keras 3's NumPy-style functions over wengert tensors.

Each function is defined in the module of its concept (numpy_math.py: elementwise functions of
one tensor, ...) and gathered here; `keras.ops` re-exports them all at its top level. They apply
Keras 3's dtype promotion (dtypes.py) and then call wengert's own ops, so they are differentiable
with the ops' gradients.
"""
from .numpy_binary import *  # noqa: F403
from .numpy_math import *  # noqa: F403
from . import numpy_binary, numpy_math

__all__ = numpy_math.__all__ + numpy_binary.__all__
