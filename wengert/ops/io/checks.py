"""Run-time checks: the `tf.debugging.assert_*` family, `tf.debugging.Assert` and
`tf.ensure_shape`.

Eagerly a failed check raises at once: InvalidArgumentError naming the condition, the message and
the offending values (shapes and dtypes included), as TensorFlow's does. While a graph or a
traced function is built, a check whose answer is already known from constants or static shapes
raises at once; otherwise it adds an `Assert` op, stateful so that every run of the graph
executes it (before the ops created after it, which follow creation order), raising when the
condition is false. Static facts (ranks, dtypes) raise ValueError / TypeError when the op is
built, as in TensorFlow.

EnsureShape(x) is the identity with a shape check: it refines the static shape in graphs and
checks the actual shape when it runs; its gradient is the incoming gradient, unchanged.
"""
import numpy as np

from ...framework import dtypes
from ...framework.context import op_scope, state
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, linear
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..math_ops import equal, greater, greater_equal, less, less_equal, not_equal, subtract
from ..reduce_ops import reduce_all
from ..rounding_ops import is_finite
from ..unary_ops import abs as _abs
from .printing import format_value

__all__ = ["Assert", "assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_positive", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_near", "assert_rank",
           "assert_rank_at_least", "assert_type", "assert_integer", "assert_scalar",
           "assert_all_finite", "ensure_shape", "is_numeric_tensor"]


# -- the Assert op ----------------------------------------------------------------------------------
def _describe(data, summarize):
    parts = []
    for d in data:
        if isinstance(d, str):
            parts.append(d)
        else:
            array = np.asarray(d)
            parts.append(format_value(array, summarize if summarize is not None else 3))
    return "\n".join(parts)


def _assert_kernel(store, condition, *data, template, summarize):
    if np.all(condition):
        return np.bool_(True)
    values = iter(data)
    filled = [next(values) if slot is None else slot for slot in template]
    raise InvalidArgumentError(f"assertion failed:\n{_describe(filled, summarize)}")


ASSERT = defop("Assert", _assert_kernel, grad=None, stateful=True,
               shape=lambda condition, *data, **attrs: (TensorShape([]), dtypes.bool),
               raw=lambda condition, data, summarize=3, name=None: Assert(
                   condition, data, summarize, name))


def _known(t):
    return getattr(t, "_value", None)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 (TensorFlow's name)
    """Raise InvalidArgumentError (now, or when the graph runs) unless `condition` is true;
    `data` (tensors and strings) is printed in the error."""
    condition = convert_to_tensor(condition, dtype_hint=dtypes.bool)
    value = _known(condition)
    if value is not None:
        if not np.all(value):
            shown = [d if isinstance(d, str) else np.asarray(getattr(d, "_value", d))
                     for d in data]
            raise InvalidArgumentError(f"Expected '{value}' to be true. Summarized data: "
                                       f"{_describe(shown, summarize)}")
        return None
    template, tensors = [], []
    for d in data:
        if isinstance(d, str):
            template.append(d)
        else:
            template.append(None)
            tensors.append(convert_to_tensor(d))
    out = state.graph.create_op(ASSERT, (condition,) + tuple(tensors),
                                {"template": tuple(template), "summarize": summarize},
                                name or "Assert")
    return out.op


def _label(t):
    return f"(shape={tuple(t.shape) if t.shape.rank is not None else '?'} dtype={t.dtype.name})"


def _check(condition, message, what, tensors, summarize=None):
    data = ([message] if message else []) + [f"Condition {what} did not hold element-wise:"]
    for label, t in tensors:
        data += [f"{label} {_label(t)} = ", t]
    return Assert(reduce_all(condition), data, summarize)


def _binary(fn, what, default):
    def check(x, y, message=None, summarize=None, name=None):
        with op_scope(name, default):
            x, y = _pair(x, y, what)
            _shapes_broadcast(x, y, what, message)
            return _check(fn(x, y), message, what, [("x", x), ("y", y)], summarize)
    return check


def _pair(x, y, what):
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype) if not hasattr(y, "dtype") else convert_to_tensor(y)
    if x.dtype is not y.dtype:
        raise TypeError(f"assert ({what}): x and y have different dtypes, {x.dtype.name} and "
                        f"{y.dtype.name}.")
    return x, y


def _shapes_broadcast(x, y, what, message):
    a, b = x.shape, y.shape
    if a.rank is None or b.rank is None:
        return
    for m, n in zip(reversed(a.as_list()), reversed(b.as_list())):
        if m is not None and n is not None and m != n and 1 not in (m, n):
            raise InvalidArgumentError(f"{message + ' ' if message else ''}assert ({what}): "
                                       f"incompatible shapes {a} and {b}.")


assert_equal = _binary(equal, "x == y", "assert_equal")
assert_none_equal = _binary(not_equal, "x != y", "assert_none_equal")
assert_less = _binary(less, "x < y", "assert_less")
assert_less_equal = _binary(less_equal, "x <= y", "assert_less_equal")
assert_greater = _binary(greater, "x > y", "assert_greater")
assert_greater_equal = _binary(greater_equal, "x >= y", "assert_greater_equal")
for _fn, _name in ((assert_equal, "assert_equal"), (assert_none_equal, "assert_none_equal"),
                   (assert_less, "assert_less"), (assert_less_equal, "assert_less_equal"),
                   (assert_greater, "assert_greater"),
                   (assert_greater_equal, "assert_greater_equal")):
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = f"Assert `{_fn.__name__[7:]}` elementwise (x and y broadcast)."


def _against_zero(fn, what, default):
    def check(x, message=None, summarize=None, name=None):
        with op_scope(name, default):
            x = convert_to_tensor(x)
            return _check(fn(x, convert_to_tensor(0, dtype=x.dtype)), message, what,
                          [("x", x)], summarize)
    check.__name__ = check.__qualname__ = default
    return check


assert_positive = _against_zero(greater, "x > 0", "assert_positive")
assert_negative = _against_zero(less, "x < 0", "assert_negative")
assert_non_negative = _against_zero(greater_equal, "x >= 0", "assert_non_negative")
assert_non_positive = _against_zero(less_equal, "x <= 0", "assert_non_positive")


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Assert |x - y| <= atol + rtol * |y| elementwise (default tolerances: 10 * eps)."""
    with op_scope(name, "assert_near"):
        x, y, close, rtol, atol = near(x, y, rtol, atol)
        return _check(close, message, f"x and y equal to tolerance rtol={_shown(rtol)}, "
                      f"atol={_shown(atol)}", [("x", x), ("y", y)], summarize)


def _shown(tolerance):
    """A tolerance as the message shows it: its value when known while the graph is built,
    else the tensor (as TensorFlow shows it)."""
    value = static_value(tolerance)
    return tolerance if value is None else float(value)


def near(x, y, rtol=None, atol=None):
    """(x, y, |x - y| <= atol + rtol * |y|, rtol, atol) as tensors, the tolerances defaulting
    to 10 * eps of x's dtype."""
    x, y = _pair(x, y, "x ~ y")
    eps = np.finfo(x.dtype.as_numpy_dtype).eps * 10 if x.dtype.is_floating else 0
    rtol = convert_to_tensor(eps if rtol is None else rtol, dtype=x.dtype)
    atol = convert_to_tensor(eps if atol is None else atol, dtype=x.dtype)
    return x, y, less_equal(_abs(subtract(x, y)), atol + rtol * _abs(y)), rtol, atol


# -- static facts ------------------------------------------------------------------------------------
def assert_rank(x, rank, message=None, name=None):
    """x must have rank `rank` (checked from its static shape)."""
    with op_scope(name, "assert_rank"):
        x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank != int(rank):
        raise ValueError(f"{message + ' ' if message else ''}Tensor must have rank {int(rank)}. "
                         f"Received rank {x.shape.rank}, shape {tuple(x.shape)}.")


def assert_rank_at_least(x, rank, message=None, name=None):
    with op_scope(name, "assert_rank_at_least"):
        x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank < int(rank):
        raise ValueError(f"{message + ' ' if message else ''}Tensor must have rank at least "
                         f"{int(rank)}. Received rank {x.shape.rank}, shape {tuple(x.shape)}.")


def assert_scalar(tensor, name=None, message=None):
    assert_rank(tensor, 0, message, name=name or "assert_scalar")
    return tensor


def assert_type(tensor, tf_type, message=None, name=None):
    with op_scope(name, "assert_type"):
        tensor = convert_to_tensor(tensor)
    if tensor.dtype is not dtypes.as_dtype(tf_type):
        raise TypeError(f"{message + ' ' if message else ''}tensor must be of type "
                        f"{dtypes.as_dtype(tf_type)!r}; got {tensor.dtype!r}")


def assert_integer(x, message=None, name=None):
    with op_scope(name, "assert_integer"):
        x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(f"{message + ' ' if message else ''}Expected integer type, got "
                        f"{x.dtype!r}.")


def is_numeric_tensor(tensor):
    return hasattr(tensor, "dtype") and dtypes.as_dtype(tensor.dtype).is_numeric


def assert_all_finite(x, message, name=None):
    """Raise unless every element of the floating-point tensor x is finite; returns x."""
    with op_scope(name, "VerifyFinite"):
        x = convert_to_tensor(x)
        Assert(reduce_all(is_finite(x)), [message, "x = ", x])
    return x


# -- ensure_shape ------------------------------------------------------------------------------------
def _ensure_kernel(x, *, shape):
    if not TensorShape(shape).is_compatible_with(x.shape):
        raise InvalidArgumentError(f"Shape of tensor input {list(x.shape)} is not compatible "
                                   f"with expected shape {TensorShape(shape)}.")
    return x


def _ensure_rule(x, *, shape):
    expected = TensorShape(shape)
    if not expected.is_compatible_with(x.shape):
        raise InvalidArgumentError(f"Shape of tensor input {x.shape} is not compatible with "
                                   f"expected shape {expected}.")
    return x.shape.merge_with(expected), x.dtype


ENSURE_SHAPE = defop("EnsureShape", _ensure_kernel, shape=_ensure_rule,
                     grad=lambda op, grad: grad, jvp=linear, batch="safe", returns_view=True,
                     raw=lambda input, shape, name=None: ensure_shape(input, shape, name))


def ensure_shape(x, shape, name=None):
    """x, checked to have a shape compatible with `shape` (None dimensions match any size)."""
    shape = TensorShape(shape)
    attr = None if shape.rank is None else tuple(shape.as_list())
    return execute(ENSURE_SHAPE, (convert_to_tensor(x),), {"shape": attr}, name)


