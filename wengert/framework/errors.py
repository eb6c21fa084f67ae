"""Errors raised by ops, in TensorFlow's names (`wengert.errors.InvalidArgumentError`...).

Each error is also the matching Python built-in (`InvalidArgumentError` is a `ValueError`), so
code that catches the built-in keeps working. Messages name the op, the shapes or dtypes involved
and what to do about it.
"""

import re
import sys

__all__ = ["OpError", "InvalidArgumentError", "FailedPreconditionError", "UnimplementedError",
           "NotFoundError", "DataLossError", "OutOfRangeError", "AbortedError",
           "ResourceExhaustedError", "OperatorNotAllowedInGraphError", "AlreadyExistsError",
           "PermissionDeniedError", "public_caller", "naming_caller"]


class OpError(Exception):
    """An op could not run. `.op` is the op record when there is one."""

    def __init__(self, message, op=None):
        # str(error) names the public function the user called, unless the message starts with
        # a name; `.message` is the text as given (for wrappers that prefix the op type).
        super().__init__(_with_caller(message))
        self.op = op
        self.message = message


class InvalidArgumentError(OpError, ValueError):
    """Bad shapes, dtypes or values given to an op."""


class FailedPreconditionError(OpError, RuntimeError):
    """The op needs state that is not there yet, e.g. an uninitialized variable."""


class UnimplementedError(OpError, NotImplementedError):
    """The op does not support this case."""


class NotFoundError(OpError, LookupError):
    """A named thing (file, tensor, op) does not exist."""


class DataLossError(OpError, IOError):
    """A file is truncated or corrupted."""


class OutOfRangeError(OpError, IndexError):
    """Past the end: an iterator's `get_next()` after its last element, a read beyond a
    TensorArray's size."""


class AbortedError(OpError, RuntimeError):
    """An operation gave up because another participant failed (a rank of a distributed job)."""


class AlreadyExistsError(OpError, FileExistsError):
    """The thing to create (a file, a directory entry) exists already."""


class PermissionDeniedError(OpError, PermissionError):
    """The caller may not do this (a file it may not read or write)."""


class ResourceExhaustedError(OpError, MemoryError):
    """The op would need more memory than the machine has (raised before allocating)."""


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor used as a Python bool (an `if` or `while` on it) while a graph is built,
    where its value is not known yet."""


# -- naming the op the user called, on the error path ---------------------------------------------
# An error raised deep inside wengert (a conversion, a validation helper, a kernel) names the
# public function the user called, found by walking the stack when the error is made: the
# outermost frame running a public wengert function (one reachable as a public attribute of a
# wengert module: tf.reduce_sum, tf.nn.relu, ...; not methods such as Session.run) before the
# user's own code. Errors only: nothing here runs on the success path.
_PUBLIC = {"modules": -1, "codes": {}}
_LAYERS = {"framework", "ops", "autodiff", "graph", "util"}  # internals, not namespaces
_NAMED = re.compile(r"^[A-Za-z][\w.]*(:| \(op ')")  # "Sum: ..." or "Sum (op 'x') ..."


def _public_codes():
    """{code object: public name} for every function of wengert's namespace modules (the
    package, tf.math, tf.nn, tf.keras..., not the internal layers)."""
    if _PUBLIC["modules"] != len(sys.modules):
        codes = {}
        for name, module in list(sys.modules.items()):
            parts = name.split(".")
            if module is None or parts[0] != "wengert" or parts[1:2] and parts[1] in _LAYERS:
                continue
            for attr, value in list(vars(module).items()):
                code = getattr(getattr(value, "__wrapped__", value), "__code__", None)
                if code is not None and not attr.startswith("_") and not attr.endswith("_"):
                    # a function's own name wins over an alias (`range as range_` elsewhere),
                    # whatever order the modules were imported in
                    own = getattr(value, "__name__", attr)
                    if own == attr or code not in codes:
                        codes[code] = attr
        _PUBLIC["codes"], _PUBLIC["modules"] = codes, len(sys.modules)
    return _PUBLIC["codes"]


def public_caller(value=_PUBLIC, frame=None):
    """(function, argument) for an error raised inside wengert: `function` is the public wengert
    function the user's code called (else the outermost function of an op family module, for
    code that calls those directly), `argument` the name of its parameter holding `value` (by
    identity; None if not given or not found). (None, None) when neither is on the stack."""
    frame = frame or sys._getframe(1)
    codes = _public_codes()
    public = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module == "wengert" or module.startswith("wengert."):
            if frame.f_code in codes or (module.startswith("wengert.ops.")
                                         and frame.f_code.co_name[0].isalpha()):
                public = frame
        elif public is not None:
            break
        frame = frame.f_back
    if public is None:
        return None, None
    code = public.f_code
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    argument = next((p for p in params if public.f_locals.get(p, _PUBLIC) is value), None)
    return codes.get(code, code.co_name), argument


def naming_caller(exc, value=_PUBLIC):
    """`exc` (a TypeError, ValueError or OpError) again, its message starting with the public
    function the user called and the argument holding `value`, unless it starts with a name."""
    text = str(exc)
    if _NAMED.match(text):
        return exc
    function, argument = public_caller(value, sys._getframe(1))
    if function is None:
        return exc
    where = f"{function}, argument '{argument}'" if argument else function
    return type(exc)(f"{where}: {text}")


def _with_caller(message):
    if not isinstance(message, str) or _NAMED.match(message):
        return message
    function, _ = public_caller(frame=sys._getframe(2))
    return f"{function}: {message}" if function else message
