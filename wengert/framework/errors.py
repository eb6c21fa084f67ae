"""Errors raised by ops, in TensorFlow's names (`wengert.errors.InvalidArgumentError`...).

Each error is also the matching Python built-in (`InvalidArgumentError` is a `ValueError`), so
code that catches the built-in keeps working. Messages name the op, the shapes or dtypes involved
and what to do about it. Each class's `error_code` is TensorFlow's status code (OK = 0 through
UNAUTHENTICATED = 16, module constants), and `error_code_from_exception_type` /
`exception_type_from_error_code` map between them; CancelledError, UnknownError,
DeadlineExceededError, UnauthenticatedError, UnavailableError and InternalError exist for the
programs that raise or catch them (no wengert op raises them). Every class is made as
TensorFlow makes it, `InvalidArgumentError(node_def, op, message, *args)` and
`OpError(node_def, op, message, error_code)`, or as wengert raises its own, with the message
first: `InvalidArgumentError(message)` or `(message, op)` (no third argument).
"""

import re
import sys
import warnings

__all__ = ["OpError", "InvalidArgumentError", "FailedPreconditionError", "UnimplementedError",
           "NotFoundError", "DataLossError", "OutOfRangeError", "AbortedError",
           "ResourceExhaustedError", "OperatorNotAllowedInGraphError", "AlreadyExistsError",
           "PermissionDeniedError", "CancelledError", "UnknownError", "DeadlineExceededError",
           "UnauthenticatedError", "UnavailableError", "InternalError", "OK", "CANCELLED",
           "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
           "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
           "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
           "UNAUTHENTICATED", "error_code_from_exception_type", "exception_type_from_error_code",
           "raise_exception_on_not_ok_status", "public_caller", "naming_caller"]


class OpError(Exception):
    """An op could not run. `.op` is the op record when there is one, `.node_def` TensorFlow's
    NodeDef when one was given, `.error_code` the status code (module docstring for the two
    ways to make one)."""

    error_code = 2  # UNKNOWN, unless a class or the constructor says otherwise

    def __init__(self, node_def, op=None, message=None, error_code=None, *args):
        if message is None:  # wengert's OpError(message[, op])
            node_def, message = None, node_def
        # str(error) names the public function the user called, unless the message starts with
        # a name; `.message` is the text as given (for wrappers that prefix the op type).
        super().__init__(_with_caller(message))
        self.node_def, self.op, self.message, self.extras = node_def, op, message, args
        if error_code is not None:
            self.error_code = error_code


class _StatusError(OpError):
    """An error of one status code (its class's), made as TensorFlow makes it:
    `Class(node_def, op, message, *args)`, or `Class(message[, op])`."""

    def __init__(self, node_def, op=None, message=None, *args):
        super().__init__(node_def, op, message, None, *args)


class InvalidArgumentError(_StatusError, ValueError):
    """Bad shapes, dtypes or values given to an op."""


class FailedPreconditionError(_StatusError, RuntimeError):
    """The op needs state that is not there yet, e.g. an uninitialized variable."""


class UnimplementedError(_StatusError, NotImplementedError):
    """The op does not support this case."""


class NotFoundError(_StatusError, LookupError):
    """A named thing (file, tensor, op) does not exist."""


class DataLossError(_StatusError, IOError):
    """A file is truncated or corrupted."""


class OutOfRangeError(_StatusError, IndexError):
    """Past the end: an iterator's `get_next()` after its last element, a read beyond a
    TensorArray's size."""


class AbortedError(_StatusError, RuntimeError):
    """An operation gave up because another participant failed (a rank of a distributed job)."""


class AlreadyExistsError(_StatusError, FileExistsError):
    """The thing to create (a file, a directory entry) exists already."""


class PermissionDeniedError(_StatusError, PermissionError):
    """The caller may not do this (a file it may not read or write)."""


class ResourceExhaustedError(_StatusError, MemoryError):
    """The op would need more memory than the machine has (raised before allocating)."""


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor used as a Python bool (an `if` or `while` on it) while a graph is built,
    where its value is not known yet."""


# -- TensorFlow's status codes, and the errors no wengert op raises --------------------------------
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16


class _RaisedByPrograms(_StatusError):
    """An error TensorFlow's runtime raises and programs raise or catch themselves."""


class CancelledError(_RaisedByPrograms):
    """An operation was cancelled (a queue closed with cancel_pending_enqueues, a step
    stopped)."""


class UnknownError(_RaisedByPrograms):
    """An error with no better class (an exception raised inside a Python function op)."""


class DeadlineExceededError(_RaisedByPrograms):
    """An operation ran past its deadline (RunOptions.timeout_in_ms)."""


class UnauthenticatedError(_RaisedByPrograms):
    """The request has no valid credentials."""


class UnavailableError(_RaisedByPrograms):
    """A service (a remote worker) is unavailable for now; retrying may help."""


class InternalError(_RaisedByPrograms):
    """The runtime broke one of its own invariants."""


_CODES = {CancelledError: CANCELLED, UnknownError: UNKNOWN,
          InvalidArgumentError: INVALID_ARGUMENT, DeadlineExceededError: DEADLINE_EXCEEDED,
          NotFoundError: NOT_FOUND, AlreadyExistsError: ALREADY_EXISTS,
          PermissionDeniedError: PERMISSION_DENIED, ResourceExhaustedError: RESOURCE_EXHAUSTED,
          FailedPreconditionError: FAILED_PRECONDITION, AbortedError: ABORTED,
          OutOfRangeError: OUT_OF_RANGE, UnimplementedError: UNIMPLEMENTED,
          InternalError: INTERNAL, UnavailableError: UNAVAILABLE, DataLossError: DATA_LOSS,
          UnauthenticatedError: UNAUTHENTICATED}
for _cls, _code in _CODES.items():
    _cls.error_code = _code


def error_code_from_exception_type(cls):
    """The status code of an OpError class (UNKNOWN, with a warning, for another class)."""
    if cls not in _CODES:
        warnings.warn("Unknown class exception")
    return _CODES.get(cls, UNKNOWN)


def exception_type_from_error_code(error_code):
    """The OpError class of a status code (UnknownError, with a warning, for an unknown one)."""
    for cls, code in _CODES.items():
        if code == error_code:
            return cls
    warnings.warn(f"Unknown error code: {error_code}")
    return UnknownError


class raise_exception_on_not_ok_status:  # noqa: N801 (TensorFlow's name)
    """TensorFlow 1's context for calls into its C library returning a status; wengert's calls
    raise their errors themselves, so the context only passes them on."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

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
