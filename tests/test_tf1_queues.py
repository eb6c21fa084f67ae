"""TensorFlow 1's queues (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue,
QueueBase.from_list) in graphs, compared with TensorFlow 2.21's `tf.compat.v1` running the same
programs (tf1_scenarios.py): op names and shapes, values, and the errors of a closed queue, a
timed-out run and bad input. The blocking behaviour (threads) and eager queues are checked here
without TensorFlow: each wait is bounded by a RunOptions deadline, so no test can hang."""
import threading
import time

import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

FACT = '''
def fact(fn):
    """The error's class and the line of its message that states the fact (TensorFlow's
    message also names the node and where it was defined), with the queue's serial number
    ('_3_name') as '_N_name'."""
    try:
        fn()
    except Exception as e:
        lines = [l for l in str(getattr(e, "message", e)).splitlines() if l.strip()
                 and not l.startswith(("\\t", " ", "Graph execution", "Detected at", "Node:"))]
        text = lines[-1] if lines else ""
        return type(e).__name__ + ": " + __import__("re").sub(r"'_[0-9]+_", "'_N_", text)
    return "no error"
'''

SCENARIOS = {name: FACT + body for name, body in {
    "fifo": '''
q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []], name="fq")
enq = q.enqueue([[1., 2.], 5])
many = q.enqueue_many([[[3., 4.], [5., 6.]], [7, 8]])
one = q.dequeue()
two = q.dequeue_many(2)
up = q.dequeue_up_to(2)
out["names"] = [q.name, enq.name, enq.type, many.name, many.type, one[0].name, one[1].name,
                two[0].name, up[1].name, q.size().name, q.close().name, q.is_closed().name]
out["shapes"] = [str(t.shape) for t in one + two + up]
out["dtypes"] = [d.name for d in q.dtypes] + [str(s) for s in q.shapes] + [str(q.names)]
with tf.Session() as sess:
    sess.run(enq)
    sess.run(many)
    out["size"] = sess.run(q.size())
    out["one"] = np.concatenate([a.ravel().astype(float) for a in sess.run(one)])
    out["two"] = np.concatenate([a.ravel().astype(float) for a in sess.run(two)])
    out["timeout"] = fact(lambda: sess.run(one, options=tf.RunOptions(timeout_in_ms=20)))
    sess.run(enq)
    out["closed_before"] = sess.run(q.is_closed())
    sess.run(q.close())
    out["closed_after"] = sess.run(q.is_closed())
    out["many_short"] = fact(lambda: sess.run(two))
    out["size_kept"] = sess.run(q.size())
    out["last"] = sess.run(one)[1]
    out["empty"] = fact(lambda: sess.run(one))
    out["enqueue_closed"] = fact(lambda: sess.run(enq))
    out["close_again"] = fact(lambda: sess.run(q.close()))
''',
    "up_to": '''
q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
with tf.Session() as sess:
    sess.run(q.enqueue_many([[1, 2, 3]]))
    sess.run(q.close())
    out["up_to"] = sess.run(q.dequeue_up_to(5))
    out["many_closed_empty"] = fact(lambda: sess.run(q.dequeue_up_to(5))).split("'")[-1]
single = tf.FIFOQueue(2, tf.float32)
out["unknown"] = [str(single.shapes), str(single.dequeue().shape),
                  str(single.dequeue_many(2).shape), type(single.dequeue()).__name__]
with tf.Session() as sess:
    sess.run(single.enqueue(1.5))
    out["needs_shapes"] = fact(lambda: sess.run(single.dequeue_many(1)))
    out["single"] = sess.run(single.dequeue())
''',
    "bad_input": '''
q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
out["wrong_shape"] = fact(lambda: q.enqueue([[1., 2., 3.], 5]))
out["wrong_dtype"] = fact(lambda: q.enqueue([[1., 2.], 5.5])).split(":")[0]
out["wrong_many"] = fact(lambda: q.enqueue_many([[[1., 2., 3.]], [1]]))
p = tf.placeholder(tf.float32, [None])
fed = q.enqueue([p, 1])
named = tf.FIFOQueue(4, [tf.int32, tf.float32], shapes=[[], [2]], names=["a", "b"])
out["names"] = named.names
out["not_dict"] = fact(lambda: named.enqueue([1, [1., 2.]]))
out["keys"] = fact(lambda: named.enqueue({"a": 1}))
out["no_names"] = fact(lambda: q.enqueue({"a": 1}))
out["dict_out"] = sorted(named.dequeue())
out["padding_needs_shapes"] = fact(lambda: tf.PaddingFIFOQueue(5, [tf.int32]))
out["fully_defined"] = fact(lambda: tf.FIFOQueue(5, [tf.int32], shapes=[[None]]))
out["names_length"] = fact(lambda: tf.FIFOQueue(5, [tf.int32], names=["a", "b"]))
with tf.Session() as sess:
    out["fed"] = fact(lambda: sess.run(fed, feed_dict={p: [1., 2., 3.]}))
    out["size_unchanged"] = sess.run(q.size())
    sess.run(named.enqueue({"b": [3., 4.], "a": 7}))
    got = sess.run(named.dequeue())
    out["dict_values"] = [float(got["a"])] + got["b"].tolist()
''',
    "padding_priority": '''
pq = tf.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], []])
many = pq.dequeue_many(2)
out["padded_shapes"] = [str(t.shape) for t in many] + [str(t.shape) for t in pq.dequeue_up_to(2)]
with tf.Session() as sess:
    sess.run(pq.enqueue([[1, 2], "a"]))
    sess.run(pq.enqueue([[3], "b"]))
    sess.run(pq.enqueue([[4, 5, 6], "c"]))
    values, labels = sess.run(many)
    out["padded"] = values
    out["labels"] = [s.decode() for s in labels]
    sess.run(pq.close())
    values, labels = sess.run(pq.dequeue_up_to(3))
    out["rest"] = values
prio = tf.PriorityQueue(5, [tf.string], shapes=[[]])
out["prio_types"] = [d.name for d in prio.dtypes] + [str(s) for s in prio.shapes]
with tf.Session() as sess:
    sess.run(prio.enqueue_many([[5, 1, 3], ["five", "one", "three"]]))
    p, s = sess.run(prio.dequeue())
    out["first"] = [int(p), s.decode()]
    p, s = sess.run(prio.dequeue_many(2))
    out["next"] = p.tolist() + [x.decode() for x in s]
''',
    "random_from_list": '''
rq = tf.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=1)
out["rq"] = [rq.name, rq.queue_ref.op.type, rq.dequeue().op.name]
with tf.Session() as sess:
    sess.run(rq.enqueue_many([np.arange(5)]))
    first = sess.run(rq.dequeue_many(3))
    out["size"] = sess.run(rq.size())
    sess.run(rq.close())
    rest = sess.run(rq.dequeue_many(2))
    out["all"] = sorted(first.tolist() + rest.tolist())
    out["drained"] = fact(lambda: sess.run(rq.dequeue())).split("'")[-1]
out["min_after"] = fact(lambda: tf.RandomShuffleQueue(3, 3, tf.int32)).split(":")[0]
a = tf.FIFOQueue(3, tf.int32, shapes=[[]])
b = tf.FIFOQueue(3, tf.int32, shapes=[[2]])
idx = tf.placeholder(tf.int32, [])
sel = tf.QueueBase.from_list(idx, [a, b])
out["common_shape"] = str(sel.shapes)
c = tf.FIFOQueue(3, tf.int32, shapes=[[]])
sel = tf.QueueBase.from_list(idx, [a, c])
with tf.Session() as sess:
    sess.run(sel.enqueue(7), {idx: 1})
    sess.run(sel.enqueue_many([[8, 9]]), {idx: 0})
    out["sizes"] = sess.run([a.size(), c.size()])
    out["from_c"] = sess.run(sel.dequeue(), {idx: 1})
out["mixed"] = fact(lambda: tf.QueueBase.from_list(0, [a, tf.FIFOQueue(3, tf.float32)]))
out["not_list"] = fact(lambda: tf.QueueBase.from_list(0, (a, c)))
''',
}.items()}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_queue_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


@pytest.fixture
def graph():
    v1.disable_eager_execution()
    with tf.Graph().as_default() as g:
        yield g
    v1.enable_eager_execution()


def _later(seconds, fn):
    thread = threading.Thread(target=lambda: (time.sleep(seconds), fn()))
    thread.start()
    return thread


DEADLINE = v1.RunOptions(timeout_in_ms=1500)


def test_dequeue_waits_for_an_enqueue_from_another_thread(graph):
    q = v1.FIFOQueue(3, tf.int32, shapes=[[]])
    enqueue, dequeue = q.enqueue(4), q.dequeue()
    with v1.Session() as sess:
        thread = _later(0.05, lambda: sess.run(enqueue))
        assert sess.run(dequeue, options=DEADLINE) == 4
        thread.join()


def test_dequeue_many_takes_elements_as_they_come_beyond_capacity(graph):
    q = v1.FIFOQueue(3, tf.int32, shapes=[[]])
    first, second = q.enqueue_many([[1, 2, 3]]), q.enqueue_many([[4, 5, 6]])
    many, size = q.dequeue_many(5), q.size()
    with v1.Session() as sess:
        thread = _later(0.05, lambda: (sess.run(first), sess.run(second)))
        assert sess.run(many, options=DEADLINE).tolist() == [1, 2, 3, 4, 5]
        thread.join()
        assert sess.run(size) == 1


def test_close_unblocks_a_waiting_dequeue_with_out_of_range(graph):
    q = v1.FIFOQueue(3, tf.int32, shapes=[[]])
    dequeue, close = q.dequeue(), q.close()
    with v1.Session() as sess:
        thread = _later(0.05, lambda: sess.run(close))
        with pytest.raises(tf.errors.OutOfRangeError, match=r"requested 1, current size 0"):
            sess.run(dequeue, options=DEADLINE)
        thread.join()


def test_close_waits_behind_pending_enqueues_unless_it_cancels_them(graph):
    q = v1.FIFOQueue(2, tf.int32, shapes=[[]])
    fill, blocked, close = q.enqueue_many([[1, 2]]), q.enqueue(3), q.close()
    cancel = q.close(cancel_pending_enqueues=True)
    dequeue, size = q.dequeue(), q.size()
    errors = []

    def run_blocked(sess):
        try:
            sess.run(blocked, options=DEADLINE)
        except tf.errors.OpError as err:
            errors.append(err)

    with v1.Session() as sess:
        sess.run(fill)
        thread = threading.Thread(target=run_blocked, args=(sess,))
        thread.start()
        time.sleep(0.05)
        closer = threading.Thread(target=lambda: sess.run(close, options=DEADLINE))
        closer.start()
        time.sleep(0.05)
        assert closer.is_alive()  # behind the blocked enqueue
        assert sess.run(dequeue) == 1
        thread.join()
        closer.join()
        assert not errors and [sess.run(dequeue), sess.run(dequeue)] == [2, 3]
    with v1.Session() as sess:
        sess.run(fill)
        thread = threading.Thread(target=run_blocked, args=(sess,))
        thread.start()
        time.sleep(0.05)
        sess.run(cancel)
        thread.join()
        assert isinstance(errors[0], tf.errors.CancelledError)
        assert sess.run(size) == 2


def test_closing_the_session_cancels_a_waiting_dequeue(graph):
    q = v1.FIFOQueue(3, tf.int32, shapes=[[]])
    dequeue = q.dequeue()
    sess = v1.Session()
    errors = []

    def wait():
        try:
            sess.run(dequeue, options=DEADLINE)
        except tf.errors.OpError as err:
            errors.append(err)
    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.05)
    sess.close()
    thread.join()
    assert isinstance(errors[0], tf.errors.CancelledError)


def test_each_session_has_its_own_queue_and_the_config_timeout_applies(graph):
    q = v1.FIFOQueue(3, tf.int32, shapes=[[]])
    enqueue, size, dequeue = q.enqueue(1), q.size(), q.dequeue()
    with v1.Session() as first:
        first.run(enqueue)
        with v1.Session(config=v1.ConfigProto(operation_timeout_in_ms=20)) as second:
            assert (first.run(size), second.run(size)) == (1, 0)
            with pytest.raises(tf.errors.DeadlineExceededError):
                second.run(dequeue)


def test_many_threads_share_one_session_without_losing_elements(graph):
    q = v1.FIFOQueue(8, tf.int32, shapes=[[]])
    value = v1.placeholder(tf.int32, [])
    enqueue, dequeue = q.enqueue(value), q.dequeue()
    with v1.Session() as sess:
        producers = [threading.Thread(target=lambda k=k: [
            sess.run(enqueue, {value: 100 * k + i}, options=DEADLINE) for i in range(25)])
            for k in range(4)]
        for thread in producers:
            thread.start()
        got = [int(sess.run(dequeue, options=DEADLINE)) for _ in range(100)]
        for thread in producers:
            thread.join()
    assert sorted(got) == sorted(100 * k + i for k in range(4) for i in range(25))
    for k in range(4):  # each producer's elements stay in its order
        mine = [g for g in got if g // 100 == k]
        assert mine == sorted(mine)


def test_random_shuffle_queue_is_seeded_and_holds_back_min_after_dequeue(graph):
    def order():
        q = v1.RandomShuffleQueue(20, 0, tf.int32, shapes=[[]], seed=7)
        with v1.Session() as sess:
            sess.run(q.enqueue_many([np.arange(20)]))
            return sess.run(q.dequeue_many(20)).tolist()
    first = order()
    assert first == order() and sorted(first) == list(range(20)) and first != list(range(20))


def test_eager_queue_runs_at_once():
    q = tf.queue.FIFOQueue(3, tf.int32, shapes=[[]])
    assert q.enqueue(1) is None
    q.enqueue_many([[2, 3]])
    assert int(q.size()) == 3 and not bool(q.is_closed())
    assert q.dequeue().numpy() == 1
    assert q.dequeue_many(2).numpy().tolist() == [2, 3]
    q.close()
    with pytest.raises(tf.errors.OutOfRangeError, match="is closed and has insufficient"):
        q.dequeue()
    with pytest.raises(tf.errors.CancelledError, match="is closed"):
        q.enqueue(4)


def test_namespaces_hold_the_queues():
    for name in ("FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase",
                 "RandomShuffleQueue"):
        assert getattr(v1, name) is getattr(v1.queue, name) is getattr(tf.queue, name)
    assert v1.io.PaddingFIFOQueue is v1.PaddingFIFOQueue


def test_count_up_to_counts_a_variable_to_its_limit(graph):
    counter = v1.Variable(np.int64(0), trainable=False)
    step = tf.raw_ops.ResourceCountUpTo(resource=counter, limit=2, T=tf.int64)
    with v1.Session() as sess:
        sess.run(counter.initializer)
        assert [sess.run(step), sess.run(step)] == [0, 1]
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
            sess.run(step)
        assert sess.run(counter) == 2


def test_count_up_to_runs_eagerly():
    eager = tf.Variable(np.int64(1))
    assert int(tf.raw_ops.ResourceCountUpTo(resource=eager, limit=2, T=tf.int64)) == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.raw_ops.ResourceCountUpTo(resource=eager, limit=2, T=tf.int64)
