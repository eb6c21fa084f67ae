"""A compiled plan starts a histogram summary of large inputs on a worker thread as soon as its
input exists (runtime/inter_op.py), as TensorFlow's inter-op pool runs it beside the rest of the
step: the values, the order of variable updates and the errors are those of running the plan in
order, which the same graph compiled with the op kept in order gives."""
import os

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.framework.protos import wire
from wengert.summary.v1_histogram import histogram_bytes
from wengert.summary.v1_summaries import HISTOGRAM_SUMMARY


def _plan_source(sess):
    return "\n".join(plan.source for plan in sess._plans.values())


def _train_graph(shape, control=False):
    """(graph, w, train op, histogram of w, histogram of a small bias): w changes every run."""
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, shape[0]])
        w = v1.get_variable("w", shape, initializer=v1.random_normal_initializer(seed=1))
        b = v1.get_variable("b", [shape[1]], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b))
        train = v1.train.AdamOptimizer(0.1).minimize(loss)
        if control:
            with tf.control_dependencies([train]):
                hist = v1.summary.histogram("weights", w)
        else:
            hist = v1.summary.histogram("weights", w)
        small = v1.summary.histogram("bias", b)
    return graph, w, train, hist, small


def _tf_summary(tag, values):
    """The serialized Summary holding one histogram (what the op returns)."""
    value = wire.field_bytes(1, tag) + wire.field_bytes(5, histogram_bytes(values))
    return wire.field_bytes(1, value)


def test_histogram_starts_early_and_sees_the_value_before_the_update():
    graph, w, train, hist, small = _train_graph([256, 128])
    feed = np.random.default_rng(0).normal(size=(8, 256)).astype(np.float32)
    with v1.Session(graph=graph) as sess:
        sess.run(v1.global_variables_initializer())
        for _ in range(3):
            before = sess.run(w)
            _, summary, bias_summary = sess.run([train, hist, small],
                                                {_placeholder(graph): feed})
            assert summary == _tf_summary("weights", before)
            assert not np.array_equal(sess.run(w), before)  # the update ran in the same step
            assert bias_summary.startswith(b"\n")
        source = _plan_source(sess)
    assert "# weights starts" in source and ".result()" in source
    assert "# bias starts" not in source  # 128 values: computed in order, in the plan's thread


def _placeholder(graph):
    return next(op.outputs[0] for op in graph.get_operations() if op.type == "Placeholder")


def test_same_results_as_the_plan_that_keeps_the_op_in_order(monkeypatch):
    feed = np.random.default_rng(1).normal(size=(4, 200)).astype(np.float32)
    results = []
    for concurrent in (True, False):
        monkeypatch.setattr(HISTOGRAM_SUMMARY, "concurrent", concurrent)
        graph, w, train, hist, _ = _train_graph([200, 100])
        with v1.Session(graph=graph) as sess:
            sess.run(v1.global_variables_initializer())
            runs = [sess.run([train, hist], {_placeholder(graph): feed})[1] for _ in range(3)]
            results.append((runs, sess.run(w)))
            assert ("# weights starts" in _plan_source(sess)) == concurrent
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_control_dependencies_keep_the_histogram_after_the_update():
    graph, w, train, hist, _ = _train_graph([256, 128], control=True)
    feed = np.ones((2, 256), np.float32)
    with v1.Session(graph=graph) as sess:
        sess.run(v1.global_variables_initializer())
        summary = sess.run(hist, {_placeholder(graph): feed})
        assert summary == _tf_summary("weights", sess.run(w))  # after the update it depends on
        assert "starts" not in _plan_source(sess)


def test_a_failing_histogram_raises_from_run_naming_the_op():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        total = tf.reduce_sum(tf.square(x))  # runs while the histogram is computed
        hist = v1.summary.histogram("values", x)
    values = np.zeros(50000, np.float32)
    values[123] = np.nan
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram") as err:
            sess.run([total, hist], {x: values})
        assert err.value.op is not None and err.value.op.name == "values"
        values[123] = 1.0
        assert sess.run(hist, {x: values}) == _tf_summary("values", values)  # runs again
        assert _plan_source(sess).count("# values starts") == 1  # where Sum runs beside it


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_starts_its_own_workers():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        total = tf.reduce_sum(x)
        hist = [total, v1.summary.histogram("values", x)]
    values = np.arange(40000, dtype=np.float32)
    with v1.Session(graph=graph) as sess:
        expected = sess.run(hist, {x: values})  # the parent's workers exist now
        assert "# values starts" in _plan_source(sess)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: its copy of the pool has no threads
            try:
                ok = sess.run(hist, {x: values}) == expected
                os.write(write, b"1" if ok else b"0")
            finally:
                os._exit(0)
        os.close(write)
        answer = os.read(read, 1)
        os.close(read)
        os.waitpid(pid, 0)
    assert answer == b"1"


def test_a_flat_list_of_fetches_comes_back_as_a_list():
    graph = tf.Graph()
    with graph.as_default():
        a, b = tf.constant(1.0), tf.constant([2, 3])
        op = tf.no_op()
    with v1.Session(graph=graph) as sess:
        result = sess.run([a, b, op, "Const:0"])
        assert type(result) is list and result[0] == 1.0 and result[2] is None
        np.testing.assert_array_equal(result[1], [2, 3])
        assert result[3] == 1.0
        assert sess.run([]) == []
        nested = sess.run((a, [b]))
        assert type(nested) is tuple and type(nested[1]) is list
