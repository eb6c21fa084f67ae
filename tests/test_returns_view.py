"""Every kernel whose output may share memory with an input (or with an array attribute, or
with another of its outputs) is declared `returns_view`: the traced executor writes results into dying inputs on the strength of
that flag (runtime/buffer_planning.py), so an undeclared view would let it overwrite an array that is
still in use.

Every op-table row runs eagerly, forward and first-order gradient, with an observer that sees
each kernel's inputs and outputs; and in a graph (forward and `gradients()`), whose plan's steps
are run one by one here. An output that shares memory (np.shares_memory) with an input or an
array attribute of an op not declared `returns_view` is reported with the op type and row.
"""
import numpy as np
import pytest

import op_table
import wengert as tf
from wengert.framework.context import state
from wengert.framework.variables import Variable
from wengert.runtime.executor import compile_plan
from wengert.runtime.variable_store import LIVE_VARIABLES

v1 = tf.compat.v1

ROWS = op_table.all_rows()
CASES = [(row, i) for row in ROWS for i in range(len(row.samples))]
IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in CASES]


def _arrays(values):
    for v in values:
        if isinstance(v, np.ndarray):
            yield v
        elif isinstance(v, (tuple, list)):
            yield from _arrays(v)


def _undeclared_view(op_def, inputs, outputs, attrs):
    """The op type when an output shares memory with an input, an array attribute or another
    output and the op is not declared returns_view, else None."""
    if op_def.returns_view:
        return None
    sources = list(_arrays(inputs)) + list(_arrays(attrs.values()))
    outs = [o for o in _arrays(outputs) if o.size]
    for i, out in enumerate(outs):
        if any(s.size and np.shares_memory(out, s) for s in sources + outs[:i]):
            return op_def.type
    return None


def _value(t):
    return t._value if hasattr(t, "_value") else t


def _float_array(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _outputs(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _eager_violations(row, sample):
    found = set()

    def observe(op_def, inputs, outputs, attrs, name):
        bad = _undeclared_view(op_def, [_value(t) for t in inputs],
                               [_value(t) for t in outputs], attrs)
        if bad:
            found.add(bad)

    args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in sample.args]
    wrt = [args[i] for i, a in enumerate(sample.args) if _float_array(a)]
    saved = state.observers
    state.observers = saved + (observe,)
    try:
        with tf.GradientTape() as tape:
            tape.watch(wrt)
            outs = [o for o in _outputs(row.fn(*args, **sample.kwargs))
                    if o is not None and o.dtype.is_floating]
        if row.grad and wrt and outs:
            tape.gradient(outs, wrt)
    finally:
        state.observers = saved
    return found


def _graph_violations(row, sample):
    g = tf.Graph()
    feeds, args, values = [], [], []
    with g.as_default():
        for i, a in enumerate(sample.args):
            if _float_array(a):
                p = v1.placeholder(tf.float64, a.shape, name=f"arg{i}")
                feeds.append(p)
                values.append(a.copy())
                args.append(p)
            else:
                args.append(a)
        outs = [o for o in _outputs(row.fn(*args, **sample.kwargs)) if o is not None]
        fetches = list(outs)
        floats = [o for o in outs if o.dtype.is_floating]
        if row.grad and feeds and floats:
            fetches += [d for d in tf.gradients(floats, feeds) if d is not None]
    plan = compile_plan(g, fetches, [], feeds, optimize=False)
    return _run_steps(plan, values)


def _run_steps(plan, feed_values):
    """Run the plan's steps one by one, checking each kernel's outputs."""
    found = set()
    slots = dict(zip(plan.feed_slots, feed_values))
    slots.update(plan.constants)
    for step in plan.steps:
        op_def = step.op.op_def
        args = [slots[i] if type(i) is int else LIVE_VARIABLES.read(i) for i in step.inputs]
        if step.stateful:
            stateful_args = [i if isinstance(i, Variable) else slots[i] for i in step.inputs]
            out = step.kernel(LIVE_VARIABLES, *stateful_args, **step.attrs)
        else:
            out = step.kernel(*args, **step.attrs)
        outs = (out,) if op_def.num_outputs == 1 else tuple(out or ())
        bad = _undeclared_view(op_def, args, outs, step.attrs)
        if bad:
            found.add(bad)
        for slot, value in zip(step.outputs, outs):
            if slot is not None:
                slots[slot] = value
    return found


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_kernels_that_share_memory_are_declared_returns_view(row, index):
    sample = row.samples[index]
    found = _eager_violations(row, sample)
    try:
        found |= _graph_violations(row, sample)
    except (NotImplementedError, TypeError, ValueError, tf.errors.OpError):
        pass  # rows that cannot be built on placeholders (test_op_table_graph covers them)
    assert not found, (f"{sorted(found)}: a kernel returned an output sharing memory with an "
                       f"input or attribute; declare returns_view=True on the op.")


def test_the_check_catches_an_undeclared_view():
    from wengert.framework.registry import OpDef
    sneaky = OpDef("TestOnlySneakyView", lambda x: x[1:])
    x = np.arange(4.0)
    assert _undeclared_view(sneaky, [x], [x[1:]], {}) == "TestOnlySneakyView"
    assert _undeclared_view(sneaky, [x], [x[1:].copy()], {}) is None
    const = OpDef("TestOnlySneakyConst", lambda value: value)
    assert _undeclared_view(const, [], [x], {"value": x}) == "TestOnlySneakyConst"
