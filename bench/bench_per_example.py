"""Per-example gradients, side by side: tf.vectorized_map over a function that takes a tape
gradient with respect to a model's (captured) variables, against the Python loop of
single-example gradients.

The model is a 3-layer MLP, 20-64-64-1 float32 with relu, mean squared error, batch 128: the
per-example gradients are 6 tensors of shape [128, *variable.shape]. Contenders:
- wengert, `tf.vectorized_map(example_gradient, (x, y))`;
- wengert loop, `[example_gradient((x[i], y[i])) for i in range(128)]`.
Results are checked against each other before timing. Goal (issue 30): the vectorized map at
least 5x faster than the loop. Both run in one process (it compares wengert with itself, which
bench/README.md's protocol allows); only the ratio is meaningful.
Run: python bench/bench_per_example.py [--rounds N]
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

BATCH, SIZES = 128, (20, 64, 64, 1)
RNG = np.random.default_rng(0)
X = RNG.normal(size=(BATCH, SIZES[0])).astype(np.float32)
Y = RNG.normal(size=(BATCH, 1)).astype(np.float32)
WEIGHTS = []
for n_in, n_out in zip(SIZES[:-1], SIZES[1:]):
    WEIGHTS += [(RNG.normal(size=(n_in, n_out)) / np.sqrt(n_in)).astype(np.float32),
                np.zeros(n_out, np.float32)]


def wengert_contenders():
    model = tf.keras.Sequential([tf.keras.Input((SIZES[0],))] + [
        tf.keras.layers.Dense(n, activation="relu" if k < 2 else None)
        for k, n in enumerate(SIZES[1:])])
    model.set_weights(WEIGHTS)
    x, y = tf.constant(X), tf.constant(Y)

    def example_gradient(example):
        xi, yi = example
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(xi[None]) - yi))
        return tape.gradient(loss, model.trainable_variables)

    def vectorized():
        return [g.numpy() for g in tf.vectorized_map(example_gradient, (x, y))]

    def loop():
        rows = [example_gradient((x[i], y[i])) for i in range(BATCH)]
        return [np.stack([r[k].numpy() for r in rows]) for k in range(len(WEIGHTS))]
    return vectorized, loop


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    vectorized, loop = wengert_contenders()
    contenders = {"wengert vectorized_map": vectorized, "wengert loop": loop}
    reference = loop()
    for name, fn in contenders.items():
        for got, want in zip(fn(), reference):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=name)
    times = harness.compare(contenders, rounds=rounds)
    print(f"## per-example gradients: 3-layer MLP {SIZES}, batch {BATCH}")
    for name, seconds in times.items():
        print(f"  {name:<26}{harness.format_seconds(seconds):>10}")
    ratio = times["wengert loop"] / times["wengert vectorized_map"]
    print(f"  loop / vectorized_map    {ratio:8.2f}x   goal: >= 5x")


if __name__ == "__main__":
    main()
