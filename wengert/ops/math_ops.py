"""Elementwise arithmetic: + - * / ** and friends, comparisons, logical ops, clip_by_value.

Binary ops broadcast like NumPy; their gradient rules return the full-size gradient and the reverse
pass sums it back over broadcast axes. Derivatives used (g is the incoming gradient):

    z = x + y:  dx = g,        dy = g            z = x * y:  dx = g*y,   dy = g*x
    z = x - y:  dx = g,        dy = -g           z = x / y:  dx = g/y,   dy = -g*x/y^2
    z = x ** y: dx = g*y*x^(y-1),  dy = g*z*log(x)  (0 where x <= 0 and the term would be NaN)
    z = max(x, y): g goes to x where x >= y, else to y (ties: x gets it, as TensorFlow does)

x * x has the gradient of x^2, one fused op SquareGrad(x, g) = 2 x g (unary_ops.py). When one factor of x * y is a scalar broadcast over the
other (y * w[i], lr * g), its gradient sum(g * other) is one `MulSum` op (np.vdot) instead of a
product and a sum back to the scalar.
Each rule skips the inputs the reverse pass said it does not need (`needs_grad(op, i)`).
Forward mode (JVP, `jvp=`): + - and negation are linear and * is linear in each argument, so their
tangents are the op applied to the tangents; the others are the differentials above read forwards,
e.g. d(x / y) = dx / y - z dy / y and d(x ** y) = y x^(y-1) dx + z log(x) dy.
clip_by_value(t, lo, hi) = max(min(t, hi), lo) is one op, `ClipByValue`. Its gradient passes g to t
where lo <= t <= hi, to lo where t < lo and to hi where t > hi (each then summed back to the shape
the bound had, when a bound was broadcast); its tangent is t's where lo <= t <= hi, lo's below and
hi's above.
Comparisons and logical ops have no gradient. `cast` (cast_ops.py) and `square`
(unary_ops.py) are exported here too, as in TensorFlow's math_ops; the Python operators of
Tensor and Variable that call these ops are installed by installs.py.
"""
import operator

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.dispatch import elementwise_or_raise
from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute, named_operands
from ..framework.registry import defop, linear, multilinear, needs_grad
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import EAGER_TYPES as _EAGER
from . import shape_rules
from .shape_rules import batch_rank, static_shape
from .cast_ops import cast
from .reshape_ops import reshape
from .broadcast_ops import zeros_like
from .array_ops import where
from .complex_parts import conj_if_complex
from .unary_ops import SQUARE_GRAD, log, square

__all__ = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod",
           "negative", "square", "pow", "maximum", "minimum", "equal", "not_equal", "less",
           "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_not",
           "logical_xor", "cast", "clip_by_value"]


def call_binary(op_def, x, y, name):
    """`op_def` applied to x and y after TensorFlow's operand conversion (binary_operands)."""
    try:
        if state.graph is None:  # eagerly nothing is named: binary_operands, one call fewer
            x, y = binary_operands(x, y, op_def.type)
        else:
            x, y, name = named_operands(x, y, op_def.type, name)
    except TypeError:
        return elementwise_or_raise(lambda a, b: call_binary(op_def, a, b, name), x, y)
    return execute(op_def, (x, y), name=name)


# -- + - * / ---------------------------------------------------------------------------------------
def _add_grad(op, grad):
    return grad, grad


def _sub_grad(op, grad):
    return grad, (-grad if needs_grad(op, 1) else None)


def _mul_grad(op, grad):
    x, y = op.inputs
    if x.dtype.is_complex:  # g conj(y), g conj(x) (TensorFlow's convention, complex_parts.py)
        return (grad * conj_if_complex(y) if needs_grad(op, 0) else None,
                grad * conj_if_complex(x) if needs_grad(op, 1) else None)
    if x is y:  # x * x: one op for 2x*g instead of two products and a sum
        return execute(SQUARE_GRAD, (x, grad)), None
    skip = op.skip_input_indices  # needs_grad(op, i), inline: this rule is on the hot path
    return (None if 0 in skip else _product_grad(grad, y, x),
            None if 1 in skip else _product_grad(grad, x, y))


def _product_grad(grad, other, this):
    """d(this * other) / d(this) applied to grad. When `this` is a scalar broadcast over `other`
    (y * w[i], a learning rate times a tensor) that is sum(grad * other), one MulSum op instead
    of a product and the reverse pass's sum back to the scalar. (x, y and the gradient share
    one dtype, so the ops run without operand conversion.)"""
    if type(grad) is Tensor and type(this) in _EAGER and type(other) in _EAGER:
        # eager (is_eager_tensor, array_of inline: this rule is hot): the shapes are the arrays'
        spread = other._value  # what the scalar `this` was broadcast over, if it is one
        if this._value.ndim == 0 and spread.ndim and spread.shape == grad._value.shape:
            return execute(MUL_SUM, (grad, other))
        return execute(MUL, (grad, other))
    if static_shape(this) == ():
        shape = static_shape(other)
        if shape and None not in shape and static_shape(grad) == shape:
            return execute(MUL_SUM, (grad, other))
    return execute(MUL, (grad, other))


def _mul_sum_grad(op, grad):
    a, b = op.inputs
    return (grad * b if needs_grad(op, 0) else None), (grad * a if needs_grad(op, 1) else None)


def _mul_sum_rule(a, b):
    if not a.shape.is_compatible_with(b.shape):
        raise InvalidArgumentError(f"MulSum needs two tensors of one shape, got {a.shape} and "
                                   f"{b.shape}.")
    return TensorShape(()), a.dtype


def _mul_sum_kernel(a, b):
    """sum(a * b) over all elements of two same-shaped arrays (np.vdot flattens them; a vector's
    own dot method is the cheaper call)."""
    return a.dot(b) if a.ndim == 1 else np.vdot(a, b)


def _mul_sum_batched(op, grad):
    """sum(a * b) is a scalar: its gradient [B] gets a size-1 axis per axis of a and b."""
    a, b = op.inputs
    nb = batch_rank(grad, op.outputs[0])
    g = reshape(grad, tuple(grad.shape[:nb]) + (1,) * len(a.shape))
    return (g * b if needs_grad(op, 0) else None), (g * a if needs_grad(op, 1) else None)


MUL_SUM = defop("MulSum", _mul_sum_kernel, shape=_mul_sum_rule, grad=_mul_sum_grad,
                jvp=multilinear, batch=_mul_sum_batched)


def _div_grad(op, grad):
    x, y = (conj_if_complex(t) for t in op.inputs)
    dx = grad / y if needs_grad(op, 0) else None
    dy = -grad * x / (y * y) if needs_grad(op, 1) else None
    return dx, dy


def _div_jvp(primals, tangents, outputs):
    """d(x / y) = dx / y - (x / y) dy / y."""
    (_, y), (dx, dy), (z,) = primals, tangents, outputs
    out = dx / y if dx is not None else None
    if dy is not None:
        out = -(dy * z) / y if out is None else out - (dy * z) / y
    return out


# Elementwise rules (here and below) combine g with forward values by broadcasting ops, so they
# are right for gradients with leading batch dimensions too (batch="safe").
# Their kernels are Python's operators: on arrays they call the same ufuncs, and on NumPy scalars
# (the 0-d results of reductions and of scalar products) they take NumPy's scalar fast path,
# several times cheaper than a ufunc call.
ADD = defop("AddV2", operator.add, shape=shape_rules.broadcast, grad=_add_grad, jvp=linear,
            batch="safe", onnx="Add", args=("x", "y"))
SUB = defop("Sub", operator.sub, shape=shape_rules.broadcast, grad=_sub_grad, jvp=linear,
            batch="safe", onnx="Sub", args=("x", "y"))
MUL = defop("Mul", operator.mul, shape=shape_rules.broadcast, grad=_mul_grad, jvp=multilinear,
            batch="safe", onnx="Mul", args=("x", "y"))
DIV = defop("RealDiv", operator.truediv, shape=shape_rules.broadcast, grad=_div_grad, jvp=_div_jvp,
            batch="safe", onnx="Div", args=("x", "y"))
# TensorFlow's Add, AddV2's forerunner: the op string tensors add with (AddV2 takes numbers only)
def _add_strings(x, y):
    out = np.add(x, y)
    return out if isinstance(out, np.ndarray) else np.array(out, dtype=object)


STRING_ADD = defop("Add", _add_strings, shape=shape_rules.broadcast, grad=None,
                   raw=lambda x, y, name=None: add(x, y, name))


def add(x, y, name=None):
    """x + y, elementwise with broadcasting; strings concatenate (TensorFlow's Add op)."""
    try:
        x, y, name = named_operands(x, y, ADD.type, name, "Add")
    except TypeError:
        return elementwise_or_raise(lambda a, b: add(a, b, name), x, y)
    return execute(STRING_ADD if x.dtype is dtypes.string else ADD, (x, y), name=name)


def subtract(x, y, name=None):
    """x - y, elementwise with broadcasting."""
    return call_binary(SUB, x, y, name)


def multiply(x, y, name=None):
    """x * y, elementwise with broadcasting."""
    return call_binary(MUL, x, y, name)


def divide(x, y, name=None):
    """x / y. Integer inputs are cast to float64 first, as in TensorFlow's `truediv`."""
    try:
        x, y, name = named_operands(x, y, "RealDiv", name, "truediv")
    except TypeError:
        return elementwise_or_raise(lambda a, b: divide(a, b, name), x, y)
    if not x.dtype.is_differentiable:
        x, y = cast(x, dtypes.float64), cast(y, dtypes.float64)
    return execute(DIV, (x, y), name=name)


truediv = divide


def _floor_mod_grad(op, grad):
    x, y = op.inputs
    return grad, (-grad * floordiv(x, y) if needs_grad(op, 1) else None)


def _floor_div_onnx(ctx, op, x, y):
    """Floor(x / y) for floats; for integers (x - x mod y) / y, exact (ONNX's integer Div
    truncates toward zero)."""
    if op.inputs[0].dtype.is_floating:
        return ctx.node("Floor", [ctx.node("Div", [x, y])])
    return ctx.node("Div", [ctx.node("Sub", [x, _floor_mod_onnx(ctx, op, x, y)]), y])


def _floor_mod_onnx(ctx, op, x, y):
    """x mod y with the sign of y: ONNX Mod for integers, x - floor(x / y) * y for floats."""
    if not op.inputs[0].dtype.is_floating:
        return ctx.node("Mod", [x, y], fmod=0)
    quotient = ctx.node("Floor", [ctx.node("Div", [x, y])])
    return ctx.node("Sub", [x, ctx.node("Mul", [quotient, y])])


def _integer_division(ufunc, op_type):
    """`ufunc` that refuses an integer divisor of 0, as TensorFlow's integer kernels do (NumPy
    would give 0 with a warning)."""
    def kernel(x, y):
        if y.dtype.kind in "iu" and not np.all(y):
            raise InvalidArgumentError(f"{op_type}: Integer division by zero.")
        return ufunc(x, y)
    return kernel


FLOOR_DIV = defop("FloorDiv", _integer_division(np.floor_divide, "FloorDiv"), shape=shape_rules.broadcast, grad=None,
                  onnx=_floor_div_onnx, args=("x", "y"))
def _floor_mod_jvp(primals, tangents, outputs):
    """d(x mod y) = dx - floor(x / y) dy (away from the jumps)."""
    (x, y), (dx, dy) = primals, tangents
    if dy is None:
        return dx
    term = -dy * floordiv(x, y)
    return term if dx is None else dx + term


FLOOR_MOD = defop("FloorMod", _integer_division(np.mod, "FloorMod"), shape=shape_rules.broadcast, grad=_floor_mod_grad,
                  jvp=_floor_mod_jvp, batch="safe", onnx=_floor_mod_onnx, args=("x", "y"))


def floordiv(x, y, name=None):
    """floor(x / y) elementwise (not differentiable)."""
    return call_binary(FLOOR_DIV, x, y, name)


def floormod(x, y, name=None):
    """x - floor(x / y) * y, with the sign of y (Python's %)."""
    return call_binary(FLOOR_MOD, x, y, name)


mod = floormod


# -- unary arithmetic ---------------------------------------------------------------------------
NEG = defop("Neg", np.negative, shape=shape_rules.same, grad=lambda op, grad: -grad, jvp=linear,
            batch="safe", onnx="Neg", args=("x",))


def negative(x, name=None):
    """-x."""
    try:
        x = convert_to_tensor(x)
    except TypeError:
        return elementwise_or_raise(lambda v: negative(v, name), x)
    return execute(NEG, (x,), name=name)


# -- pow, maximum, minimum ----------------------------------------------------------------------
def _pow_grad(op, grad):
    x, y, z = (conj_if_complex(t) for t in (*op.inputs, op.outputs[0]))
    dx = dy = None
    if needs_grad(op, 0):
        dx = grad * y * pow(x, y - 1)
    if needs_grad(op, 1) and x.dtype.is_complex:  # log(x), 0 at x = 0
        nonzero = not_equal(x, 0)
        dy = grad * z * where(nonzero, log(where(nonzero, x, 1)), 0)
    elif needs_grad(op, 1):
        positive = greater(x, 0)
        safe_x = where(positive, x, 1)
        dy = grad * z * where(positive, log(safe_x), 0)
    return dx, dy


def _pow_kernel(x, y):
    if x.dtype.kind in "iu" and np.any(y < 0):
        raise ValueError("integers to negative integer powers are not allowed; cast to float.")
    return np.power(x, y)


def _pow_jvp(primals, tangents, outputs):
    """d(x^y) = y x^(y-1) dx + x^y log(x) dy (the dy term is 0 where x <= 0)."""
    (x, y), (dx, dy), (z,) = primals, tangents, outputs
    out = dx * y * pow(x, y - 1) if dx is not None else None
    if dy is not None:
        positive = not_equal(x, 0) if x.dtype.is_complex else greater(x, 0)
        term = dy * z * where(positive, log(where(positive, x, 1)), 0)
        out = term if out is None else out + term
    return out


POW = defop("Pow", _pow_kernel, shape=shape_rules.broadcast, grad=_pow_grad, jvp=_pow_jvp,
            batch="safe", onnx="Pow", args=("x", "y"))


def pow(x, y, name=None):  # noqa: A001 (TensorFlow's name)
    """x ** y elementwise."""
    return call_binary(POW, x, y, name)


def _select_grad(op, grad, x_wins):
    """Route `grad` to x where `x_wins`, else to y (shared by Maximum and Minimum)."""
    zeros = grad * 0
    dx = where(x_wins, grad, zeros) if needs_grad(op, 0) else None
    dy = where(x_wins, zeros, grad) if needs_grad(op, 1) else None
    return dx, dy


def _select_jvp(x_wins, primals, tangents):
    """The tangent of x where x won, of y elsewhere (shared by Maximum and Minimum)."""
    (x, y), (dx, dy) = primals, tangents
    return where(x_wins, dx if dx is not None else zeros_like(x),
                 dy if dy is not None else zeros_like(y))


MAXIMUM = defop("Maximum", np.maximum, shape=shape_rules.broadcast,
                grad=lambda op, g: _select_grad(op, g, greater_equal(*op.inputs)),
                jvp=lambda p, t, o: _select_jvp(greater_equal(*p), p, t), batch="safe",
                onnx="Max", args=("x", "y"))
MINIMUM = defop("Minimum", np.minimum, shape=shape_rules.broadcast,
                grad=lambda op, g: _select_grad(op, g, less_equal(*op.inputs)),
                jvp=lambda p, t, o: _select_jvp(less_equal(*p), p, t), batch="safe",
                onnx="Min", args=("x", "y"))


def maximum(x, y, name=None):
    """Elementwise max(x, y); at ties the gradient goes to x."""
    try:
        x, y, name = named_operands(x, y, MAXIMUM.type, name)
    except TypeError:
        return elementwise_or_raise(lambda a, b: maximum(a, b, name), x, y)
    shape_rules.check_ordered(x, MAXIMUM.type)
    return execute(MAXIMUM, (x, y), name=name)


def minimum(x, y, name=None):
    """Elementwise min(x, y); at ties the gradient goes to x."""
    try:
        x, y, name = named_operands(x, y, MINIMUM.type, name)
    except TypeError:
        return elementwise_or_raise(lambda a, b: minimum(a, b, name), x, y)
    shape_rules.check_ordered(x, MINIMUM.type)
    return execute(MINIMUM, (x, y), name=name)


# -- comparisons and logic (no gradient) ------------------------------------------------------------
def _comparison(op_type, kernel, doc, onnx):
    ordered = op_type not in ("Equal", "NotEqual")
    op_def = defop(op_type, kernel, shape=shape_rules.bool_out, grad=None, onnx=onnx,
                   args=("x", "y") if ordered else None,
                   raw=None if ordered else lambda x, y, incompatible_shape_error=True,
                   name=None: compare(x, y, name))

    def compare(x, y, name=None):
        try:
            x, y, name = named_operands(x, y, op_type, name)
        except TypeError:
            return elementwise_or_raise(lambda a, b: compare(a, b, name), x, y)
        if ordered:
            shape_rules.check_ordered(x, op_type)
        return execute(op_def, (x, y), name=name)
    compare.__name__ = compare.__qualname__ = doc[0]
    compare.__doc__ = doc[1]
    return compare


equal = _comparison("Equal", np.equal, ("equal", "x == y elementwise (bool)."), "Equal")
not_equal = _comparison("NotEqual", np.not_equal, ("not_equal", "x != y elementwise (bool)."),
                        lambda ctx, op, x, y: ctx.node("Not", [ctx.node("Equal", [x, y])]))
less = _comparison("Less", np.less, ("less", "x < y elementwise (bool)."), "Less")
less_equal = _comparison("LessEqual", np.less_equal, ("less_equal", "x <= y elementwise."),
                         "LessOrEqual")
greater = _comparison("Greater", np.greater, ("greater", "x > y elementwise (bool)."), "Greater")
greater_equal = _comparison("GreaterEqual", np.greater_equal,
                            ("greater_equal", "x >= y elementwise (bool)."), "GreaterOrEqual")


def _bool_binary(x, y, **_):
    for t in (x, y):
        if not t.dtype.is_bool:
            raise InvalidArgumentError(f"logical ops need bool inputs, got {t.dtype.name}.")
    return shape_rules.bool_out(x, y)


LOGICAL_AND = defop("LogicalAnd", np.logical_and, shape=_bool_binary, grad=None, onnx="And",
                    args=("x", "y"))
LOGICAL_OR = defop("LogicalOr", np.logical_or, shape=_bool_binary, grad=None, onnx="Or",
                   args=("x", "y"))
LOGICAL_XOR = defop("LogicalXor", np.logical_xor, shape=_bool_binary, grad=None, onnx="Xor")
LOGICAL_NOT = defop("LogicalNot", np.logical_not, shape=shape_rules.same, grad=None, onnx="Not",
                    args=("x",))


def _bool_operands(x, y, op_type):
    x, y = binary_operands(convert_to_tensor(x, dtype_hint=dtypes.bool) if not isinstance(
        x, Tensor) else x, y, op_type)
    return x, y  # (the executor refuses other dtypes than bool, as TensorFlow's LogicalAnd)


def _logical(op_def, x, y, name):
    try:
        operands = _bool_operands(x, y, op_def.type)
    except TypeError:
        return elementwise_or_raise(lambda a, b: _logical(op_def, a, b, name), x, y)
    if op_def is LOGICAL_XOR:  # TensorFlow composes it of LogicalOr...: bool only, as there
        shape_rules.check_allowed(LOGICAL_OR, *operands)
    return execute(op_def, operands, name=name)


def logical_and(x, y, name=None):
    return _logical(LOGICAL_AND, x, y, name)


def logical_or(x, y, name=None):
    return _logical(LOGICAL_OR, x, y, name)


def logical_xor(x, y, name=None):
    return _logical(LOGICAL_XOR, x, y, name)


def logical_not(x, name=None):
    try:
        x = convert_to_tensor(x, dtype_hint=dtypes.bool)
    except TypeError:
        return elementwise_or_raise(lambda v: logical_not(v, name), x)
    return execute(LOGICAL_NOT, (x,), name=name)  # (bool only: the executor's check)


def _clip_kernel(t, lo, hi):
    out = np.maximum(np.minimum(t, hi), lo)
    if out.shape != t.shape:
        raise ValueError("clip bounds broadcast t to a larger shape")
    return out


def _clip_rule(t, lo, hi):
    shape_rules.check_same_dtype(t, lo, hi)
    out = shape_rules.broadcast_shapes(shape_rules.broadcast_shapes(t.shape, lo.shape), hi.shape)
    if out.rank is not None and t.shape.rank is not None and not out.is_compatible_with(t.shape):
        raise InvalidArgumentError(
            f"clip_value_min (shape {lo.shape}) and clip_value_max (shape {hi.shape}) must "
            f"broadcast to t's shape {t.shape} without enlarging it (they would give {out}).")
    return t.shape, t.dtype


def _clip_grad(op, g):
    t, lo, hi = op.inputs
    below, above = less(t, lo), greater(t, hi)
    zeros = zeros_like(g)
    d_t = where(logical_or(below, above), zeros, g) if needs_grad(op, 0) else None
    d_lo = where(below, g, zeros) if needs_grad(op, 1) else None
    d_hi = where(above, g, zeros) if needs_grad(op, 2) else None
    return d_t, d_lo, d_hi


def _clip_jvp(primals, tangents, outputs):
    (t, lo, hi), (dt, dlo, dhi) = primals, tangents
    zeros = zeros_like(t)
    inside = dt if dt is not None else zeros
    below = where(less(t, lo), dlo if dlo is not None else zeros, inside)
    return where(greater(t, hi), dhi if dhi is not None else zeros, below)


CLIP_BY_VALUE = defop("ClipByValue", _clip_kernel, shape=_clip_rule, grad=_clip_grad,
                      jvp=_clip_jvp, batch="safe",
                      onnx=lambda ctx, op, t, lo, hi: ctx.node("Max", [ctx.node("Min", [t, hi]),
                                                                       lo]),
                      args=("t", "clip_value_min", "clip_value_max"))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """t with values below clip_value_min raised to it and above clip_value_max lowered to it.
    The bounds may be scalars or broadcast to t's shape."""
    t, lo = binary_operands(t, clip_value_min, "ClipByValue")
    t, hi = binary_operands(t, clip_value_max, "ClipByValue")
    return execute(CLIP_BY_VALUE, (t, lo, hi), name=name)
