"""Keras 3's `optimizer.stateless_apply(optimizer_variables, grads, trainable_variables)`:
one optimizer step on given values instead of on the variables' own.

The optimizer must be built. Its variables (`optimizer.variables`: iterations, learning rate,
slots, in order) are set to `optimizer_variables` and the variables it was built with to
`trainable_variables`; one `apply(grads)` runs; the values it leaves are read, and every
variable gets back the value it had before. The answer is (new trainable values, new
optimizer values), lists of tensors in the same orders: a pure function of its arguments.
"""
import numpy as np

from ..framework.tensor import constant

__all__ = ["stateless_apply"]


def _values(variables):
    return [constant(np.array(v.numpy())) for v in variables]


def _check(optimizer, optimizer_variables, trainable_variables):
    name = type(optimizer).__name__
    if not optimizer.built:
        raise ValueError(f"{name}.stateless_apply: the optimizer must be built first; call "
                         "optimizer.build(trainable_variables).")
    for given, wanted, what in ((optimizer_variables, optimizer.variables, "optimizer"),
                                (trainable_variables, optimizer._seen, "trainable")):
        if len(given) != len(wanted):
            raise ValueError(f"{name}.stateless_apply: expected {len(wanted)} {what} variable "
                             f"values (in the order of the variables), got {len(given)}.")


def stateless_apply(optimizer, optimizer_variables, grads, trainable_variables):
    """(new trainable values, new optimizer values) of one step; nothing changes."""
    optimizer_variables, trainable_variables = list(optimizer_variables), list(
        trainable_variables)
    _check(optimizer, optimizer_variables, trainable_variables)
    own, targets = list(optimizer.variables), list(optimizer._seen)
    saved = _values(own), _values(targets)
    try:
        for variable, value in zip(own + targets, optimizer_variables + trainable_variables):
            variable.assign(value)
        optimizer.apply(list(grads), targets)
        return _values(targets), _values(own)
    finally:
        for variable, value in zip(own + targets, saved[0] + saved[1]):
            variable.assign(value)
