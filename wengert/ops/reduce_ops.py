"""Reductions: sum, mean, max, min, prod, logsumexp, norms, any/all, argmax/argmin (the scans,
cumsum among them, are in scan_ops.py).

Each reduction is one op ("Sum", "Mean", "Max", ...) whose kernel is one NumPy call, with the
reduced axes as a sorted tuple of non-negative ints (`axis`) and `keepdims`. Integer reductions keep
their dtype as in TensorFlow (NumPy would widen int32 sums to int64), and the mean of integers is
an integer division truncating toward zero.

Derivatives, with g the incoming gradient and b(.) the broadcast of a reduced tensor back over the
reduced axes (the "ReduceBroadcast" op, whose own gradient is a Sum):

    y = sum(x):        dx = b(g)
    y = mean(x):       dx = b(g) / n                   (n: number of reduced elements)
    y = max(x):        dx = b(g) * [x == b(y)] / b(ties)   the gradient is split evenly among ties,
                       as in TensorFlow; min likewise
    y = prod(x):       dx_i = b(g) * prod_{j != i} x_j, computed as y / x_i where x_i != 0; at a
                       zero it is the product of the other (non-zero) entries when x_i is the only
                       zero, and 0 when there are several zeros
    y = logsumexp(x):  dx = b(g) * exp(x - b(y))       (the softmax of x)
    y = |x|_2:         dx = b(g / y) * x               (NaN where the norm is 0, as in TensorFlow)

Forward mode: sum, mean and ReduceBroadcast are linear, so their tangent is the op applied
to the input's tangent u. The others follow from dy = sum over the reduced axes of (dy/dx) u, where
dy/dx is the VJP of a seed of ones: max/min average u over the tied extrema, prod sums the
co-factors times u, logsumexp sums softmax(x) u, and the norm sums x u / y.

reduce_variance and reduce_std are compositions of means (std = sqrt(variance), so its gradient is
infinite where the variance is 0); any/all/argmax/argmin/count_nonzero have no gradient.
"""
import numpy as np

from ..framework import dtypes
from ..framework.dispatch import dispatchable
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.operation import Operation
from ..framework.registry import defop, linear, linear_in
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .shape_rules import axis_tuple, check_distinct
from .shape_rules import batch_rank
from .broadcast_ops import broadcast_to, ones_like
from .cast_ops import cast
from .reshape_ops import reshape
from .array_ops import where
from .creation_ops import size
from .math_ops import equal, not_equal
from .unary_ops import exp, sqrt, square

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_logsumexp", "reduce_euclidean_norm", "reduce_variance", "reduce_std",
           "reduce_any", "reduce_all", "argmax", "argmin", "count_nonzero"]


# -- axes -----------------------------------------------------------------------------------------
def _axes(axis, x, op_type):
    """`axis` (None, int, list/tuple/array/tensor of ints, negative allowed) as the sorted tuple
    of non-negative axes the kernels take; None stays None when the rank is unknown."""
    rank = x.shape.rank
    if axis is None:
        return None if rank is None else tuple(range(rank))
    axes = axis_tuple(axis, f"{op_type}: axis")
    if rank is None:
        check_distinct(axes, axes, f"{op_type}: axis")
        return axes
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise InvalidArgumentError(
                f"{op_type}: invalid reduction axis {a} for an input of shape {x.shape} (rank "
                f"{rank}); axes must be in [{-rank}, {rank}).")
    normalized = [a % rank if rank else 0 for a in axes]
    check_distinct(normalized, axes, f"{op_type}: axis")
    return tuple(sorted(normalized))


def _kept_shape(shape, axis):
    """`shape` with the reduced axes set to 1 (the keepdims shape); axes may count from the end
    (a reduction built while the rank was unknown)."""
    if axis is None:
        return (1,) * len(shape)
    axis = {a % len(shape) for a in axis} if shape else set()
    return tuple(1 if i in axis else d for i, d in enumerate(shape))


def _reduction(op_def, input_tensor, axis, keepdims, name):
    x = convert_to_tensor(input_tensor)
    if op_def in (SUM, MEAN, PROD):  # All and Any take bools; Max and Min check their own
        shape_rules.check_allowed(op_def, x)
    elif op_def in (MAX, MIN):
        shape_rules.check_ordered(x, op_def.type)
        shape_rules.check_allowed(op_def, x)
    attrs = {"axis": _axes(axis, x, op_def.type), "keepdims": bool(keepdims)}
    return execute(op_def, (x,), attrs, name)


def _raw_reduction(public):
    """tf.raw_ops' Sum, Mean, Max...: TensorFlow's arguments, onto `public()`'s."""
    return lambda input, axis, keep_dims=False, name=None: public()(input, axis, keep_dims, name)


def _numeric(x, op_type):
    if x.dtype.is_bool:
        raise TypeError(f"{op_type}: input must be numeric, got a bool tensor of shape "
                        f"{x.shape}; cast it first, e.g. cast(x, tf.int32).")


def _floating(x, op_type):
    if not x.dtype.is_floating:
        raise TypeError(f"{op_type}: input must be a floating-point tensor, got "
                        f"{x.dtype.name} (shape {x.shape}); use cast(x, tf.float32) first.")


# -- broadcasting a reduced tensor back (the adjoint of Sum) ------------------------------------
def _reduce_broadcast_kernel(g, like, axis):
    if g.ndim != like.ndim:
        g = g.reshape(_kept_shape(like.shape, axis))
    return np.broadcast_to(g, like.shape)


def _reduce_broadcast_rule(g, like, axis):
    return like.shape, g.dtype


def _reduce_broadcast_grad(op, grad):
    g, like = op.inputs
    keepdims = g.shape.rank == like.shape.rank
    return execute(SUM, (grad,), {"axis": op.get_attr("axis"), "keepdims": keepdims}), None


def _reduce_broadcast_batched(op, grad):
    g, like = op.inputs
    nb = batch_rank(grad, op.outputs[0])
    axes = tuple(a if a < 0 else a + nb for a in op.get_attr("axis"))
    keepdims = g.shape.rank == like.shape.rank
    return execute(SUM, (grad,), {"axis": axes, "keepdims": keepdims}), None


REDUCE_BROADCAST = defop("ReduceBroadcast", _reduce_broadcast_kernel,
                         shape=_reduce_broadcast_rule, grad=_reduce_broadcast_grad,
                         jvp=linear_in(0), batch=_reduce_broadcast_batched, returns_view=True)


def _expand(g, op):
    """`g` (shaped like op's output) broadcast back to the shape of op's input."""
    return execute(REDUCE_BROADCAST, (g, op.inputs[0]), {"axis": op.get_attr("axis")})


def _reduce_onnx(kind, via=None):
    """The ONNX lowering of a reduction: Reduce<kind> over the op's `axis` (None: all; an
    empty tuple reduces nothing); bools go through `via` (an integer dtype) and back."""
    def lower(ctx, op, x):
        axis = op.attrs["axis"]
        axes = [] if axis is None else ctx.axes(axis, ctx.rank(op.inputs[0]))
        if axis is not None and not axes:
            return ctx.node("Identity", [x])
        if via is not None:
            x = ctx.cast(x, via)
        out = ctx.reduce(kind, x, axes, op.attrs["keepdims"])
        return ctx.cast(out, np.bool_) if via is not None else out
    return lower


# -- sum, mean ------------------------------------------------------------------------------
# np.add.reduce is np.sum without its Python-level wrapper (this runs once per training step).
def _sum_kernel(x, axis, keepdims):
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean_kernel(x, axis, keepdims):
    if x.dtype.kind in "fc" and x.dtype.itemsize >= 4:
        count = _count(x.shape, axis)
        if count == 0:  # the mean of nothing is NaN, as in TensorFlow
            return np.full(np.add.reduce(x, axis=axis, keepdims=keepdims).shape, np.nan, x.dtype)
        return np.add.reduce(x, axis=axis, keepdims=keepdims) / count
    if x.dtype.kind == "f":  # float16: NumPy accumulates in float32
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.mean(x, axis=axis, keepdims=keepdims)
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    count = max(_count(x.shape, axis), 1)
    return (np.sign(total) * (np.abs(total) // count)).astype(x.dtype)  # C-style truncation


def _count(shape, axis):
    """Number of elements reduced over (None when a reduced dimension or the rank is
    unknown)."""
    if getattr(shape, "rank", 0) is None:
        return None
    n = 1
    for a in range(len(shape)) if axis is None else axis:
        if shape[a] is None:
            return None
        n *= shape[a]
    return n


def _mean_grad(op, grad):
    x, axis = op.inputs[0], op.get_attr("axis")
    count = _count(x.shape, axis)
    if count is None:  # unknown dimensions (graph mode): ratio of the element counts
        count = cast(size(x), grad.dtype) / cast(size(op.outputs[0]), grad.dtype)
    return _expand(grad / count, op)


def _reduced_back(g, op, nb):
    """A reduction's batched gradient g [B, *y] broadcast back over the reduced axes: [B, *x]."""
    x = op.inputs[0]
    batch = tuple(g.shape[:nb])
    kept = _kept_shape(tuple(x.shape), op.get_attr("axis"))
    if tuple(g.shape[nb:]) != kept:
        g = reshape(g, batch + kept)
    return broadcast_to(g, batch + tuple(x.shape))


def _sum_batched(op, grad):
    return _reduced_back(grad, op, batch_rank(grad, op.outputs[0]))


def _slope_times_batched(rule):
    """The batched rule of a reduction whose rule is slope(x) * b(g): the slope is the ordinary
    rule at g = 1."""
    def batched(op, grad):
        slope = rule(op, ones_like(op.outputs[0]))
        return slope * _reduced_back(grad, op, batch_rank(grad, op.outputs[0]))
    return batched


SUM = defop("Sum", _sum_kernel, shape=shape_rules.reduced, grad=lambda op, grad: _expand(grad, op),
            jvp=linear, batch=_sum_batched, onnx=_reduce_onnx("Sum"),
            raw=_raw_reduction(lambda: reduce_sum))
def _mean_batched(op, grad):
    count = _count(tuple(op.inputs[0].shape), op.get_attr("axis"))
    return _reduced_back(grad / max(count, 1), op, batch_rank(grad, op.outputs[0]))


MEAN = defop("Mean", _mean_kernel, shape=shape_rules.reduced, grad=_mean_grad, jvp=linear, batch=_mean_batched,
             onnx=_reduce_onnx("Mean"),
             raw=_raw_reduction(lambda: reduce_mean))


def _partials_jvp(own_op, partials):
    """JVP of a reduction y = r(x): the sum over the reduced axes of dy/dx * u, where
    dy/dx = partials(op, ones) elementwise (the op's VJP of a seed of ones)."""
    def jvp(primals, tangents, outputs, axis, keepdims):
        attrs = {"axis": axis, "keepdims": keepdims}
        op = Operation(own_op(), tuple(primals), tuple(outputs), attrs)
        slopes = partials(op, ones_like(outputs[0]))
        return execute(SUM, (slopes * tangents[0],), attrs)
    return jvp


@dispatchable
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None). Integer sums keep the input dtype."""
    return _reduction(SUM, input_tensor, axis, keepdims, name)


@dispatchable
def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis`. The mean of integers is an integer (truncated), as in TensorFlow."""
    return _reduction(MEAN, input_tensor, axis, keepdims, name)


# -- max, min ------------------------------------------------------------------------------------
def _extremum_grad(op, grad):
    """g split evenly among the entries equal to the extremum (TensorFlow's rule)."""
    x, y = op.inputs[0], op.outputs[0]
    hits = cast(equal(x, _expand(y, op)), grad.dtype)
    ties = execute(SUM, (hits,), {"axis": op.get_attr("axis"), "keepdims": True})
    return hits * (_expand(grad, op) / ties)


def _extremum_kernel(reduce, empty_is_lowest):
    """np.max / np.min; an empty slice reduces to the dtype's lowest (for max) or highest (for
    min) value, as in TensorFlow, instead of NumPy's error."""
    def kernel(x, axis, keepdims):
        if x.size:
            return reduce(x, axis=axis, keepdims=keepdims)
        if x.dtype.kind == "f":
            limit = -np.inf if empty_is_lowest else np.inf
        else:
            limit = np.iinfo(x.dtype).min if empty_is_lowest else np.iinfo(x.dtype).max
        return reduce(x, axis=axis, keepdims=keepdims, initial=limit)
    return kernel


MAX = defop("Max", _extremum_kernel(np.max, True),
            shape=shape_rules.reduced, grad=_extremum_grad, onnx=_reduce_onnx("Max"),
            jvp=_partials_jvp(lambda: MAX, _extremum_grad), batch=_slope_times_batched(_extremum_grad),
            raw=_raw_reduction(lambda: reduce_max))
MIN = defop("Min", _extremum_kernel(np.min, False),
            shape=shape_rules.reduced, grad=_extremum_grad, onnx=_reduce_onnx("Min"),
            jvp=_partials_jvp(lambda: MIN, _extremum_grad), batch=_slope_times_batched(_extremum_grad),
            raw=_raw_reduction(lambda: reduce_min))


@dispatchable
def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum over `axis`; its gradient is shared evenly by tied maxima."""
    return _reduction(MAX, input_tensor, axis, keepdims, name)


@dispatchable
def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum over `axis`; its gradient is shared evenly by tied minima."""
    return _reduction(MIN, input_tensor, axis, keepdims, name)


# -- prod ------------------------------------------------------------------------------------
def _prod_grad(op, grad):
    """dy/dx_i = product of the other entries, exact where x has zeros (see module docstring)."""
    x = op.inputs[0]
    keep = {"axis": op.get_attr("axis"), "keepdims": True}
    is_zero = equal(x, 0)
    nonzero_x = where(is_zero, 1, x)
    zeros = execute(SUM, (cast(is_zero, x.dtype),), keep)
    nonzero_product = execute(PROD, (nonzero_x,), keep)
    at_zero = where(equal(zeros, 1), nonzero_product, 0)   # the lone zero's co-factor
    away_from_zero = _expand(op.outputs[0], op) / nonzero_x  # y / x_i, exact where x_i != 0
    others = where(is_zero, at_zero, away_from_zero)
    return others * _expand(grad, op)


PROD = defop("Prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims,
                                                       dtype=x.dtype),
             shape=shape_rules.reduced, grad=_prod_grad, jvp=_partials_jvp(lambda: PROD, _prod_grad), batch=_slope_times_batched(_prod_grad),
             onnx=_reduce_onnx("Prod"),
             raw=_raw_reduction(lambda: reduce_prod))


@dispatchable
def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over `axis`; the gradient is exact where entries are zero."""
    return _reduction(PROD, input_tensor, axis, keepdims, name)


# -- logsumexp, euclidean norm -------------------------------------------------------------------
def _logsumexp_kernel(x, axis, keepdims):
    if not x.size:  # the sum of no exponentials is 0: log 0 = -inf
        return np.full(np.sum(x, axis=axis, keepdims=keepdims).shape, -np.inf, x.dtype)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, x.dtype.type(0))
    total = np.sum(np.exp(x - top), axis=axis, keepdims=True)
    if total.all():
        out = np.log(total) + top
    else:  # a slice of all -inf: log(0) = -inf is the answer
        with np.errstate(divide="ignore"):
            out = np.log(total) + top
    return out if keepdims else np.squeeze(out, axis)


def _logsumexp_grad(op, grad):
    return exp(op.inputs[0] - _expand(op.outputs[0], op)) * _expand(grad, op)


def _euclidean_norm_kernel(x, axis, keepdims):
    norm = np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims))
    return norm if x.dtype.kind == "f" else norm.astype(x.dtype)  # integers truncate, as in TF


def _euclidean_norm_grad(op, grad):
    return _expand(grad / op.outputs[0], op) * op.inputs[0]


LOGSUMEXP = defop("ReduceLogSumExp", _logsumexp_kernel, shape=shape_rules.reduced,
                  onnx=_reduce_onnx("LogSumExp"),
                  grad=_logsumexp_grad, jvp=_partials_jvp(lambda: LOGSUMEXP, _logsumexp_grad), batch=_slope_times_batched(_logsumexp_grad))
EUCLIDEAN_NORM = defop("EuclideanNorm", _euclidean_norm_kernel, shape=shape_rules.reduced,
                       onnx=_reduce_onnx("L2"),
                       grad=_euclidean_norm_grad,
                       jvp=_partials_jvp(lambda: EUCLIDEAN_NORM, _euclidean_norm_grad), batch=_slope_times_batched(_euclidean_norm_grad),
                       raw=_raw_reduction(lambda: reduce_euclidean_norm))


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over `axis`, computed stably (the maximum is subtracted first)."""
    x = convert_to_tensor(input_tensor)
    _floating(x, "ReduceLogSumExp")
    return _reduction(LOGSUMEXP, x, axis, keepdims, name)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x^2)) over `axis` (integers: truncated); its gradient x / norm is NaN where the
    norm is 0."""
    x = convert_to_tensor(input_tensor)
    _numeric(x, "EuclideanNorm")
    return _reduction(EUCLIDEAN_NORM, x, axis, keepdims, name)


# -- variance, std ---------------------------------------------------------------------------------
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Mean squared deviation from the mean over `axis` (the population variance)."""
    x = convert_to_tensor(input_tensor)
    _floating(x, "reduce_variance")
    mean = reduce_mean(x, axis, keepdims=True)
    return reduce_mean(square(x - mean), axis, keepdims, name=name)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Square root of `reduce_variance`; the gradient is infinite where the variance is 0."""
    x = convert_to_tensor(input_tensor)
    _floating(x, "reduce_std")
    return sqrt(reduce_variance(x, axis, keepdims), name=name)


# -- any, all, count_nonzero (not differentiable) -----------------------------------------------
ANY = defop("Any", lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims),
            shape=shape_rules.reduced, grad=None, onnx=_reduce_onnx("Max", np.int32),
            raw=_raw_reduction(lambda: reduce_any))
ALL = defop("All", lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims),
            shape=shape_rules.reduced, grad=None, onnx=_reduce_onnx("Min", np.int32),
            raw=_raw_reduction(lambda: reduce_all))


def _logical_reduction(op_def, input_tensor, axis, keepdims, name):
    x = convert_to_tensor(input_tensor, dtype_hint=dtypes.bool)
    if not x.dtype.is_bool:  # TensorFlow's error for the op's bool input, before the axes
        shape_rules.check_allowed(op_def, x)
    return _reduction(op_def, x, axis, keepdims, name)


@dispatchable
def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical or over `axis` of a bool tensor."""
    return _logical_reduction(ANY, input_tensor, axis, keepdims, name)


@dispatchable
def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical and over `axis` of a bool tensor."""
    return _logical_reduction(ALL, input_tensor, axis, keepdims, name)


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002
    """Number of non-zero (or True) entries over `axis`, as `dtype` (int64 by default)."""
    x = convert_to_tensor(input)
    nonzero = cast(not_equal(x, False if x.dtype.is_bool else 0), dtypes.int64)
    out = reduce_sum(nonzero, axis, bool(keepdims))
    return cast(out, dtype, name=name)


# -- argmax, argmin ------------------------------------------------------------------------------
def _arg_rule(x, axis, output_type):
    if x.shape.rank is None:
        return TensorShape(None), dtypes.as_dtype(output_type)
    dims = [d for i, d in enumerate(x.shape) if i != axis]
    return TensorShape(dims), dtypes.as_dtype(output_type)


def _arg_onnx(kind):
    """ONNX ArgMax/ArgMin (int64, first index among ties, as NumPy), cast to output_type."""
    def lower(ctx, op, x):
        index = ctx.node(kind, [x], axis=op.attrs["axis"], keepdims=0)
        return ctx.cast(index, op.attrs["output_type"])
    return lower


ARG_MAX = defop("ArgMax", lambda x, axis, output_type: np.argmax(x, axis=axis).astype(
    output_type), shape=_arg_rule, grad=None, onnx=_arg_onnx("ArgMax"),
    raw=lambda input, dimension, output_type=dtypes.int64, name=None: argmax(
        input, dimension, output_type, name))
ARG_MIN = defop("ArgMin", lambda x, axis, output_type: np.argmin(x, axis=axis).astype(
    output_type), shape=_arg_rule, grad=None, onnx=_arg_onnx("ArgMin"),
    raw=lambda input, dimension, output_type=dtypes.int64, name=None: argmin(
        input, dimension, output_type, name))




def _arg_reduction(op_def, input, axis, output_type, name):  # noqa: A002
    x = convert_to_tensor(input)
    shape_rules.check_ordered(x, op_def.type)
    shape_rules.check_allowed(op_def, x)  # bools too (False < True)
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int16, dtypes.int32, dtypes.int64):
        raise TypeError(f"{op_def.type}: output_type must be int16, int32 or int64, got "
                        f"{output_type.name}.")
    if x.shape.rank == 0:
        raise InvalidArgumentError(f"{op_def.type}: input must have rank >= 1, got a scalar.")
    axes = _axes(0 if axis is None else axis, x, op_def.type)
    if axes is None or len(axes) != 1:
        raise InvalidArgumentError(f"{op_def.type}: axis must be a single int, got {axis!r}.")
    attrs = {"axis": axes[0], "output_type": output_type.as_numpy_dtype}
    return execute(op_def, (x,), attrs, name)


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the largest entry along `axis` (0 when None, as in TF 2); first one at ties."""
    return _arg_reduction(ARG_MAX, input, axis, output_type, name)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the smallest entry along `axis` (0 when None, as in TF 2); first one at ties."""
    return _arg_reduction(ARG_MIN, input, axis, output_type, name)
