"""Shape/dtype rules shared by many ops, and the helpers that read shape and axis arguments.

A shape rule takes the op's inputs (anything with `.shape` and `.dtype`: eager tensors, graph
tensors, variables) and its attributes, and returns `(TensorShape, DType)` for each output. Unknown
dimensions are None. A rule raises `InvalidArgumentError` saying what is wrong and what to do; the
caller prefixes the op's type and name. Graph mode runs rules for every node it builds; eager
mode runs them only to explain why a kernel failed.
"""
import operator

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError, naming_caller
from ..framework.op_dtype_constraints import check_input_dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.static_value import partial_value, static_value
from ..framework.tensor_shape import TensorShape

__all__ = ["same", "broadcast", "broadcast_shapes", "reduced", "normalize_axes", "bool_out",
           "check_same_dtype", "one_shape", "check_float", "check_ordered", "normalize_axis", "int_tuple", "prod", "axis_int",
           "axis_tuple", "check_distinct", "check_not_bool",
           "UnknownWhileBuilding", "SHAPE_VECTOR", "shape_arg", "resolve_shape",
           "static_shape_arg", "shape_source", "DYNAMIC", "is_tensor_like", "scalar_arg",
           "extra_count", "split_extras", "static_int", "check_index_dtype", "check_allowed"]


def same(x, **_):
    """Output has the input's shape and dtype (elementwise unary ops)."""
    return x.shape, x.dtype


def broadcast_shapes(a, b):
    """NumPy broadcasting of two shapes, where None is an unknown dimension."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for da, db in zip(a, b):
        if da == 1:
            out.append(db)
        elif db == 1 or da == db:
            out.append(da)
        elif da is None or db is None:
            out.append(da if db is None else db)
        else:
            raise InvalidArgumentError(
                f"incompatible shapes {TensorShape(a[n - len(a):])} and "
                f"{TensorShape(b)}: dimensions {da} and {db} cannot broadcast. Trailing "
                "dimensions must be equal or 1; reshape or expand_dims one operand.")
    return TensorShape(out)


def broadcast(x, y, **_):
    """Elementwise binary op: broadcast shapes, equal dtypes."""
    check_same_dtype(x, y)
    try:
        return broadcast_shapes(x.shape, y.shape), x.dtype
    except InvalidArgumentError:
        raise InvalidArgumentError(
            f"incompatible shapes {x.shape} and {y.shape} cannot be broadcast together. "
            "Trailing dimensions must be equal or 1; reshape or expand_dims one operand.") from None


def bool_out(x, y, **_):
    """Comparison: broadcast shapes, bool result."""
    return broadcast(x, y)[0], dtypes.bool


def check_same_dtype(*inputs):
    first = inputs[0].dtype
    for t in inputs[1:]:
        if t.dtype != first:
            raise InvalidArgumentError(
                f"operands have different dtypes {first.name} and {t.dtype.name}; use cast to "
                "make them agree.")


def one_shape(inputs, mismatch):
    """(shape, dtype) that all `inputs` share, their shapes merged (each dimension any of them
    knows); InvalidArgumentError for two dtypes, or `mismatch` followed by the inputs' shapes
    when two shapes disagree (stack, add_n)."""
    check_same_dtype(*inputs)
    out = inputs[0].shape
    for t in inputs[1:]:
        if not out.is_compatible_with(t.shape):
            raise InvalidArgumentError(f"{mismatch}{[str(i.shape) for i in inputs]}.")
        out = out.merge_with(t.shape)
    return out, inputs[0].dtype


def check_index_dtype(indices, what="indices"):
    if indices.dtype not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"{what} must be int32 or int64, got {indices.dtype.name}; "
                                   "cast them with cast(indices, tf.int32).")


def check_ordered(x, op_type):
    """Complex numbers have no order: TensorFlow has no Max, Less, ArgMax... for them."""
    if x.dtype.is_complex:
        raise InvalidArgumentError(f"{op_type}: complex numbers are not ordered, got a "
                                   f"{x.dtype.name} tensor of shape {x.shape}; compare their "
                                   "tf.abs or tf.math.real instead.")


def check_float(x, what="input"):
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"{what} must be a floating-point tensor, got {x.dtype.name};"
                                   " cast it to float32 or float64 first.")


def axis_int(axis, what="axis"):
    """One axis as a Python int: an int, a NumPy integer, a 0-d integer array, or an integer
    tensor whose value is known now. A float, a bool or a list is a TypeError naming `what`, as
    TensorFlow refuses them (a float is never truncated)."""
    if not isinstance(axis, (bool, np.bool_)):
        try:
            return operator.index(axis)
        except TypeError:
            pass
        if isinstance(axis, Tensor) or hasattr(axis, "_as_tensor"):
            value = _known_int_array(axis, what)
            if np.ndim(value) == 0:
                return int(value)
        elif isinstance(axis, np.ndarray) and axis.ndim == 0 and axis.dtype.kind in "iu":
            return int(axis)
    raise naming_caller(TypeError(f"{what} must be an integer, got {_short(axis)}."))


def axis_tuple(axis, what="axis"):
    """An int or a list/tuple/array/tensor of ints as a tuple of Python ints (TypeError naming
    `what` for floats or anything else)."""
    if isinstance(axis, (list, tuple)):
        return tuple(axis_int(a, what) for a in axis)
    if isinstance(axis, Tensor) or hasattr(axis, "_as_tensor"):
        return tuple(int(v) for v in np.reshape(_known_int_array(axis, what), -1))
    if isinstance(axis, np.ndarray):
        if axis.dtype.kind not in "iu":
            raise naming_caller(TypeError(f"{what} must be integers, got {_short(axis)}."))
        return tuple(int(v) for v in axis.reshape(-1))
    return (axis_int(axis, what),)


def _short(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def check_distinct(axes, given, what="axis"):
    """InvalidArgumentError if the normalized `axes` repeat one (TensorFlow refuses them)."""
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{what} {list(given)} contains a repeated axis; each axis "
                                   "may appear once.")


def normalize_axes(axis, rank):
    """A sorted tuple of non-negative axes (all axes when `axis` is None); an axis out of range
    or repeated is an InvalidArgumentError, a non-integer a TypeError."""
    if axis is None:
        return tuple(range(rank))
    axes = axis_tuple(axis)
    out = []
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise InvalidArgumentError(f"axis {a} is out of range for a tensor of rank {rank}.")
        out.append(a % rank if rank else 0)
    check_distinct(out, axes)
    return tuple(sorted(out))


def reduced(x, axis=None, keepdims=False, **_):
    """Reduction over `axis` (None: all axes)."""
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    axes = normalize_axes(axis, x.shape.rank)
    if keepdims:
        dims = [1 if i in axes else d for i, d in enumerate(x.shape)]
    else:
        dims = [d for i, d in enumerate(x.shape) if i not in axes]
    return TensorShape(dims), x.dtype


# -- reading shape and axis arguments ------------------------------------------------------------
def prod(dims):
    """The product of some dimensions (1 for none): an element count."""
    n = 1
    for d in dims:
        n *= d
    return n


def normalize_axis(axis, rank, what="axis"):
    """`axis` as a non-negative int for a tensor of `rank` (InvalidArgumentError if out of range;
    unchanged when the rank is unknown; TypeError if it is no integer)."""
    axis = axis_int(axis, what)
    if rank is None:
        return axis
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{what} {axis} is out of range for a tensor of rank {rank}; "
                                   f"expected a value in [{-rank}, {rank}).")
    return axis % rank


class UnknownWhileBuilding(TypeError):
    """A shape or index argument depends on a value a graph only knows when it runs."""


def _known_int_array(t, what):
    """The value of an integer tensor known while a graph is built (static_value), or raise."""
    t = convert_to_tensor(t)
    if not t.dtype.is_integer:
        raise TypeError(f"{what} must be integers, got a {t.dtype.name} tensor.")
    value = static_value(t)
    if value is None:  # all of its entries may still be known (tf.shape(x)[1:] of x [None, 3])
        known = partial_value(t)
        if type(known) is int or (type(known) is list and None not in known):
            value = np.array(known)
    if value is None:
        raise UnknownWhileBuilding(
            f"{what} must be known while the graph is built, but {t.name} depends on a value "
            "known only when the graph runs (a placeholder's unknown dimension, a variable). "
            "Give the shape as numbers, or build the graph with fully known input shapes.")
    return value


def int_tuple(values, what):
    """A tuple of Python ints from a list, tuple, TensorShape, ndarray or int tensor; tensors
    (also inside a list) may be graph tensors whose value is known while the graph is built
    (`tf.shape(x)` of a fully known x, a stack of such numbers): else UnknownWhileBuilding."""
    if isinstance(values, Tensor) or hasattr(values, "_as_tensor"):
        values = _known_int_array(values, what)
    if isinstance(values, (int, np.integer)):
        return (int(values),)
    if type(values) in (list, tuple, TensorShape):
        try:
            return tuple(operator.index(v) for v in values)
        except TypeError:
            if any(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in values):
                return tuple(int(_known_int_array(v, what)) if isinstance(v, Tensor) or hasattr(
                    v, "_as_tensor") else int(v) for v in values)
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):
        array = None
    empty = array is not None and array.size == 0  # [] reads as float64
    if array is None or array.dtype.kind not in "iu" and not empty:
        raise naming_caller(TypeError(f"{what} must be a list of integers, got "
                                      f"{_short(values)}."))
    return tuple(int(v) for v in array.reshape(-1))

# -- shapes known only when a graph runs ------------------------------------------------------------
SHAPE_VECTOR = "vector"   # attribute value: the op's extra input is the whole shape, a vector


def shape_arg(values, what):
    """A shape argument as (attribute, extra inputs). Known while the graph is built: a tuple of
    ints and no inputs. Else either (SHAPE_VECTOR, (vector,)) for a shape tensor, or, for a list
    whose entries are partly tensors known only when the graph runs, a tuple with None at those
    entries and the entries (int scalars) as inputs, in order."""
    try:
        return int_tuple(values, what), ()
    except UnknownWhileBuilding:
        pass
    if isinstance(values, Tensor) or hasattr(values, "_as_tensor"):
        vector = convert_to_tensor(values)
        if vector.shape.rank not in (1, None):
            raise InvalidArgumentError(f"{what} must be a vector, got shape {vector.shape}.")
        return SHAPE_VECTOR, (vector,)
    dims, inputs = [], []
    for v in values:
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            v = convert_to_tensor(v)
            known = partial_value(v)
            if type(known) is not int:
                if v.shape.rank not in (0, None) or not v.dtype.is_integer:
                    raise InvalidArgumentError(f"{what}: each entry must be an integer scalar, "
                                               f"got {v.dtype.name} of shape {v.shape}.")
                dims.append(None)
                inputs.append(v)
                continue
            v = known
        dims.append(int(v))
    return tuple(dims), tuple(inputs)


def resolve_shape(attr, extra):
    """The shape an op's kernel uses, from its attribute and extra input arrays (shape_arg)."""
    if attr == SHAPE_VECTOR:
        return tuple(int(d) for d in extra[0])
    entries = iter(extra)
    return tuple(int(next(entries)) if d is None else d for d in attr)


def shape_source(vector):
    """The tensor y when `vector` is tf.shape(y) (its kernel reads only y's shape), else None:
    an op can then take y itself and read its shape when the graph runs."""
    op = getattr(vector, "op", None)
    if op is not None and op.op_def.reads_shape_only and len(op.inputs) == 1 and \
            getattr(vector, "shape", TensorShape(None)).rank == 1:
        return op.inputs[0]
    return None


def static_shape_arg(attr, extra):
    """What a shape rule knows of such a shape while the graph is built: a TensorShape with None
    where an entry is only known when the graph runs (-1 entries are left to the op)."""
    if attr != SHAPE_VECTOR:
        return TensorShape(list(attr))
    known = partial_value(extra[0])   # tf.shape(y), concats and stacks of known entries...
    return TensorShape(known) if type(known) is list else TensorShape(None)


# -- single integers known only when a graph runs (indices, depths, bounds) ---------------------------
DYNAMIC = "?"   # attribute entry: the value is the op's next extra input (an int scalar)


def is_tensor_like(v):
    """A tensor, graph tensor or variable (anything convert_to_tensor reads, not a plain value)."""
    return isinstance(v, Tensor) or hasattr(v, "_as_tensor")


def static_int(value, what):
    """A Python int for an int argument known while the graph is built, or None for an integer
    scalar tensor whose value is known only when it runs (TypeError for anything else)."""
    if not is_tensor_like(value):
        return operator.index(value)
    t = convert_to_tensor(value)
    if not t.dtype.is_integer or t.shape.rank not in (0, None):
        raise TypeError(f"{what} must be an integer scalar, got a {t.dtype.name} tensor of "
                        f"shape {t.shape}.")
    known = partial_value(t)   # tf.shape(x)[1] of x [None, 3] is 3
    return known if type(known) is int else None


def scalar_arg(value, what):
    """An int argument as (attribute, extra inputs): (int, ()) when known while the graph is
    built, else (None, (scalar tensor,)), the scalar read when the graph runs."""
    known = static_int(value, what)
    if known is not None:
        return known, ()
    return None, (convert_to_tensor(value),)


def extra_count(attr):
    """How many extra inputs a shape_arg / scalar_arg attribute reads."""
    if attr is None:
        return 1
    if attr == SHAPE_VECTOR:
        return 1
    if isinstance(attr, tuple):
        return sum(1 for d in attr if d is None)
    return 0


def split_extras(attrs, extra):
    """The extra inputs of an op with several such attributes, cut per attribute, in order."""
    out, at = [], 0
    for attr in attrs:
        n = extra_count(attr)
        out.append(tuple(extra[at:at + n]))
        at += n
    return out


def check_not_bool(x, op_type):
    """TensorFlow's arithmetic kernels are not registered for bool: refuse a bool tensor with
    its error instead of computing NumPy's boolean arithmetic."""
    if x.dtype.is_bool:
        raise InvalidArgumentError(
            f"{op_type}: Value for attr 'T' of bool is not in the list of allowed values (a bool "
            f"tensor of shape {x.shape}); cast it first, e.g. tf.cast(x, tf.float32).")




def check_allowed(op_def, *inputs):
    """TensorFlow's dtype check of the op's leading `inputs` (framework/op_dtype_constraints.py,
    which every op call runs too), for a public function whose own checks of ranks and axes must
    come after it, as TensorFlow's do: InvalidArgumentError eagerly, TypeError in a graph."""
    check_input_dtypes(op_def, inputs, graph=state.graph is not None)


def batch_rank(grad, out):
    """How many leading batch dimensions `grad` carries beyond its tensor `out`'s shape."""
    return len(grad.shape) - len(out.shape)


def static_shape(t):
    """The shape as a plain tuple (None for unknown dimensions), without building a TensorShape
    for eager values: this is on the reverse pass's hot path."""
    value = getattr(t, "_value", None)  # array_of(t), inline: called for every op
    if value is not None:
        return value.shape
    shape = t.shape
    return tuple(shape) if shape.rank is not None else None  # None: even the rank is unknown
