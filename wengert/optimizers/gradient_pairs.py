"""Checking the (gradient, variable) pairs an optimizer is given, before anything changes.

`checked_pairs` drops None gradients (with a warning naming their variables; all None is a
ValueError that explains why each variable got none), converts each gradient to a tensor, and
raises a ValueError naming the variable when a gradient's shape differs from its variable's. A
floating or integer gradient of another dtype than its floating variable is cast to the
variable's dtype, as Keras does; any other dtype mismatch is a TypeError. Nothing is cast until
every pair has passed.
"""
import warnings

from ..autodiff.explain import describe_missing
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import cast

__all__ = ["checked_pairs", "check_pair_types"]


def check_pair_types(pairs):
    """Raise unless every entry is a (gradient, Variable) pair."""
    if not pairs:
        raise ValueError("apply_gradients: no (gradient, variable) pairs were given.")
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"apply_gradients expects (gradient, variable) pairs, e.g. "
                            f"zip(grads, variables); got {pair!r}.")
        if not isinstance(pair[1], Variable):
            raise TypeError(f"apply_gradients: {pair[1]!r} is not a Variable; only variables "
                            "can be updated.")


def checked_pairs(pairs):
    """(gradients, variables) with None gradients dropped (with a warning), each gradient a
    tensor of its variable's dtype and shape; raises before any change on a mismatch. `pairs`
    have passed check_pair_types."""
    missing_vars = [v for g, v in pairs if g is None]
    missing = [v.name for v in missing_vars]
    if len(missing) == len(pairs):
        raise ValueError(f"No gradients provided for any variable: {missing}. Check that the "
                         "loss depends on the variables through differentiable ops, computed "
                         "inside the GradientTape.\n" + describe_missing(missing_vars))
    if missing:
        warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                      "loss; they are not updated. If using `model.compile()`, did you forget "
                      "to provide a `loss` argument?\n" + describe_missing(missing_vars),
                      stacklevel=3)
    grads, variables = [], []
    for grad, var in pairs:
        if grad is None:
            continue
        if type(grad) is not IndexedSlices:
            grad = convert_to_tensor(grad)
        if not var.shape.is_compatible_with(grad.shape):
            raise ValueError(f"apply_gradients: the gradient for variable '{var.name}' has "
                             f"shape {grad.shape}, but the variable has shape {var.shape}; "
                             "no variable was updated.")
        if grad.dtype is not var.dtype:
            numeric = grad.dtype.is_floating or grad.dtype.is_integer
            if not (numeric and var.dtype.is_floating):  # integers cast, as Keras does
                raise TypeError(f"apply_gradients: the gradient for variable '{var.name}' has "
                                f"dtype {grad.dtype.name}, but the variable is "
                                f"{var.dtype.name}; no variable was updated.")
            grad = (grad, var.dtype)  # cast below, once everything is checked
        grads.append(grad)
        variables.append(var)
    grads = [_cast(*g) if isinstance(g, tuple) else g for g in grads]
    return grads, variables


def _cast(grad, dtype):
    if type(grad) is IndexedSlices:
        return IndexedSlices._of(cast(grad.values, dtype), grad.indices, grad._static, grad._like)
    return cast(grad, dtype)


