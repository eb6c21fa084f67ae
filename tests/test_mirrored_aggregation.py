"""Mirrored variables of a MirroredStrategy over two logical CPUs (issue 30): an assignment
inside `strategy.run` goes by the variable's aggregation, and the distributed values print as
TensorFlow 2.21 prints them. The expected numbers and texts were recorded from TensorFlow 2.21
running the same code (the CPU split into two logical devices the same way):

    with strategy.scope():
        v = tf.Variable(2.0, aggregation=AGGREGATION)
    def fn():
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        return v.assign_add(1.0 + r)          # (or a constant 1.0; assign, assign_sub)
    strategy.run(fn)                          # and tf.function(lambda: strategy.run(fn))()

TensorFlow's NONE keeps a copy per replica; wengert's copies are one variable, which holds
TensorFlow's primary copy (replica 0's), the value read outside `run`: that is what is compared.
"""
import numpy as np
import pytest

import wengert as tf
from logical_cpus import split_cpu

A = tf.VariableAggregation

# (aggregation, update, replica-dependent value?) -> TensorFlow's value outside run afterwards
EXPECTED = {
    ("NONE", "assign_add", True): 3.0, ("NONE", "assign_add", False): 3.0,
    ("NONE", "assign", True): 1.0, ("NONE", "assign", False): 1.0,
    ("NONE", "assign_sub", True): 1.0, ("NONE", "assign_sub", False): 1.0,
    ("SUM", "assign_add", True): 5.0, ("SUM", "assign_add", False): 4.0,
    ("SUM", "assign", True): 3.0, ("SUM", "assign", False): 2.0,
    ("SUM", "assign_sub", True): -1.0, ("SUM", "assign_sub", False): 0.0,
    ("MEAN", "assign_add", True): 3.5, ("MEAN", "assign_add", False): 3.0,
    ("MEAN", "assign", True): 1.5, ("MEAN", "assign", False): 1.0,
    ("MEAN", "assign_sub", True): 0.5, ("MEAN", "assign_sub", False): 1.0,
    ("ONLY_FIRST_REPLICA", "assign_add", True): 3.0,
    ("ONLY_FIRST_REPLICA", "assign_add", False): 3.0,
    ("ONLY_FIRST_REPLICA", "assign", True): 1.0, ("ONLY_FIRST_REPLICA", "assign", False): 1.0,
    ("ONLY_FIRST_REPLICA", "assign_sub", True): 1.0,
    ("ONLY_FIRST_REPLICA", "assign_sub", False): 1.0,
}


@pytest.fixture
def strategy(monkeypatch):
    """Two logical CPUs on a runtime that has not started (restored after the test)."""
    split_cpu(monkeypatch, 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _update_fn(v, kind, per_replica):
    def fn():
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        value = 1.0 + r if per_replica else tf.constant(1.0)
        return getattr(v, kind)(value), v.read_value()
    return fn


@pytest.mark.parametrize("traced", [False, True])
def test_updates_in_replicas_go_by_aggregation(strategy, traced):
    for (aggregation, kind, per_replica), expected in EXPECTED.items():
        with strategy.scope():
            v = tf.Variable(2.0, aggregation=A[aggregation])
        fn = _update_fn(v, kind, per_replica)
        returned, read = tf.function(lambda: strategy.run(fn))() if traced else strategy.run(fn)
        case = (aggregation, kind, per_replica, traced)
        assert float(v.numpy()) == expected, case
        returned = [float(t) for t in strategy.experimental_local_results(returned)]
        read = [float(t) for t in strategy.experimental_local_results(read)]
        assert returned[0] == read[0] == expected, case
        if aggregation != "NONE" or not per_replica:  # TensorFlow's copies agree: so do these
            assert returned == read == [expected, expected], case


def test_an_update_that_returns_its_value_gives_each_replica_a_tensor(strategy):
    with strategy.scope():
        v = tf.Variable(2.0, aggregation=A.SUM)
    out = strategy.run(lambda: v.assign_add(tf.constant(1.0)))
    assert repr(out) == ("PerReplica:{\n  0: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>,\n"
                         "  1: <tf.Tensor: shape=(), dtype=float32, numpy=4.0>\n}")
    assert strategy.run(lambda: v.assign_add(tf.constant(1.0), read_value=False)) is None
    assert float(v.numpy()) == 6.0


def test_sum_of_a_value_every_replica_shares_is_tensorflows_error(strategy):
    with strategy.scope():
        v = tf.Variable(2.0, aggregation=A.SUM)
        w = tf.Variable(2.0, aggregation=A.MEAN)
    with pytest.raises(ValueError, match=r"^A non-DistributedValues value 1.0 cannot be reduced "
                                         r"with the given reduce op ReduceOp.SUM.$"):
        strategy.run(lambda: v.assign_add(1.0))
    assert float(v.numpy()) == 2.0
    strategy.run(lambda: w.assign_add(1.0))  # MEAN of one shared value: that value
    assert float(w.numpy()) == 3.0


def test_variables_not_made_under_the_strategy_take_every_replicas_update(strategy):
    v = tf.Variable(0.0)
    w = tf.Variable(0.0, aggregation=A.SUM)  # made outside the scope: not mirrored

    def fn():
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        v.assign_add(1.0 + r)
        w.assign_add(1.0 + r)
        return v.read_value()
    out = strategy.run(fn)
    assert [float(t) for t in out.values] == [1.0, 3.0]
    assert (float(v.numpy()), float(w.numpy())) == (3.0, 3.0)
    tf.function(lambda: strategy.run(fn))()
    assert (float(v.numpy()), float(w.numpy())) == (6.0, 6.0)


def test_keras_metrics_count_every_replica(strategy):
    with strategy.scope():
        mean = tf.keras.metrics.Mean()
        accuracy = tf.keras.metrics.BinaryAccuracy()
        total = tf.Variable(0.0, aggregation=A.MEAN)
    values = strategy.experimental_distribute_values_from_function(
        lambda c: tf.constant([1.0, 2.0, 3.0] if c.replica_id_in_sync_group == 0
                              else [4.0, 5.0, 9.0]))

    def fn(x):
        mean.update_state(x)
        accuracy.update_state(tf.cast(x > 2.5, tf.float32), tf.ones_like(x) * 0.7)
        total.assign_add(tf.reduce_sum(x))
    strategy.run(fn, args=(values,))
    np.testing.assert_allclose([mean.result(), accuracy.result(), total.numpy()],
                               [4.0, 0.6666666865348816, 12.0], rtol=1e-7)
    tf.function(lambda x: strategy.run(fn, args=(x,)))(values)
    np.testing.assert_allclose([mean.result(), accuracy.result(), total.numpy()],
                               [4.0, 0.6666666865348816, 24.0], rtol=1e-7)


def test_distributed_values_print_as_tensorflows(strategy):
    with strategy.scope():
        v = tf.Variable(2.0, aggregation=A.SUM)
        w = tf.Variable([1.0, 2.0], name="w")
    assert repr(v) == str(v) == (
        "MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>,\n"
        "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=2.0>\n}")
    assert repr(w) == (
        "MirroredVariable:{\n  0: <tf.Variable 'w:0' shape=(2,) dtype=float32, "
        "numpy=array([1., 2.], dtype=float32)>,\n  1: <tf.Variable 'w/replica_1:0' shape=(2,) "
        "dtype=float32, numpy=array([1., 2.], dtype=float32)>\n}")
    assert type(v).__name__ == "MirroredVariable" and isinstance(v, tf.Variable)
    assert v.aggregation == A.SUM
    values = strategy.experimental_distribute_values_from_function(
        lambda c: tf.constant(float(c.replica_id_in_sync_group)))
    mirrored = strategy.extended.reduce_to("SUM", values, destinations=values)
    assert repr(mirrored) == ("Mirrored:{\n  0: <tf.Tensor: shape=(), dtype=float32, "
                              "numpy=1.0>,\n  1: <tf.Tensor: shape=(), dtype=float32, "
                              "numpy=1.0>\n}")
    assert str(mirrored) == ("Mirrored:{\n  0: tf.Tensor(1.0, shape=(), dtype=float32),\n"
                             "  1: tf.Tensor(1.0, shape=(), dtype=float32)\n}")
    assert repr(strategy.extended.reduce_to("SUM", values, destinations="/cpu:0")) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"
    (mean,) = strategy.extended.batch_reduce_to("MEAN", [(values, values)])
    assert [float(t) for t in mean.values] == [0.5, 0.5] and type(mean).__name__ == "Mirrored"
    updated = strategy.extended.update(v, lambda var, x: var.assign_add(x),
                                       args=(tf.constant(2.0),))
    assert repr(updated) == ("Mirrored:{\n  0: <tf.Tensor: shape=(), dtype=float32, "
                             "numpy=4.0>,\n  1: <tf.Tensor: shape=(), dtype=float32, "
                             "numpy=4.0>\n}")


# TensorFlow's copies after strategy.run(lambda: v.assign_add(1.0 + replica_id)) from 2.0, eagerly
# and then again in a tf.function, and its read outside run: aggregation -> (copies, read).
ON_READ = {"SUM": 10.0, "MEAN": 5.0, "ONLY_FIRST_REPLICA": 4.0, "NONE": None}


def _copies(v):
    return [float(line.rsplit("numpy=", 1)[1].rstrip(">,")) for line in repr(v).splitlines()[1:-1]]


@pytest.mark.parametrize("aggregation", list(ON_READ))
def test_sync_on_read_variables_keep_a_copy_per_replica(strategy, aggregation):
    with strategy.scope():
        v = tf.Variable(2.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=A[aggregation])

    def fn():
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        return v.assign_add(1.0 + r), v.read_value(), v * 1.0

    for copies, run in [([3.0, 4.0], strategy.run), ([4.0, 6.0], tf.function(strategy.run))]:
        results = run(fn)
        assert _copies(v) == copies
        for result in results:
            assert [float(t) for t in strategy.experimental_local_results(result)] == copies
    expected = ON_READ[aggregation]
    reads = [v.numpy, v.read_value, lambda: v * 1.0, tf.function(v.read_value),
             lambda: tf.convert_to_tensor(v)]
    if expected is None:  # no reduction: TensorFlow's error on every read outside run
        for read in reads:
            with pytest.raises(ValueError, match="^Could not convert from `tf.VariableAggregation"
                                                 "` VariableAggregationV2.NONE to`tf.distribute."
                                                 "ReduceOp` type"):
                read()
        v.assign(6.0, read_value=False)
        v.assign_add(6.0, read_value=False)
        assert _copies(v) == [12.0, 12.0]
        return
    assert [float(read()) for read in reads] == [expected] * 5
    v.assign(6.0)
    assert (_copies(v), float(v.numpy())) == ([3.0, 3.0] if aggregation == "SUM" else
                                              [6.0, 6.0], 6.0)
    if aggregation == "SUM":
        for kind in ("assign_add", "assign_sub"):
            with pytest.raises(ValueError, match=f"^SyncOnReadVariable does not support `{kind}` "
                                                 "in cross-replica context when aggregation is "
                                                 "set to `tf.VariableAggregation.SUM`.$"):
                getattr(v, kind)(1.0)
        return
    v.assign_add(1.0)
    assert (_copies(v), float(v.numpy())) == ([7.0, 7.0], 7.0)
    v.assign_sub(1.0)
    assert _copies(v) == [6.0, 6.0]


def test_sync_on_read_variable_prints_as_tensorflows(strategy):
    with strategy.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=A.SUM)
    assert repr(v) == (
        "SyncOnReadVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>,"
        "\n  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=0.0>\n}")
    assert type(v).__name__ == "SyncOnReadVariable"


def test_a_variable_says_none_and_auto_unless_given():
    """TensorFlow 2.21: tf.Variable(1.0).aggregation is VariableAggregation.NONE and its
    synchronization AUTO; a string aggregation is a ValueError naming the mode."""
    v = tf.Variable(1.0)
    assert v.aggregation is tf.VariableAggregation.NONE
    assert v.synchronization is tf.VariableSynchronization.AUTO
    assert tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM).aggregation \
        is tf.VariableAggregation.SUM
    with pytest.raises(ValueError, match="Invalid variable aggregation mode: sum"):
        tf.Variable(1.0, aggregation="sum")
    with pytest.raises(ValueError, match="Invalid variable synchronization mode: on_read"):
        tf.Variable(1.0, synchronization="on_read")
