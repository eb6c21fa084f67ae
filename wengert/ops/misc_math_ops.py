"""The rest of tf.math's elementwise and small helpers: softsign, log_sigmoid, scalar_mul,
realdiv, polyval, accumulate_n, zero_fraction, invert_permutation, is_non_decreasing and
is_strictly_increasing.

softsign(x) = x / (1 + |x|) is one op ("Softsign") with derivative 1 / (1 + |x|)^2 (TensorFlow
computes it in a SoftsignGrad op that has no gradient of its own; here the derivative is made of
differentiable ops, so higher orders work). The others are compositions and get their gradients
from their parts:
    log_sigmoid(x) = -softplus(-x)                   (stable for large |x|)
    polyval(c, x)  = c[0] x^(n-1) + ... + c[n-1]      by Horner's rule, ((c0 x + c1) x + c2) ...
    zero_fraction(v) = mean(v == 0)
invert_permutation(p) is the permutation q with q[p[i]] = i ("InvertPermutation", integers, no
gradient); is_non_decreasing / is_strictly_increasing compare neighbours of the flattened input.
sobol_sample draws points of the (unscrambled) Sobol' low-discrepancy sequence with SciPy's
Joe-Kuo direction numbers, leaving out its first point (the origin) as TensorFlow does.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop
from ..framework.static_value import static_value
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.context import op_scope
from .broadcast_ops import add_n, zeros_like
from .elementwise import call_float, float_op
from .math_ops import DIV, MUL, cast, equal, greater, greater_equal, negative, square
from .reduce_ops import reduce_all, reduce_mean
from .reshape_ops import reshape
from .unary_ops import abs as abs_, reciprocal, softplus

__all__ = ["softsign", "log_sigmoid", "scalar_mul", "realdiv", "polyval", "accumulate_n",
           "zero_fraction", "invert_permutation", "is_non_decreasing", "is_strictly_increasing",
           "sobol_sample"]


SOFTSIGN = float_op("Softsign", lambda x: x / (x.dtype.type(1) + np.abs(x)),
                     lambda x, y: reciprocal(square(1.0 + abs_(x))), onnx="Softsign",
                    args=("features",))


def softsign(features, name=None):
    """features / (1 + |features|)."""
    return call_float(SOFTSIGN, features, name)


def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))), computed as -softplus(-x) (no overflow for any x)."""
    return negative(softplus(negative(x)), name=name)


def scalar_mul(scalar, x, name=None):
    """scalar * x, for a scalar (a Python number or a 0-d tensor)."""
    scalar_shape = getattr(scalar, "shape", ())
    if TensorShape(scalar_shape).rank not in (0, None):
        raise ValueError(f"scalar_mul: scalar must be a 0-d tensor, got shape {scalar_shape}.")
    scalar, x = binary_operands(scalar, x, "Mul")
    return execute(MUL, (scalar, x), name=name)


def realdiv(x, y, name=None):
    """x / y for floating-point tensors (the RealDiv op; no casting of integers)."""
    x, y = binary_operands(x, y, "RealDiv")
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"RealDiv needs floating-point tensors, got {x.dtype.name}; "
                                   "use truediv or cast first.")
    return execute(DIV, (x, y), name=name)


def polyval(coeffs, x, name=None):
    """The polynomial with coefficients `coeffs` (highest power first) at x, by Horner's rule."""
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"polyval: coeffs must be a list of tensors or numbers, got "
                         f"{type(coeffs).__name__}.")
    x = convert_to_tensor(x)
    if not coeffs:
        return zeros_like(x, name=name)
    result = convert_to_tensor(coeffs[0], dtype=x.dtype)
    for c in coeffs[1:]:
        result = c + result * x
    return result


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (deprecated in
    TensorFlow in favour of add_n, which it calls)."""
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("accumulate_n: inputs must be a list of at least one tensor of one "
                         "shape and dtype.")
    tensors = [convert_to_tensor(t) for t in inputs]
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != tensors[0].dtype:
        raise TypeError(f"accumulate_n: tensor_dtype is {dtypes.as_dtype(tensor_dtype).name} "
                        f"but the inputs are {tensors[0].dtype.name}; cast them first.")
    if shape is not None and not TensorShape(shape).is_compatible_with(tensors[0].shape):
        raise ValueError(f"accumulate_n: shape {list(shape)} does not match the inputs' shape "
                         f"{tensors[0].shape}.")
    return add_n(tensors, name=name)


def zero_fraction(value, name=None):
    """The fraction of the elements of `value` that are zero (a float32 scalar)."""
    value = convert_to_tensor(value)
    return reduce_mean(cast(equal(value, 0), dtypes.float32), name=name)


def _invert_permutation_kernel(p):
    if p.ndim != 1:
        raise ValueError("invert_permutation needs a 1-d tensor")
    if sorted(p.tolist()) != list(range(p.size)):
        raise ValueError(f"{p.tolist()} is not a permutation of 0..{p.size - 1}")
    out = np.empty_like(p)
    out[p] = np.arange(p.size, dtype=p.dtype)
    return out


def _invert_permutation_rule(p):
    if p.dtype not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"invert_permutation needs int32 or int64, got {p.dtype.name}.")
    if p.shape.rank not in (1, None):
        raise InvalidArgumentError(f"invert_permutation needs a 1-d tensor, got shape {p.shape}.")
    return p.shape, p.dtype


INVERT_PERMUTATION = defop("InvertPermutation", _invert_permutation_kernel,
                           shape=_invert_permutation_rule, grad=None, args=("x",))


def invert_permutation(x, name=None):
    """The inverse permutation y of x: y[x[i]] = i."""
    return execute(INVERT_PERMUTATION, (convert_to_tensor(x),), name=name)


def _neighbours(x, compare, fn_name):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating and not x.dtype.is_integer:
        raise TypeError(f"{fn_name}: expected a numeric tensor, got {x.dtype.name}.")
    flat = reshape(x, [-1])
    return reduce_all(compare(flat[1:], flat[:-1]))


def is_non_decreasing(x, name=None):
    """Whether x[i] <= x[i + 1] for all i of the flattened x (True for fewer than 2 elements)."""
    with op_scope(name, "is_non_decreasing"):
        return _neighbours(x, greater_equal, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """Whether x[i] < x[i + 1] for all i of the flattened x (True for fewer than 2 elements)."""
    with op_scope(name, "is_strictly_increasing"):
        return _neighbours(x, greater, "is_strictly_increasing")


def _sobol_kernel(dim, num_results, skip, dtype):
    import scipy.stats  # imported when first needed
    engine = scipy.stats.qmc.Sobol(int(dim), scramble=False)
    engine.fast_forward(1 + int(skip))
    return engine.random(int(num_results)).astype(dtype)


def _sobol_rule(dim, num_results, skip, dtype):
    rows, columns = static_value(num_results), static_value(dim)
    return TensorShape([None if rows is None else int(rows),
                        None if columns is None else int(columns)]), dtypes.as_dtype(dtype)


SOBOL_SAMPLE = defop("SobolSample", _sobol_kernel, shape=_sobol_rule, grad=None,
                     raw=lambda dim, num_results, skip, dtype=dtypes.float32, name=None:
                     sobol_sample(dim, num_results, skip, dtype, name))


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None):
    """num_results points of the dim-dimensional Sobol' sequence in [0, 1)^dim, after skipping
    `skip` points (and, as TensorFlow does, the initial origin)."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"sobol_sample: dtype must be floating, got {dtype.name}.")
    args = [convert_to_tensor(v, dtype=dtypes.int32) if not hasattr(v, "dtype") else v
            for v in (dim, num_results, skip)]
    return execute(SOBOL_SAMPLE, tuple(args), {"dtype": dtype.as_numpy_dtype}, name)
