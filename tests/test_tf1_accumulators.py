"""TensorFlow 1's ConditionalAccumulator and SparseConditionalAccumulator in graphs, compared with
TensorFlow 2.21's `tf.compat.v1` running the same programs (tf1_scenarios.py): op types and
names, means and sums, stale gradients dropped, the global step that take_grad advances and
set_global_step sets, the sparse merge of indices, and the errors of bad gradients. A take that
waits for gradients from another thread, a timed-out take and eager accumulators are checked
here without TensorFlow (every wait is bounded by a RunOptions deadline)."""
import threading

import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

FACT = '''
def fact(fn):
    """The error's class and the line of its message that states the fact."""
    try:
        fn()
    except Exception as e:
        lines = [l for l in str(getattr(e, "message", e)).splitlines() if l.strip()
                 and not l.startswith(("\\t", " ", "Graph execution", "Detected at", "Node:"))]
        return type(e).__name__ + ": " + (lines[-1] if lines else "")
    return "no error"
QUICK = tf.RunOptions(timeout_in_ms=200)
'''

SCENARIOS = {name: FACT + body for name, body in {
    "dense": '''
q = tf.ConditionalAccumulator(tf.float32, shape=[2], name="acc")
a0 = q.apply_grad([1., 2.], local_step=0)
a1 = q.apply_grad(tf.constant([3., 4.]), local_step=1)
n = q.num_accumulated()
t = q.take_grad(2)
s = q.set_global_step(5)
out["names"] = [q.name, str(q.dtype), q.accumulator_ref.op.type, a0.name, a0.type, a1.name,
                n.name, n.op.type, n.dtype.name, t.name, t.op.type, str(t.shape), s.name, s.type]
with tf.Session() as sess:
    sess.run(a0); sess.run(a0); sess.run(a1)
    counts = [sess.run(n)]
    out["mean"] = sess.run(t)
    counts.append(sess.run(n))
    sess.run(a0)  # stale: the take advanced the global step to 1
    counts.append(sess.run(n))
    sess.run(a1)
    counts.append(sess.run(n))
    sess.run(s)
    sess.run(a1)  # stale after set_global_step(5)
    counts.append(sess.run(n))
    sess.run(q.apply_grad([1., 1.], local_step=7))
    counts.append(sess.run(n))
    out["second"] = sess.run(q.take_grad(1))
    out["counts"] = np.array(counts)
    out["zero"] = fact(lambda: sess.run(q.take_grad(0)))
    out["timeout"] = fact(lambda: sess.run(q.take_grad(1), options=QUICK))
    sess.run(q.set_global_step(2))
    sess.run(q.apply_grad([1., 1.], local_step=2))
    sess.run(q.apply_grad([5., 3.], local_step=1))
    out["after_lower_step"] = sess.run(n)
out["static_shape"] = fact(lambda: q.apply_grad([1., 2., 3.]))
out["int_list"] = fact(lambda: q.apply_grad([1, 2]))
out["int_tensor"] = fact(lambda: q.apply_grad(tf.constant([1, 2]))).split(":")[0]
out["float64"] = fact(lambda: q.apply_grad(tf.constant([1., 2.], tf.float64))).split(":")[0]
out["reduction"] = fact(lambda: tf.ConditionalAccumulator(tf.float32, reduction_type="MAX"))
out["string"] = fact(lambda: tf.ConditionalAccumulator(tf.string))
''',
    "unknown_shape_sum": '''
u = tf.ConditionalAccumulator(tf.float64, name="u", reduction_type="SUM")
ph = tf.placeholder(tf.float64)
ap = u.apply_grad(ph)
tg = u.take_grad(2)
out["shape"] = [str(tg.shape), u.name]
with tf.Session() as sess:
    sess.run(ap, {ph: [[1., 2.]]})
    out["mismatch"] = fact(lambda: sess.run(ap, {ph: [1., 2.]}))
    sess.run(ap, {ph: [[3., 5.]]})
    out["sum"] = sess.run(tg)
    sess.run(u.apply_grad(ph, local_step=1), {ph: [7., 8., 9.]})  # a new round: a new shape
    out["new_shape"] = sess.run(u.take_grad(1))
ints = tf.ConditionalAccumulator(tf.int32, shape=[3], name="ints")
with tf.Session() as sess:
    try:
        sess.run(ints.apply_grad([1, -4, 7]))
    except tf.errors.InvalidArgumentError as e:
        out["int_kernel"] = str("No OpKernel was registered to support Op "
                                "'ResourceConditionalAccumulator'" in str(e))
''',
    "sparse": '''
s = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2], name="sacc")
g1 = s.apply_grad([0, 2], [[1., 1.], [2., 2.]], local_step=0)
g2 = s.apply_indexed_slices_grad(tf.IndexedSlices(tf.constant([[3., 3.], [5., 5.]]),
                                                  tf.constant([2, 1]), tf.constant([4, 2])))
tk = s.take_grad(2)
tis = s.take_indexed_slices_grad(1)
n = s.num_accumulated()
out["names"] = [s.name, s.accumulator_ref.op.type, g1.type, g2.type, g1.name, g2.name,
                type(tk).__name__, tk[0].op.type, tk.indices.name, tk.values.name,
                tk.shape.name, n.op.type, s.set_global_step(3).type, tis.indices.name]
with tf.Session() as sess:
    sess.run(g1); sess.run(g2)
    out["count"] = sess.run(n)
    r = sess.run(tk)
    out["indices"], out["values"], out["shape"] = r.indices, r.values, r.shape
    sess.run(s.apply_grad([3, 0], [[1., 2.], [3., 4.]], local_step=1))
    r = sess.run(tis)
    out["slices"] = [r.indices.tolist(), r.values.tolist(), r.dense_shape.tolist()]
    sess.run(s.apply_grad([3, 0], [[1., 2.], [3., 4.]], local_step=2))
    sess.run(s.apply_grad([3, 3], [[1., 2.], [3., 4.]], local_step=2))
    r = sess.run(s.take_grad(1))
    out["merge_indices"], out["merge_values"] = r.indices, r.values
    sess.run(s.apply_grad([], np.zeros([0, 2], np.float32), local_step=3))
    r = sess.run(s.take_grad(1))
    out["empty"] = [str(r.indices.shape), str(r.values.shape), r.shape.tolist()]
    out["values_dim"] = fact(lambda: sess.run(s.apply_grad([0], [[1., 1., 1.]], local_step=5)))
    out["shape_dim"] = fact(lambda: sess.run(s.apply_grad([7], [[1., 1.]], grad_shape=[8, 2],
                                                          local_step=5)))
    out["index"] = fact(lambda: sess.run(s.apply_grad([7], [[1., 1.]], local_step=5)))
    out["count_mismatch"] = fact(lambda: sess.run(s.apply_grad([0, 1], [[1., 1.]],
                                                               local_step=5)))
    out["none_applied"] = sess.run(n)
''',
}.items()}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_accumulator_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


@pytest.fixture
def graph():
    v1.disable_eager_execution()
    try:
        with tf.Graph().as_default() as g:
            yield g
    finally:
        v1.enable_eager_execution()


def test_take_grad_waits_for_gradients_applied_from_other_threads(graph):
    q = v1.ConditionalAccumulator(tf.float32, shape=[], name="acc")
    x = v1.placeholder(tf.float32, [])
    apply, take = q.apply_grad(x), q.take_grad(3)
    options = v1.RunOptions(timeout_in_ms=10000)
    with v1.Session() as sess:
        got = []
        taker = threading.Thread(target=lambda: got.append(sess.run(take, options=options)))
        taker.start()
        for value in (1., 2., 6.):
            sess.run(apply, {x: value})
        taker.join(10)
        assert got == [3.0]


def test_each_session_has_its_own_accumulator(graph):
    q = v1.ConditionalAccumulator(tf.float32, shape=[1])
    apply, count = q.apply_grad([1.]), q.num_accumulated()
    with v1.Session() as one, v1.Session() as two:
        one.run(apply)
        one.run(apply)
        assert (one.run(count), two.run(count)) == (2, 0)


def test_closing_the_session_cancels_a_waiting_take(graph):
    q = v1.ConditionalAccumulator(tf.float32, shape=[1])
    take = q.take_grad(1)
    sess = v1.Session()
    errors = []

    def run():
        try:
            sess.run(take, options=v1.RunOptions(timeout_in_ms=10000))
        except tf.errors.OpError as err:
            errors.append(type(err).__name__)
    waiter = threading.Thread(target=run)
    waiter.start()
    while not sess._store.resources:  # the take has made the accumulator and waits
        threading.Event().wait(0.01)
    sess.close()
    waiter.join(10)
    assert errors == ["CancelledError"]


def test_eager_accumulators_run_at_once_and_in_a_function():
    q = v1.ConditionalAccumulator(tf.float32, shape=[2], name="eager")
    q.apply_grad([1., 2.])
    q.apply_grad(tf.constant([3., 6.]))
    assert int(q.num_accumulated()) == 2
    np.testing.assert_allclose(q.take_grad(2).numpy(), [2., 4.])

    @tf.function
    def step(g):
        q.apply_grad(g, local_step=1)
        return q.num_accumulated()
    assert int(step(tf.constant([1., 1.]))) == 1
    s = v1.SparseConditionalAccumulator(tf.float32, shape=[3, 1])
    s.apply_grad([2, 0], [[4.], [1.]])
    s.apply_grad([2], [[2.]])
    got = s.take_indexed_slices_grad(2)
    assert got.indices.numpy().tolist() == [2, 0]
    np.testing.assert_allclose(got.values.numpy(), [[3.], [1.]])
