"""The wengert ops Keras's layers, losses and metrics are written in, gathered in one namespace
(what `keras.ops` is to Keras 3, under wengert's names): `from .. import backend_ops as K` then `K.matmul(...)`.

Nothing is computed here; each name is the op function of its family module in wengert/ops/.
"""
from ..framework.tensor import constant, convert_to_tensor  # noqa: F401
from ..ops.broadcast_ops import add_n, broadcast_to, ones_like, zeros_like
from ..ops.cast_ops import cast
from ..ops.reshape_ops import reshape  # noqa: F401
from ..ops.array_ops import concat, identity, split, stack, stop_gradient, unstack, where
from ..ops.reshape_ops import expand_dims, squeeze, transpose
from ..ops.binary_math_ops import divide_no_nan, squared_difference  # noqa: F401
from ..ops.math_ops import clip_by_value  # noqa: F401
from ..ops.creation_ops import (eye, fill, one_hot, ones, pad, range, rank, shape,  # noqa: F401
                                size, tile, zeros)
from ..ops.indexing_ops import boolean_mask, gather, gather_nd, reverse, strided_slice  # noqa
from ..ops.einsum_ops import einsum, tensordot
from ..ops.matmul_ops import matmul  # noqa: F401
from ..ops.math_ops import (add, divide, equal, floordiv, floormod, greater,  # noqa: F401
                            greater_equal,
                            less, less_equal, logical_and, logical_not, logical_or, maximum,
                            minimum, multiply, negative, not_equal, pow, subtract, truediv)
from ..ops.misc_math_ops import log_sigmoid, softsign  # noqa: F401
from ..ops.nn.activations import (bias_add, elu, gelu, l2_normalize, leaky_relu, log_softmax,  # noqa
                          relu, relu6, selu, silu, softmax)
from ..ops.reduce_ops import (argmax, argmin, reduce_all, reduce_any, reduce_logsumexp, reduce_max,  # noqa
                              reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum,
                              reduce_variance)
from ..ops.scan_ops import cumsum  # noqa: F401
from ..ops.rounding_ops import ceil, floor, round  # noqa: F401
from ..ops.unary_ops import (abs, cos, exp, expm1, log, log1p, reciprocal, rsqrt,  # noqa
                             sigmoid, sign, sin, softplus, sqrt, square, tanh)
