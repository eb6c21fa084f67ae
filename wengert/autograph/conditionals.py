"""The runtime of converted `if` statements, conditional expressions and `and`/`or`/`not`.

Each operator looks at its condition when the converted code runs: a Python value (or an eager
tensor, whose value exists) picks a branch as Python does; a graph tensor (the function is being
traced) builds one `cond` whose branches are the two code paths, traced in turn:

    if_stmt(pred, body, orelse, get_state, set_state, names, nouts)
        branch k:  set_state(state before the if); run body k; return get_state()[:nouts]
        after:     set_state(cond outputs + the input-only state)

So the branches see the same starting values, and the `if` leaves each output variable holding
the cond's output. Variables the branches must agree on are checked with the user's names, as
TensorFlow does: defined in both branches, the same nested structure, the same dtypes. Python
values in the state pass through the cond as constants (numbers, strings), or unchanged when both
branches leave the same object there (None, a module, a list of layers...). TensorArrays pass as
their flows. `and_`/`or_` are lazy as Python's: the right operand runs only when needed, through
a cond when the left one is a graph tensor.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import Tensor, convert_to_tensor, is_eager_tensor
from ..framework.variables import Variable
from ..control_flow.cond import cond as tf_cond
from ..ops import math_ops, reshape_ops
from ..ops.io.tensor_arrays import TensorArray, as_flows
from ..util import nest
from .undefined import Undefined, UndefinedReturnValue, user_location

__all__ = ["if_stmt", "if_exp", "and_", "or_", "not_", "is_graph_tensor", "condition",
           "PROBING"]

#: > 0 while a loop body runs once aside to learn the shapes of its undefined variables
#: (loops.py): an `if` on a tensor then runs both branches and keeps what either defines.
PROBING = [0]


def is_graph_tensor(x):
    """A tensor whose value is known only when a graph runs (variables while a graph is built)."""
    if isinstance(x, Tensor):
        return not is_eager_tensor(x)
    return isinstance(x, Variable) and state.graph is not None


def condition(value, what, where):
    """`value` as a bool scalar tensor for a cond or loop: a one-element bool tensor is
    reshaped to a scalar, as TensorFlow does; anything else is a clear error."""
    if isinstance(value, Variable):
        value = value.read_value()
    t = value if isinstance(value, Tensor) else convert_to_tensor(bool(value))
    if t.dtype is not dtypes.bool:
        raise ValueError(f"The condition of the {what}{where} must be a `tf.bool` scalar, got "
                         f"dtype {t.dtype.name}; compare it (x > 0) or use tf.cast to bool.")
    shape = t.shape
    if shape.rank == 0:
        return t
    known = [d for d in (shape.as_list() if shape.rank is not None else []) if d is not None]
    if int(np.prod(known)) > 1:
        raise ValueError(f"The condition of the {what}{where} must be a `tf.bool` scalar, got "
                         f"shape {shape}; reduce it (tf.reduce_any / tf.reduce_all) first.")
    return reshape_ops.reshape(t, [])


# -- if statements --------------------------------------------------------------------------------
def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """Run `body` or `orelse` (see the module docstring)."""
    if is_graph_tensor(cond):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    elif cond:
        body()
    else:
        orelse()


class _BranchOutputs:
    """The outputs of one branch as flat tensors, and how to rebuild the state from them."""

    def __init__(self, values, names, label, where):
        self.label, self.names, self.where = label, names, where
        for name, value in zip(names, values):
            if type(value) is Undefined:
                raise ValueError(f"'{name}' must also be initialized in the {label} branch"
                                 f"{where}: it is defined in the other branch (or after the "
                                 "if statement), so both branches must assign it.")
            if type(value) is UndefinedReturnValue:
                raise ValueError(f"the {label} branch must also have a return statement"
                                 f"{where}: the other branch returns a value.")
        self.structures, self.rebuilds, self.leaves = [], [], []
        for value in values:
            flows, rebuild = as_flows(value)
            self.structures.append(flows)
            self.rebuilds.append(rebuild)
            self.leaves.append(nest.flatten(flows))
        self.passthrough = [[not _is_tensor_value(v) for v in leaves] for leaves in self.leaves]

    def tensors(self):
        out = []
        for leaves, python in zip(self.leaves, self.passthrough):
            for value, keep in zip(leaves, python):
                out.append(convert_to_tensor(False) if keep else _as_tensor(value))
        return out or [convert_to_tensor(False)]  # a cond with no outputs still runs

    def check_against(self, first):
        for k, name in enumerate(self.names):
            if nest.is_nested(self.structures[k]) or nest.is_nested(first.structures[k]):
                if _shape_of(self.structures[k]) != _shape_of(first.structures[k]):
                    raise ValueError(
                        f"'{name}' must have the same nested structure in the main and else "
                        f"branches{self.where}: the main branch gives "
                        f"{_shape_of(first.structures[k])}, the else branch "
                        f"{_shape_of(self.structures[k])}.")
            for a, b, pa, pb in zip(first.leaves[k], self.leaves[k], first.passthrough[k],
                                    self.passthrough[k]):
                if pa or pb:
                    if not (pa and pb and (a is b or _same_python(a, b))):
                        raise ValueError(
                            f"'{name}' is {_describe(a)} in the main branch but {_describe(b)} in "
                            f"the else branch{self.where}; a variable set under a tensor "
                            "condition must be a tensor (or the same Python value) in both.")
                    continue
                ta, tb = _as_tensor(a), _as_tensor(b)
                if ta.dtype is not tb.dtype:
                    raise TypeError(f"'{name}' has dtype {ta.dtype.name} in the main branch, but "
                                    f"dtype {tb.dtype.name} in the else branch{self.where}")

    def rebuild(self, flat):
        flat = iter(flat)
        out = []
        for k in range(len(self.names)):
            leaves = []
            for value, keep in zip(self.leaves[k], self.passthrough[k]):
                got = next(flat)
                leaves.append(value if keep else got)
            structure = self.structures[k]
            packed = nest.pack_sequence_as(structure, leaves) if nest.is_nested(structure) \
                else leaves[0]
            out.append(self.rebuilds[k](packed) if self.rebuilds[k] is not None else packed)
        return tuple(out)


_TENSOR_VALUES = (Tensor, Variable, TensorArray, bool, int, float, str, bytes, np.generic,
                  np.ndarray)


def _is_tensor_value(v):
    """True for what a cond carries as a tensor; other Python objects pass through unchanged."""
    return isinstance(v, _TENSOR_VALUES)


def _as_tensor(v):
    if isinstance(v, Variable):
        return v.read_value()
    return convert_to_tensor(v)


def _same_python(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects whose == is not a plain bool
        return False


def _describe(v):
    if isinstance(v, (Tensor, Variable)):
        return "a tensor"
    return f"the Python value {v!r:.40}"


def _shape_of(structure):
    return nest.map_structure(lambda _: "T", structure) if nest.is_nested(structure) else "T"


def _probe_if(body, orelse, get_state, set_state, nouts):
    init = tuple(get_state())
    set_state(init)
    body()
    main = tuple(get_state())
    set_state(init)
    orelse()
    other = tuple(get_state())
    merged = tuple(o if isinstance(m, (Undefined, UndefinedReturnValue)) else m
                   for m, o in zip(main[:nouts], other[:nouts]))
    set_state(merged + init[nouts:])


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if PROBING[0]:
        _probe_if(body, orelse, get_state, set_state, nouts)
        return
    where = user_location()
    pred = condition(cond, "if statement", where)
    init = tuple(get_state())
    names = symbol_names[:nouts]
    seen = {}

    def branch(fn, label):
        def run():
            set_state(init)
            fn()
            outputs = _BranchOutputs(tuple(get_state())[:nouts], names, label, where)
            if "main" in seen:
                outputs.check_against(seen["main"])
            else:
                seen["main"] = outputs
            return outputs.tensors()
        return run
    flat = tf_cond(pred, branch(body, "main"), branch(orelse, "else"))
    flat = list(flat) if isinstance(flat, (list, tuple)) else [flat]
    set_state(seen["main"].rebuild(flat) + init[nouts:])


# -- conditional expressions and logic ------------------------------------------------------------
def if_exp(cond, if_true, if_false, expr_repr):
    """`if_true() if cond else if_false()`; a cond on a graph tensor."""
    if is_graph_tensor(cond):
        where = user_location()
        return tf_cond(condition(cond, f"conditional expression `{expr_repr}`", where),
                       if_true, if_false)
    return if_true() if cond else if_false()


def and_(*operands):
    """Python's lazy `and` over the thunks `operands`; logical_and through a cond on tensors."""
    value = operands[0]()
    for operand in operands[1:]:
        if is_graph_tensor(value):
            value = _lazy(value, operand, True)
        elif not value:
            return value
        else:
            value = operand()
    return value


def or_(*operands):
    """Python's lazy `or`; logical_or through a cond on tensors."""
    value = operands[0]()
    for operand in operands[1:]:
        if is_graph_tensor(value):
            value = _lazy(value, operand, False)
        elif value:
            return value
        else:
            value = operand()
    return value


def _lazy(left, right, is_and):
    pred = condition(left, "`and`" if is_and else "`or`", user_location())
    if is_and:
        return tf_cond(pred, lambda: _bool_tensor(right()), lambda: pred)
    return tf_cond(pred, lambda: pred, lambda: _bool_tensor(right()))


def _bool_tensor(value):
    t = _as_tensor(value)
    if t.dtype is not dtypes.bool:
        raise TypeError(f"`and`/`or` with a tensor operand needs bool tensors on both sides, got "
                        f"dtype {t.dtype.name}{user_location()}.")
    return t


def not_(value):
    """Python's `not`; logical_not for a bool tensor."""
    if isinstance(value, (Tensor, Variable)) and value.dtype is dtypes.bool:
        return math_ops.logical_not(value)
    return not value
