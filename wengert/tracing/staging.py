"""Errors raised while a `tf.function` traces its Python function (TensorFlow's StagingError).

A traced function that calls itself with tensor arguments traces itself again inside every
call, since its Python code cannot see the tensors' values: nothing ends the recursion and
Python's recursion limit stops it. TensorFlow raises `StagingError` for this, listing the user's
frames ("in user code:") above the RecursionError; here the outermost trace raises it, with each
distinct line of user code once and how many times it recurred, instead of a thousand frames.
"""
import linecache
import os
import threading

__all__ = ["StagingError", "tracing_depth", "recursion_error"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class StagingError(Exception):
    """An error raised while tracing a Python function into a graph (TensorFlow's
    autograph StagingError)."""


class _Depth(threading.local):
    value = 0


tracing_depth = _Depth()


def _user_frames(tb):
    """[(file, line, function, times)] of the user's frames in traceback `tb`, in first-seen
    order."""
    seen = {}
    while tb is not None:
        code = tb.tb_frame.f_code
        path = os.path.abspath(code.co_filename)
        if not path.startswith(_PACKAGE) and not code.co_filename.startswith("<"):
            key = (code.co_filename, tb.tb_lineno, code.co_name)
            seen[key] = seen.get(key, 0) + 1
        tb = tb.tb_next
    return [(*key, times) for key, times in seen.items()]


def recursion_error(fn_name, err):
    """The StagingError for a trace of `fn_name` that ran out of Python's recursion limit."""
    lines = []
    for path, line, name, times in _user_frames(err.__traceback__):
        source = linecache.getline(path, line).strip()
        again = f"  (repeated {times} times)" if times > 1 else ""
        lines.append(f'    File "{path}", line {line}, in {name}  *{again}\n        {source}')
    return StagingError(
        "in user code:\n\n" + "\n".join(lines) + f"\n\n    RecursionError: {err}\n\n"
        f"Tracing {fn_name} did not terminate: a tf.function that calls itself with tensor "
        "arguments traces itself again on every call, because the tensors' values are not known "
        "while tracing. End the recursion on Python values (each value is traced once), or "
        "write the loop with tf.while_loop (or a `while` over tensors, which AutoGraph "
        "converts).")
