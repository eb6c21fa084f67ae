"""TensorFlow 1's queue runners and queue-based input (QueueRunner, start_queue_runners with a
Coordinator, the input producers, limit_epochs, match_filenames_once, batch / shuffle_batch /
batch_join and their maybe_* forms, MonitoredTrainingSession starting the runners), compared
with TensorFlow 2.21's `tf.compat.v1` running the same programs (tf1_scenarios.py): names,
collections, shapes and the values read until OutOfRangeError (sorted where threads or
shuffling make the order TensorFlow's own). Errors in runner threads reaching the coordinator
are checked here without TensorFlow."""
import os
import tempfile
import threading

import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

DRAIN = '''
def drain(fetch, limit=100):
    """Run `fetch` under a coordinator until OutOfRangeError; the values read."""
    got = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            while len(got) < limit:
                got.append(sess.run(fetch, options=tf.RunOptions(timeout_in_ms=5000)))
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
            coord.join(threads)
    return got
'''

SCENARIOS = {name: DRAIN + body for name, body in {
    "producers": '''
files = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False)
out["names"] = [files.name, str(files.shapes), str(files.dtypes)]
out["runners"] = [r.name for r in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)]
out["enqueue_ops"] = [op.name for op in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)[0]
                      .enqueue_ops]
out["locals"] = names(tf.local_variables())
out["summaries"] = names(tf.get_collection(tf.GraphKeys.SUMMARIES))
out["files"] = [s.decode() for s in drain(files.dequeue())]
out["empty"] = error_of(lambda: tf.train.string_input_producer([]))
out["eager_only"] = error_of(lambda: tf.train.limit_epochs(1, num_epochs=0))
''',
    "ranges_slices": '''
indices = tf.train.range_input_producer(4, num_epochs=1, shuffle=False)
out["range"] = drain(indices.dequeue())
x, y = tf.train.slice_input_producer([np.arange(6.0).reshape(3, 2), np.array([7, 8, 9])],
                                      num_epochs=1, shuffle=False)
out["slice_shapes"] = [str(x.shape), str(y.shape)]
rows = drain([x, y])
out["slice_x"] = np.array([r[0] for r in rows])
out["slice_y"] = np.array([r[1] for r in rows])
shuffled = tf.train.range_input_producer(5, num_epochs=2, shuffle=True, seed=3)
out["shuffled_sorted"] = sorted(int(v) for v in drain(shuffled.dequeue()))
out["needs_shape"] = error_of(lambda: tf.train.input_producer(
    tf.placeholder(tf.float32, [None, None])))
''',
    "batch": '''
x, label = tf.train.slice_input_producer([np.arange(10.0).reshape(5, 2), np.arange(5)],
                                          num_epochs=1, shuffle=False)
xs, labels = tf.train.batch([x, label], batch_size=2, allow_smaller_final_batch=True)
out["shapes"] = [str(xs.shape), str(labels.shape), xs.op.name, xs.op.type]
out["summaries"] = names(tf.get_collection(tf.GraphKeys.SUMMARIES))
got = drain([xs, labels])
out["batches"] = [b[1].tolist() for b in got]
out["first_x"] = got[0][0]
single = tf.train.batch([tf.constant([1.0, 2.0])], batch_size=3, name="single")
out["single"] = [type(single).__name__, str(single.shape)]
as_dict = tf.train.batch({"b": tf.constant(1), "a": tf.constant([2.0])}, batch_size=4)
out["dict"] = sorted(as_dict) + [str(as_dict["a"].shape)]
out["unknown_shape"] = error_of(lambda: tf.train.batch(
    [tf.placeholder(tf.float32, [None])], batch_size=2))
''',
    "batch_forms": '''
values = tf.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
kept = tf.train.maybe_batch([values], keep_input=tf.equal(values % 2, 0), batch_size=2,
                            allow_smaller_final_batch=True)
out["maybe"] = [b.tolist() for b in drain(kept)]
many = tf.train.batch([tf.constant([[1, 2], [3, 4], [5, 6]])], batch_size=2, enqueue_many=True,
                      name="many")
out["many_shape"] = str(many.shape)
out["many"] = drain(many, limit=1)[0]
padded = tf.train.batch([tf.range(tf.placeholder_with_default(3, []))], batch_size=2,
                        dynamic_pad=True, name="padded")
out["padded_shape"] = str(padded.shape)
a = tf.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue()
b = tf.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue() + 10
joined = tf.train.batch_join([[a], [b]], batch_size=2, allow_smaller_final_batch=True)
out["join_sorted"] = sorted(int(v) for batch in drain(joined) for v in batch)
out["join_types"] = error_of(lambda: tf.train.batch_join([[a], [tf.cast(a, tf.float32)]], 2))
''',
    "shuffle": '''
value = tf.train.range_input_producer(8, num_epochs=1, shuffle=False).dequeue()
batches = tf.train.shuffle_batch([value], batch_size=3, capacity=8, min_after_dequeue=2,
                                 seed=5, allow_smaller_final_batch=True)
out["shape"] = [str(batches.shape), batches.op.name]
out["summaries"] = names(tf.get_collection(tf.GraphKeys.SUMMARIES))
got = drain(batches)
out["sizes"] = sorted(len(b) for b in got)
out["sorted"] = sorted(int(v) for b in got for v in b)
left = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue()
right = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue() + 100
joined = tf.train.shuffle_batch_join([[left], [right]], batch_size=4, capacity=10,
                                     min_after_dequeue=1, allow_smaller_final_batch=True)
out["join"] = sorted(int(v) for b in drain(joined) for v in b)
maybe = tf.train.maybe_shuffle_batch([value], batch_size=2, capacity=5, min_after_dequeue=0,
                                     keep_input=True, name="maybe")
out["maybe_shape"] = str(maybe.shape)
''',
    "monitored": '''
x = tf.train.limit_epochs(tf.constant([1.0, 2.0, 3.0, 4.0]), num_epochs=3)
queue = tf.FIFOQueue(8, tf.float32, shapes=[[4]])
tf.train.add_queue_runner(tf.train.QueueRunner(queue, [queue.enqueue(x)]))
w = tf.get_variable("w", [], initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.square(queue.dequeue() * w - 2.0))
step = tf.train.get_or_create_global_step()
train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=step)
losses = []
with tf.train.MonitoredTrainingSession() as sess:
    while not sess.should_stop():
        losses.append(sess.run([train, loss])[1])
out["losses"] = losses
out["runner"] = [r.name for r in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)]
''',
}.items()}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_queue_input_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name], rtol=1e-4)


@pytest.fixture
def graph():
    v1.disable_eager_execution()
    with tf.Graph().as_default() as g:
        yield g
    v1.enable_eager_execution()


def test_a_failing_enqueue_reaches_the_coordinator(graph):
    queue = v1.FIFOQueue(4, tf.float32, shapes=[[2]])
    value = v1.placeholder_with_default(np.zeros(3, np.float32), [None])
    runner = v1.train.QueueRunner(queue, [queue.enqueue(value)])
    v1.train.add_queue_runner(runner)
    with v1.Session() as sess:
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        assert len(threads) == 2 and coord.wait_for_stop(1.5)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch"):
            coord.join(threads)
        assert isinstance(runner.exceptions_raised[0], tf.errors.InvalidArgumentError)


def test_request_stop_cancels_enqueues_waiting_for_room(graph):
    queue = v1.FIFOQueue(2, tf.int32, shapes=[[]])
    runner = v1.train.QueueRunner(queue, [queue.enqueue(1)] * 2)
    with v1.Session() as sess:
        coord = v1.train.Coordinator()
        threads = runner.create_threads(sess, coord=coord, start=True)
        assert runner.create_threads(sess, coord=coord) == []  # already running there
        sess.run(queue.dequeue(), options=v1.RunOptions(timeout_in_ms=1500))
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=1.5)
        assert not any(t.is_alive() for t in threads) and sess.run(queue.is_closed())


def test_start_queue_runners_needs_a_session_and_a_graph(graph):
    with pytest.raises(ValueError, match="No default session"):
        v1.train.start_queue_runners()
    with pytest.raises(TypeError, match="must be a `tf.Session`"):
        v1.train.start_queue_runners(sess=object())
    v1.enable_eager_execution()
    with pytest.raises(RuntimeError, match="not supported when eager execution"):
        v1.train.QueueRunner(tf.queue.FIFOQueue(1, tf.int32), [None])
    v1.disable_eager_execution()


def test_match_filenames_once_and_a_reader_free_pipeline(graph):
    with tempfile.TemporaryDirectory() as folder:
        for name in ("b.csv", "a.csv", "c.txt"):
            open(os.path.join(folder, name), "w").close()
        files = v1.train.match_filenames_once(os.path.join(folder, "*.csv"))
        assert files in v1.local_variables() and files.name == "matching_filenames:0"
        queue = v1.train.string_input_producer(files, shuffle=False, num_epochs=1)
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            coord = v1.train.Coordinator()
            threads = v1.train.start_queue_runners(sess, coord)
            got = [os.path.basename(sess.run(queue.dequeue()).decode()) for _ in range(2)]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(queue.dequeue(), options=v1.RunOptions(timeout_in_ms=1500))
            coord.request_stop()
            coord.join(threads)
    assert got == ["a.csv", "b.csv"]


def test_queue_runner_module_and_namespace():
    assert v1.train.queue_runner.QueueRunner is v1.train.QueueRunner
    assert v1.train.queue_runner.start_queue_runners is v1.train.start_queue_runners
    assert threading.active_count() < 50  # runner threads of earlier tests have ended
