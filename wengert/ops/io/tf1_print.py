"""TensorFlow 1's `tf.compat.v1.Print`: an identity op that prints data as its value passes.

`Print(input_, data, message)` returns `input_` unchanged and, each time it runs (the first
`first_n` times when that is positive), writes `message` and then, for each tensor of `data`,
"[" + its summary + "]" to stderr, on one line. A summary shows the first `summarize` elements
(3 by default) in row-major order inside the tensor's nested brackets, rows closing as they end
and "..." after the last shown element when elements were left out: a (2, 3) matrix summarizes
to "[1.5 2 3]..." and the vector 0..9 to "0 1 2...". Numbers print in their shortest form that
reads back as the same float32 (6 or else 9 significant digits; 15 or 17 for float64), bools as
1/0 and strings bare. The gradient passes to `input_` and none to `data`.
"""
import sys

import numpy as np

from ...framework.context import state
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor

__all__ = ["Print"]


def _element(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, np.floating):
        short, long = (6, 9) if value.dtype.itemsize <= 4 else (15, 17)
        text = f"{float(value):.{short}g}"
        return text if type(value)(text) == value else f"{float(value):.{long}g}"
    return str(value)


def summarize_value(array, limit):
    """TensorFlow 1's summary of `array` showing at most `limit` elements."""
    array = np.asarray(array)
    flat = array.reshape(-1)
    limit = flat.size if limit is None or limit < 0 else min(limit, flat.size)
    more = "..." if flat.size > limit else ""
    if array.ndim == 0:
        return " ".join(_element(v) for v in flat[:limit]) + more
    parts, shown = [], [0]

    def one_dim(dim):  # over the array's dimensions, as TensorFlow's PrintOneDim
        if shown[0] >= limit:
            return
        if dim == array.ndim - 1:
            for i in range(array.shape[dim]):
                if shown[0] >= limit:
                    parts.append("..." if dim else "")
                    return
                parts.append((" " if i else "") + _element(flat[shown[0]]))
                shown[0] += 1
            return
        for _ in range(array.shape[dim]):
            opened = shown[0] < limit
            parts.append("[" if opened else "")
            one_dim(dim + 1)
            parts.append("]" if opened or shown[0] < limit else "")
    one_dim(0)
    return "".join(parts) + more


def _print_kernel(store, value, *data, message, first_n, summarize, counter):
    counter[0] += 1
    if first_n < 0 or counter[0] <= first_n:
        text = message + "".join(f"[{summarize_value(d, summarize)}]" for d in data)
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    return value


PRINT = defop("Print", _print_kernel, stateful=True,
              shape=lambda value, *data, **attrs: (value.shape, value.dtype),
              grad=lambda op, grad: (grad,) + (None,) * (len(op.inputs) - 1),
              jvp=lambda primals, tangents, outputs, **attrs: tangents[0],
              raw=lambda *, input, data, message="", first_n=-1, summarize=3, name=None: Print(
                  input, data, message, first_n, summarize, name))


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """`input_`, printing `message` and `data` to stderr each time it is computed (the first
    `first_n` times, when positive), each tensor summarized to `summarize` elements (3)."""
    value = convert_to_tensor(input_)
    tensors = tuple(convert_to_tensor(d) for d in (data or []))
    attrs = {"message": "" if message is None else str(message),
             "first_n": -1 if first_n is None else int(first_n),
             "summarize": 3 if summarize is None else int(summarize), "counter": [0]}
    if state.graph is not None:
        return state.graph.create_op(PRINT, (value,) + tensors, attrs, name or "Print")
    _print_kernel(None, value, *[t.numpy() for t in tensors], **attrs)
    return value
