"""`keras.ops.numpy`: Keras 3's NumPy-style functions over wengert tensors.

Each function is defined in the module of its concept and gathered here; `keras.ops` re-exports
them all at its top level. They apply Keras 3's dtype promotion (dtypes.py) and then call
wengert's own ops, so they are differentiable with the ops' gradients.

    numpy_math.py        elementwise functions of one tensor (sin, exp, log2, round, isnan, ...)
    numpy_binary.py      elementwise functions of two (add, divide, power, equal, bitwise_and, ...)
    numpy_reductions.py  sum, mean, max, argmax, var, cumsum, average, trapezoid, ...
    numpy_nan.py         the NaN-ignoring reductions (nansum, nanmean, nanargmax, ...)
    numpy_quantiles.py   quantile, percentile, median and their NaN-ignoring forms
"""
from . import numpy_binary, numpy_math, numpy_nan, numpy_quantiles, numpy_reductions
from .numpy_binary import *  # noqa: F403
from .numpy_math import *  # noqa: F403
from .numpy_nan import *  # noqa: F403
from .numpy_quantiles import *  # noqa: F403
from .numpy_reductions import *  # noqa: F403

__all__ = (numpy_math.__all__ + numpy_binary.__all__ + numpy_reductions.__all__
           + numpy_nan.__all__ + numpy_quantiles.__all__)
