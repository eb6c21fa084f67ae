"""A TensorFlow 1 LSTM against Keras's: one training step of `tf.compat.v1.nn.dynamic_rnn` over a
BasicLSTMCell (a Session running a GradientDescent train op), against one step of
`keras.layers.LSTM` (a traced train step with SGD), on the same sizes: batch 32, 20 time steps,
32 features, 64 units, a dense layer to one output, mean squared error.

Goal (issue 28): the dynamic_rnn step within 1.2x of Keras's. Both run in one process (it
compares wengert with itself, which bench/README.md's protocol allows); run by TensorFlow's
interpreter with --tensorflow, the same script measures TensorFlow's own ratio.
Measured 2026-11-28 (one BLAS thread, two cores shared with other work, so rounds vary by
+-20%): medians 1.05x to 1.22x over five runs (before dynamic_rnn used the fused LSTM op: 3.9x
to 6.0x); TensorFlow 2.21's own ratio 1.01x. Every round is printed: quote them all.
Run: python bench/bench_tf1_rnn.py [--rounds N] [--tensorflow]
"""
import argparse
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

BATCH, TIME, FEATURES, UNITS = 32, 20, 32, 64
RNG = np.random.default_rng(0)
X = RNG.normal(size=(BATCH, TIME, FEATURES)).astype(np.float32)
Y = RNG.normal(size=(BATCH, 1)).astype(np.float32)


def tf1_step(v1):
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(v1.float32, [BATCH, TIME, FEATURES])
        y = v1.placeholder(v1.float32, [BATCH, 1])
        try:
            cell = v1.nn.rnn_cell.BasicLSTMCell(UNITS)
        except AttributeError:  # TensorFlow 2.21 with Keras 3 keeps TF 1's cells internal
            from tensorflow.python.ops import rnn_cell_impl
            cell = rnn_cell_impl.BasicLSTMCell(UNITS)
        outputs, _ = v1.nn.dynamic_rnn(cell, x, dtype=v1.float32)
        prediction = v1.matmul(outputs[:, -1], v1.get_variable("w", [UNITS, 1]))
        loss = v1.reduce_mean(v1.square(prediction - y))
        train = v1.train.GradientDescentOptimizer(0.01).minimize(loss)
        sess = v1.Session(graph=graph)
        sess.run(v1.global_variables_initializer())
    feed = {x: X, y: Y}
    return lambda: sess.run(train, feed)


def keras_step(tf):
    keras = tf.keras
    model = keras.Sequential([keras.Input((TIME, FEATURES)), keras.layers.LSTM(UNITS),
                              keras.layers.Dense(1, use_bias=False)])
    optimizer = keras.optimizers.SGD(0.01)
    x, y = tf.constant(X), tf.constant(Y)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return step


def timed_rounds(contenders, rounds, target_seconds):
    """{name: [seconds per call, one per round]}: the contenders interleaved in rotating order,
    each calibrated to about `target_seconds` per round."""
    numbers = {name: harness.calibrate(fn, target_seconds) for name, fn in contenders.items()}
    names, samples = list(contenders), {name: [] for name in contenders}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(harness.time_call(contenders[name], numbers[name]))
    return samples


def report_rounds(samples, first, second, width):
    """Print each round's times and ratio first / second, then the medians' ratio."""
    for r, (a, b) in enumerate(zip(samples[first], samples[second])):
        print(f"  round {r + 1}: {harness.format_seconds(a):>9} {harness.format_seconds(b):>9}"
              f"  {a / b:5.2f}x")
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for name, seconds in medians.items():
        print(f"  median {name:<{width}}{harness.format_seconds(seconds):>10}")
    return medians[first] / medians[second]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tensorflow", action="store_true")
    options = parser.parse_args()
    if options.tensorflow:
        import tensorflow as tf
        v1 = tf.compat.v1
    else:
        import wengert as tf
        import wengert.compat.v1 as v1
    contenders = {"dynamic_rnn (Session)": tf1_step(v1), "keras LSTM (traced)": keras_step(tf)}
    samples = timed_rounds(contenders, options.rounds, 0.3)
    who = "TensorFlow " + tf.__version__ if options.tensorflow else "wengert"
    print(f"## one LSTM training step in {who}: batch {BATCH}, {TIME} steps, {FEATURES} -> "
          f"{UNITS} units (per round: dynamic_rnn, keras, ratio)")
    ratio = report_rounds(samples, "dynamic_rnn (Session)", "keras LSTM (traced)", 24)
    print(f"  dynamic_rnn / keras (medians) {ratio:6.2f}x   goal: <= 1.2x")


if __name__ == "__main__":
    main()
