"""Rounding, float classification and integer-style division: round, rint, floor, ceil,
is_nan / is_inf / is_finite, truncatediv, truncatemod, nextafter, approximate_equal.

These are piecewise constant (or, for truncatemod and nextafter, piecewise the identity), so
their derivatives are zero almost everywhere and undefined at the jumps. TensorFlow registers
them as having no gradient: Round, Rint, Floor, Ceil and TruncateDiv give None to their inputs,
and so do the classifications (bool results). Two exceptions, as in TensorFlow:
- nextafter(x1, x2), the next float after x1 towards x2, moves x1 by one unit in the last place,
  so its gradient is g for x1 and zeros for x2;
- TruncateMod has no gradient registered at all: differentiating through it raises LookupError,
  as it does in TensorFlow.

Rounding: `round` rounds halves to the nearest even integer (banker's rounding: round(2.5) = 2,
round(-0.5) = -0), as TensorFlow does, and is the identity on integers; `rint` is the same on
floats. Truncating division rounds the quotient toward zero (C's `/`), and truncatemod is the
remainder with the sign of the dividend (C's `fmod`): x = truncatediv(x, y) * y +
truncatemod(x, y). Integer division by zero raises, as TensorFlow does.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop, defraw
from ..framework.tensor import convert_to_tensor
from . import shape_rules
from .broadcast_ops import zeros_like
from .elementwise import call_float, float_rule
from .math_ops import DIV as REAL_DIV

__all__ = ["round", "rint", "floor", "ceil", "is_nan", "is_inf", "is_finite", "truncatediv",
           "truncatemod", "nextafter", "approximate_equal"]


# -- round, rint, floor, ceil: no gradient -----------------------------------------------------
ROUND = defop("Round", np.round, shape=shape_rules.same, grad=None, batch="safe", onnx="Round",
              args=("x",))
RINT = defop("Rint", np.rint, shape=float_rule("Rint"), grad=None, batch="safe", onnx="Round",
             args=("x",))
FLOOR = defop("Floor", np.floor, shape=float_rule("Floor"), grad=None, batch="safe",
              onnx="Floor", args=("x",))
CEIL = defop("Ceil", np.ceil, shape=float_rule("Ceil"), grad=None, batch="safe", onnx="Ceil",
             args=("x",))


def round(x, name=None):  # noqa: A001 (TensorFlow's name)
    """x rounded to the nearest integer, halves to even (banker's rounding); integers are
    returned unchanged. Not differentiable."""
    x = convert_to_tensor(x)
    if x.dtype.is_integer:
        return x
    if not x.dtype.is_floating:
        raise TypeError(f"round: expected a numeric tensor, got {x.dtype.name}.")
    return execute(ROUND, (x,), name=name)


def rint(x, name=None):
    """x rounded to the nearest integer, halves to even (a float result). Not differentiable."""
    return call_float(RINT, x, name)


def floor(x, name=None):
    """The largest integer not greater than x (a float result). Not differentiable."""
    return call_float(FLOOR, x, name)


def ceil(x, name=None):
    """The smallest integer not less than x (a float result). Not differentiable."""
    return call_float(CEIL, x, name)


# -- is_nan, is_inf, is_finite ------------------------------------------------------------------
def _classify(op_type, kernel, doc):
    def rule(x, **_):
        shape_rules.check_float(x, f"{op_type}'s input")
        return x.shape, dtypes.bool
    op_def = defop(op_type, kernel, shape=rule, grad=None, args=("x",))

    def classify(x, name=None):
        x = convert_to_tensor(x)
        shape_rules.check_float(x, f"{op_type}'s input")
        return execute(op_def, (x,), name=name)
    classify.__name__ = classify.__qualname__ = doc[0]
    classify.__doc__ = doc[1]
    return op_def, classify


IS_NAN, is_nan = _classify("IsNan", np.isnan, ("is_nan", "Whether each element is NaN."))
IS_INF, is_inf = _classify("IsInf", np.isinf, ("is_inf", "Whether each element is +-inf."))
IS_FINITE, is_finite = _classify("IsFinite", np.isfinite,
                                 ("is_finite", "Whether each element is neither NaN nor inf."))


# -- truncating division -----------------------------------------------------------------------
def _check_integer_divisor(y):
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError("Integer division by zero.")


def _truncate_div_kernel(x, y):
    if x.dtype.kind == "f":
        return np.trunc(x / y)
    _check_integer_divisor(y)
    quotient = np.floor_divide(x, y)
    inexact = (np.remainder(x, y) != 0) & ((x < 0) != (y < 0))
    return quotient + inexact.astype(quotient.dtype)


def _truncate_mod_kernel(x, y):
    _check_integer_divisor(y)
    return np.fmod(x, y)


def _numeric_pair_rule(op_type):
    def rule(x, y, **_):
        if x.dtype.is_bool:
            raise InvalidArgumentError(f"{op_type} needs numeric tensors, got bool.")
        return shape_rules.broadcast(x, y)
    return rule


TRUNCATE_DIV = defop("TruncateDiv", _truncate_div_kernel, shape=_numeric_pair_rule("TruncateDiv"),
                     grad=None, args=("x", "y"))
# TensorFlow registers no gradient for TruncateMod: the reverse pass raises LookupError.
TRUNCATE_MOD = defop("TruncateMod", _truncate_mod_kernel,
                     shape=_numeric_pair_rule("TruncateMod"), args=("x", "y"))


def _div(x, y, name=None):
    """TensorFlow's Div (tf.raw_ops.Div; no OpDef of its own): TruncateDiv for integers,
    RealDiv otherwise."""
    x, y = binary_operands(x, y, "Div")
    return execute(TRUNCATE_DIV if x.dtype.is_integer else REAL_DIV, (x, y), name=name)


defraw("Div", _div)


def truncatediv(x, y, name=None):
    """x / y rounded toward zero (C's integer division; trunc(x / y) for floats)."""
    return execute(TRUNCATE_DIV, binary_operands(x, y, "TruncateDiv"), name=name)


def truncatemod(x, y, name=None):
    """The remainder of truncating division, with the sign of x (C's fmod)."""
    return execute(TRUNCATE_MOD, binary_operands(x, y, "TruncateMod"), name=name)


# -- nextafter, approximate_equal ---------------------------------------------------------------
def _nextafter_grad(op, grad):
    return grad, zeros_like(grad)


def _nextafter_jvp(primals, tangents, outputs):
    return tangents[0] if tangents[0] is not None else zeros_like(outputs[0])


def _float_pair_rule(op_type):
    def rule(x, y, **_):
        shape_rules.check_float(x, f"{op_type}'s input")
        return shape_rules.broadcast(x, y)
    return rule


NEXT_AFTER = defop("NextAfter", np.nextafter, shape=_float_pair_rule("NextAfter"),
                   grad=_nextafter_grad, jvp=_nextafter_jvp, batch="safe", args=("x1", "x2"))


def nextafter(x1, x2, name=None):
    """The next representable float after x1 in the direction of x2, elementwise."""
    x1, x2 = binary_operands(x1, x2, "NextAfter")
    shape_rules.check_float(x1, "nextafter's input")
    return execute(NEXT_AFTER, (x1, x2), name=name)


def _approximate_equal_rule(x, y, tolerance):
    if x.shape.is_fully_defined() and y.shape.is_fully_defined() and x.shape != y.shape:
        raise InvalidArgumentError(f"x and y must have the same shape, got {x.shape} and "
                                   f"{y.shape}.")
    shape_rules.check_same_dtype(x, y)
    return x.shape, dtypes.bool


APPROXIMATE_EQUAL = defop("ApproximateEqual",
                          lambda x, y, tolerance: np.abs(x - y) < tolerance,
                          shape=_approximate_equal_rule, grad=None,
                          raw=lambda x, y, tolerance=1e-05, name=None: approximate_equal(
                              x, y, tolerance, name))


def approximate_equal(x, y, tolerance=1e-5, name=None):
    """|x - y| < tolerance elementwise (x and y of one shape)."""
    x, y = binary_operands(x, y, "ApproximateEqual")
    _approximate_equal_rule(x, y, tolerance)
    return execute(APPROXIMATE_EQUAL, (x, y), {"tolerance": float(tolerance)}, name)
