"""The bad-input sweep (issue 22), driven by the op table: every row's samples, mutated.

For each sample of each op-table row, one argument at a time is replaced by a bad value: a bool,
an int, a string or a None tensor in place of a float one, an empty array, an array of another
rank, and an unknown-rank placeholder in a graph. Each call runs eagerly, in a graph (static
shapes) and inside a `tf.function`. A call may succeed (TensorFlow accepts many of these: an int
where an op is integer-capable, an empty tensor) or raise one of the error types TensorFlow
documents. A call that succeeds must return the right value: the row's NumPy reference on the
mutated arguments, or (a mutation the op does not read, such as a shape-only argument) the result
of the valid sample; anything else (strings concatenated by a sum, zeros from a one-hot of
strings) fails. The calls that succeed today with a value the sweep cannot confirm are listed
in tests/op_table/bad_input_unconfirmed.txt (mode:case per line): each is a strict expected
failure, so a fix that makes one raise or agree fails until its line goes. What it must never
do either is let an internal error reach the user: a KeyError,
AttributeError, IndexError, ZeroDivisionError, RecursionError, or a TypeError / ValueError whose
text is Python's or NumPy's own (about NoneType, unsupported operands, "object of type", an axis
out of bounds) instead of one naming the op and the argument. (A kernel that fails is reported
by the executor with the op's name, input shapes and dtypes: that counts as clear.)
"""
import pathlib
import re
import warnings

import numpy as np
import pytest

import wengert as tf
import op_table

v1 = tf.compat.v1

ALLOWED = (tf.errors.OpError, TypeError, ValueError, NotImplementedError, LookupError,
           MemoryError)
# Python's and NumPy's own wording: a message like this is an internal error leaking out.
INTERNAL_TEXT = re.compile(
    r"'NoneType' object|unsupported operand type|object of type|has no attribute|is not subscriptable|"
    r"object is not iterable|out of bounds for array|list index out of range|"
    r"tuple index out of range|cannot reshape array|operands could not be broadcast|"
    r"ufunc '|only integer scalar arrays|argument must be a string or a|not supported between|"
    r"'<' not supported|unhashable type|can't multiply sequence|must be real number, not")
# A kernel that fails is reported by the executor as an InvalidArgumentError naming the op, the
# input shapes and dtypes (then the kernel's own words): a clear error.
EXECUTOR_REPORT = re.compile(r"failed on inputs of shapes \[.*\] and dtypes \[")
INTERNAL_TYPES = (KeyError, AttributeError, IndexError, ZeroDivisionError, RecursionError,
                  AssertionError, UnboundLocalError, NameError)


UNCONFIRMED = frozenset(
    line.strip() for line in (pathlib.Path(__file__).parent / "op_table"
                              / "bad_input_unconfirmed.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#"))


def _is_float_array(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _mutations(array):
    """(name, value) pairs standing in for a float array argument."""
    shape = array.shape
    yield "bool", np.zeros(shape, bool)
    yield "int", np.ones(shape, np.int32)
    yield "string", np.full(shape, "x", dtype=object) if shape else np.array("x", dtype=object)
    yield "none", None
    yield "empty", np.zeros((0,) + shape[1:]) if shape else np.zeros((0,))
    yield "rank+2", np.ones((2, 1) + shape)
    if shape:
        yield "scalar", np.array(1.5)


# Rows that run the reverse pass's internal ops through `execute` (gradient helpers users never
# call): bad input to them is not a user's bad input.
INTERNAL_ROWS = {"sum_to_shape", "sum_to_shape_of", "while_history_get", "while_history_scatter"}


def _cases():
    cases, rows = [], op_table.all_rows()
    internal = INTERNAL_ROWS | {r.name for r in rows if "form of a gradient op" in r.notes}
    for row in rows:
        if row.name.removesuffix("^2") in internal:
            continue
        sample = row.samples[0]
        floats = [i for i, a in enumerate(sample.args) if _is_float_array(a)]
        for i in floats:
            for name, value in _mutations(sample.args[i]):
                args = list(sample.args)
                args[i] = value
                cases.append(pytest.param(row, args, sample.kwargs,
                                          id=f"{row.name}-arg{i}-{name}"))
    return cases


CASES = _cases()


def _tensor(a):
    if isinstance(a, np.ndarray) and a.dtype == object:
        return tf.constant(a.astype(str).tolist() if a.shape else str(a))
    return tf.constant(a) if isinstance(a, np.ndarray) else a


def _raised_in_the_row(err):
    """Whether the error comes from the row's own code (tests/op_table: a lambda that does
    Python arithmetic on its argument before calling the op), not from wengert."""
    tb = err.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return "/tests/op_table/" in tb.tb_frame.f_code.co_filename.replace("\\", "/")


def _check_error(err):
    if _raised_in_the_row(err):
        return
    if isinstance(err, INTERNAL_TYPES) or not isinstance(err, ALLOWED):
        raise AssertionError(f"internal error reached the user: {type(err).__name__}: {err}") \
            from err
    if EXECUTOR_REPORT.search(str(err)):
        return  # the executor's report: the op, its input shapes and dtypes, then the kernel's
    if INTERNAL_TEXT.search(str(err)):
        raise AssertionError(f"Python's or NumPy's own message reached the user: "
                             f"{type(err).__name__}: {err}") from err


def _run(call, row, args, kwargs, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = call()
        except Exception as err:  # noqa: BLE001 - classified below
            _check_error(err)
            result = _RAISED
        try:
            if result is not _RAISED:
                _check_value(result, row, args, kwargs)
        except AssertionError as err:
            if case in UNCONFIRMED:
                pytest.xfail(f"listed in bad_input_unconfirmed.txt: {err}")
            raise
    assert case not in UNCONFIRMED, (f"{case} now raises or returns a confirmed value: remove "
                                     f"its line from tests/op_table/bad_input_unconfirmed.txt")


_RAISED = object()


def _flat(result):
    return [np.asarray(o.numpy() if hasattr(o, "numpy") else o)
            for o in tf.nest.flatten(result) if o is not None]


def _same(got, want):
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if g.shape != w.shape:
            return False
        if "O" in (g.dtype.kind + w.dtype.kind) or g.dtype.kind in "SU" or w.dtype.kind in "SU":
            if not np.array_equal(_text(g), _text(w)):
                return False
        elif g.dtype.kind in "biufc" and w.dtype.kind in "biufc":
            if not np.allclose(g.astype(np.complex128), w.astype(np.complex128), rtol=2e-3,
                               atol=2e-4, equal_nan=True):
                return False
        else:
            return False
    return True


def _text(a):
    """Strings as str (wengert's string tensors hold bytes, NumPy's references str)."""
    return np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else str(v), otypes=[object])(
        a) if a.size else a.astype(object)


def _reference(row, args, kwargs):
    """The row's NumPy reference on `args`, flattened, or None where it cannot compute them."""
    try:
        with np.errstate(all="ignore"):
            return _flat(row.ref(*[a.astype(str) if isinstance(a, np.ndarray)
                                   and a.dtype == object else a for a in args], **kwargs))
    except Exception:  # noqa: BLE001 - NumPy refuses these arguments: no reference
        return None


def _check_value(result, row, args, kwargs):
    got = _flat(result)
    want = _reference(row, args, kwargs)
    if want is not None and _same(got, want):
        return
    valid = _reference(row, row.samples[0].args, row.samples[0].kwargs)
    if valid is not None and _same(got, valid):
        return
    raise AssertionError(f"{row.name} succeeded on bad input but returned "
                         f"{[(g.dtype.name, g.shape) for g in got]}: {got!r:.300}, which is "
                         f"neither NumPy's reference on these arguments ({want!r:.300}) nor the "
                         f"valid sample's result")


def _eager(row, args, kwargs):
    return row.fn(*[_tensor(a) for a in args], **kwargs)


def _graph(row, args, kwargs):
    with tf.Graph().as_default():
        tensors = [tf.constant(a) if isinstance(a, np.ndarray) and a.dtype != object
                   else _tensor(a) for a in args]
        out = [t for t in tf.nest.flatten(row.fn(*tensors, **kwargs)) if t is not None]
        with v1.Session() as sess:
            return sess.run(out)


def _function(row, args, kwargs):
    positions = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    @tf.function
    def f(*tensors):
        full = list(args)
        for i, t in zip(positions, tensors):
            full[i] = t
        return row.fn(*full, **kwargs)
    return f(*[_tensor(args[i]) for i in positions])


@pytest.mark.parametrize("row,args,kwargs", CASES)
def test_eager(row, args, kwargs, request):
    _run(lambda: _eager(row, args, kwargs), row, args, kwargs,
         f"eager:{request.node.callspec.id}")


@pytest.mark.parametrize("row,args,kwargs", CASES)
def test_graph(row, args, kwargs, request):
    _run(lambda: _graph(row, args, kwargs), row, args, kwargs,
         f"graph:{request.node.callspec.id}")


@pytest.mark.parametrize("row,args,kwargs", CASES)
def test_function(row, args, kwargs, request):
    _run(lambda: _function(row, args, kwargs), row, args, kwargs,
         f"function:{request.node.callspec.id}")
