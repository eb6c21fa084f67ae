"""Python's operators on Tensor and Variable: each one is an op of some family.

    a + b  add (AddV2)     a - b  subtract (Sub)     a * b  multiply (Mul)    a / b  divide
    a // b floordiv        a % b  floormod           a ** b pow               -a     negative
    a @ b  matmul          abs(a) abs                a[key] strided_slice / gather / boolean_mask
    == != < <= > >=  the comparisons (elementwise, bool results)
    & | ^ ~  logical_and, logical_or, logical_xor, logical_not (bool tensors)

Reflected forms (`2.0 * x`) swap the operands. Variables compare by identity (`==` on a
Variable is not elementwise; use `read_value() == ...`), so they stay hashable. The classes live
in framework/, below the ops, so the ops install the operators here, once, when wengert is
imported. `a * b`, `a + b` and `a - b` of two eager tensors of one dtype are the hot path of
eager code: they call `execute` directly, without the operand conversion of `multiply`.
"""
from ..framework.execute import execute
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from . import indexing_ops, linalg_ops, math_ops, unary_ops
from .math_ops import ADD, MUL, SUB

__all__ = []


def _install_operators(cls):
    def reflected(fn):
        return lambda self, other: fn(other, self)
    binary = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
              "truediv": math_ops.divide, "floordiv": math_ops.floordiv,
              "mod": math_ops.floormod, "pow": math_ops.pow, "matmul": linalg_ops.matmul}
    for stem, fn in binary.items():
        setattr(cls, f"__{stem}__", lambda self, other, fn=fn: fn(self, other))
        setattr(cls, f"__r{stem}__", reflected(fn))
    comparisons = {"eq": math_ops.equal, "ne": math_ops.not_equal, "lt": math_ops.less,
                   "le": math_ops.less_equal, "gt": math_ops.greater,
                   "ge": math_ops.greater_equal}
    for stem, fn in comparisons.items():
        setattr(cls, f"__{stem}__", lambda self, other, fn=fn: fn(self, other))
    cls.__neg__ = lambda self: math_ops.negative(self)
    cls.__pos__ = lambda self: self if isinstance(self, Tensor) else self.read_value()
    cls.__abs__ = lambda self: unary_ops.abs(self)
    cls.__and__ = lambda self, other: math_ops.logical_and(self, other)
    cls.__rand__ = lambda self, other: math_ops.logical_and(other, self)
    cls.__or__ = lambda self, other: math_ops.logical_or(self, other)
    cls.__ror__ = lambda self, other: math_ops.logical_or(other, self)
    cls.__xor__ = lambda self, other: math_ops.logical_xor(self, other)
    cls.__invert__ = lambda self: math_ops.logical_not(self)


call_binary = math_ops.call_binary


def _install_fast_paths():
    """Tensor.__mul__ etc. are hot: bind the common Tensor-Tensor case without lambdas."""
    def mul(self, other):
        if type(other) is Tensor and self._value.dtype is other._value.dtype:
            return execute(MUL, (self, other))
        return call_binary(MUL, self, other, None)

    def add_(self, other):
        if type(other) is Tensor and self._value.dtype is other._value.dtype:
            return execute(ADD, (self, other))
        return call_binary(ADD, self, other, None)

    def sub(self, other):
        if type(other) is Tensor and self._value.dtype is other._value.dtype:
            return execute(SUB, (self, other))
        return call_binary(SUB, self, other, None)
    Tensor.__mul__, Tensor.__add__, Tensor.__sub__ = mul, add_, sub


_install_operators(Tensor)
_install_operators(Variable)
Variable.__eq__ = object.__eq__  # variables compare by identity (use read_value() == ...)
Variable.__ne__ = object.__ne__
Variable.__hash__ = object.__hash__
_install_fast_paths()
Tensor.__getitem__ = indexing_ops.getitem
