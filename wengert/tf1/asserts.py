"""TensorFlow 1's assertions, `tf.compat.v1.assert_*`: TensorFlow 2's checks (ops/io/checks.py)
with TensorFlow 1's arguments. Each takes `data`, the strings and tensors the error shows in place
of the default description (`Condition x > 0 did not hold element-wise: x = ...`), after
`message`; without `data` the check is TensorFlow 2's. Comparisons are elementwise with
broadcasting; the assertion holds when every element's does.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import op_scope
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor
from ..ops import math_ops
from ..ops.io import checks
from ..ops.reduce_ops import reduce_all
from ..framework.tensor import convert_to_tensor

__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_positive", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_near", "assert_rank",
           "assert_rank_at_least", "assert_rank_in", "assert_integer", "assert_scalar",
           "assert_type", "assert_proper_iterable", "assert_same_float_dtype"]


def _with_data(condition, data, summarize, message):
    shown = ([message] if message else []) + list(data)
    return checks.Assert(reduce_all(condition), shown, summarize)


def _pairwise(compare, v2_check, x, y, data, summarize, message, name):
    if data is None:
        return v2_check(x, y, message=message, summarize=summarize, name=name)
    with op_scope(name, v2_check.__name__):
        x, y = checks._pair(x, y, v2_check.__name__)
        return _with_data(compare(x, y), data, summarize, message)


def _signed(compare, v2_check, x, data, summarize, message, name):
    if data is None:
        return v2_check(x, message=message, summarize=summarize, name=name)
    with op_scope(name, v2_check.__name__):
        x = convert_to_tensor(x)
        return _with_data(compare(x, convert_to_tensor(0, dtype=x.dtype)), data, summarize,
                          message)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x == y elementwise."""
    return _pairwise(math_ops.equal, checks.assert_equal, x, y, data, summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x != y elementwise."""
    return _pairwise(math_ops.not_equal, checks.assert_none_equal, x, y, data, summarize,
                     message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x < y elementwise."""
    return _pairwise(math_ops.less, checks.assert_less, x, y, data, summarize, message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x <= y elementwise."""
    return _pairwise(math_ops.less_equal, checks.assert_less_equal, x, y, data, summarize,
                     message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x > y elementwise."""
    return _pairwise(math_ops.greater, checks.assert_greater, x, y, data, summarize, message,
                     name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    """Assert x >= y elementwise."""
    return _pairwise(math_ops.greater_equal, checks.assert_greater_equal, x, y, data, summarize,
                     message, name)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    """Assert x > 0 elementwise."""
    return _signed(math_ops.greater, checks.assert_positive, x, data, summarize, message, name)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    """Assert x < 0 elementwise."""
    return _signed(math_ops.less, checks.assert_negative, x, data, summarize, message, name)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    """Assert x >= 0 elementwise."""
    return _signed(math_ops.greater_equal, checks.assert_non_negative, x, data, summarize,
                   message, name)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    """Assert x <= 0 elementwise."""
    return _signed(math_ops.less_equal, checks.assert_non_positive, x, data, summarize,
                   message, name)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """Assert |x - y| <= atol + rtol * |y| elementwise (default tolerances: 10 * eps)."""
    if data is None:
        return checks.assert_near(x, y, rtol, atol, message=message, summarize=summarize,
                                  name=name)
    return _with_data(checks.near(x, y, rtol, atol)[2], data, summarize, message)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    """Assert x has rank `rank` (checked when the graph is built, as its rank is static)."""
    return _rank_check(checks.assert_rank, x, rank, data, summarize, message, name)


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    """Assert x has rank `rank` or more."""
    return _rank_check(checks.assert_rank_at_least, x, rank, data, summarize, message, name)


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """Assert the rank of x is one of `ranks`."""
    x = convert_to_tensor(x)
    ranks = tuple(int(r) for r in ranks)
    if x.shape.rank is not None and x.shape.rank not in ranks:
        data = list(data or ())[:summarize]
        shown = f" {', '.join(map(str, data))}" if data else ""
        label = name or getattr(x, "name", None) or "x"
        raise ValueError(f"{message + ' ' if message else ''}Tensor {label} "
                         f"must have rank in {ranks}. Received rank {x.shape.rank}, shape "
                         f"{x.shape}.{shown}")
    return None


def _rank_check(v2_check, x, rank, data, summarize, message, name):
    try:
        return v2_check(x, rank, message=message, name=name)
    except ValueError as error:
        if not data:
            raise
        shown = ", ".join(map(str, data if summarize is None else data[:summarize]))
        raise ValueError(f"{error} {shown}") from None


assert_integer = checks.assert_integer
assert_scalar = checks.assert_scalar
assert_type = checks.assert_type


def assert_proper_iterable(values):
    """Raise TypeError unless `values` is an iterable other than a tensor, an array or a
    string (which a caller iterating over them would take apart)."""
    unintentional = (Tensor, SparseTensor, np.ndarray, bytes, str)
    if isinstance(values, unintentional) or hasattr(values, "read_value"):
        raise TypeError(f"Expected argument 'values' to be a 'proper' iterable.  Found: "
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f"Expected argument 'values' to be iterable.  Found: {type(values)}")


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and of `dtype` if given; float32 when there is
    neither); ValueError on a mismatch or an integer dtype."""
    expected = dtypes.as_dtype(dtype) if dtype is not None else None
    first = None
    for item in tensors or ():
        if item is None:
            continue
        if expected is None:
            expected, first = item.dtype, getattr(item, "name", item)
        elif item.dtype is not expected:
            raise ValueError(f"{getattr(item, 'name', item)}, type={item.dtype}, must be "
                             f"of the same type ({expected})"
                             f"{'' if first is None else f' as {first}'}.")
    if expected is None:
        return dtypes.float32
    if not expected.is_floating:
        raise ValueError(f"Expected floating point type, got {expected}.")
    return expected
