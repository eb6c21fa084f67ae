"""Keras's interactive logging switch: whether progress and messages go to stdout.

`enable_interactive_logging()` (the default) prints Keras's messages (progress bars, "Found N
files ...") on stdout; `disable_interactive_logging()` sends them to Python's `logging` at
INFO level instead (logger "keras"); `is_interactive_logging_enabled()` says which is on.
`print_msg` is what Keras's utilities call to say something.
"""
import logging
import sys

__all__ = ["enable_interactive_logging", "disable_interactive_logging",
           "is_interactive_logging_enabled", "print_msg"]

_STATE = {"interactive": True}


def enable_interactive_logging():
    """Print Keras's messages on stdout."""
    _STATE["interactive"] = True


def disable_interactive_logging():
    """Send Keras's messages to the "keras" logger (INFO) instead of stdout."""
    _STATE["interactive"] = False


def is_interactive_logging_enabled():
    """True while Keras's messages are printed on stdout."""
    return _STATE["interactive"]


def print_msg(message, line_break=True):
    """Say `message`: on stdout when interactive, else to the "keras" logger."""
    if _STATE["interactive"]:
        sys.stdout.write(message + ("\n" if line_break else ""))
        sys.stdout.flush()
    else:
        logging.getLogger("keras").info(message)
