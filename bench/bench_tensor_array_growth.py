"""A growing TensorArray in a traced loop (issue 30): time and memory linear in its length.

    python bench/bench_tensor_array_growth.py [--sizes 100,1000,10000] [--width 4] [--rounds 3]

The function writes element i = x * i into a `dynamic_size=True` TensorArray for
`i in tf.range(n)` inside `tf.function`, stacks it and differentiates the sum of squares with
respect to x (a tape inside the function, so the loop keeps its history). For each length the
script reports, per call after tracing: the median seconds over the rounds, the tracemalloc peak,
and both divided by the length (about constant when the cost is linear; growing with the length
when it is quadratic). Run it on two checkouts (PYTHONPATH=...) to compare them; every round's
time is printed with the 1-minute load average.
"""
import argparse
import os
import statistics
import time
import tracemalloc

import numpy as np

import wengert as tf


def make_step():
    @tf.function
    def step(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            for i in tf.range(n):
                ta = ta.write(i, x * tf.cast(i, tf.float32))
            loss = tf.reduce_sum(ta.stack() ** 2)
        return loss, tape.gradient(loss, x)
    return step


def measure(step, x, n, rounds):
    step(x, tf.constant(n))  # trace outside the measurement
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        loss, grad = step(x, tf.constant(n))
        times.append((time.perf_counter() - start, os.getloadavg()[0]))
    tracemalloc.start()
    loss, grad = step(x, tf.constant(n))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    expected = 2.0 * float(np.sum(x.numpy())) * sum(i * i for i in range(n))
    assert np.isclose(float(np.sum(grad.numpy())), expected, rtol=1e-4), (grad, expected)
    return times, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    step = make_step()
    x = tf.constant(np.linspace(0.5, 1.0, args.width, dtype=np.float32))
    print(f"wengert from {os.path.dirname(tf.__file__)}; elements of {args.width} float32")
    print(f"{'length':>7} {'median s':>9} {'us/elem':>8} {'peak MiB':>9} {'peak B/elem':>12}"
          "   rounds (seconds @ load)")
    for n in [int(s) for s in args.sizes.split(",")]:
        times, peak = measure(step, x, n, args.rounds)
        median = statistics.median(t for t, _ in times)
        rounds = " ".join(f"{t:.3f}@{load:.1f}" for t, load in times)
        print(f"{n:>7} {median:>9.3f} {median / n * 1e6:>8.1f} {peak / 2**20:>9.2f} "
              f"{peak / n:>12.0f}   {rounds}")


if __name__ == "__main__":
    main()
