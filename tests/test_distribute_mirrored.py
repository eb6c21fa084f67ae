"""MirroredStrategy over a CPU split into logical devices (issue 30 item 6): N replicas in one
process, as TensorFlow 2.21 runs them. One program text runs under TensorFlow (its answers
stored, tests/keras_tf_eval.py) and under wengert: replica ids, per-replica values, all_reduce,
all_gather, merge_call, reduce with and without an axis, batches split among the replicas,
distribute_datasets_from_function, a custom training loop under tf.function whose optimizer
applies the summed gradients once, metrics updated in every replica, and Keras fit whose weights
equal one replica's. TensorFlow's errors and printed forms, recorded from it, are written into
the assertions of the other tests."""
import os
import tempfile

import numpy as np
import pytest

import wengert as tf
from logical_cpus import fresh_runtime, split_cpu
from keras_tf_eval import tf_eval
from traced_snippets import assert_same

PROGRAM = """
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
out["replicas"] = np.array([strategy.num_replicas_in_sync,
                            tf.distribute.MirroredStrategy().num_replicas_in_sync])
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group) + 1.0, 5.0]))

def collectives(v):
    ctx = tf.distribute.get_replica_context()
    return (ctx.replica_id_in_sync_group, ctx.all_reduce("SUM", v), ctx.all_reduce("MEAN", v),
            ctx.all_gather(v, axis=0),
            ctx.merge_call(lambda s, x: s.reduce("MEAN", x, axis=None), args=(v * 2.0,)))

for name, result in zip(["ids", "sum", "mean", "gathered", "merged"],
                        strategy.run(collectives, args=(values,))):
    out[name] = np.stack([np.asarray(r) for r in strategy.experimental_local_results(result)])
traced = tf.function(lambda v: strategy.run(collectives, args=(v,)))
out["traced_sum"] = np.stack([np.asarray(r) for r in
                              strategy.experimental_local_results(traced(values)[1])])
out["reduce_sum"] = strategy.reduce("SUM", values, axis=None)
out["reduce_mean"] = strategy.reduce("MEAN", values, axis=None)
out["reduce_sum_axis"] = strategy.reduce("SUM", values, axis=0)
out["reduce_mean_axis"] = strategy.reduce("MEAN", values, axis=0)
out["reduce_plain_axis"] = strategy.reduce("SUM", tf.constant([3.0, 1.0]), axis=0)
out["gather"] = strategy.gather(values, axis=0)

x = np.arange(28, dtype="float32").reshape(7, 4)
y = (x @ np.array([[0.1], [-0.2], [0.05], [0.0]], "float32") + 0.3).astype("float32")
batches = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(3))
out["rows"] = np.array([[int(t.shape[0]) for t in strategy.experimental_local_results(b[0])]
                        for b in batches])
from_fn = strategy.distribute_datasets_from_function(
    lambda ctx: tf.data.Dataset.range(6).batch(2))
out["from_function"] = np.stack([np.concatenate([np.asarray(p) for p in
                                 strategy.experimental_local_results(b)]) for b in
                                 list(from_fn)[:1]])

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.full((4, 1), 0.05, "float32"), np.zeros(1, "float32")])
    optimizer = tf.keras.optimizers.Adam(0.05)
    optimizer.build(model.trainable_variables)
    mae = tf.keras.metrics.MeanAbsoluteError()
    mse = tf.keras.losses.MeanSquaredError(reduction="none")

def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        loss = tf.nn.compute_average_loss(mse(labels, predictions), global_batch_size=4)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    mae.update_state(labels, predictions)
    return loss

@tf.function
def distributed_step(inputs):
    return strategy.reduce("SUM", strategy.run(train_step, args=(inputs,)), axis=None)

train_batches = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
out["losses"] = np.array([float(distributed_step(b)) for _ in range(2) for b in train_batches])
out["kernel"] = model.get_weights()[0]
out["iterations"] = np.array(int(optimizer.iterations.numpy()))
out["mae"] = np.array(float(mae.result()))

def fitted(scope):
    with scope:
        keras_model = tf.keras.Sequential([tf.keras.Input(shape=(4,)),
                                           tf.keras.layers.Dense(2, activation="tanh"),
                                           tf.keras.layers.Dense(1)])
        keras_model.set_weights([np.full((4, 2), 0.05, "float32"), np.zeros(2, "float32"),
                                 np.full((2, 1), 0.3, "float32"), np.zeros(1, "float32")])
        keras_model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    history = keras_model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return keras_model.get_weights(), history.history["loss"]

two, two_loss = fitted(strategy.scope())
one, one_loss = fitted(tf.distribute.get_strategy().scope())
out["fit_weights"] = np.concatenate([w.ravel() for w in two])
out["fit_loss"] = np.array(two_loss)
out["fit_same_as_one"] = np.array([np.allclose(a, b, atol=1e-6) for a, b in zip(two, one)])
"""


@pytest.fixture
def two_cpus(monkeypatch):
    """A runtime that has not started and a CPU never split (restored after the test)."""
    split_cpu(monkeypatch, 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _run_here(monkeypatch):
    fresh_runtime(monkeypatch)
    scope = {"tf": tf, "keras": tf.keras, "np": np, "out": {}}
    with tempfile.NamedTemporaryFile("w", suffix="_mirrored.py", delete=False) as f:
        f.write(PROGRAM)  # a real file, so that AutoGraph reads the functions' source
    try:
        exec(compile(PROGRAM, f.name, "exec"), scope)  # noqa: S102 - the test's own text
    finally:
        os.unlink(f.name)
    return {k: np.asarray(v) for k, v in scope["out"].items()}


def test_program_matches_tensorflow(monkeypatch):
    assert_same("mirrored", _run_here(monkeypatch), tf_eval(PROGRAM), rtol=1e-5, atol=1e-6)


def test_run_returns_per_replica_values_printed_as_tensorflow(two_cpus):
    strategy = two_cpus
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group)))
    result = strategy.run(lambda v: v * 2.0, args=(values,))
    assert str(result) == ("PerReplica:{\n  0: tf.Tensor(0.0, shape=(), dtype=float32),\n"
                           "  1: tf.Tensor(2.0, shape=(), dtype=float32)\n}")
    assert strategy.run(lambda: 7) == 7  # the same value from every replica: not per-replica
    assert strategy.extended.worker_devices == (
        "/job:localhost/replica:0/task:0/device:CPU:0",
        "/job:localhost/replica:0/task:0/device:CPU:1")
    with strategy.scope():
        assert tf.distribute.get_replica_context() is None
        assert tf.distribute.in_cross_replica_context()


def test_replicas_run_one_at_a_time_in_order(two_cpus):
    seen = []

    def fn():
        ctx = tf.distribute.get_replica_context()
        seen.append(("before", int(ctx.replica_id_in_sync_group)))
        ctx.merge_call(lambda strategy: seen.append("merge"))
        seen.append(("after", int(ctx.replica_id_in_sync_group)))

    two_cpus.run(fn)
    assert seen == [("before", 0), ("before", 1), "merge", ("after", 0), ("after", 1)]


def test_errors_are_tensorflows(two_cpus):
    strategy = two_cpus

    def uneven():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 0:
            ctx.all_reduce("SUM", tf.constant(1.0))

    with pytest.raises(RuntimeError, match="^Some replicas made a different number of "
                                           r"replica_context\(\).merge_call\(\) calls.$"):
        strategy.run(uneven)

    def boom():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="^boom$"):
        strategy.run(boom)
    with pytest.raises(ValueError, match="cannot be reduced with the given reduce op "
                                         "ReduceOp.SUM"):
        strategy.reduce("SUM", tf.constant(3.0), axis=None)
    assert float(strategy.reduce("MEAN", tf.constant(3.0), axis=None)) == 3.0


def test_variables_created_inside_run_are_shared(two_cpus):
    strategy = two_cpus
    made = strategy.run(lambda: tf.Variable(1.0))
    assert isinstance(made, tf.Variable)  # replica 1 got replica 0's variable


def test_a_tape_outside_run_sees_every_replica(two_cpus):
    strategy = two_cpus
    w = tf.Variable(2.0)
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group) + 1.0))
    with tf.GradientTape() as tape:
        per_replica = strategy.run(lambda v: w * v, args=(values,))
        total = strategy.reduce("SUM", per_replica, axis=None)
    assert float(tape.gradient(total, w)) == 3.0


def test_one_device_is_one_replica():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    assert strategy.num_replicas_in_sync == 1
    assert float(strategy.run(lambda: tf.constant(1.0))) == 1.0
    assert tf.distribute.OneDeviceStrategy("/cpu:0").num_replicas_in_sync == 1
