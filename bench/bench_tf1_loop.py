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
Measured 2026-11-29 with OPENBLAS_NUM_THREADS=1 on two cores shared at load average 9 to 11,
both sides with eager execution disabled (so both Savers write the meta graph): the rounds' CPU
ratios 2.44x to 3.46x and wall ratios 2.32x to 3.79x, the same before and after that day's
changes (TF's signed-zero bytes, the Saver reusing its meta graph text); TensorFlow 2.21's own
ratio 4.22x CPU and 4.75x wall (medians of 3 rounds at load 17.7). Nearly all of wengert's
overhead is the histogram of the 100352 weights of w1 at every step, 1.4 ms (warm, quiet) to 3
ms (loaded) of CPU: its bucket counting (two table lookups, a compare and a bincount per value)
about half, TensorFlow's two in-order double sums (np.cumsum, latency-bound at ~4 ns a value)
most of the rest. The scalar summary, the merge, the event file and the Saver's CPU (~7 ms a
save) add under 0.1 ms a step; the Saver's fsyncs of the checkpoint files and directory
(saved_model/checkpoint_format.py; TensorFlow does not fsync) add 30 to 60 ms of wall time a
save. Every round is printed: quote them all.
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
    """(wall seconds, CPU seconds) per call over `number` calls, the collector paused."""
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            fn()
        return (time.perf_counter() - wall) / number, (time.process_time() - cpu) / number
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
    ratios = {"wall": [], "cpu": []}
    for r, ((aw, ac), (bw, bc)) in enumerate(zip(samples[first], samples[second])):
        ratios["wall"].append(aw / bw)
        ratios["cpu"].append(ac / bc)
        print(f"  round {r + 1}: wall {fmt(aw):>9} {fmt(bw):>9} {aw / bw:5.2f}x   "
              f"cpu {fmt(ac):>9} {fmt(bc):>9} {ac / bc:5.2f}x   load {loads[r]:5.2f}")
    for name, values in samples.items():
        print(f"  median {name:<{width}} wall {fmt(statistics.median(v[0] for v in values)):>9}"
              f"   cpu {fmt(statistics.median(v[1] for v in values)):>9}")
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
          f"(per round: instrumented, bare, ratio; wall clock and process CPU time)")
    ratio = report_rounds(samples, loads, "with summaries and Saver", "bare loop", 26)
    print(f"  instrumented / bare (median of the rounds' ratios): wall {ratio['wall']:.2f}x, "
          f"cpu {ratio['cpu']:.2f}x   goal: <= 1.1x")


if __name__ == "__main__":
    main()
