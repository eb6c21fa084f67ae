"""The cost of a TensorFlow 1 script's bookkeeping: a training loop that runs
`sess.run([train_op, merged])`, writes each step's summaries with a FileWriter and saves a
checkpoint with a Saver every 100 steps, against the same model's bare loop
(`sess.run(train_op)`).

The model is a 784-128-10 MLP with Adam, batch 100, with a scalar loss summary and two weight
histograms merged by merge_all. One call is 100 steps (and, instrumented, one checkpoint).
Goal (issue 28): the instrumented loop within 1.1x of the bare one. Both run in one process (it
compares wengert with itself, which bench/README.md's protocol allows); only the ratio matters.
The same script measures TensorFlow's own ratio when run by TensorFlow's interpreter with
--tensorflow (`$TF_PYTHON bench/bench_tf1_loop.py --tensorflow`), for comparison.
Besides wall and process CPU time it prints the main thread's CPU time (time.thread_time): a
compiled plan runs the w1 histogram on a worker thread beside the step (runtime/inter_op.py),
so on a machine with a free core the wall time follows the main thread's, not the process's.
Nearly all of the process's overhead is that histogram of the 100352 weights of w1 at every
step, 1.4 ms (warm, quiet) to 3 ms (loaded) of CPU: bucket counting (two table lookups, a
compare and a bincount per value) about half, TensorFlow's two in-order double sums (np.cumsum,
latency-bound at ~4 ns a value; kept, so the bytes stay TensorFlow's) most of the rest. The
main thread still pays the scalar summary, the merge, the event file, the small w2 histogram
(1280 values, run in order: below inter_op.CONCURRENT_MIN_SIZE a thread costs more than it
saves), a new array for w1's update (its value lives until the histogram is taken) and the
Saver (~7 ms of CPU a save quiet, most of it the pure-Python CRC32C of tensor_bundle.py; its
fsyncs already run in disk_flush.py's background thread, which the next save waits for).
Measured 2026-11-29, OPENBLAS_NUM_THREADS=1, two cores shared with other work at load average
4.7 to 6.6, `python bench/bench_tf1_loop.py 5` interleaved with main just before the worker
thread landed (66e2c2e), two runs each, instrumented / bare per round:
  before  main thread 2.41 2.32 2.67 2.56 2.46 | 3.06 2.38 1.96 2.79 2.78 (medians 2.46x, 2.78x)
          process CPU 2.17 2.10 2.42 2.29 2.20 | 2.76 2.12 1.76 2.51 2.52 (2.20x, 2.51x)
          wall        2.32 2.21 2.40 2.50 2.17 | 2.81 1.89 1.78 2.52 3.22 (2.32x, 2.52x)
  after   main thread 1.72 1.22 1.16 1.46 1.73 | 1.56 1.87 1.88 2.31 1.15 (1.46x, 1.87x)
          process CPU 2.84 2.03 1.77 2.22 2.72 | 2.34 2.78 2.90 3.49 1.78 (2.22x, 2.78x)
          wall        2.81 0.88 0.89 1.23 6.03 | 3.14 6.39 7.24 5.31 0.84 (1.23x, 5.31x)
The wall ratios swing with the load: the worker thread needs a core the other processes often
hold. TensorFlow 2.21's own ratio (`--tensorflow`, 3 rounds right after, load 4.3 to 4.8):
wall 2.93 5.53 3.98 (median 3.98x), process CPU 3.06 4.67 3.98 (3.98x); 5.86x wall on a quiet
machine in an earlier session. Every round is printed: quote them all.
Run: python bench/bench_tf1_loop.py [rounds] [--tensorflow]
"""
import argparse
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

tf = None  # wengert.compat.v1, or TensorFlow's with --tensorflow (run by its own interpreter)

STEPS, BATCH = 100, 100
RNG = np.random.default_rng(0)
X = RNG.uniform(size=(1000, 784)).astype(np.float32)
Y = RNG.integers(0, 10, 1000)


def build():
    """The graph, a session with initialized variables, and the two loops."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [None, 784])
        labels = tf.placeholder(tf.int64, [None])
        with tf.variable_scope("hidden"):
            w1 = tf.get_variable("w", [784, 128])
            hidden = tf.nn.relu(tf.matmul(x, w1) + tf.get_variable("b", [128]))
        with tf.variable_scope("logits"):
            w2 = tf.get_variable("w", [128, 10])
            logits = tf.matmul(hidden, w2) + tf.get_variable("b", [10])
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
        tf.summary.scalar("loss", loss)
        tf.summary.histogram("w1", w1)
        tf.summary.histogram("w2", w2)
        merged = tf.summary.merge_all()
        saver = tf.train.Saver(max_to_keep=2)
        sess = tf.Session(graph=graph)
        sess.run(tf.global_variables_initializer())
    logdir = tempfile.mkdtemp(prefix="bench_tf1_loop_")
    writer = tf.summary.FileWriter(logdir, graph)
    feeds = [{x: X[i:i + BATCH], labels: Y[i:i + BATCH]} for i in range(0, len(X), BATCH)]
    step = [0]

    def bare():
        for k in range(STEPS):
            sess.run(train_op, feeds[k % len(feeds)])

    def instrumented():
        for k in range(STEPS):
            _, summary = sess.run([train_op, merged], feeds[k % len(feeds)])
            step[0] += 1
            writer.add_summary(summary, step[0])
        saver.save(sess, os.path.join(logdir, "model.ckpt"), global_step=step[0])
    return bare, instrumented, writer, logdir


def timed_call(fn, number):
    """(wall seconds, process CPU seconds, the calling thread's CPU seconds) per call over
    `number` calls, the collector paused."""
    gc.disable()
    try:
        wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
        for _ in range(number):
            fn()
        return ((time.perf_counter() - wall) / number, (time.process_time() - cpu) / number,
                (time.thread_time() - own) / number)
    finally:
        gc.enable()


def timed_rounds(contenders, rounds, target_seconds):
    """{name: [(wall, cpu) seconds per call, one per round]} and the 1-minute load average
    before each round: the contenders interleaved in rotating order, each calibrated to about
    `target_seconds` per round."""
    numbers = {name: harness.calibrate(fn, target_seconds) for name, fn in contenders.items()}
    names, samples, loads = list(contenders), {name: [] for name in contenders}, []
    for r in range(rounds):
        loads.append(os.getloadavg()[0])
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(timed_call(contenders[name], numbers[name]))
    return samples, loads


def report_rounds(samples, loads, first, second, width):
    """Print each round's wall and CPU times and ratios first / second (with the load
    average before the round), then the medians of the per-round ratios."""
    fmt = harness.format_seconds
    ratios = {"wall": [], "cpu": [], "thread": []}
    for r, (a, b) in enumerate(zip(samples[first], samples[second])):
        for kind, x, y in zip(ratios, a, b):
            ratios[kind].append(x / y)
        print(f"  round {r + 1}: " + "   ".join(
            f"{kind} {fmt(x):>8} {fmt(y):>8} {x / y:5.2f}x" for kind, x, y in zip(ratios, a, b))
            + f"   load {loads[r]:5.2f}")
    for name, values in samples.items():
        print(f"  median {name:<{width}} " + "   ".join(
            f"{kind} {fmt(statistics.median(v[k] for v in values)):>8}"
            for k, kind in enumerate(ratios)))
    return {kind: statistics.median(values) for kind, values in ratios.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rounds_given", nargs="?", type=int, metavar="rounds")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tensorflow", action="store_true")
    options = parser.parse_args()
    global tf
    if options.tensorflow:
        import tensorflow.compat.v1 as tf
    else:
        import wengert.compat.v1 as tf
    tf.disable_v2_behavior()  # a TF 1 script: graphs and Session everywhere, on both sides
    rounds = options.rounds_given or options.rounds
    bare, instrumented, writer, logdir = build()
    samples, loads = timed_rounds({"bare loop": bare, "with summaries and Saver": instrumented},
                                  rounds, 0.5)
    writer.close()
    shutil.rmtree(logdir, ignore_errors=True)
    who = "TensorFlow " + tf.VERSION if options.tensorflow else "wengert"
    print(f"## TF 1 training loop in {who}, {STEPS} steps of a 784-128-10 MLP (batch {BATCH}) "
          f"(per round: instrumented, bare, ratio; wall clock, process CPU time and the main "
          f"thread's CPU time)")
    ratio = report_rounds(samples, loads, "with summaries and Saver", "bare loop", 26)
    print(f"  instrumented / bare (median of the rounds' ratios): wall {ratio['wall']:.2f}x, "
          f"cpu {ratio['cpu']:.2f}x, main thread's cpu {ratio['thread']:.2f}x   goal: <= 1.1x")


if __name__ == "__main__":
    main()
