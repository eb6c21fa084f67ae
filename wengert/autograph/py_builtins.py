"""Python builtins as converted code calls them: the tensor-aware versions TensorFlow's AutoGraph
substitutes (`converted_call(len, (x,), None)` runs `len_(x)`).

- `len(t)` of a graph tensor is its first dimension: a Python int when the shape says it, else
  `tf.shape(t)[0]`; of a TensorArray, its size; of a dataset, its known cardinality.
- `range(...)` with a graph tensor argument is `tf.range(...)` (which a converted `for` loop
  iterates as a counter, building no range).
- `enumerate(dataset)` is `dataset.enumerate()`, `zip(ds1, ds2)` is `Dataset.zip`.
- `int(t)`, `float(t)` of a graph tensor cast it (a value known while building, such as a
  known dimension, gives a Python number); `abs(t)` is `tf.abs`.
- `print` stays Python's print, as in TensorFlow 2: it prints while tracing (graph tensors show
  their names); use `tf.print` to print values each time the function runs.
Anything else is the builtin itself.
"""
import builtins

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from ..ops import cast_ops, creation_ops, unary_ops
from ..ops.io.tensor_arrays import TensorArray
from .conditionals import is_graph_tensor
from .undefined import user_location

__all__ = ["OVERLOADS"]


def len_(s):
    if isinstance(s, TensorArray):
        return s.size()
    if is_graph_tensor(s):
        t = s.read_value() if isinstance(s, Variable) else s
        if t.shape.rank == 0:
            raise ValueError(f"len requires a non-scalar tensor, got one of shape ()"
                             f"{user_location()}.")
        if t.shape.rank is not None and t.shape[0] is not None:
            return t.shape[0]
        return creation_ops.shape(t)[0]
    return builtins.len(s)


def range_(start_or_stop, stop=None, step=None):
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if any(is_graph_tensor(a) for a in args):
        if stop is None:
            return creation_ops.range(start_or_stop)
        return creation_ops.range(start_or_stop, stop, 1 if step is None else step)
    return builtins.range(*[int(a) if isinstance(a, Tensor) else a for a in args])


def _is_dataset(x):
    return hasattr(x, "element_spec") and hasattr(x, "enumerate") and hasattr(x, "zip")


def enumerate_(s, start=0):
    if _is_dataset(s):
        return s.enumerate(start)
    return builtins.enumerate(s, start)


def zip_(*iterables, **kwargs):
    if iterables and all(_is_dataset(s) for s in iterables):
        return type(iterables[0]).zip(tuple(iterables))
    return builtins.zip(*iterables, **kwargs)


def int_(x=0, base=None):
    if is_graph_tensor(x) and _static(x) is None:
        return cast_ops.cast(x, dtypes.int32)
    if is_graph_tensor(x):
        return builtins.int(_static(x))
    return builtins.int(x) if base is None else builtins.int(x, base)


def float_(x=0.0):
    if is_graph_tensor(x) and _static(x) is None:
        return cast_ops.cast(x, dtypes.float32)
    if is_graph_tensor(x):
        return builtins.float(_static(x))
    return builtins.float(x)


def _static(x):
    """The value of a graph tensor known while building (a constant, a known size), or None."""
    if isinstance(x, Variable):
        return None
    return creation_ops.constant_value(x)


def abs_(x):
    if isinstance(x, (Tensor, Variable)):
        return unary_ops.abs(x)
    return builtins.abs(x)


OVERLOADS = {builtins.len: len_, builtins.range: range_, builtins.enumerate: enumerate_,
             builtins.zip: zip_, builtins.int: int_, builtins.float: float_,
             builtins.abs: abs_}
