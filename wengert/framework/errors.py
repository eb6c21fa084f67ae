"""Errors raised by ops, in TensorFlow's names (`wengert.errors.InvalidArgumentError`...).

Each error is also the matching Python built-in (`InvalidArgumentError` is a `ValueError`), so
code that catches the built-in keeps working. Messages name the op, the shapes or dtypes involved
and what to do about it.
"""

__all__ = ["OpError", "InvalidArgumentError", "FailedPreconditionError", "UnimplementedError",
           "NotFoundError", "DataLossError", "OutOfRangeError", "AbortedError"]


class OpError(Exception):
    """An op could not run. `.op` is the op record when there is one."""

    def __init__(self, message, op=None):
        super().__init__(message)
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
