"""tf.data pipeline overhead (issue 14): one epoch of eager MLP training on 10,000 MNIST-shaped
rows, batches of 128, the training step of bench_core's mlp (784-512-512-10, SGD).

    python bench/bench_data.py [--rounds N]

Contenders, each one full epoch:
- by hand:   a NumPy permutation, batches sliced from the arrays, fed to the step;
- pipeline:  Dataset.from_tensor_slices((x, y)).shuffle(10000).batch(128).prefetch(AUTOTUNE);
- + map:     the same from uint8 pixels with a `map` normalising them (x / 255, after batch);
- slow map, no prefetch / with prefetch: a map that sleeps 1 ms per batch (tf.py_function), so
  the epoch pays 79 ms without prefetch; the prefetch thread overlaps the sleeps with the steps.
Goals: pipeline / by hand <= 1.10; slow map with prefetch / pipeline close to 1.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

ROWS, BATCH, SIZES, LR = 10_000, 128, (784, 512, 512, 10), 0.01


def _data():
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (ROWS, SIZES[0]), dtype=np.uint8)
    labels = rng.integers(0, 10, ROWS).astype(np.int32)
    weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
               for a, b in zip(SIZES[:-1], SIZES[1:])]
    return pixels, labels, weights


def _step_fn(weights):
    tw = [tf.Variable(w) for w in weights]
    lr = tf.constant(np.float32(LR))

    def step(x, y):
        with tf.GradientTape() as tape:
            h = x
            for w in tw[:-1]:
                h = tf.nn.relu(tf.matmul(h, w))
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=tf.matmul(h, tw[-1])))
        for w, g in zip(tw, tape.gradient(loss, tw)):
            w.assign_sub(lr * g)
        return loss
    return step


def _slow(x):
    time.sleep(0.001)
    return x


def contenders():
    pixels, labels, weights = _data()
    floats = pixels.astype(np.float32) / np.float32(255.0)
    step = _step_fn(weights)
    rng = np.random.default_rng(1)

    def by_hand():
        order = rng.permutation(ROWS)
        for start in range(0, ROWS, BATCH):
            index = order[start:start + BATCH]
            step(tf.constant(floats[index]), tf.constant(labels[index]))

    plain = (tf.data.Dataset.from_tensor_slices((floats, labels)).shuffle(ROWS).batch(BATCH)
             .prefetch(tf.data.AUTOTUNE))
    normalised = (tf.data.Dataset.from_tensor_slices((pixels, labels)).shuffle(ROWS).batch(BATCH)
                  .map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y))
                  .prefetch(tf.data.AUTOTUNE))
    base = tf.data.Dataset.from_tensor_slices((floats, labels)).shuffle(ROWS).batch(BATCH)
    slow = base.map(lambda x, y: (tf.py_function(_slow, [x], tf.float32), y))

    def epoch(dataset):
        def run():
            for x, y in dataset:
                step(x, y)
        return run
    return {"by hand": by_hand, "pipeline": epoch(plain), "+ map": epoch(normalised),
            "slow map, no prefetch": epoch(slow),
            "slow map, prefetch": epoch(slow.prefetch(tf.data.AUTOTUNE))}


def check_same_data():
    """The pipeline's epoch holds every row once, and the normalising map matches NumPy."""
    pixels, labels, _ = _data()
    ds = tf.data.Dataset.from_tensor_slices((pixels, labels)).shuffle(ROWS).batch(BATCH).map(
        lambda x, y: (tf.cast(x, tf.float32) / 255.0, y))
    seen = np.concatenate([y.numpy() for _, y in ds])
    assert np.array_equal(np.sort(seen), np.sort(labels))
    first_x, _ = next(iter(tf.data.Dataset.from_tensor_slices((pixels, labels)).batch(4).map(
        lambda x, y: (tf.cast(x, tf.float32) / 255.0, y))))
    np.testing.assert_allclose(first_x.numpy(), pixels[:4] / np.float32(255.0), rtol=1e-6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"wengert {tf.__version__}, NumPy {np.__version__}; {os.cpu_count()} CPUs")
    check_same_data()
    medians = harness.compare(contenders(), rounds=args.rounds, target_seconds=0.0)
    harness.report("one epoch: 10,000 rows, batch 128, eager 784-512-512-10 step", medians,
                   baseline="by hand", goals=["pipeline / by hand <= 1.10",
                                              "slow map, prefetch / pipeline ~ 1.0"])
    for name in ("+ map", "slow map, no prefetch", "slow map, prefetch"):
        print(f"  {name} / pipeline {medians[name] / medians['pipeline']:6.2f}x")


if __name__ == "__main__":
    main()
