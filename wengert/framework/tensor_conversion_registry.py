"""`tf.register_tensor_conversion_function`: user functions that turn objects of their own
types into tensors, which `convert_to_tensor` (and so every op) consults.

A registration is (base types, function, priority). For a value that is not already a tensor,
the functions whose base types the value's type subclasses run in increasing priority (equal
priorities in registration order); each is called as `fn(value, dtype=, name=, as_ref=False)`
and the first result that is not NotImplemented is the tensor. As in TensorFlow:
- a result that is not a tensor is a RuntimeError, and so is a tensor of another dtype than the
  one asked for;
- with only a preferred dtype (`dtype_hint`), a function is first asked for that dtype; if it
  raises TypeError or ValueError it is asked again with no dtype;
- Python numbers and NumPy scalars and arrays cannot be given conversions (TypeError);
- TensorFlow's own default conversion (a constant) sits at priority 200, so a function
  registered at 200 or above never runs for an object a constant can hold, nor is reached past
  one it cannot (the constant's error stands).
The table is consulted only while it holds a registration, so ordinary conversions pay one test.
"""
import collections
import threading

import numpy as np

from . import dtypes

__all__ = ["register_tensor_conversion_function", "conversion_functions", "convert_registered"]

DEFAULT_PRIORITY = 200  # TensorFlow's default conversion (a constant) runs at this priority
_UNREGISTRABLE = (int, float, np.generic, np.ndarray)

_LOCK = threading.Lock()
_REGISTRY = collections.defaultdict(list)  # priority -> [(base_type, function)]
_CACHE = {}
REGISTERED = [False]  # read by convert_to_tensor: is anything registered?


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Register `conversion_func(value, dtype=None, name=None, as_ref=False)` for instances of
    `base_type` (a type or a tuple of types); lower `priority` values run first."""
    base_types = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(not isinstance(t, type) for t in base_types):
        raise TypeError(f"register_tensor_conversion_function: argument `base_type` must be a "
                        f"type or a tuple of types. Obtained: {base_type}")
    if any(issubclass(t, _UNREGISTRABLE) for t in base_types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy "
                        "scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"register_tensor_conversion_function: argument `conversion_func` must "
                        f"be callable. Received {conversion_func}.")
    with _LOCK:
        _REGISTRY[priority].append((base_type, conversion_func))
        _CACHE.clear()
        REGISTERED[0] = True


def conversion_functions(query):
    """[(base_type, function)] that apply to instances of type `query`, in the order they run
    (those TensorFlow's default conversion would pre-empt left out)."""
    found = _CACHE.get(query)
    if found is None:
        with _LOCK:
            found = [(base, fn) for priority in sorted(_REGISTRY)
                     if priority < DEFAULT_PRIORITY
                     for base, fn in _REGISTRY[priority] if issubclass(query, base)]
            _CACHE[query] = found
    return found


def _checked(result, fn, base, want, name, tensor_type):
    if not isinstance(result, tensor_type):
        raise RuntimeError(f"{name + ': ' if name else ''}Conversion function {fn!r} for type "
                           f"{base} returned non-Tensor: {result!r}")
    if want is not None and result.dtype.base_dtype is not want:
        raise RuntimeError(f"{name + ': ' if name else ''}Conversion function {fn!r} for type "
                           f"{base} returned incompatible dtype: requested = {want.name}, "
                           f"actual = {result.dtype.base_dtype.name}")
    return result


def convert_registered(value, dtype, dtype_hint, name, tensor_type):
    """The tensor a registered function makes of `value`, or NotImplemented when none does."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    hint = None if dtype_hint is None or dtype is not None else dtypes.as_dtype(dtype_hint)
    for base, fn in conversion_functions(type(value)):
        result = None
        if hint is not None:
            try:
                result = fn(value, dtype=hint, name=name, as_ref=False)
            except (TypeError, ValueError):
                result = None
            else:
                if result is not NotImplemented:
                    _checked(result, fn, base, hint, name, tensor_type)
        if result is None:
            result = fn(value, dtype=dtype, name=name, as_ref=False)
        if result is not NotImplemented:
            return _checked(result, fn, base, dtype, name, tensor_type)
    return NotImplemented
