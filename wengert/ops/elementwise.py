"""Declaring elementwise ops from their derivatives, stated once.

An elementwise op maps each element on its own, so its Jacobian is diagonal and both directions
of differentiation multiply by the same derivative. For y = f(x):

    VJP (reverse mode):   x_bar = g * f'(x)          JVP (forward mode):   y_dot = x_dot * f'(x)

and for z = f(x, y), with the partial derivatives f_x and f_y:

    VJP:   (g * f_x, g * f_y)                           JVP:   x_dot * f_x + y_dot * f_y

(the reverse pass sums a broadcast input's gradient back to its shape, in one place). So an op
declares `derivative(x, y) -> f'(x)` (y is the op's output, often the cheaper form: exp' = y) or
`partials(x, y, z) -> (f_x, f_y)`, written in wengert ops, and `unary` / `binary` build both
rules from it, as JAX's `defjvp` and autograd's `defvjp` tables do. Because the rules are wengert
ops, they differentiate again: higher orders come for free.

Ops whose backward step is one fused op h(y, g) = g * f'(x) given the output y (TensorFlow's
TanhGrad, SigmoidGrad, SqrtGrad, ...) declare `fused=H` instead: VJP h(y, g), JVP h(y, x_dot).
Such an h is linear in g, so its own JVP (`fused_grad_jvp`) is h applied to g's tangent, plus a
term for its dependence on y: d h(y, g) = h(y, g_dot) + (dh/dy) y_dot.

Either form is right for gradients with extra leading (batch) dimensions, since elementwise
products broadcast over trailing axes: the ops are declared `batch="safe"`.

For complex inputs the VJP multiplies by the conjugate derivative, g * conj(f'(x)), TensorFlow's
convention (see complex_parts.py); the JVP keeps t * f'(x). Most elementwise math is defined for
floating-point tensors only (complex ones too where TensorFlow defines the op on them): `float_op` declares such an op
with a shape rule that refuses other dtypes (`float_rule`), and `call_float` is the body of its
public function, which refuses them eagerly with the same message.

Fused kernels share one allocation helper, `into_temporary`: a step of a kernel writes into the
temporary the previous step made, when that is large enough for the saved allocation to matter.
"""
import numpy as np

from ..framework.dispatch import elementwise_or_raise
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import OPERATOR_UFUNCS, defop, needs_grad
from ..framework.tensor import Tensor, convert_to_tensor, is_eager_tensor
from . import shape_rules
from .complex_parts import CONJ, conj_if_complex

__all__ = ["unary", "binary", "fused_grad_jvp", "float_op", "float_rule", "call_float",
           "numeric_rule", "float_pair_rule", "call_numeric", "into_temporary", "IN_PLACE_MIN_SIZE",
           "OPERATOR_UFUNCS"]


def unary(op_type, kernel, derivative=None, *, fused=None, shape=shape_rules.same, **fields):
    """Declare the unary elementwise op `op_type` with `kernel` and either `derivative(x, y)`
    (f'(x) as a tensor; y = f(x)) or `fused`, the OpDef of h(y, g) = g * f'(x)."""
    if (derivative is None) == (fused is None):
        raise ValueError(f"{op_type}: give exactly one of derivative= and fused=.")
    if fused is not None:
        def grad(op, g):  # h(conj(y), g) = g conj(f'(x)): f' is real-coefficient in y
            y = op.outputs[0]
            return execute(fused, (execute(CONJ, (y,)) if y.dtype.is_complex else y, g))

        def jvp(primals, tangents, outputs):
            return execute(fused, (outputs[0], tangents[0]))
    else:
        def grad(op, g):
            return g * conj_if_complex(derivative(op.inputs[0], op.outputs[0]))

        def jvp(primals, tangents, outputs):
            return tangents[0] * derivative(primals[0], outputs[0])
    fields.setdefault("batch", "safe")
    return defop(op_type, kernel, shape=shape, grad=grad, jvp=jvp, **fields)


def binary(op_type, kernel, partials, *, shape=shape_rules.broadcast, **fields):
    """Declare the binary elementwise op `op_type` with `kernel` and `partials(x, y, z)` giving
    (dz/dx, dz/dy) as tensors (z is the op's output; either may be None: no gradient)."""
    def grad(op, g):
        x, y = op.inputs
        d_x, d_y = partials(x, y, op.outputs[0])
        return (g * conj_if_complex(d_x) if d_x is not None and needs_grad(op, 0) else None,
                g * conj_if_complex(d_y) if d_y is not None and needs_grad(op, 1) else None)

    def jvp(primals, tangents, outputs):
        (x, y), (t_x, t_y) = primals, tangents
        d_x, d_y = partials(x, y, outputs[0])
        terms = [t * d for t, d in ((t_x, d_x), (t_y, d_y)) if t is not None and d is not None]
        if not terms:
            return None
        return terms[0] if len(terms) == 1 else terms[0] + terms[1]

    fields.setdefault("batch", "safe")
    return defop(op_type, kernel, shape=shape, grad=grad, jvp=jvp, **fields)


def fused_grad_jvp(own_op, grad_at, forward_term=None):
    """JVP of a fused gradient op h (TanhGrad(y, dy), ReluGrad(g, y), ...), linear in its
    incoming-gradient input, which is input `grad_at` (TensorFlow puts it first in ReluGrad,
    second in TanhGrad): h applied to that input's tangent, plus forward_term(forward, grad, h,
    tangent of forward) for h's dependence on its forward input (None: zero almost everywhere,
    as for ReluGrad). `own_op()` gives the OpDef of h."""
    forward_at = 1 - grad_at

    def jvp(primals, tangents, outputs, **attrs):
        t_grad, t_forward = tangents[grad_at], tangents[forward_at]
        out = None
        if t_grad is not None:
            args = (primals[0], t_grad) if grad_at else (t_grad, primals[1])
            out = execute(own_op(), args, attrs)
        if t_forward is not None and forward_term is not None:
            term = forward_term(primals[forward_at], primals[grad_at], outputs[0], t_forward)
            out = term if out is None else out + term
        return out
    return jvp


# -- float-only and numeric ops -----------------------------------------------------------------
def _not_float(op_type, x):
    return InvalidArgumentError(
        f"{op_type} needs a floating-point tensor, got {x.dtype.name} (shape {x.shape}). Cast it "
        f"first, e.g. cast(x, float32), or pass a float literal such as 2.0 instead of 2.")


def float_rule(op_type, complex_ok=False):
    """The shape rule of a float-only elementwise op: x's shape and dtype, if that is floating
    (or complex, for an op defined on complex numbers too)."""
    def rule(x, **_):
        if not (x.dtype.is_floating or complex_ok and x.dtype.is_complex):
            raise _not_float(op_type, x)
        return x.shape, x.dtype
    return rule


def float_pair_rule(op_type, complex_ok=False):
    """The shape rule of a float-only binary elementwise op: both inputs floating (or complex,
    for an op defined on complex numbers too) and of one dtype; the broadcast shape."""
    def rule(x, y, **_):
        for t in (x, y):
            if not (t.dtype.is_floating or complex_ok and t.dtype.is_complex):
                raise _not_float(op_type, t)
        return shape_rules.broadcast(x, y)
    return rule


def _not_numeric(op_type, x):
    return InvalidArgumentError(f"{op_type} needs a numeric tensor, got bool (shape {x.shape}); "
                                "cast it to an integer or float dtype first.")


def numeric_rule(op_type):
    """The shape rule of an elementwise op on numbers of any kind (not bools)."""
    def rule(x, **_):
        if x.dtype.is_bool:
            raise _not_numeric(op_type, x)
        return x.shape, x.dtype
    return rule


def call_float(op_def, x, name, kinds="f"):
    """Run the float-only unary op `op_def` on x (the body of sqrt(), tanh(), ...); kinds="fc"
    for an op defined on complex numbers too (exp, sqrt, sin...)."""
    if type(x) is not Tensor:  # is_eager_tensor and array_of, inline: tanh is hot
        try:
            x = convert_to_tensor(x)
        except TypeError:
            return elementwise_or_raise(lambda v: call_float(op_def, v, name, kinds), x)
        if x.dtype._np.kind not in kinds:
            raise _not_float(op_def.type, x)
    elif x._value.dtype.kind not in kinds:
        raise _not_float(op_def.type, x)
    return execute(op_def, (x,), name=name)


def call_numeric(op_def, x, name):
    """Run the unary op `op_def`, defined for every numeric dtype, on x (abs(), sign())."""
    if not is_eager_tensor(x):
        try:
            x = convert_to_tensor(x)
        except TypeError:
            return elementwise_or_raise(lambda v: call_numeric(op_def, v, name), x)
    if x.dtype.is_bool:
        raise _not_numeric(op_def.type, x)
    return execute(op_def, (x,), name=name)


def float_op(op_type, kernel, derivative=None, fused=None, complex_ok=False, **fields):
    """Declare a float-only unary elementwise op from its derivative f'(x, y) or fused helper
    h(y, g) (see `unary`); complex_ok: defined on complex numbers too (its public function
    calls `call_float(..., kinds="fc")`); `fields` are the OpDef's other fields (onnx=...)."""
    return unary(op_type, kernel, derivative, fused=fused,
                 shape=float_rule(op_type, complex_ok), **fields)


def onnx_unary_then(onnx_op, combine, constant):
    """An ONNX lowering `combine(onnx_op(x), constant)`, e.g. Expm1 = Sub(Exp(x), 1); with
    onnx_op None, `combine(x, constant)` (the constant has x's dtype)."""
    def lower(ctx, op, x):
        first = ctx.node(onnx_op, [x]) if onnx_op else x
        return ctx.node(combine, [first, ctx.scalar_like(constant, op.inputs[0])])
    return lower


# -- kernels that reuse their temporaries ---------------------------------------------------
# Below this many elements a fresh result is cheaper than NumPy's `out=` handling; above it
# (64 KB of float32, 128 KB of float64, where glibc starts serving fresh pages to large arrays)
# writing into an array that is free anyway avoids an allocation that costs more than the
# arithmetic. Kernels reusing their temporaries and plans writing a step's result into a dying
# input (runtime/buffer_planning.py) both go by it.
IN_PLACE_MIN_SIZE = 1 << 14


_OPERATORS = {ufunc: op for op, ufunc in OPERATOR_UFUNCS.items()}


def into_temporary(ufunc, temp, other):
    """ufunc(temp, other), written into `temp` (a temporary the kernel just made) when it is a
    large array of the result's shape: a fused kernel then allocates one array, not one per
    step."""
    if (type(temp) is np.ndarray and temp.size >= IN_PLACE_MIN_SIZE
            and (type(other) is not np.ndarray or other.shape == temp.shape)):
        return ufunc(temp, other, out=temp)
    return _OPERATORS.get(ufunc, ufunc)(temp, other)  # (cheaper on NumPy scalars)
