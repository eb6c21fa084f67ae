"""The same program written in `keras.ops` and in `tf.*` ops, eager and traced.

keras.ops maps each name onto one of wengert's tf ops, adding only Keras's argument handling and
NumPy-style dtype promotion, so a program written in keras.ops should cost what the same program
in tf ops costs (goal: within 1.05x, issue 27, Speed). The program is one training step of a
two-layer MLP with a hand-written softmax cross-entropy (64 samples, 32 -> 64 -> 10, plain SGD),
its gradient taken by a GradientTape: about 30 ops forward and backward, small enough that the
per-op overhead, not the arithmetic, sets the time. Each round times both contenders (in
alternating order) eagerly and inside `tf.function`; every round's figures are printed, then the
medians and the ratio keras.ops / tf.
Run: python bench/bench_keras_ops.py [rounds]
"""
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402
from wengert.keras import ops  # noqa: E402


def loss_keras_ops(w1, b1, w2, b2, x, labels):
    hidden = ops.relu(ops.add(ops.matmul(x, w1), b1))
    logits = ops.add(ops.matmul(hidden, w2), b2)
    shifted = ops.subtract(logits, ops.max(logits, axis=-1, keepdims=True))
    log_probs = ops.subtract(shifted, ops.log(ops.sum(ops.exp(shifted), axis=-1, keepdims=True)))
    return ops.negative(ops.mean(ops.sum(ops.multiply(labels, log_probs), axis=-1)))


def loss_tf(w1, b1, w2, b2, x, labels):
    hidden = tf.nn.relu(tf.add(tf.matmul(x, w1), b1))
    logits = tf.add(tf.matmul(hidden, w2), b2)
    shifted = tf.subtract(logits, tf.reduce_max(logits, axis=-1, keepdims=True))
    log_probs = tf.subtract(shifted, tf.math.log(tf.reduce_sum(tf.exp(shifted), axis=-1,
                                                               keepdims=True)))
    return tf.negative(tf.reduce_mean(tf.reduce_sum(tf.multiply(labels, log_probs), axis=-1)))


def make_step(loss_fn, variables, x, labels):
    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(*variables, x, labels)
        for variable, grad in zip(variables, tape.gradient(loss, variables)):
            variable.assign_sub(0.01 * grad)
        return loss
    return step


def contenders(x, labels):
    rng = np.random.default_rng(0)
    shapes = [(32, 64), (64,), (64, 10), (10,)]
    start = [(0.1 * rng.standard_normal(s)).astype("float32") for s in shapes]
    steps = {}
    for name, loss_fn in (("keras.ops", loss_keras_ops), ("tf", loss_tf)):
        variables = [tf.Variable(v) for v in start]
        eager = make_step(loss_fn, variables, x, labels)
        steps[f"{name} eager"] = eager
        steps[f"{name} traced"] = tf.function(eager)
    return steps


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    rng = np.random.default_rng(1)
    x = tf.constant(rng.standard_normal((64, 32)).astype("float32"))
    labels = tf.constant(np.eye(10, dtype="float32")[rng.integers(0, 10, 64)])
    steps = contenders(x, labels)
    numbers = {name: harness.calibrate(step) for name, step in steps.items()}
    times = {name: [] for name in steps}
    print("microseconds per training step, each round")
    for r in range(rounds):
        for mode in ("eager", "traced"):
            pair = [f"keras.ops {mode}", f"tf {mode}"]
            for name in pair if r % 2 == 0 else reversed(pair):
                times[name].append(1e6 * harness.time_call(steps[name], numbers[name]))
            ratio = times[pair[0]][-1] / times[pair[1]][-1]
            print(f"  round {r:2d} {mode:6s}  keras.ops {times[pair[0]][-1]:8.1f}  "
                  f"tf {times[pair[1]][-1]:8.1f}  ratio {ratio:.3f}")
    for mode in ("eager", "traced"):
        med = {k: statistics.median(times[f"{k} {mode}"]) for k in ("keras.ops", "tf")}
        print(f"median {mode:6s}  keras.ops {med['keras.ops']:8.1f}  tf {med['tf']:8.1f}  "
              f"ratio {med['keras.ops'] / med['tf']:.3f} (goal <= 1.05)")


if __name__ == "__main__":
    main()
