"""Scans: cumsum, cumprod and cumulative_logsumexp, each inclusive or exclusive (the current
element left out) and forward or reversed.

Along the scanned axis, with g the incoming gradient and everything else elementwise:

cumsum is linear: dL/dx = the cumsum of g in the opposite direction, and its JVP is itself.


cumprod, y_i = prod_{j <= i} x_j.  dL/dx_k = sum_{i >= k} g_i prod_{j <= i, j != k} x_j, which
is the reversed cumsum of g y divided by x_k where no zero comes before or at k (TensorFlow's
rule stops here and gives 0 wherever x is 0; this one is exact). Let z be the first zero of the
slice: for k < z the formula holds (every term with i >= z is 0); for k = z the co-factors are
the products with x_z replaced by 1, y'_i = prod_{j <= i, j != z} x_j, so dL/dx_z = the reversed
cumsum of g y' at z; for k > z every term contains x_z = 0. The JVP, dy_i = sum_{k <= i} t_k
prod_{j <= i, j != k} x_j, is y_i cumsum(t / x)_i before the first zero and t_z y'_i from it on.

cumulative_logsumexp, y_i = log sum_{j <= i} exp(x_j):  dL/dx_k = sum_{i >= k} g_i exp(x_k - y_i),
evaluated as TensorFlow does, in log space (g split into its positive and negative parts, whose
logarithms are scanned with a reversed cumulative_logsumexp), so nothing overflows. The JVP is
dy_i = sum_{j <= i} t_j exp(x_j - y_i), the same kind of scan forwards.

Exclusive scans are the inclusive ones shifted by one place (y_excl_i = y_incl_{i-1}), so their
VJP is the inclusive VJP of g shifted back by one (g'_i = g_{i+1}); reversed scans are scans of
the reversed input, reversed. All rules are made of scans, cumsums, reversals and elementwise
ops, so they differentiate again; they name the axis from the end, which makes them right for
gradients with leading batch dimensions too.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from .array_ops import concat, where
from .broadcast_ops import ones_like, zeros_like
from .indexing_ops import reverse as flip
from .math_ops import cast, equal, greater, less
from . import shape_rules
from .reduce_ops import _axes, _floating, reduce_sum
from .shape_rules import batch_rank
from .unary_ops import exp, log

__all__ = ["cumsum", "cumprod", "cumulative_logsumexp"]


# -- cumsum (linear: its own kernel) ----------------------------------------------------------------
def _cumsum_kernel(x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        shifted = np.zeros_like(out)
        into = [slice(None)] * out.ndim
        into[axis] = slice(1, None)
        taken = [slice(None)] * out.ndim
        taken[axis] = slice(None, -1)
        shifted[tuple(into)] = out[tuple(taken)]
        out = shifted
    return np.flip(out, axis) if reverse else out


def _cumsum_grad(op, grad):
    attrs = dict(op.attrs, reverse=not op.get_attr("reverse"))
    return execute(CUMSUM, (grad,), attrs)


def _cumsum_batched(op, grad):
    nb = batch_rank(grad, op.outputs[0])
    axis = op.get_attr("axis")
    attrs = dict(op.attrs, axis=axis if axis < 0 else axis + nb, reverse=not op.get_attr("reverse"))
    return execute(CUMSUM, (grad,), attrs)


CUMSUM = defop("Cumsum", _cumsum_kernel, shape=lambda x, **_: (x.shape, x.dtype),
               grad=_cumsum_grad, jvp=linear, batch=_cumsum_batched,
               onnx=lambda ctx, op, x: ctx.node(
                   "CumSum", [x, ctx.const(np.int64(op.attrs["axis"]))],
                   exclusive=int(op.attrs["exclusive"]), reverse=int(op.attrs["reverse"])),
               raw=lambda x, axis, exclusive=False, reverse=False, name=None: cumsum(
                   x, axis, exclusive, reverse, name))


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sum along `axis`; `exclusive` leaves out the current entry, `reverse` runs from
    the end."""
    x = convert_to_tensor(x)
    shape_rules.check_allowed(CUMSUM, x)
    if x.shape.rank == 0:
        raise InvalidArgumentError("Cumsum: input must have rank >= 1, got a scalar.")
    axes = _axes(axis, x, "Cumsum")
    if len(axes) != 1:
        raise InvalidArgumentError(f"Cumsum: axis must be a single int, got {axis!r}.")
    attrs = {"axis": axes[0], "exclusive": bool(exclusive), "reverse": bool(reverse)}
    return execute(CUMSUM, (x,), attrs, name)


# -- kernels ----------------------------------------------------------------------------------
def _scan_kernel(accumulate, identity):
    """A scan kernel from an accumulating NumPy function and the value an empty scan has."""
    def kernel(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = accumulate(x, axis)
        if exclusive and out.shape[axis]:
            head = [slice(None)] * out.ndim
            head[axis] = slice(0, 1)
            body = [slice(None)] * out.ndim
            body[axis] = slice(None, -1)
            out = np.concatenate([np.full_like(out[tuple(head)], identity), out[tuple(body)]],
                                 axis)
        return np.flip(out, axis) if reverse else out
    return kernel


def _cumprod(x, axis):
    return np.cumprod(x, axis=axis, dtype=x.dtype)


def _cumlogsumexp(x, axis):
    with np.errstate(invalid="ignore"):
        return np.logaddexp.accumulate(x, axis=axis)


def _scan_rule(x, **_):
    return x.shape, x.dtype


# -- shifting and reversing along an axis counted from the end -------------------------------------
def _counted_from_end(axis, rank):
    """`axis` counted from the end (right for batched gradients too); a non-negative axis stays
    when the rank is unknown."""
    return axis if axis < 0 or rank is None else axis - rank


def _from_end(op):
    """The op's axis counted from the end (see _counted_from_end)."""
    return _counted_from_end(op.get_attr("axis"), op.inputs[0].shape.rank)


def _along(axis, key):
    """An index applying slice `key` on `axis` and nothing elsewhere."""
    if axis >= 0:
        return (slice(None),) * axis + (key,)
    return (Ellipsis, key) + (slice(None),) * (-axis - 1)


def _shift(t, axis, step, fill=0):
    """t moved `step` (+1 or -1) places along `axis` (negative), `fill` entering at the edge."""
    edge = ones_like(t[_along(axis, slice(0, 1))]) * fill
    if step > 0:
        return concat([edge, t[_along(axis, slice(None, -1))]], axis)
    return concat([t[_along(axis, slice(1, None))], edge], axis)


def _oriented(rule):
    """Wrap a rule for the inclusive forward scan so it serves exclusive and reversed scans:
    reverse the inputs, shift the gradient back for an exclusive scan, reverse the result."""
    def oriented(x, g, axis, exclusive, is_reverse):
        if is_reverse:
            x, g = flip(x, [axis]), flip(g, [axis])
        if exclusive:
            g = _shift(g, axis, -1)
        out = rule(x, g, axis)
        return flip(out, [axis]) if is_reverse else out
    return oriented


# -- cumprod ------------------------------------------------------------------------------------
def _zero_structure(x, axis):
    """Along `axis`: where each slice's first zero is, y' = cumprod of x with that zero replaced
    by 1, w = x_z from the first zero on and 1 before it (so that cumprod(x) = y' w, with x_z's
    derivative kept), and x with every zero replaced by 1."""
    is_zero = equal(x, 0)
    count = cast(is_zero, np.int32)
    first_zero = is_zero & equal(cumsum(count, axis=axis, exclusive=True), 0)
    zero_seen = greater(cumsum(count, axis=axis), 0)
    ones = ones_like(x)
    x_z = reduce_sum(x * cast(first_zero, x.dtype), axis=axis, keepdims=True)  # 0, or no zero
    w = where(zero_seen, x_z * ones, ones)
    return first_zero, cumprod(where(first_zero, ones, x), axis=axis), w, where(is_zero, ones, x)


def _cumprod_vjp_inclusive(x, g, axis):
    first_zero, y_without_zero, w, safe_x = _zero_structure(x, axis)
    at_zero = cumsum(g * y_without_zero, axis=axis, reverse=True)
    elsewhere = cumsum(g * y_without_zero * w, axis=axis, reverse=True) / safe_x
    return where(first_zero, at_zero, elsewhere)


_cumprod_vjp = _oriented(_cumprod_vjp_inclusive)


def _cumprod_grad(op, grad):
    return _cumprod_vjp(op.inputs[0], grad, _from_end(op), op.get_attr("exclusive"),
                        op.get_attr("reverse"))


def _cumprod_jvp(primals, tangents, outputs, **attrs):
    """dy_i = y'_i (t_z [i >= z] + w_i sum_{k <= i, k != z} t_k / x_k)."""
    x, t = primals[0], tangents[0]
    axis, is_reverse = _counted_from_end(attrs["axis"], x.shape.rank), attrs["reverse"]
    if is_reverse:
        x, t = flip(x, [axis]), flip(t, [axis])
    first_zero, y_without_zero, w, safe_x = _zero_structure(x, axis)
    others = where(first_zero, zeros_like(t), t / safe_x)
    at_zero = cast(first_zero, t.dtype) * t
    out = y_without_zero * (cumsum(at_zero, axis=axis) + w * cumsum(others, axis=axis))
    if attrs["exclusive"]:
        out = _shift(out, axis, 1)
    return flip(out, [axis]) if is_reverse else out


CUMPROD = defop("Cumprod", _scan_kernel(_cumprod, 1), shape=_scan_rule, grad=_cumprod_grad,
                jvp=_cumprod_jvp, batch="safe",
                raw=lambda x, axis, exclusive=False, reverse=False, name=None: cumprod(
                    x, axis, exclusive, reverse, name))


def _scan(op_def, x, axis, exclusive, reverse, name):
    if x.shape.rank == 0:
        raise ValueError(f"{op_def.type}: input must have rank >= 1, got a scalar.")
    axes = _axes(axis, x, op_def.type)
    if len(axes) != 1:
        raise ValueError(f"{op_def.type}: axis must be a single int, got {axis!r}.")
    attrs = {"axis": axes[0], "exclusive": bool(exclusive), "reverse": bool(reverse)}
    return execute(op_def, (x,), attrs, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running product along `axis`; `exclusive` leaves out the current entry (starting from
    1), `reverse` runs from the end. The gradient is exact where entries are zero."""
    x = convert_to_tensor(x)
    shape_rules.check_allowed(CUMPROD, x)
    return _scan(CUMPROD, x, axis, exclusive, reverse, name)


# -- cumulative logsumexp -----------------------------------------------------------------------------
def _very_negative(dtype):
    """A stand-in for log 0 = -inf: far below any logarithm, yet far enough from the dtype's
    lowest value that adding a logarithm to it cannot overflow."""
    return float(np.finfo(dtype.as_numpy_dtype).min) / 4


def _log_parts(v):
    """(log v where v > 0, log -v where v < 0), a very negative number elsewhere."""
    lowest = ones_like(v) * _very_negative(v.dtype)
    positive, negative = greater(v, 0), less(v, 0)
    return (where(positive, log(where(positive, v, ones_like(v))), lowest),
            where(negative, log(where(negative, -v, ones_like(v))), lowest))


def _finite_output(y):
    """y with -inf (the empty sums of an exclusive scan) replaced by 0, and where it was."""
    empty = equal(y, -np.inf)
    return where(empty, zeros_like(y), y), empty


def _cumulative_logsumexp_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    axis, exclusive, is_reverse = _from_end(op), op.get_attr("exclusive"), op.get_attr("reverse")
    safe_y, empty = _finite_output(y)
    parts = []
    for log_part in _log_parts(grad):
        lowest = ones_like(log_part) * _very_negative(y.dtype)
        scanned = cumulative_logsumexp(where(empty, lowest, log_part - safe_y), axis=axis,
                                       exclusive=exclusive, reverse=not is_reverse)
        parts.append(exp(scanned + x))
    return parts[0] - parts[1]


def _cumulative_logsumexp_jvp(primals, tangents, outputs, axis, exclusive, reverse):
    x, t, y = primals[0], tangents[0], outputs[0]
    safe_y, empty = _finite_output(y)
    parts = [exp(cumulative_logsumexp(log_part + x, axis=axis, exclusive=exclusive,
                                      reverse=reverse) - safe_y) for log_part in _log_parts(t)]
    return where(empty, zeros_like(y), parts[0] - parts[1])


CUMULATIVE_LOGSUMEXP = defop("CumulativeLogsumexp", _scan_kernel(_cumlogsumexp, -np.inf),
                             shape=_scan_rule, grad=_cumulative_logsumexp_grad,
                             jvp=_cumulative_logsumexp_jvp, batch="safe",
                             raw=lambda x, axis, exclusive=False, reverse=False, name=None:
                             cumulative_logsumexp(x, axis, exclusive, reverse, name))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, computed stably; `exclusive` and `reverse` as in cumsum
    (an exclusive scan starts from -inf, the log of an empty sum)."""
    x = convert_to_tensor(x)
    _floating(x, "CumulativeLogsumexp")
    return _scan(CUMULATIVE_LOGSUMEXP, x, axis, exclusive, reverse, name)
