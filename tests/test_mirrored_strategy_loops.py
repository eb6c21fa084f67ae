"""Training loops under a MirroredStrategy over two logical CPUs (issue 30), against numbers
recorded from TensorFlow 2.21 running the same code with the CPU split the same way:

- a distributed dataset iterated inside `tf.function` (`for x in dist_dataset`, and `next` on
  a distributed iterator passed in), with `strategy.run` on each element and `strategy.reduce`,
  as TensorFlow's custom-training-loop tutorial does;
- a Keras model with its own train_step / test_step / predict_step under `fit`, `evaluate` and
  `predict`: the step runs in every replica on its part of each batch, the optimizer applies
  the gradients summed over the replicas, the logs are the replicas' mean, the predictions
  concatenated.
"""
import os
import tempfile

import numpy as np
import pytest

import wengert as tf
from logical_cpus import split_cpu


@pytest.fixture
def strategy(monkeypatch):
    """Two logical CPUs on a runtime that has not started (restored after the test)."""
    split_cpu(monkeypatch, 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


LOOP = """
x = np.arange(24, dtype="float32").reshape(12, 2) / 10
y = (x @ np.array([[0.5], [-0.3]], "float32") + 0.1).astype("float32")
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
with strategy.scope():
    w = tf.Variable(np.full((2, 1), 0.1, "float32"))
    opt = tf.keras.optimizers.SGD(0.1)

def step(inputs):
    a, b = inputs
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.reduce_sum((a @ w - b) ** 2, axis=1),
                                          global_batch_size=4)
    opt.apply_gradients([(tape.gradient(loss, w), w)])
    return loss

@tf.function
def epoch(dataset):
    total = 0.0
    for batch in dataset:
        total += strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None)
    return total

@tf.function
def two_steps(iterator):
    total = strategy.reduce("SUM", strategy.run(step, args=(next(iterator),)), axis=None)
    total += strategy.reduce("SUM", strategy.run(step, args=(next(iterator),)), axis=None)
    return total

out = [float(epoch(dist)), w.numpy().ravel()]
out += [float(two_steps(iter(dist))), w.numpy().ravel()]
out += [float(epoch(dist)), w.numpy().ravel()]

numbers = strategy.experimental_distribute_dataset(
    tf.data.Dataset.range(10).map(lambda i: tf.cast(i, tf.float32)).batch(3))

@tf.function
def sum_of_squares(dataset):
    total, count = 0.0, 0
    for v in dataset:
        total += strategy.reduce("SUM", strategy.run(lambda t: tf.reduce_sum(t * t), args=(v,)),
                                 axis=None)
        count += 1
    return total, count

out += [sum_of_squares(numbers)]
take = tf.function(lambda it: strategy.experimental_local_results(next(it)))
iterator = iter(numbers)
out += [[[t.numpy().tolist() for t in take(iterator)] for _ in range(4)]]
"""


def _run(program, strategy):
    scope = {"tf": tf, "np": np, "strategy": strategy}
    with tempfile.NamedTemporaryFile("w", suffix="_loop.py", delete=False) as f:
        f.write(program)  # a real file, so that AutoGraph reads the functions' source
    try:
        exec(compile(program, f.name, "exec"), scope)  # noqa: S102 - the test's own text
    finally:
        os.unlink(f.name)
    return scope["out"]


def test_distributed_dataset_iterated_inside_tf_function(strategy):
    out = _run(LOOP, strategy)
    np.testing.assert_allclose(out[0], 0.00618237629532814, rtol=1e-5)
    np.testing.assert_allclose(out[1], [0.11378373, 0.11596406], rtol=1e-6)
    np.testing.assert_allclose(out[2], 0.0028942381031811237, rtol=1e-5)
    np.testing.assert_allclose(out[3], [0.12013111, 0.12366802], rtol=1e-6)
    np.testing.assert_allclose(out[4], 0.0037047076039016247, rtol=1e-5)
    np.testing.assert_allclose(out[5], [0.10800261, 0.11175299], rtol=1e-6)
    total, count = out[6]
    assert (float(total), int(count)) == (285.0, 4)
    assert out[7] == [[[0.0, 1.0], [2.0]], [[3.0, 4.0], [5.0]], [[6.0, 7.0], [8.0]], [[9.0], []]]


def _custom_model():
    keras = tf.keras

    class Model(keras.Model):
        def train_step(self, data):
            a, b = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self(a, training=True) - b) ** 2)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.tracker.update_state(loss)
            return {"loss": self.tracker.result(), "rows": tf.cast(tf.shape(a)[0], tf.float32)}

        def test_step(self, data):
            a, b = data
            self.tracker.update_state(tf.reduce_mean(tf.abs(self(a) - b)))
            return {"mae": self.tracker.result()}

        def predict_step(self, data):
            return self(data) * 2.0

    inputs = keras.Input((2,))
    model = Model(inputs, keras.layers.Dense(1)(keras.layers.Dense(3, activation="tanh")(inputs)))
    model.tracker = keras.metrics.Mean(name="loss")
    model.set_weights([np.array([[0.3, -0.2, 0.1], [0.05, 0.4, -0.3]], "float32"),
                       np.zeros(3, "float32"), np.array([[0.5], [-0.4], [0.2]], "float32"),
                       np.zeros(1, "float32")])
    return model


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_custom_train_step_runs_in_every_replica_under_fit(strategy, run_eagerly):
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(16, 2)
    y = (np.sin(3 * x[:, :1]) + x[:, 1:] ** 2).astype("float32")
    with strategy.scope():
        model = _custom_model()
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), run_eagerly=run_eagerly)
    # batches of 6, 6 and 4 rows: 3, 3 and 2 rows per replica
    history = model.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.8118955492973328, 0.5372816324234009],
                               rtol=1e-5)
    assert history.history["rows"] == [2.0, 2.0]
    weights = np.concatenate([w.ravel() for w in model.get_weights()])
    np.testing.assert_allclose(weights, [
        0.526223361492157, -0.42147096991539, 0.31805139780044556, 0.27298107743263245,
        0.18195495009422302, -0.08633673936128616, 0.08529527485370636, -0.07524287700653076,
        0.05396934971213341, 0.7185311317443848, -0.21552179753780365, 0.014456142671406269,
        0.08596272021532059], rtol=1e-5, atol=1e-6)
    logs = model.evaluate(x, y, batch_size=6, verbose=0, return_dict=True)
    np.testing.assert_allclose(logs["mae"], 0.620824933052063, rtol=1e-5)
    np.testing.assert_allclose(model.predict(x[:5], batch_size=4, verbose=0).ravel(), [
        -0.7735403776168823, -0.6593560576438904, -0.5334364771842957, -0.3964526653289795,
        -0.24971340596675873], rtol=1e-5)


def test_custom_train_step_with_sgd_matches_tensorflow(strategy):
    """Equal halves (batches of 8: 4 rows per replica), SGD: each update is the sum of the
    replicas' gradients of their own mean losses, as in TensorFlow."""
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(16, 2)
    y = (np.sin(3 * x[:, :1]) + x[:, 1:] ** 2).astype("float32")
    with strategy.scope():
        model = _custom_model()
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.9574999213218689, 0.6671572923660278],
                               rtol=1e-5)
    kernel, bias, out_kernel, out_bias = model.get_weights()
    np.testing.assert_allclose(kernel, [[0.56886464, -0.38819522, 0.18532799],
                                        [0.3288173, 0.20304748, -0.21045414]], rtol=1e-5)
    np.testing.assert_allclose(bias, [0.15426587, -0.13573863, 0.06537724], rtol=1e-5)
    np.testing.assert_allclose(out_kernel.ravel(), [0.71489185, -0.31416968, 0.10138613],
                               rtol=1e-5)
    np.testing.assert_allclose(out_bias, [0.3800191], rtol=1e-5)


def test_built_in_fit_counts_compiled_metrics_over_every_replica(strategy):
    """Batches of 6, 6 and 2 rows split among two replicas; TensorFlow's logs and weights."""
    keras = tf.keras
    x = np.linspace(-1, 1, 28, dtype="float32").reshape(14, 2)
    y = (np.sin(3 * x[:, :1]) + x[:, 1:] ** 2).astype("float32")
    with strategy.scope():
        inputs = keras.Input((2,))
        model = keras.Model(inputs, keras.layers.Dense(1)(
            keras.layers.Dense(3, activation="tanh")(inputs)))
        model.set_weights([np.array([[0.3, -0.2, 0.1], [0.05, 0.4, -0.3]], "float32"),
                           np.zeros(3, "float32"), np.array([[0.5], [-0.4], [0.2]], "float32"),
                           np.zeros(1, "float32")])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse",
                      metrics=["mae", keras.metrics.RootMeanSquaredError()])
    history = model.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0).history
    expected = {"loss": [0.77631, 0.531558], "mae": [0.773566, 0.659684],
                "root_mean_squared_error": [0.881085, 0.72908]}
    for name, values in expected.items():
        np.testing.assert_allclose(history[name], values, atol=2e-6)
    logs = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    np.testing.assert_allclose([logs["loss"], logs["mae"], logs["root_mean_squared_error"]],
                               [0.445786, 0.571177, 0.667672], atol=2e-6)
    np.testing.assert_allclose(np.concatenate([w.ravel() for w in model.get_weights()]), [
        0.52179, -0.373353, 0.178178, 0.283765, 0.215533, -0.216673, 0.161661, -0.150038,
        0.069513, 0.73979, -0.369262, 0.133054, 0.408092], atol=2e-6)


def test_custom_train_step_on_four_replicas(monkeypatch):
    """The CPU split into four logical devices: batches of 8 rows, 2 per replica, Adam."""
    split_cpu(monkeypatch, 4)
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.num_replicas_in_sync == 4
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(16, 2)
    y = (np.sin(3 * x[:, :1]) + x[:, 1:] ** 2).astype("float32")
    with strategy.scope():
        model = _custom_model()
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05))
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], [0.8048909902572632, 0.6113522052764893],
                               rtol=1e-5)
    assert history["rows"] == [2.0, 2.0]
    np.testing.assert_allclose(np.concatenate([w.ravel() for w in model.get_weights()]), [
        0.45708003640174866, -0.3545597195625305, 0.25436270236968994, 0.20397451519966125,
        0.24844500422477722, -0.14910739660263062, 0.02217227779328823, -0.018740687519311905,
        0.011811924166977406, 0.6539245843887329, -0.2603742182254791, 0.059941232204437256,
        0.023689579218626022], rtol=1e-5, atol=1e-6)
