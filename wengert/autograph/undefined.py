"""Values that stand for "not defined (yet)" in converted code, and where in the user's source an
operator was called from.

`Undefined(name)` starts a variable that a converted statement may define but that no path
defines before it; `ld(value)` reads a variable that may still be undefined and raises the error
Python would have raised. `UndefinedReturnValue()` is the return value of a function before any
`return` ran; `ret(value)` turns it into None at the end.
"""
import linecache
import sys

from .conversion import is_converted_code

__all__ = ["Undefined", "UndefinedReturnValue", "ld", "ret", "is_undefined", "user_location"]


class Undefined:
    """The value of variable `symbol_name` before anything assigned it."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError(f"'{self.symbol_name}' is used before assignment{user_location()}"
                                ": it is not defined on every path that reaches this read.")

    def __repr__(self):
        return f"<undefined '{self.symbol_name}'>"

    def __getattr__(self, name):
        self.read()

    def __bool__(self):
        self.read()

    def __iter__(self):
        self.read()


class UndefinedReturnValue:
    """The return value of a converted function before a `return` statement ran."""

    __slots__ = ()

    def __repr__(self):
        return "<no return value>"


def is_undefined(value):
    return isinstance(value, (Undefined, UndefinedReturnValue))


def ld(value):
    """`value`, unless it is Undefined: then the error for reading an undefined variable."""
    if type(value) is Undefined:
        value.read()
    return value


def ret(value):
    """The function's result: None when no return statement ran."""
    return None if type(value) is UndefinedReturnValue else value


def user_location():
    """' (file, line N: `source`)' for the innermost frame of converted code on the stack, or
    '' when there is none. Converted code keeps the user's file and line numbers."""
    frame = sys._getframe(1)
    while frame is not None:
        if is_converted_code(frame.f_code):
            line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            text = f": `{line}`" if line else ""
            return f" (at {frame.f_code.co_filename}, line {frame.f_lineno}{text})"
        frame = frame.f_back
    return ""
