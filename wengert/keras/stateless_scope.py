"""`keras.StatelessScope`: a block in which Keras variables are read from a mapping and never
written.

    with keras.StatelessScope([(variable, value), ...]) as scope:
        outputs = model(x)                    # reads `value` wherever `variable` is read
    new = scope.get_current_value(variable)   # what an assign inside the block would have set

Inside the scope a Keras variable (layers' weights, `keras.Variable`) given a value in
`state_mapping` reads as that tensor: ops on it are recorded on tapes as ops on the tensor, so
the gradient of the outputs flows to the values passed in, not to the variable (Keras 3 on
TensorFlow does the same). `assign`, `assign_add` and `assign_sub` leave the variable alone and
record the new value in the scope (later reads in the block see it); a variable without a
mapping reads its own value. (`variable.value` given as a value, Keras 3's property, is a bound
method in wengert, where tf.Variable.value() is one: the variable is read.) Values are converted to the variable's dtype; a Variable given as a
value is read when the scope is made. A value whose shape differs from its variable's raises
ValueError before the scope is entered. Scopes nest: the innermost one is the current one.
`Layer.stateless_call` is built on it (layers/functional_calls.py).
"""
import threading

import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import cast

__all__ = ["StatelessScope", "in_stateless_scope", "get_stateless_scope"]


class _Current(threading.local):
    scope = None


_current = _Current()


def get_stateless_scope():
    """The innermost active StatelessScope, or None."""
    return _current.scope


def in_stateless_scope():
    return _current.scope is not None


def _as_value(variable, value):
    """`value` as a tensor of `variable`'s dtype (a Variable is read now)."""
    dtype = dtypes.as_dtype(variable.dtype)
    if isinstance(getattr(value, "__self__", None), Variable):  # `v.value`, Keras 3's property
        value = value.__self__
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        return value if value.dtype is dtype else cast(value, dtype)
    return convert_to_tensor(np.asarray(value, dtype.as_numpy_dtype))


class StatelessScope:
    """Scope in which Keras variables read from `state_mapping` ([(variable, value), ...])
    and are never assigned; `get_current_value(variable)` gives the latest value in the scope
    (None for a variable that was neither mapped nor assigned)."""

    def __init__(self, state_mapping=None, collect_losses=False, initialize_variables=True):
        self.collect_losses = bool(collect_losses)
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}
        for key, value in state_mapping or ():
            if not isinstance(key, Variable):
                raise ValueError("Invalid reference variable in StatelessScope: all keys in "
                                 f"argument `mapping` must be Variable instances. Received "
                                 f"instead: {key}")
            value = _as_value(key, value)
            if tuple(key.shape) != tuple(value.shape):
                raise ValueError("Invalid variable value in StatelessScope: all values in "
                                 "argument `mapping` must be tensors with a shape that matches "
                                 f"the corresponding variable shape. For variable {key}, "
                                 f"received invalid value {value} with shape {value.shape}.")
            self.state_mapping[id(key)] = value
        self._outer = None

    def __enter__(self):
        self._outer, _current.scope = _current.scope, self
        return self

    def __exit__(self, *exc):
        _current.scope, self._outer = self._outer, None

    def add_loss(self, loss):
        self.losses.append(loss)

    def add_update(self, update):
        """Record `(variable, value)` as the variable's value from now on in the scope."""
        variable, value = update
        self.state_mapping[id(variable)] = _as_value(variable, value)

    def get_current_value(self, variable):
        return self.state_mapping.get(id(variable))


def scoped_value(variable):
    """The value the current scope gives `variable` (None outside a scope or unmapped)."""
    scope = _current.scope
    return None if scope is None else scope.state_mapping.get(id(variable))
