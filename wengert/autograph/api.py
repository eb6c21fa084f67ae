"""`tf.autograph`: converting functions by hand, seeing the converted code, opting out, and the
entry point `tf.function` uses when it traces.

- `to_graph(f)` returns the converted function: run eagerly it behaves as `f`; called while a
  graph is built, its control flow on tensors builds `cond`/`while_loop` ops.
- `to_code(f)` returns the converted source as text.
- `do_not_convert(f)` marks `f` so that converted code calls it as it is.
- `experimental.set_loop_options(...)` is a directive read by the converter from a loop body
  (shape invariants, maximum iterations); called anywhere else it does nothing.
- `for_function(f)` is what `tf.function(autograph=True)` traces: the converted `f`, whose
  errors carry a note listing the user's frames ("in user code:"), or `f` itself with a warning
  when it cannot be converted.
"""
import enum
import functools
import linecache
import sys
import types

from .calls import DO_NOT_CONVERT, conversion_target, unconverted_call, warn_unconverted
from .conversion import ConversionError, convert, converted_source, is_converted_code

__all__ = ["to_graph", "to_code", "do_not_convert", "set_loop_options", "Feature",
           "set_verbosity", "trace", "for_function"]


class Feature(enum.Enum):
    """TensorFlow's optional AutoGraph features. wengert's converter applies its one set of
    conversions whichever are named; the option is checked as TensorFlow reads it (one Feature
    or an iterable of them)."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def _function_of(entity):
    if isinstance(entity, types.MethodType):
        return entity.__func__
    inner = getattr(entity, "python_function", None)  # a tf.function
    if inner is not None and not isinstance(entity, types.FunctionType):
        return _function_of(inner)
    if not isinstance(entity, types.FunctionType):
        raise TypeError(f"tf.autograph expects a Python function or method, got {entity!r:.80}.")
    return entity


def _features(features):
    """experimental_optional_features: None, a Feature, or an iterable (TensorFlow's TypeError
    for anything else); see Feature."""
    if features is not None and not isinstance(features, Feature):
        frozenset(features)


def _shallow_runtime():
    """`ag__` for to_graph(recursive=False): the calls in the converted code run their functions
    as they are (builtins keep their tensor-aware versions), as TensorFlow's non-recursive
    conversion does."""
    runtime = types.SimpleNamespace(**vars(sys.modules[__package__ + ".ag"]))
    runtime.converted_call = unconverted_call
    return runtime


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The converted version of the function or method `entity`; with recursive=False the
    functions it calls are not converted. experimental_optional_features: see Feature."""
    _features(experimental_optional_features)
    fn = _function_of(entity)
    try:
        new = convert(fn, None if recursive else _shallow_runtime())
    except ConversionError as err:
        raise ValueError(f"tf.autograph.to_graph could not convert {fn!r}: {err}") from None
    if isinstance(entity, types.MethodType):
        return types.MethodType(new, entity.__self__)
    return new


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source code of the converted `entity`, as a string. The text is the same whatever
    `recursive` says: it decides which called functions convert when the code runs (to_graph);
    experimental_optional_features: see Feature."""
    del recursive
    _features(experimental_optional_features)
    fn = _function_of(entity)
    try:
        return converted_source(fn)
    except ConversionError as err:
        raise ValueError(f"tf.autograph.to_code could not convert {fn!r}: {err}") from None


def do_not_convert(func=None):
    """Decorator: converted code calls `func` unconverted (tf.function traces it as it is)."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    setattr(wrapper, DO_NOT_CONVERT, True)
    return wrapper


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Options for the loop whose body calls this (read by the converter; a no-op at run time):
    `shape_invariants=[(variable, shape)]` lets a loop variable's shape change, and
    `maximum_iterations` bounds the loop. At run time it does nothing, as TensorFlow's: the
    converter reads the options from the call's source, and parallel_iterations and
    swap_memory change no result on a CPU (control_flow/loop_options.py)."""
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


def set_verbosity(level, alsologtostdout=False):
    """Accepted for TensorFlow compatibility (AutoGraph here logs nothing)."""


def trace(*args):
    """Print the arguments (TensorFlow's debugging helper)."""
    print(*args)


def for_function(fn):
    """The function `tf.function(autograph=True)` traces for `fn` (see the module docstring)."""
    if getattr(fn, DO_NOT_CONVERT, False):
        return fn
    func = fn.__func__ if isinstance(fn, types.MethodType) else fn
    if isinstance(func, types.FunctionType) and is_converted_code(func.__code__):
        return fn
    if isinstance(func, types.FunctionType):
        try:
            new = convert(func)
        except ConversionError as err:
            warn_unconverted(func, err)
            return fn
        if isinstance(fn, types.MethodType):
            new = types.MethodType(new, fn.__self__)
    else:
        new = conversion_target(fn)
        if new is None:
            return fn
    return _noting_user_frames(new)


def _noting_user_frames(fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as err:
            _add_user_frames(err)
            raise
    return run


def _add_user_frames(err):
    """Add a note naming the user's frames the error passed through (their files and lines)."""
    if getattr(err, "_ag_noted", False):
        return
    lines = []
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_converted_code(code):
            source = linecache.getline(code.co_filename, tb.tb_lineno).strip()
            lines.append(f'    File "{code.co_filename}", line {tb.tb_lineno}, in '
                         f'{code.co_name}\n        {source}')
        tb = tb.tb_next
    if lines:
        try:
            err.add_note("in user code:\n\n" + "\n".join(lines))
            err._ag_noted = True
        except (AttributeError, TypeError):
            pass
