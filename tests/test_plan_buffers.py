"""In-place reuse decided when a plan compiles, and variables that own their buffers (issue 13
item 5): nothing rests on reference counts. A plan writes a result into an input only when that
input dies there and its buffer was made by the run and is held by nothing else; fed arrays,
constants, variable values and views are never written. An eager variable updates in place only
while no tensor, view or array from a read of it is left."""
import gc
import pathlib
import re

import numpy as np

import wengert as tf
from wengert.runtime.executor import compile_plan
from wengert.runtime.variable_store import LIVE_VARIABLES

BIG = (128, 160)  # 20,480 elements: large enough for in-place reuse


def _plan(fn, *args):
    return fn.get_concrete_function(*args)._plan


def _step(plan, op_type):
    return [s for s in plan.steps if s.op.type == op_type]


def test_nothing_in_wengert_reads_reference_counts():
    root = pathlib.Path(tf.__file__).parent
    users = [str(p.relative_to(root)) for p in root.rglob("*.py") if "getrefcount" in p.read_text()]
    assert users == []


def test_a_dying_fresh_buffer_is_written_and_the_argument_is_not():
    x = np.random.default_rng(0).normal(size=BIG)

    @tf.function
    def f(a):
        return tf.nn.relu(a * 2.0), tf.nn.relu(a)

    plan = _plan(f, tf.constant(x))
    mul, = _step(plan, "Mul")
    first, second = _step(plan, "Relu")
    assert mul.into is None              # its input is the fed argument
    assert first.into == 0               # a * 2.0 is fresh and dies here
    assert second.into is None           # the argument again
    t = tf.constant(x)
    doubled, relu = f(t)
    np.testing.assert_array_equal(t.numpy(), x)
    np.testing.assert_array_equal(doubled.numpy(), np.maximum(x * 2.0, 0))
    np.testing.assert_array_equal(relu.numpy(), np.maximum(x, 0))


def test_a_buffer_a_live_view_shares_is_not_written():
    x = np.random.default_rng(1).normal(size=BIG)

    @tf.function
    def f(a):
        b = a * 2.0
        flat = tf.reshape(b, [-1])           # a view of b, alive after the relu
        return tf.nn.relu(b), flat

    plan = _plan(f, tf.constant(x))
    assert _step(plan, "Relu")[0].into is None
    relu, flat = f(tf.constant(x))
    np.testing.assert_array_equal(flat.numpy(), (x * 2.0).ravel())
    np.testing.assert_array_equal(relu.numpy(), np.maximum(x * 2.0, 0))


def test_views_constants_and_variable_values_are_never_written():
    x = np.random.default_rng(2).normal(size=BIG)
    v = tf.Variable(x.copy())
    c = tf.constant(x)

    @tf.function
    def f():
        return tf.nn.relu(tf.reshape(v * 1.0, [-1])), tf.nn.relu(v.read_value()), tf.nn.relu(c)

    plan = _plan(f)  # (relu(c) is folded into a constant)
    assert [s.into for s in _step(plan, "Relu")] == [None, None]
    f()
    np.testing.assert_array_equal(v.numpy(), x)
    np.testing.assert_array_equal(c.numpy(), x)


def test_a_variable_update_is_in_place_only_when_no_live_slot_holds_the_array():
    v = tf.Variable(np.zeros(4))

    @tf.function
    def plain(d):
        v.assign_add(d)

    @tf.function
    def keeps_a_read(d):
        before = v.read_value()
        v.assign_add(d)
        return before

    assert _step(_plan(plain, tf.ones(4, tf.float64)), "AssignAddVariableOp")[0].into == 0
    assert _step(_plan(keeps_a_read, tf.ones(4, tf.float64)),
                 "AssignAddVariableOp")[0].into is None
    plain(tf.ones(4, tf.float64))
    array = v._value
    plain(tf.ones(4, tf.float64))
    assert v._value is array                     # updated in place
    before = keeps_a_read(tf.ones(4, tf.float64))
    np.testing.assert_array_equal(before.numpy(), np.full(4, 2.0))
    plain(tf.ones(4, tf.float64))                # the fetched read was lent: a new array
    np.testing.assert_array_equal(before.numpy(), np.full(4, 2.0))
    np.testing.assert_array_equal(v.numpy(), np.full(4, 4.0))


def test_eager_variable_updates_in_place_once_every_read_is_gone():
    v = tf.Variable(np.ones(5))
    array = v._value
    read = v.read_value()
    piece = read[1:3]                            # a view of the read
    as_numpy = np.asarray(tf.reshape(read, [5]))
    del read
    gc.collect()
    v.assign_add(np.ones(5))                     # the view and the array still see the value
    assert v._value is not array
    np.testing.assert_array_equal(piece.numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(as_numpy, np.ones(5))
    del piece, as_numpy
    gc.collect()
    owned = v._value
    v.assign_add(np.ones(5))                     # nothing was read since: in place
    assert v._value is owned
    read = v.read_value()
    del read
    gc.collect()
    v.assign_add(np.ones(5))                     # the read is gone: in place again
    assert v._value is owned
    np.testing.assert_array_equal(v.numpy(), np.full(5, 4.0))


def test_slicing_a_variable_under_a_tape_disowns_its_array():
    w = tf.Variable(np.arange(4.0))
    with tf.GradientTape() as tape:
        y = w[1] * 2.0
    tape.gradient(y, w)
    array = w._value
    w.assign_sub(np.ones(4))
    assert w._value is not array                 # the slice's kernel got the array itself
    np.testing.assert_array_equal(y.numpy(), 2.0)
    owned = w._value
    w.assign_sub(np.ones(4))
    assert w._value is owned
    np.testing.assert_array_equal(w.numpy(), np.arange(4.0) - 2.0)


def test_session_owns_graph_variable_arrays_and_lends_the_ones_assigned_away():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.zeros(3), name="v")
        w = tf.Variable(np.ones(3), name="w")
        copy = v.assign(w.read_value())          # v's value is w's array: w is lent
        bump = w.assign_add(tf.ones(3, tf.float64)).op
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run([v.initializer, w.initializer])
        sess.run(bump)
        sess.run(copy.op)
        sess.run(bump)
        np.testing.assert_array_equal(sess.run(v), np.full(3, 2.0))
        np.testing.assert_array_equal(sess.run(w), np.full(3, 3.0))


def test_live_variables_update_writes_in_place_only_when_asked_and_owned():
    v = tf.Variable(np.zeros(3))
    array = v._value
    LIVE_VARIABLES.update(v, np.add, np.ones(3))           # not asked: a new array
    assert v._value is not array
    owned = v._value
    LIVE_VARIABLES.update(v, np.add, np.ones(3), True)     # asked and owned
    assert v._value is owned
    held = v.read_value()
    LIVE_VARIABLES.update(v, np.add, np.ones(3), True)     # a tensor holds it
    np.testing.assert_array_equal(held.numpy(), np.full(3, 2.0))
    np.testing.assert_array_equal(v.numpy(), np.full(3, 3.0))


def test_compiled_plans_hold_numbered_identifiers_only():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, [3], name="input.x")
        v = tf.Variable(np.ones(3), name="weights-1")
        y = tf.reduce_sum(tf.exp(x * v, name="scope>exp")[1:], name="total")
        step = v.assign_add(tf.ones(3, tf.float64), name="bump").op
    plan = compile_plan(g, [y], [step], [x])
    code = plan._fn.__code__
    allowed = re.compile(r"(s|k|a|c|v)\d+|read|store|feeds|lend")
    assert all(allowed.fullmatch(n) for n in code.co_names + code.co_varnames), code.co_names
    assert not [c for c in code.co_consts if isinstance(c, str)]
    assert "# scope>exp" in plan.source and "# bump" in plan.source  # the listing names them
