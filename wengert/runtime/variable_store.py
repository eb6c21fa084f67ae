"""Where a running plan keeps eager variables' values: in the variables themselves.

`LIVE_VARIABLES` is the store a traced function's plan (and a control-flow op's sub-graph) reads
and writes: `read` hands out the variable's own array (the plan accounts for it when it plans its
buffers: buffer_planning.py), `write` replaces it after checking the shape, `update` applies an
AssignAdd/AssignSub ufunc, in place when the plan holds no other reference to the array and the
variable owns it, and `lend` marks an array that leaves the plan (a fetched value, or one a
stateful op keeps), so that the next update writes a new array. A Session's graph variables keep
their values in the session instead (session.py), with the same four methods.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.variables import variable_op_name


class _LiveVariables:
    """Variable storage for running a FuncGraph: the eager variables' own values. A plan reads
    a variable's array itself (the plan accounts for it: buffer_planning.plan_buffers) and lends the
    ones that leave it."""

    @staticmethod
    def read(var):
        return var._value

    @staticmethod
    def write(var, value):
        value = np.asarray(value, dtype=var._value.dtype)
        if value.shape != var._value.shape:
            raise InvalidArgumentError(
                f"Cannot assign a value of shape {value.shape} to variable "
                f"'{variable_op_name(var)}' of shape {var._value.shape}.")
        var._value = value  # the plan's or the caller's array: the variable does not own it

    @staticmethod
    def update(var, ufunc, value, in_place=False):
        """`var = ufunc(var, value)` (the AssignAdd/AssignSub kernels); returns the new value.
        With `in_place` (the plan holds no other reference to the variable's array) it changes
        the array itself when the variable owns it: no tensor can see the change, and a
        training step saves an allocation per weight."""
        array = var._value
        if (in_place and var._owns_value() and value.dtype == array.dtype
                and (value.shape == array.shape or not value.ndim)):
            ufunc(array, value, out=array)
            return array
        new = np.asarray(ufunc(array, value))  # (a 0-d result is a NumPy scalar)
        _LiveVariables.write(var, new)
        var._own(new)
        return new

    @staticmethod
    def lend(var):
        """A fetched value or a stateful op may keep the variable's array."""
        var._disown()


LIVE_VARIABLES = _LiveVariables()

