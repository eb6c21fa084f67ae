"""`tf.print`: print tensors, eagerly or each time a graph runs.

Eagerly the values are formatted and written at once. While a graph or a traced function is
built, `tf.print` adds a PrintV2 op, stateful so that every run of the graph executes it (in
creation order with the other stateful ops), which formats the values it receives when it runs.

Formatting follows TensorFlow: arrays as nested brackets without commas, float32 with up to 9
significant digits, bools as 1/0, strings quoted inside arrays and bare as scalars; a dimension
longer than 2 * `summarize` shows its first and last `summarize` entries around "..."
(summarize=-1 shows everything). Non-tensor arguments (strings, numbers, lists and dicts holding
tensors) print as Python does, with their tensors formatted. `output_stream` is sys.stdout,
sys.stderr (the default), a file object, or "file://path" (appended to).
"""
import sys

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.registry import defop
from ...framework.tensor import Tensor, array_of
from ...framework.tensor_shape import TensorShape
from ...util import nest

__all__ = ["print_v2", "format_value"]


def _scalar(v, quote):
    if isinstance(v, bytes):
        text = v.decode("utf-8", "replace")
        return f'"{text}"' if quote else text
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.floating, float)):
        if isinstance(v, np.float64) or type(v) is float:
            return repr(float(v)).removesuffix(".0") if np.isfinite(v) else str(float(v))
        return f"{float(v):.9g}"
    return str(v)


def format_value(array, summarize=3):
    """TensorFlow's text for an array (see the module docstring)."""
    array = np.asarray(array)
    if array.ndim == 0:
        return _scalar(array[()], quote=False)
    limit = None if summarize is None or summarize < 0 else summarize

    def part(index, depth):  # explicit nesting over the array's dimensions
        size = array.shape[depth]
        picks = list(range(size))
        if limit is not None and size > 2 * limit:
            picks = list(range(limit)) + [None] + list(range(size - limit, size))
        items = []
        for i in picks:
            if i is None:
                items.append("...")
            elif depth == array.ndim - 1:
                items.append(_scalar(array[index + (i,)], quote=True))
            else:
                items.append(part(index + (i,), depth + 1))
        sep = " " if depth == array.ndim - 1 else "\n" + " " * (depth + 1)
        return "[" + sep.join(items) + "]"
    return part((), 0)


def _text(value, summarize):
    if isinstance(value, Tensor) or isinstance(value, np.ndarray):
        return format_value(getattr(value, "_value", value), summarize)
    if isinstance(value, str):
        return value
    if nest.is_nested(value):
        leaves = [format_value(getattr(v, "_value", v), summarize)
                  if isinstance(v, (Tensor, np.ndarray)) else v for v in nest.flatten(value)]
        return str(nest.pack_sequence_as(value, [_Raw(x) if isinstance(x, str) else x
                                                 for x in leaves]))
    if hasattr(value, "_as_tensor"):  # a Variable
        return format_value(array_of(value), summarize)
    return str(value)


class _Raw(str):
    def __repr__(self):
        return str(self)


def _write(text, stream):
    if isinstance(stream, str):
        if not stream.startswith("file://"):
            raise ValueError(f"tf.print: output_stream must be sys.stdout, sys.stderr, a file, "
                             f"or 'file://path', got {stream!r}.")
        with open(stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text)
        return
    stream.write(text)
    flush = getattr(stream, "flush", None)
    if flush is not None:
        flush()


def _print_kernel(store, *arrays, template, sep, end, stream, summarize):
    values = iter(arrays)
    parts = [format_value(next(values), summarize) if slot is None else slot
             for slot in template]
    _write(sep.join(parts) + end, stream)
    return np.bool_(True)


PRINT = defop("PrintV2", _print_kernel, grad=None, stateful=True,
              shape=lambda *inputs, **attrs: (TensorShape([]), dtypes.bool),
              raw=lambda input, output_stream="stderr", end="\n", name=None: print_v2(
                  input, output_stream={"stderr": sys.stderr, "stdout": sys.stdout}.get(
                      output_stream, output_stream), end=end, name=name))


def print_v2(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """Print `inputs` (tensors, Python values, structures) to `output_stream` (stderr by
    default), eagerly now, or in a graph each time it runs (returns the print op)."""
    stream = sys.stderr if output_stream is None else output_stream
    graph = state.graph
    if graph is None:
        _write(sep.join(_text(v, summarize) for v in inputs) + end, stream)
        return None
    template, tensors = [], []
    for v in inputs:
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            template.append(None)
            tensors.append(v if isinstance(v, Tensor) else v._as_tensor(None))
        else:
            template.append(_text(v, summarize) if not nest.is_nested(v) else str(v))
    out = graph.create_op(PRINT, tuple(tensors), {"template": tuple(template), "sep": sep,
                                                  "end": end, "stream": stream,
                                                  "summarize": summarize}, name or "PrintV2")
    return out.op
