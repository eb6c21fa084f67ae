"""The executor: plans cached per (fetches, feeds), pruning, freeing after last use, constant
folding, duplicate merging, run-time errors naming the op, and optimized == unoptimized."""
import gc
import weakref

import numpy as np
import pytest

import wengert as tf
from wengert.runtime.executor import compile_plan

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


def _plan(session):
    assert len(session._plans) == 1
    return next(iter(session._plans.values()))


def test_plans_are_cached_per_fetches_and_feeds():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        y = tf.sin(x)
        z = y * 2.0
    with v1.Session(graph=g) as sess:
        for _ in range(3):
            sess.run(z, {x: [1.0]})
        assert len(sess._plans) == 1
        sess.run([z, y], {x: [1.0]})
        sess.run(z, {y: [1.0]})
        assert len(sess._plans) == 3
        plan = sess._plans[next(iter(sess._plans))]
        sess.run(z, {x: [2.0, 3.0]})  # new values, same plan
        assert sess._plans[next(iter(sess._plans))] is plan


def test_pruning_runs_only_what_the_fetches_need():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        used = tf.exp(x)
        tf.sin(x) * 100.0  # not needed
        out = used + 1.0
        v1.placeholder(tf.float32, name="unfed")
    with v1.Session(graph=g) as sess:
        sess.run(out, {x: [0.0, 0.0, 0.0]})
        types = [s.op.type for s in _plan(sess).steps]
    assert types == ["Exp", "AddV2"]


def test_fed_tensor_cuts_off_its_producers():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        h = tf.exp(x)
        out = tf.sin(h)
    with v1.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(out, {h: [0.0, 1.0, 2.0]}), np.sin([0, 1, 2]),
                                   rtol=1e-6)
        assert [s.op.type for s in _plan(sess).steps] == ["Sin"]


def test_intermediates_are_freed_after_their_last_use():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [4], name="x")
        a = tf.exp(x)
        b = tf.sin(a)
        c = tf.cos(b)
        d = c + a  # `a` lives until here
        out = tf.reduce_sum(d)
    with v1.Session(graph=g) as sess:
        sess.run(out, {x: np.zeros(4)})
        plan = _plan(sess)
    steps = {s.op.name: s for s in plan.steps}
    slot = {id(t): s for st in plan.steps for t, s in zip(st.op.outputs, st.outputs)}
    assert slot[id(a)] not in steps["Exp"].frees
    assert slot[id(b)] in steps["Cos"].frees
    assert slot[id(a)] in steps["add"].frees and slot[id(c)] in steps["add"].frees  # c + a
    assert plan.fetch_slots[0] not in [f for s in plan.steps for f in s.frees]
    assert f"del s{slot[id(a)]}" in plan.source


def test_freed_arrays_are_released_while_the_plan_runs():
    """A kernel late in the plan sees that an early intermediate is already gone."""
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [1000], name="x")
        first = tf.exp(x)
        second = tf.sin(first)
        third = tf.cos(second)
        out = tf.reduce_sum(third)
    seen = {}
    plan = compile_plan(g, [out], [], [x])
    exp_step = next(s for s in plan.steps if s.op is first.op)
    cos_step = next(s for s in plan.steps if s.op is third.op)
    exp_kernel, cos_kernel = exp_step.kernel, cos_step.kernel

    def spying_exp(v):
        result = exp_kernel(v)
        seen["ref"] = weakref.ref(result) if isinstance(result, np.ndarray) else None
        return result

    def spying_cos(v):
        gc.collect()
        seen["alive_at_cos"] = seen["ref"]() is not None
        return cos_kernel(v)

    exp_step.kernel, cos_step.kernel = spying_exp, spying_cos
    from wengert.runtime.executor import _generate
    plan.source, plan._fn, plan._lines = _generate(plan)
    plan.run([np.zeros(1000)], None)
    assert seen["alive_at_cos"] is False


def test_constant_folding():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        k = tf.exp(tf.constant(1.0)) * tf.constant(2.0)  # all constant
        out = x * k
    with v1.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(out, {x: [1.0, 2.0]}), [2 * np.e, 4 * np.e],
                                   rtol=1e-6)
        plan = _plan(sess)
        assert [s.op.type for s in plan.steps] == ["Mul"]
        assert len(plan.constants) == 1
        assert not next(iter(plan.constants.values())).flags.writeable
    with v1.Session(graph=g, optimize=False) as sess:
        sess.run(out, {x: [1.0, 2.0]})
        assert [s.op.type for s in _plan(sess).steps] == ["Const", "Exp", "Const", "Mul", "Mul"]


def test_duplicate_computations_are_merged():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [3], name="x")
        a = tf.reduce_sum(tf.sin(x), axis=0)
        b = tf.reduce_sum(tf.sin(x), axis=0)
        c = tf.reduce_sum(tf.sin(x), axis=0, keepdims=True)  # different attrs: kept
        out = a + b + c
    with v1.Session(graph=g) as sess:
        got = sess.run(out, {x: [0.1, 0.2, 0.3]})
        types = [s.op.type for s in _plan(sess).steps]
    assert types.count("Sin") == 1 and types.count("Sum") == 2
    np.testing.assert_allclose(got, [3 * np.sin([0.1, 0.2, 0.3]).sum()])


def test_stateful_ops_are_never_merged_or_folded():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.float64(0.0), name="v")
        inc1 = v.assign_add(1.0)
        inc2 = v.assign_add(1.0)
    with v1.Session(graph=g) as sess:
        sess.run(v.initializer)
        sess.run([inc1.op, inc2.op])
        assert sess.run(v) == 2.0


def test_run_time_error_names_the_op_with_shapes():
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float64, [None], name="a")
        b = v1.placeholder(tf.float64, [None], name="b")
        c = tf.add(tf.exp(a), b, name="total")
    with v1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"AddV2.*'total'.*\(2,\).*\(3,\)"):
            sess.run(c, {a: np.ones(2), b: np.ones(3)})
        np.testing.assert_allclose(sess.run(c, {a: np.zeros(2), b: np.ones(2)}), [2.0, 2.0])


def test_fetching_a_constant_twice_gives_independent_arrays():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant([1.0, 2.0]) * 2.0
    with v1.Session(graph=g) as sess:
        first = sess.run(c)
        first[0] = 99.0
        np.testing.assert_allclose(sess.run(c), [2.0, 4.0])


# -- optimized and unoptimized runs agree ----------------------------------------------------------
def _mlp_graph():
    rng = np.random.default_rng(7)
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [None, 4], name="x")
        labels = v1.placeholder(tf.int32, [None], name="labels")
        w1 = tf.Variable(rng.normal(size=(4, 8)) * 0.5, name="w1")
        b1 = tf.Variable(np.zeros(8), name="b1")
        w2 = tf.Variable(rng.normal(size=(8, 3)) * 0.5, name="w2")
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits))
        lr = tf.constant(0.5) * tf.constant(0.2)  # folded
        lr = tf.cast(lr, tf.float64)
        grads = tf.gradients(loss, [w1, b1, w2])
        steps = [v.assign_sub(lr * gr) for v, gr in zip([w1, b1, w2], grads)]
        init = v1.global_variables_initializer()
    feed_x = rng.normal(size=(16, 4))
    feed_y = rng.integers(0, 3, size=16).astype(np.int32)
    return g, init, loss, steps, {x: feed_x, labels: feed_y}, [w1, b1, w2]


def test_optimized_and_unoptimized_training_loops_agree():
    g, init, loss, steps, feed, variables = _mlp_graph()
    histories = []
    for optimize in (True, False):
        with v1.Session(graph=g, optimize=optimize) as sess:
            sess.run(init)
            history = [sess.run([loss, steps], feed)[0] for _ in range(20)]
            histories.append((history, sess.run(variables)))
    (h1, v1_), (h2, v2_) = histories
    assert h1 == h2
    assert h1[-1] < h1[0]
    for a, b in zip(v1_, v2_):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("case", ["broadcast", "higher_order", "duplicates", "multi_output"])
def test_optimized_and_unoptimized_agree(case):
    rng = np.random.default_rng(1)
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [None, 3], name="x")
        feed = {x: rng.normal(size=(5, 3))}
        if case == "broadcast":
            b = tf.constant(np.array([1.0, 2.0, 3.0]))
            y = tf.reduce_sum(tf.tanh(x * b + tf.constant(1.0, tf.float64) * 2.0), axis=0)
            fetches = [y] + tf.gradients(y, [x])
        elif case == "higher_order":
            y = tf.reduce_sum(tf.sin(x) * x)
            g1, = tf.gradients(y, x)
            g2, = tf.gradients(tf.reduce_sum(g1 * g1), x)
            fetches = [y, g1, g2]
        elif case == "duplicates":
            parts = [tf.reduce_sum(tf.exp(x) * tf.constant(2.0, tf.float64)) for _ in range(4)]
            fetches = [tf.add_n(parts), parts[0], tf.gradients(parts, x)[0]]
        else:
            pieces = tf.unstack(x, num=3, axis=1)
            fetches = [pieces[2] * pieces[0], tf.gradients(pieces[1] * pieces[2], x)[0]]
    results = []
    for optimize in (True, False):
        with v1.Session(graph=g, optimize=optimize) as sess:
            results.append(sess.run(fetches, feed))
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_plan_source_is_readable():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [2], name="x")
        y = tf.exp(x, name="e") * 2.0
    with v1.Session(graph=g) as sess:
        sess.run(y, {x: [0.0, 1.0]})
        source = _plan(sess).source
    assert source.startswith("def plan(feeds, store):")
    assert "# e" in source and "# mul" in source.lower()


# -- specialized lines, fused scatter sums, merged reads, in-place ufuncs (optimized plans) -------
def _traced_plans(fn, *args):
    """The traced function's optimized plan and an unoptimized plan of the same graph."""
    concrete = fn.get_concrete_function(*args)
    graph = concrete.graph
    fetches = [t for t in graph.outputs if t is not None]
    stateful = [op for op in graph._ops if getattr(op.op_def, "stateful", False)]
    return concrete._plan, compile_plan(graph, fetches, stateful, graph.inputs, optimize=False)


def _run(plan, *args):
    from wengert.runtime.variable_store import LIVE_VARIABLES
    return plan.run([np.array(a) for a in args], LIVE_VARIABLES)


def test_chain_of_slices_fuses_its_gradient_and_agrees_with_unoptimized():
    rng = np.random.default_rng(3)
    w = tf.Variable(rng.normal(size=40) * 0.5)
    y0 = tf.constant(rng.normal(size=(6, 5)))

    @tf.function
    def chain():
        with tf.GradientTape() as tape:
            y = y0
            for i in range(40):
                y = tf.tanh(y * w[i]) + tf.reduce_sum(w[i:i + 2]) * 0.1
            loss = tf.reduce_sum(y * y)
        return loss, tape.gradient(loss, w)

    fast, slow = _traced_plans(chain)
    types = [s.op.type for s in fast.steps]
    assert "StridedSliceGrad" not in types and "StridedSliceGrad" in [
        s.op.type for s in slow.steps]  # fused into the AddN step
    assert [s.op.type for s in fast.steps].count("ReadVariableOp") == 1  # reads merged
    assert "s0[" in fast.source  # slices inlined
    for a, b in zip(_run(fast), _run(slow)):
        np.testing.assert_array_equal(a, b)
    eager_loss = None
    with tf.GradientTape() as tape:
        y = y0
        for i in range(40):
            y = tf.tanh(y * w[i]) + tf.reduce_sum(w[i:i + 2]) * 0.1
        eager_loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(chain()[1].numpy(), tape.gradient(eager_loss, w).numpy(),
                               rtol=1e-12)


def test_sum_to_shape_specialization_agrees():
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(3, 4, 5)))

    @tf.function
    def f(a, b, c):
        with tf.GradientTape() as tape:
            tape.watch([a, b, c])
            y = tf.reduce_sum(tf.tanh(x * a * b + c))
        return tape.gradient(y, [a, b, c])

    args = (rng.normal(size=(4, 1)), rng.normal(size=()), rng.normal(size=(5,)))
    fast, slow = _traced_plans(f, *map(tf.constant, args))
    assert "SumToShape" in fast.source and "add.reduce" not in slow.source
    for a, b in zip(_run(fast, *args), _run(slow, *args)):
        assert a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def test_reads_are_not_merged_across_an_assignment():
    v = tf.Variable(np.arange(3.0))

    @tf.function
    def f():
        before = v * 1.0
        v.assign_add(tf.ones(3, tf.float64))
        return before, v * 1.0, v.read_value()

    fast, slow = _traced_plans(f)
    assert [s.op.type for s in fast.steps].count("ReadVariableOp") == 2
    b, a, r = f()
    np.testing.assert_array_equal(b.numpy(), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(r.numpy(), [1.0, 2.0, 3.0])


def test_in_place_ufuncs_write_only_dying_arrays_nobody_else_holds():
    rng = np.random.default_rng(5)
    big = rng.normal(size=(128, 256))  # large enough for in-place reuse

    @tf.function
    def f(x):
        doubled = x * 2.0
        kept = tf.identity(doubled)           # may share doubled's array
        r = tf.nn.relu(tf.reshape(x, [-1]))   # a view of the argument
        tripled = tf.nn.relu(x * 3.0)         # x * 3.0 dies at the relu: written in place
        return kept, tf.nn.relu(doubled), r, tf.nn.relu(x), tripled

    x = tf.constant(big)
    fast, slow = _traced_plans(f, x)
    assert "out=" in fast.source
    kept, relu_doubled, r, relu_x, relu_tripled = f(x)
    np.testing.assert_array_equal(x.numpy(), big)  # the argument is never written
    np.testing.assert_array_equal(kept.numpy(), big * 2.0)
    np.testing.assert_array_equal(relu_doubled.numpy(), np.maximum(big * 2.0, 0))
    np.testing.assert_array_equal(r.numpy(), np.maximum(big, 0).ravel())
    np.testing.assert_array_equal(relu_x.numpy(), np.maximum(big, 0))
    np.testing.assert_array_equal(relu_tripled.numpy(), np.maximum(big * 3.0, 0))
    for a, b in zip(_run(fast, big), _run(slow, big)):
        np.testing.assert_array_equal(a, b)


def test_traced_mlp_step_optimized_equals_unoptimized_bitwise():
    rng = np.random.default_rng(6)
    x = rng.random((32, 300), dtype=np.float32)
    labels = rng.integers(0, 10, size=32).astype(np.int32)
    init = [(rng.standard_normal(s) * 0.1).astype(np.float32)
            for s in [(300, 128), (128, 128), (128, 10)]]
    ws = [tf.Variable(w) for w in init]
    lr = tf.constant(np.float32(0.1))

    @tf.function
    def step(x, labels):
        with tf.GradientTape() as tape:
            h = x
            for w in ws[:-1]:
                h = tf.nn.relu(tf.matmul(h, w))
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=tf.matmul(h, ws[-1])))
        for w, g in zip(ws, tape.gradient(loss, ws)):
            w.assign_sub(lr * g)
        return loss

    fast, slow = _traced_plans(step, tf.constant(x), tf.constant(labels))
    assert "out=" in fast.source
    runs = []
    for plan in (fast, slow):
        for w, value in zip(ws, init):
            w.assign(value)
        losses = [_run(plan, x, labels)[0] for _ in range(5)]
        runs.append((losses, [w.numpy() for w in ws]))
    assert runs[0][0] == runs[1][0] and runs[0][0][-1] < runs[0][0][0]
    for a, b in zip(runs[0][1], runs[1][1]):
        np.testing.assert_array_equal(a, b)
