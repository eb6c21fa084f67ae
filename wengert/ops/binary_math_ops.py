"""Binary elementwise functions beyond + - * /: the squared difference, and the zero-guarded
forms x log y, x log(1 + y), x / y (xdivy), div_no_nan and mul_no_nan.

The guarded forms give 0 where their guard holds, even where the plain formula is NaN or inf:
xlogy(0, 0) = 0, xdivy(0, 0) = 0, div_no_nan(x, 0) = 0, mul_no_nan(inf, 0) = 0. Their gradients
are TensorFlow's (g is the incoming gradient; [x != 0] is 1 where x is nonzero, else 0):

    z = (x - y)^2:           dx = 2 (x - y) g                 dy = -dx
    z = xlogy(x, y):         dx = xlogy([x != 0], y) g        dy = xdivy(x, y) g
    z = xlog1py(x, y):       dx = xlog1py([x != 0], y) g      dy = xdivy(x, y + 1) g
    z = xdivy(x, y):         dx = xdivy([x != 0], y) g        dy = xdivy(-x, y^2) g
    z = div_no_nan(x, y):    dx = div_no_nan(g, y)            dy = g div_no_nan(div_no_nan(-x, y), y)
    z = mul_no_nan(x, y):    dx = mul_no_nan(g, y)            dy = mul_no_nan(x, g)

so the x-derivatives vanish where the guard cuts x off, and none of them is NaN at the guard.
mul_no_nan's y-derivative is x g even where y == 0 (z = x y is continuous there, with slope x):
the guard is on y only, so the gradient with respect to y is never cut. div_no_nan jumps at
y == 0, where its derivatives are taken as 0. Each derivative is made of these same ops, so the
rules differentiate again; forward mode reads the same formulas forwards (`elementwise.binary`,
or the rule beside the op where TensorFlow's form keeps a guard around g).
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.dispatch import elementwise_or_raise
from ..framework.execute import execute, named_operands
from ..framework.registry import defop, needs_grad
from ..framework.tensor import convert_to_tensor
from . import elementwise, shape_rules
from .complex_parts import conj_if_complex
from .math_ops import cast, not_equal, square

__all__ = ["squared_difference", "xlogy", "xlog1py", "xdivy", "divide_no_nan", "div_no_nan",
           "multiply_no_nan", "reciprocal_no_nan"]


_float_pair_rule = elementwise.float_pair_rule  # the shape rule of the float-only pairs


def _float_binary(op_def, x, y, name, complex_ok=False):
    try:
        x, y, name = named_operands(x, y, op_def.type, name)
    except TypeError:
        return elementwise_or_raise(lambda a, b: _float_binary(op_def, a, b, name, complex_ok),
                                    x, y)
    if not (complex_ok and x.dtype.is_complex):
        shape_rules.check_float(x, f"{op_def.type}'s input")
    return execute(op_def, (x, y), name=name)


def _guarded(kernel):
    """kernel(x, y) with 0 where x == 0 (NaN and inf from the formula discarded there)."""
    def guarded(x, y):
        with np.errstate(all="ignore"):
            out = kernel(x, y)
        return np.where(x == 0, np.zeros_like(out), out)
    return guarded


def _nonzero(x):
    return cast(not_equal(x, 0), x.dtype)


# -- squared difference --------------------------------------------------------------------------
def _squared_difference_kernel(x, y):
    d = x - y
    return d * d


def _squared_difference_partials(x, y, z):
    difference = x - y
    twice = difference + difference
    return twice, -twice


def _numeric_rule(x, y, **_):
    if x.dtype.is_bool:
        raise InvalidArgumentError("SquaredDifference needs numeric tensors, got bool.")
    return shape_rules.broadcast(x, y)


SQUARED_DIFFERENCE = elementwise.binary("SquaredDifference", _squared_difference_kernel,
                                        _squared_difference_partials, shape=_numeric_rule,
                                        args=("x", "y"))


def squared_difference(x, y, name=None):
    """(x - y)^2 elementwise, one op."""
    x, y, name = named_operands(x, y, "SquaredDifference", name)
    return execute(SQUARED_DIFFERENCE, (x, y), name=name)


# -- xlogy, xlog1py, xdivy -------------------------------------------------------------------------
XLOGY = elementwise.binary(
    "Xlogy", _guarded(lambda x, y: x * np.log(y)),
    lambda x, y, z: (xlogy(_nonzero(x), y), xdivy(x, y)), shape=_float_pair_rule("Xlogy"),
                           args=("x", "y"))
XLOG1PY = elementwise.binary(
    "Xlog1py", _guarded(lambda x, y: x * np.log1p(y)),
    lambda x, y, z: (xlog1py(_nonzero(x), y), xdivy(x, y + 1.0)),
    shape=_float_pair_rule("Xlog1py"), args=("x", "y"))
XDIVY = elementwise.binary(
    "Xdivy", _guarded(lambda x, y: x / y),
    lambda x, y, z: (xdivy(_nonzero(x), y), xdivy(-x, square(y))),
    shape=_float_pair_rule("Xdivy"), args=("x", "y"))


def xlogy(x, y, name=None):
    """x * log(y), and 0 where x == 0 (whatever y is)."""
    return _float_binary(XLOGY, x, y, name)


def xlog1py(x, y, name=None):
    """x * log(1 + y), and 0 where x == 0 (whatever y is)."""
    return _float_binary(XLOG1PY, x, y, name)


def xdivy(x, y, name=None):
    """x / y, and 0 where x == 0 (whatever y is)."""
    return _float_binary(XDIVY, x, y, name)


# -- div_no_nan, mul_no_nan ----------------------------------------------------------------------
def _div_no_nan_kernel(x, y):
    if np.ndim(y) == 0 and y != 0:  # a nonzero scalar divisor (a running mean's count): x / y
        with np.errstate(all="ignore"):
            return np.asarray(x / y)
    with np.errstate(all="ignore"):
        out = x / np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros_like(out), out)


def _mul_no_nan_kernel(x, y):
    with np.errstate(invalid="ignore"):
        out = x * y
    return np.where(y == 0, np.zeros_like(out), out)


def _div_no_nan_grad(op, grad):
    x, y = (conj_if_complex(t) for t in op.inputs)
    return (div_no_nan(grad, y) if needs_grad(op, 0) else None,
            grad * div_no_nan(div_no_nan(-x, y), y) if needs_grad(op, 1) else None)


def _div_no_nan_jvp(primals, tangents, outputs):
    (x, y), (t_x, t_y) = primals, tangents
    terms = [div_no_nan(t_x, y)] if t_x is not None else []
    if t_y is not None:
        terms.append(t_y * div_no_nan(div_no_nan(-x, y), y))
    return terms[0] if len(terms) == 1 else terms[0] + terms[1]


def _mul_no_nan_grad(op, grad):
    x, y = (conj_if_complex(t) for t in op.inputs)
    return (multiply_no_nan(grad, y) if needs_grad(op, 0) else None,
            multiply_no_nan(x, grad) if needs_grad(op, 1) else None)


def _mul_no_nan_jvp(primals, tangents, outputs):
    (x, y), (t_x, t_y) = primals, tangents
    terms = [multiply_no_nan(t_x, y)] if t_x is not None else []
    if t_y is not None:
        terms.append(multiply_no_nan(x, t_y))
    return terms[0] if len(terms) == 1 else terms[0] + terms[1]


DIV_NO_NAN = defop("DivNoNan", _div_no_nan_kernel, shape=_float_pair_rule("DivNoNan", True),
                   grad=_div_no_nan_grad, jvp=_div_no_nan_jvp, batch="safe", args=("x", "y"))
MUL_NO_NAN = defop("MulNoNan", _mul_no_nan_kernel, shape=_float_pair_rule("MulNoNan", True),
                   grad=_mul_no_nan_grad, jvp=_mul_no_nan_jvp, batch="safe", args=("x", "y"))


def divide_no_nan(x, y, name=None):
    """x / y, and 0 where y == 0 (even when x is 0, inf or NaN)."""
    return _float_binary(DIV_NO_NAN, x, y, name, complex_ok=True)


div_no_nan = divide_no_nan


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 where y == 0 (even when x is inf or NaN)."""
    return _float_binary(MUL_NO_NAN, x, y, name, complex_ok=True)


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0."""
    x = convert_to_tensor(x)
    shape_rules.check_float(x, "reciprocal_no_nan's input")
    return divide_no_nan(np.ones((), x.dtype.as_numpy_dtype), x, name=name)
