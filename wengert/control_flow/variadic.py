"""Control-flow ops whose number of outputs is that of their code (If, Case, While), and the state
their code touches.

An op type is declared once with one output; `with_outputs(op_def, n, attrs)` gives the
declaration with `n` outputs, kept per (type, n, stateful). When the sub-graphs in `attrs` touch
state (read or assign variables, print, pull from an iterator), the declaration is stateful:
plans always run the op, in program order, and hand its kernel the variable store, which it
passes on to its sub-graphs (each op type registers its stateful kernel with `register`).
Gradient ops recompute the forward code with a store that drops writes (`DiscardingWrites`), so
differentiating a loop that assigns a variable does not assign it again.
"""
import numpy as np

from ..framework.context import state
from ..framework.execute import execute
from ..framework.registry import OpDef
from ..tracing.func_graph import run_stateful_eagerly

_VARIADIC = {}  # op type -> (its one-output declaration, its kernel over a variable store)
_ARITIES = {}


def register(op_def, stateful_kernel):
    """Declare `op_def` (declared with one output) variadic; `stateful_kernel(store, *inputs,
    **attrs)` runs it with the variables held in `store`. Returns op_def."""
    _VARIADIC[op_def.type] = (op_def, stateful_kernel)
    return op_def


def with_outputs(op_def, n, attrs=None):
    """The declaration `op_def` with `n` outputs (If/Case/While return what their code returns).

    When the sub-graphs in `attrs` touch state (read or assign variables, print, pull from an
    iterator), the declaration is stateful: plans always run the op, in program order, and
    hand its kernel the variable store, which it passes on to its sub-graphs."""
    stateful = attrs is not None and _touches_state(attrs)
    key = (op_def.type, n, stateful)
    hit = _ARITIES.get(key)
    if hit is None:
        base, stateful_kernel = _VARIADIC[op_def.type]
        kernel = stateful_kernel if stateful else base.kernel
        hit = _ARITIES[key] = OpDef(op_def.type, kernel, base.shape, base.jvp, n, base.module,
                                    stateful=stateful)
    return hit


def _touches_state(attrs):
    for value in attrs.values():
        for graph in (value if isinstance(value, tuple) else (value,)):
            if getattr(graph, "touches_state", False):
                return True
    return False


def run(op_def, inputs, attrs, name=None):
    """Build or run one If/Case/While op (a stateful one runs eagerly on the live variables)."""
    if op_def.stateful and state.graph is None:
        return run_stateful_eagerly(op_def, inputs, attrs, name)
    return execute(op_def, inputs, attrs, name)


class DiscardingWrites:
    """A variable store that reads through and drops writes: the gradient of a branch or loop
    recomputes its forward ops, whose assignments must not happen a second time."""

    def __init__(self, store):
        self._store = store

    def read(self, var):
        return self._store.read(var)

    def write(self, var, value):
        pass

    def update(self, var, ufunc, value, in_place=False):
        return np.asarray(ufunc(self._store.read(var), value))  # never into the variable

    def lend(self, var):
        self._store.lend(var)


def store_for(store, discard_writes):
    return DiscardingWrites(store) if discard_writes else store


def single_or_tuple(values):
    return values[0] if len(values) == 1 else tuple(values)
