"""`keras.ops.numpy`: Keras 3's NumPy-style functions over wengert tensors.

Each function is defined in the module of its concept and gathered here; `keras.ops` re-exports
them all at its top level. They apply Keras 3's dtype promotion (dtypes.py) and then call
wengert's own ops, so they are differentiable with the ops' gradients.

    numpy_math.py        elementwise functions of one tensor (sin, exp, log2, round, isnan, ...)
    numpy_binary.py      elementwise functions of two (add, divide, power, equal, bitwise_and, ...)
    numpy_reductions.py  sum, mean, max, argmax, var, cumsum, average, trapezoid, ...
    numpy_nan.py         the NaN-ignoring reductions (nansum, nanmean, nanargmax, ...)
    numpy_quantiles.py   quantile, percentile, median and their NaN-ignoring forms
    numpy_creation.py    arange, linspace, zeros, full, eye, tri, the window functions, ...
    numpy_shapes.py      reshape, transpose, concatenate, split, flip, roll, tile, pad, ...
    numpy_indexing.py    take, take_along_axis, get_item, where, select, searchsorted, diff, ...
    numpy_sorting.py     sort, argsort, argpartition, unique, bincount, histogram
    numpy_products.py    matmul, dot, tensordot, einsum, outer, kron, cross, correlate, ...
    numpy_matrices.py    diag, diagonal, trace, tril, triu, vander
    numpy_functions.py   vectorize, view
"""
from . import numpy_binary, numpy_creation, numpy_functions, numpy_indexing, numpy_math
from . import numpy_matrices, numpy_nan, numpy_products, numpy_quantiles, numpy_reductions
from . import numpy_shapes, numpy_sorting
from .numpy_binary import *  # noqa: F403
from .numpy_creation import *  # noqa: F403
from .numpy_functions import *  # noqa: F403
from .numpy_indexing import *  # noqa: F403
from .numpy_math import *  # noqa: F403
from .numpy_matrices import *  # noqa: F403
from .numpy_nan import *  # noqa: F403
from .numpy_products import *  # noqa: F403
from .numpy_quantiles import *  # noqa: F403
from .numpy_reductions import *  # noqa: F403
from .numpy_shapes import *  # noqa: F403
from .numpy_sorting import *  # noqa: F403

__all__ = sorted(numpy_math.__all__ + numpy_binary.__all__ + numpy_reductions.__all__
                 + numpy_nan.__all__ + numpy_quantiles.__all__ + numpy_creation.__all__
                 + numpy_shapes.__all__ + numpy_indexing.__all__ + numpy_sorting.__all__
                 + numpy_products.__all__ + numpy_matrices.__all__ + numpy_functions.__all__)
