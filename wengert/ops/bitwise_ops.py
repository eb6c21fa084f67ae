"""tf.bitwise: and, or, xor, invert (not) and shifts of integer tensors, elementwise.

The results are integers, which carry no gradient: every op here is registered as not
differentiable, as in TensorFlow. Shifts follow TensorFlow's kernels: the shift amount is clamped
to [0, bits - 1] of the dtype, so shifting an int8 by 8 or more shifts by 7 and a negative shift
amount shifts by 0; right shifts of signed integers are arithmetic (they copy the sign bit).
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute, named_operands
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from . import shape_rules

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]


def _check_integer(op_type, x):
    if not x.dtype.is_integer:
        raise InvalidArgumentError(f"{op_type} needs integer tensors, got {x.dtype.name}; cast "
                                   "to an integer dtype first.")


def _integer_pair_rule(op_type):
    def rule(x, y, **_):
        _check_integer(op_type, x)
        return shape_rules.broadcast(x, y)
    return rule


def _integer_rule(x, **_):
    _check_integer("Invert", x)
    return x.shape, x.dtype


def _clamped_shift(ufunc):
    def kernel(x, y):
        bits = np.iinfo(x.dtype).bits
        return ufunc(x, np.clip(y, 0, bits - 1).astype(x.dtype)).astype(x.dtype, copy=False)
    return kernel


def _binary(op_type, kernel, fn_name, doc):
    op_def = defop(op_type, kernel, shape=_integer_pair_rule(op_type), grad=None, args=("x", "y"))

    def fn(x, y, name=None):
        x, y, name = named_operands(x, y, op_type, name)
        _check_integer(op_type, x)
        return execute(op_def, (x, y), name=name)
    fn.__name__ = fn.__qualname__ = fn_name
    fn.__doc__ = doc
    return op_def, fn


BITWISE_AND, bitwise_and = _binary("BitwiseAnd", np.bitwise_and, "bitwise_and", "x & y.")
BITWISE_OR, bitwise_or = _binary("BitwiseOr", np.bitwise_or, "bitwise_or", "x | y.")
BITWISE_XOR, bitwise_xor = _binary("BitwiseXor", np.bitwise_xor, "bitwise_xor", "x ^ y.")
LEFT_SHIFT, left_shift = _binary("LeftShift", _clamped_shift(np.left_shift), "left_shift",
                                 "x << y, with y clamped to [0, bits - 1].")
RIGHT_SHIFT, right_shift = _binary("RightShift", _clamped_shift(np.right_shift), "right_shift",
                                   "x >> y (arithmetic for signed x), y clamped to [0, bits - 1].")
INVERT = defop("Invert", np.invert, shape=_integer_rule, grad=None, args=("x",))


def invert(x, name=None):
    """~x: every bit flipped."""
    x = convert_to_tensor(x)
    _check_integer("Invert", x)
    return execute(INVERT, (x,), name=name)
