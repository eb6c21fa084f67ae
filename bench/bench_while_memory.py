"""Memory of differentiating a while_loop (issue 4): linear in the number of iterations.

    python bench/bench_while_memory.py [--sizes 1000,2000,5000,10000] [--width 256]

The loop is y_{t+1} = tanh(w * y_t + x) for N iterations over a float64 vector of `width`
values, inside a traced function, differentiated with respect to x and w by a tape inside the
function (one While op forward, its gradient a While op running backwards over the kept
history). For each N the script reports the peak memory tracemalloc sees during one call, the
peak per iteration (which should stay about constant: linear memory) and the time. The stored
history alone is N * width * 8 bytes.
"""
import argparse
import time
import tracemalloc

import numpy as np

import wengert as tf
from wengert.control_flow.while_loop import while_loop


def make_step(n):
    @tf.function
    def step(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            _, y = while_loop(lambda i, y: i < n,
                              lambda i, y: (i + 1, tf.tanh(w * y + x)), (tf.constant(0), x))
            loss = tf.reduce_sum(y)
        return loss, tape.gradient(loss, [x, w])
    return step


def measure(n, width):
    step = make_step(n)
    rng = np.random.default_rng(0)
    x = tf.constant(rng.uniform(-0.5, 0.5, width))
    w = tf.constant(rng.uniform(0.5, 1.0, width))
    step(x, w)  # trace and compile outside the measurement
    tracemalloc.start()
    start = time.perf_counter()
    loss, (gx, gw) = step(x, w)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert np.all(np.isfinite(gx.numpy())) and np.all(np.isfinite(gw.numpy()))
    return peak, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,5000,10000")
    parser.add_argument("--width", type=int, default=256)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    history = lambda n: n * args.width * 8  # noqa: E731
    print(f"while_loop gradient, vector of {args.width} float64, tracemalloc peak per call")
    print(f"{'iterations':>10} {'peak MiB':>10} {'history MiB':>12} {'peak/iter KiB':>14} "
          f"{'seconds':>8}")
    for n in sizes:
        peak, elapsed = measure(n, args.width)
        print(f"{n:>10} {peak / 2**20:>10.2f} {history(n) / 2**20:>12.2f} "
              f"{peak / n / 1024:>14.2f} {elapsed:>8.2f}")


if __name__ == "__main__":
    main()
