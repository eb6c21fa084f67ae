"""Dual numbers over wengert tensors: a value and its tangent, v + t eps with eps^2 = 0.

The fused LSTM and GRU sequences (lstm.py, gru.py) write their recurrences (the cell step forward
and the back-propagation step backward) once, over `Dual`s, in wengert ops. Evaluated on duals
whose tangents are the input tangents, the same code gives the values and their directional
derivatives, which is what their forward-mode rules and the gradient of their gradient ops
need (sequence.py explains why). Every value and tangent is a wengert op, so whatever records
or builds these ops (an outer tape, an accumulator, a graph) can differentiate them again.

The rules, with None standing for a zero tangent (no op is spent on it):
    (a + b)' = a' + b'       (a - b)' = a' - b'       (a b)' = a' b + a b'
    (a @ b)' = a' @ b + a @ b'                          sigmoid(a)' = a' s (1 - s), s = sigmoid(a)
    tanh(a)' = a' (1 - y^2), y = tanh(a)               slicing, concat, stack, unstack, reshape
    and sums act on the tangent as on the value (they are linear).
A plain tensor or number mixed in is a constant (its tangent is zero). Keep a `Dual` as the
left operand of an operator whose other operand is a plain tensor.
"""
from ...array_ops import concat as _concat
from ...array_ops import stack as _stack
from ...array_ops import unstack as _unstack
from ...broadcast_ops import zeros_like
from ...matmul_ops import matmul as _matmul
from ...reduce_ops import reduce_sum as _reduce_sum
from ...reshape_ops import reshape as _reshape
from ...unary_ops import sigmoid as _sigmoid
from ...unary_ops import tanh as _tanh

__all__ = ["Dual", "lift", "matmul", "sigmoid", "tanh", "concat", "stack", "unstack",
           "reshape", "reduce_sum"]


def _plus(a, b):
    """a + b for tangents, None being zero."""
    if a is None:
        return b
    return a if b is None else a + b


def _times(tangent, value):
    return None if tangent is None else tangent * value


class Dual:
    """A tensor `value` and its `tangent` (a tensor of the same shape, or None for zero)."""

    __slots__ = ("value", "tangent")

    def __init__(self, value, tangent=None):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        other = lift(other)
        return Dual(self.value + other.value, _plus(self.tangent, other.tangent))

    __radd__ = __add__

    def __sub__(self, other):
        other = lift(other)
        negated = None if other.tangent is None else -other.tangent
        return Dual(self.value - other.value, _plus(self.tangent, negated))

    def __rsub__(self, other):
        return lift(other) - self

    def __mul__(self, other):
        other = lift(other)
        return Dual(self.value * other.value, _plus(_times(self.tangent, other.value),
                                                    _times(other.tangent, self.value)))

    __rmul__ = __mul__

    def __getitem__(self, index):
        return Dual(self.value[index], None if self.tangent is None else self.tangent[index])


def lift(x):
    """`x` as a Dual: itself, or a constant (a tensor or number with a zero tangent)."""
    return x if isinstance(x, Dual) else Dual(x)


def matmul(a, b, transpose_a=False, transpose_b=False):
    a, b = lift(a), lift(b)
    flags = {"transpose_a": transpose_a, "transpose_b": transpose_b}
    tangent = _plus(None if a.tangent is None else _matmul(a.tangent, b.value, **flags),
                    None if b.tangent is None else _matmul(a.value, b.tangent, **flags))
    return Dual(_matmul(a.value, b.value, **flags), tangent)


def sigmoid(a):
    s = _sigmoid(a.value)
    return Dual(s, _times(a.tangent, s * (1 - s)))


def tanh(a):
    y = _tanh(a.value)
    return Dual(y, _times(a.tangent, 1 - y * y))


def _tangents(duals):
    """The tangents of `duals`, zeros standing in for None; None when all are zero."""
    if all(d.tangent is None for d in duals):
        return None
    return [d.tangent if d.tangent is not None else zeros_like(d.value) for d in duals]


def concat(duals, axis):
    duals = [lift(d) for d in duals]
    tangents = _tangents(duals)
    return Dual(_concat([d.value for d in duals], axis),
                None if tangents is None else _concat(tangents, axis))


def stack(duals, axis=0):
    duals = [lift(d) for d in duals]
    tangents = _tangents(duals)
    return Dual(_stack([d.value for d in duals], axis),
                None if tangents is None else _stack(tangents, axis))


def unstack(a, num):
    values = _unstack(a.value, num)
    if a.tangent is None:
        return [Dual(v) for v in values]
    return [Dual(v, t) for v, t in zip(values, _unstack(a.tangent, num))]


def reshape(a, shape):
    return Dual(_reshape(a.value, shape),
                None if a.tangent is None else _reshape(a.tangent, shape))


def reduce_sum(a, axis):
    return Dual(_reduce_sum(a.value, axis),
                None if a.tangent is None else _reduce_sum(a.tangent, axis))
