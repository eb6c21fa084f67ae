"""AutoGraph (issue 15): Python control flow converted inside tf.function, side by side.

    python bench/bench_autograph.py [--rounds N]

- while: 1,000 iterations of a small body (x = 0.99 * x + tanh(x) on a vector of 16 floats)
  written as an ordinary Python `while i < n:` loop on tensors: run eagerly (the Python loop
  dispatches every op) vs inside a tf.function, where AutoGraph makes it one While op.
  Goal: traced at least 5x faster than eager.
- epoch: one pass over 2,000 rows in batches of 50 of an MLP 64-64-10 SGD step: a traced step
  called per batch from Python (`for x, y in dataset: step(x, y)`) vs the whole
  `for x, y in dataset:` loop inside one tf.function. Goal: the converted loop no slower.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

ITERATIONS, WIDTH = 1000, 16
ROWS, BATCH, SIZES = 2000, 50, (64, 64, 10)


def while_contenders():
    def body(x, n):
        i = tf.constant(0)
        while i < n:
            x = 0.99 * x + tf.tanh(x)
            i += 1
        return x

    x0 = tf.constant(np.linspace(-1, 1, WIDTH).astype(np.float32))
    n = tf.constant(ITERATIONS)
    traced = tf.function(body)
    np.testing.assert_allclose(traced(x0, n).numpy(), body(x0, n).numpy(), rtol=1e-5)
    return {"wengert": lambda: traced(x0, n), "eager": lambda: body(x0, n)}


def epoch_contenders():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((ROWS, SIZES[0])).astype(np.float32)
    y = rng.integers(0, SIZES[-1], ROWS).astype(np.int32)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH)
    weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
               for a, b in zip(SIZES[:-1], SIZES[1:])]
    w_step = [tf.Variable(w) for w in weights]
    w_loop = [tf.Variable(w) for w in weights]

    def sgd(ws, xb, yb):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(xb, ws[0]))
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=yb, logits=tf.matmul(h, ws[1])))
        for w, g in zip(ws, tape.gradient(loss, ws)):
            w.assign_sub(0.01 * g)
        return loss

    step = tf.function(lambda xb, yb: sgd(w_step, xb, yb))

    def per_batch():
        for xb, yb in dataset:
            step(xb, yb)

    @tf.function
    def whole_epoch():
        total = tf.constant(0.0)
        for xb, yb in dataset:
            total += sgd(w_loop, xb, yb)
        return total

    return {"wengert": whole_epoch, "traced step per batch": per_batch}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    print(f"wengert {tf.__version__}, NumPy {np.__version__}; {os.cpu_count()} CPUs")
    harness.report(f"while: {ITERATIONS} iterations of x = 0.99 x + tanh(x), {WIDTH} floats",
                   harness.compare(while_contenders(), rounds),
                   goals=["wengert / eager <= 0.20 (at least 5x faster)"])
    harness.report(f"epoch: {ROWS} rows, batch {BATCH}, MLP {'-'.join(map(str, SIZES))}",
                   harness.compare(epoch_contenders(), rounds),
                   goals=["wengert / traced step per batch <= 1.0"])


if __name__ == "__main__":
    main()
