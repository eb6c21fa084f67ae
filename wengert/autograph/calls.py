"""`converted_call`: every call in converted code goes through it, and converts user code on the
way (TensorFlow's `recursive=True`), so control flow in helper functions works too.

For `converted_call(f, args, kwargs)`:
1. a builtin with a tensor-aware version (py_builtins.py: len, range, ...) runs that version;
2. a function or method marked `do_not_convert`, a class, a builtin, a generator function,
   a function produced by conversion, and anything from a library module (wengert itself, NumPy,
   SciPy, the standard library, ...) is called as it is;
3. any other Python function, bound method, `functools.partial` or object with a Python
   `__call__` is converted (conversion.py, cached) and the converted version is called.
A function that cannot be converted (no source, say) runs as it is, with one warning, as
TensorFlow's AutoGraph does.
"""
import functools
import inspect
import sys
import types
import warnings

from .conversion import ConversionError, convert, is_converted_code
from .py_builtins import OVERLOADS

__all__ = ["converted_call", "unconverted_call", "conversion_target", "DO_NOT_CONVERT",
           "warn_unconverted"]

DO_NOT_CONVERT = "__wengert_do_not_convert__"   # the attribute do_not_convert sets

_LIBRARIES = {"wengert", "numpy", "scipy", "tensorflow", "keras", "torch", "tqdm", "pytest",
              "_pytest", "pluggy", "threadpoolctl", "onnx", "onnxruntime", "sklearn"}
_LIBRARY_CACHE = {}
_WARNED = set()


def converted_call(f, args, kwargs):
    """Call `f(*args, **kwargs)` as converted code calls (see the module docstring)."""
    try:
        overload = OVERLOADS.get(f)
    except TypeError:  # an unhashable callable
        overload = None
    if overload is not None:
        return overload(*args, **(kwargs or {}))
    target = conversion_target(f)
    if target is None:
        return f(*args, **(kwargs or {}))
    return target(*args, **(kwargs or {}))


def unconverted_call(f, args, kwargs):
    """Call `f(*args, **kwargs)` as it is (its builtin overload still applies): the calls of
    code converted with recursive=False."""
    try:
        overload = OVERLOADS.get(f)
    except TypeError:  # an unhashable callable
        overload = None
    return (overload or f)(*args, **(kwargs or {}))


def _is_library(module):
    hit = _LIBRARY_CACHE.get(module)
    if hit is None:
        top = (module or "").split(".")[0]
        hit = _LIBRARY_CACHE[module] = (not module or top in _LIBRARIES
                                        or top in sys.stdlib_module_names)
    return hit


def conversion_target(f):
    """The converted callable to call instead of `f`, or None to call `f` itself."""
    if getattr(f, DO_NOT_CONVERT, False):
        return None
    if isinstance(f, types.FunctionType):
        return _converted_function(f)
    if isinstance(f, types.MethodType):
        func = f.__func__
        if not isinstance(func, types.FunctionType):
            return None
        new = _converted_function(func)
        return None if new is None else types.MethodType(new, f.__self__)
    if isinstance(f, functools.partial):
        inner = conversion_target(f.func)
        return None if inner is None else functools.partial(inner, *f.args, **f.keywords)
    if isinstance(f, (type, types.BuiltinFunctionType, types.BuiltinMethodType)):
        return None
    call = getattr(type(f), "__call__", None)
    if isinstance(call, types.FunctionType):
        new = _converted_function(call)
        return None if new is None else types.MethodType(new, f)
    return None


def _converted_function(fn):
    code = fn.__code__
    if is_converted_code(code) or _is_library(fn.__globals__.get("__name__")):
        return None  # the module that defined it (a decorator's wrapper keeps its own)
    if getattr(fn, DO_NOT_CONVERT, False):
        return None
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn) or \
            inspect.isasyncgenfunction(fn):
        return None
    try:
        return convert(fn)
    except ConversionError as err:
        warn_unconverted(fn, err)
        return None


def warn_unconverted(fn, err):
    """TensorFlow's warning for a function that runs as it is (once per function)."""
    if fn.__code__ in _WARNED:
        return
    _WARNED.add(fn.__code__)
    warnings.warn(f"AutoGraph could not transform {fn!r} and will run it as-is.\nCause: {err}\n"
                  "To silence this warning, decorate the function with "
                  "@tf.autograph.experimental.do_not_convert", stacklevel=3)
