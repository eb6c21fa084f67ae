"""compat.v1 Session: fetch structures, feed checks, pruning, graph variables and initializers,
assignments, eager execution switched off and on."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.registry import _GRADIENTS, _OP_DEFS, defop
from wengert.framework.execute import execute
from wengert.ops import shape_rules

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.fixture
def failing_op():
    """An op whose kernel always raises (registered for one test only)."""
    def kernel(x):
        raise AssertionError("this kernel must not run")
    op_def = defop("TestSessionExplodes", kernel, shape=shape_rules.same, grad=None)
    yield lambda x: execute(op_def, (x,), name="explodes")
    _OP_DEFS.pop("TestSessionExplodes")
    _GRADIENTS.pop("TestSessionExplodes")


def _graph():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        y = tf.reduce_sum(x * 2.0, name="y")
        z = tf.identity(x, name="z")
    return g, x, y, z


# -- fetches --------------------------------------------------------------------------------------
def test_session_is_a_context_manager_and_closes():
    g, x, y, _ = _graph()
    with v1.Session(graph=g) as sess:
        assert v1.get_default_session() is sess
        assert sess.run(y, {x: [[1.0, 2.0]]}) == 6.0
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(y, {x: [[1.0, 2.0]]})
    s2 = v1.Session(graph=g)
    s2.close()
    with pytest.raises(RuntimeError, match="closed"):
        s2.run(y, {x: [[1.0, 2.0]]})


def test_fetch_structures():
    g, x, y, z = _graph()
    feed = {x: np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)}
    with v1.Session(graph=g) as sess:
        assert isinstance(sess.run(y, feed), np.float32)
        assert isinstance(sess.run(z, feed), np.ndarray)
        a, b = sess.run([y, z], feed)
        assert a == 20.0 and b.shape == (2, 2)
        out = sess.run({"loss": y, "pair": (y, [z, y]), "nothing": z.op}, feed)
        assert set(out) == {"loss", "pair", "nothing"}
        assert out["loss"] == 20.0 and isinstance(out["pair"], tuple)
        assert out["pair"][1][1] == 20.0 and out["nothing"] is None
        assert sess.run("y:0", feed) == 20.0
        assert sess.run("y", feed) is None  # an op name: the op runs, fetches None
        assert sess.run([], feed) == []
        np.testing.assert_array_equal(sess.run(x, feed), feed[x])  # a fed tensor fetches its feed


def test_fetch_errors():
    g, x, y, _ = _graph()
    other = tf.Graph()
    with other.as_default():
        c = tf.constant(1.0)
    with v1.Session(graph=g) as sess:
        with pytest.raises(ValueError, match="not an element"):
            sess.run(c)
        with pytest.raises(ValueError, match="not an element"):
            sess.run(c.op)
        with pytest.raises(TypeError, match="invalid type"):
            sess.run(3.0)
        with pytest.raises(ValueError, match="nope"):  # TensorFlow's error type
            sess.run("nope:0")


def test_session_uses_the_default_graph_when_built():
    g, x, y, _ = _graph()
    with g.as_default():
        sess = v1.Session()
    assert sess.graph is g
    assert sess.run(y, {x: np.ones((1, 2), np.float32)}) == 4.0


def test_eval_and_op_run_use_the_default_session():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.float32(2.0), name="v")
        y = v * 3.0
        with v1.Session() as sess:
            v.initializer.run()
            assert y.eval() == 6.0 and v.eval() == 2.0
        with pytest.raises(ValueError, match="No default session"):
            y.eval()
        other = v1.Session()
        with other.as_default():
            other.run(v.initializer)
            assert y.eval() == 6.0


# -- feeds ----------------------------------------------------------------------------------------
def test_feeds_are_checked_against_shape():
    g, x, y, _ = _graph()
    with v1.Session(graph=g) as sess:
        with pytest.raises(ValueError, match=r"shape \(3,\).*'x:0'.*\(None, 2\)"):
            sess.run(y, {x: np.ones(3, np.float32)})
        with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
            sess.run(y, {x: np.ones((2, 3), np.float32)})
        assert sess.run(y, {x: np.ones((5, 2), np.float32)}) == 20.0


def test_feeds_are_checked_against_dtype():
    g = tf.Graph()
    with g.as_default():
        i = v1.placeholder(tf.int32, [2], name="i")
        f = v1.placeholder(tf.float64, [2], name="f")
        s = tf.reduce_sum(tf.cast(i, tf.float64) + f)
    with v1.Session(graph=g) as sess:
        # TF 2.21 feeds as np.asarray(value).astype(dtype): floats truncate to ints (6.0), and
        # a string that is no number is NumPy's ValueError
        assert sess.run(s, {i: np.array([1.5, 2.5]), f: [1.0, 2.0]}) == 6.0
        with pytest.raises(ValueError, match="'f:0'.*could not convert"):
            sess.run(s, {i: [1, 2], f: ["a", "b"]})
        assert sess.run(s, {i: [1, 2], f: [1, 2]}) == 6.0  # ints fit a float placeholder
        out = sess.run(f, {i: [1, 2], f: np.array([1, 2], np.int64)})
        assert out.dtype == np.float64


def test_feed_keys_may_be_names_and_eager_values():
    g, x, y, _ = _graph()
    eager = tf.constant([[1.0, 1.0]])
    with v1.Session(graph=g) as sess:
        assert sess.run(y, {"x:0": [[1.0, 1.0]]}) == 4.0
        assert sess.run(y, {x: eager}) == 4.0
        with pytest.raises(ValueError, match="feed_dict keys"):
            sess.run(y, {3: 1.0})
        with pytest.raises(TypeError, match="symbolic"):
            sess.run(y, {x: x})


def test_unfed_placeholder_error_names_it():
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float32, [None, 784], name="images")
        b = v1.placeholder(tf.float32, name="unused")
        out = tf.reduce_sum(a)
    with v1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"placeholder tensor 'images'.*float32.*\(None, 784\)"):
            sess.run(out)
        assert sess.run(out, {a: np.ones((1, 784))}) == 784.0  # `unused` need not be fed
        del b


def test_feeding_an_intermediate_tensor_skips_its_producers(failing_op):
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        boom = failing_op(x)
        y = boom * 3.0
    with v1.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(y, {boom: [1.0, 2.0]}), [3.0, 6.0])


def test_only_the_needed_part_runs(failing_op):
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        boom = failing_op(x)
        fine = x + 1.0
    with v1.Session(graph=g) as sess:
        np.testing.assert_allclose(sess.run(fine, {x: [1.0, 2.0]}), [2.0, 3.0])
        with pytest.raises(AssertionError, match="must not run"):
            sess.run([fine, boom], {x: [1.0, 2.0]})


def test_run_time_kernel_error_names_the_op():
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float32, [None, None], name="a")
        b = v1.placeholder(tf.float32, [None, None], name="b")
        c = tf.matmul(a, b, name="product")
    with v1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"MatMul.*product.*3.*4"):
            sess.run(c, {a: np.ones((2, 3)), b: np.ones((4, 2))})


# -- variables ------------------------------------------------------------------------------------
def test_graph_variables_and_initializers():
    g = tf.Graph()
    with g.as_default():
        a = tf.Variable(np.ones(2, np.float32), name="a")
        b = tf.Variable(lambda: tf.constant([3.0, 4.0]), name="b", trainable=False)
        assert isinstance(a, tf.Variable) and a.graph is g
        assert v1.global_variables() == [a, b] and v1.trainable_variables() == [a]
        init_a = v1.variables_initializer([a])
        total = a + b
        with v1.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="uninitialized value 'a'.*initializer"):
                sess.run(a)
            sess.run(init_a)
            np.testing.assert_allclose(sess.run(a), [1.0, 1.0])
            with pytest.raises(tf.errors.FailedPreconditionError, match="'b'"):
                sess.run(total)
            sess.run(v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(total), [4.0, 5.0])
            assert sess.run(v1.variables_initializer([])) is None


def test_uninitialized_error_is_a_runtime_error_subclass():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
    with v1.Session(graph=g) as sess:
        with pytest.raises(RuntimeError):
            sess.run(v)


def test_each_session_has_its_own_variable_values():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.float64(0.0), name="v")
        inc = v.assign_add(1.0)
        init = v1.global_variables_initializer()
    s1, s2 = v1.Session(graph=g), v1.Session(graph=g)
    s1.run(init)
    s2.run(init)
    for _ in range(3):
        s1.run(inc)
    s2.run(inc)
    assert (s1.run(v), s2.run(v)) == (3.0, 1.0)
    s1.run(init)
    assert s1.run(v) == 0.0


def test_assign_ops():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.array([1.0, 2.0], np.float32), name="v")
        p = v1.placeholder(tf.float32, [2])
        assign = v.assign(p)
        add = v.assign_add([1.0, 1.0])
        sub = v.assign_sub(tf.constant([0.5, 0.5]))
        with pytest.raises(ValueError, match="Shape mismatch"):  # TensorFlow's class
            v.assign(tf.constant([1.0, 2.0, 3.0]))
        with pytest.raises(ValueError):
            v.assign(tf.constant([1.0, 2.0], tf.float64))
        with v1.Session() as sess:
            sess.run(v.initializer)
            np.testing.assert_allclose(sess.run(add), [2.0, 3.0])
            np.testing.assert_allclose(sess.run(sub), [1.5, 2.5])
            sess.run(assign, {p: [7.0, 8.0]})
            np.testing.assert_allclose(sess.run(v), [7.0, 8.0])
            v.load([5.0, 6.0], sess)
            np.testing.assert_allclose(sess.run(v), [5.0, 6.0])


def test_assign_checks_the_run_time_shape():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.zeros(2, np.float32), name="v")
        p = v1.placeholder(tf.float32, [None])
        assign = v.assign(p)
        with v1.Session() as sess:
            sess.run(v.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \(3,\).*'v(:0)?'"):
                sess.run(assign, {p: [1.0, 2.0, 3.0]})
            np.testing.assert_allclose(sess.run(v), [0.0, 0.0])


def test_fetched_values_are_copies():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.zeros(3), name="v")
        c = tf.constant([1.0, 2.0, 3.0])
        r = tf.reshape(c, [3, 1])
        with v1.Session() as sess:
            sess.run(v.initializer)
            for t in (v, c, r):
                got = sess.run(t)
                got += 100.0
            np.testing.assert_allclose(sess.run(v), 0.0)
            np.testing.assert_allclose(sess.run(c), [1.0, 2.0, 3.0])
            np.testing.assert_allclose(sess.run(r).ravel(), [1.0, 2.0, 3.0])


def test_training_loop_reads_then_updates():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [None, 3], name="x")
        t = v1.placeholder(tf.float64, [None], name="t")
        w = tf.Variable(np.zeros(3), name="w")
        loss = tf.reduce_mean((tf.reduce_sum(x * w, axis=1) - t) ** 2)
        gw, = tf.gradients(loss, [w])
        step = w.assign_sub(0.1 * gw)
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(64, 3))
    true_w = np.array([1.0, -2.0, 0.5])
    with v1.Session(graph=g) as sess:
        sess.run(v1.global_variables_initializer())
        first, _ = sess.run([loss, step], {x: xs, t: xs @ true_w})
        assert first == pytest.approx(np.mean((xs @ true_w) ** 2))
        for _ in range(300):
            sess.run(step, {x: xs, t: xs @ true_w})
        np.testing.assert_allclose(sess.run(w), true_w, atol=1e-6)


def test_eager_variable_used_in_a_graph_is_shared():
    e = tf.Variable(np.float32(2.0), name="eager")
    g = tf.Graph()
    with g.as_default():
        y = e * 3.0
        step = tf.identity(y)
    with v1.Session(graph=g) as sess:
        assert sess.run(y) == 6.0
        e.assign(5.0)
        assert sess.run(step) == 15.0


def test_make_callable():
    g, x, y, z = _graph()
    with v1.Session(graph=g) as sess:
        fn = sess.make_callable([y, z], [x])
        a, b = fn(np.ones((2, 2), np.float32))
        assert a == 8.0 and b.shape == (2, 2)
        with pytest.raises(ValueError, match="shape"):
            fn(np.ones(3, np.float32))


# -- eager execution off and on -------------------------------------------------------------------
def test_disable_and_enable_eager_execution():
    v1.reset_default_graph()
    v1.disable_eager_execution()
    assert not tf.executing_eagerly()
    x = v1.placeholder(tf.float32, [None], name="x")
    w = tf.Variable(np.float32(2.0), name="w")
    y = x * w
    assert x.graph is tf.get_default_graph()
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [2.0, 4.0])
    v1.enable_eager_execution()
    assert tf.executing_eagerly()
    assert float(tf.constant(2.0) * 2.0) == 4.0
    with pytest.raises(RuntimeError, match="eager"):
        v1.placeholder(tf.float32)


def test_reset_default_graph():
    v1.reset_default_graph()
    g = tf.get_default_graph()
    v1.reset_default_graph()
    assert tf.get_default_graph() is not g
    with tf.Graph().as_default():
        with pytest.raises(AssertionError):
            v1.reset_default_graph()


# -- in-place variable updates never change a value someone holds -----------------------------------
def test_session_updates_variables_in_place_when_nothing_holds_them():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.zeros((3, 2)), name="v")
        step = v.assign_add(tf.ones((3, 2), tf.float64)).op
    with v1.Session(graph=g) as sess:
        sess.run(v.initializer)
        sess.run(step)
        array = id(sess._store.values[id(v)].base)
        sess.run(step)
        assert id(sess._store.values[id(v)].base) == array
        np.testing.assert_array_equal(sess.run(v), np.full((3, 2), 2.0))


def test_session_fetches_never_alias_an_updated_variable():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [3], name="x")
        v = tf.Variable(np.zeros(3), name="v")
        doubled = x * 2.0
        set_v = v.assign(doubled)
        add = v.assign_add(tf.ones(3, tf.float64))
        read = v.read_value()
    user = np.array([5.0, 6.0, 7.0])
    with v1.Session(graph=g) as sess:
        sess.run(v.initializer)
        fetched_double, _ = sess.run([doubled, set_v.op], {x: [1.0, 2.0, 3.0]})
        fetched_double[0] = 100.0            # the user changes a fetched value
        np.testing.assert_array_equal(sess.run(v), [2.0, 4.0, 6.0])
        held = sess.run(read)
        new = sess.run(add)
        sess.run(add)
        np.testing.assert_array_equal(held, [2.0, 4.0, 6.0])
        np.testing.assert_array_equal(new, [3.0, 5.0, 7.0])
        new[:] = -1.0
        v.load(user, sess)
        sess.run(add)
        sess.run(add)
        np.testing.assert_array_equal(user, [5.0, 6.0, 7.0])
        np.testing.assert_array_equal(sess.run(v), [7.0, 8.0, 9.0])
