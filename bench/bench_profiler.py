"""Profiler overhead (issue 30 item 7): the time of bench_core's workloads with the profiler off
and on, in one process, interleaved (harness.compare: Python's garbage collector paused as
`timeit` does, so the figures leave out the collections that the growing record triggers).

- add:     one eager `tf.add` of two float32 vectors of 4 (the op-dispatch floor);
- seed:    bench_core's seed, dz/dx of z = (x*x)^2 under a tape (eager, 4 ops);
- chain:   bench_core's chain, 300 x tanh(y * w[i]) and its gradient (eager, ~1,800 ops);
- mlp:     bench_core's MLP training step, eager and as a traced tf.function;
- session: a Session running a plan of 600 small kernels.
"Off" is the branch as shipped: the hooks are one attribute check per eager op and per plan
run. The cost of that check is measured against a checkout without it by running this script
there with `--off-only`. "On" keeps one profiling session open for the whole run (its record
is cleared between batches of calls, so memory stays flat).

    python bench/bench_profiler.py [--rounds 9] [--off-only]
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_core  # noqa: E402
import harness  # noqa: E402

import wengert as tf  # noqa: E402
from wengert.framework.context import state  # noqa: E402


def workloads():
    x = tf.constant(np.ones(4, np.float32))
    y = tf.constant(np.full(4, 2.0, np.float32))
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float64, [64])
        h = p
        for i in range(300):
            h = tf.tanh(h * (0.1 * (i % 7 + 1)))
    sess = tf.compat.v1.Session(graph=g)
    feed = {p: np.ones(64)}
    mlp = bench_core.wengert_mlp(tf)
    traced = tf.function(bench_core.wengert_mlp(tf))
    traced()
    return {"add": lambda: tf.add(x, y), "seed": bench_core.wengert_seed(tf),
            "chain": bench_core.wengert_chain(tf), "mlp eager": mlp, "mlp traced": traced,
            "session": lambda: sess.run(h, feed)}


def profiled(fn, recorder):
    """`fn` run with `recorder` switched on around it (the session stays open between calls)."""
    def call():
        type(state).profiler = recorder
        try:
            return fn()
        finally:
            type(state).profiler = None
            if len(recorder.events) > 100_000:
                recorder.events.clear()
    return call


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--off-only", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as logdir:
        recorder = None
        if not args.off_only:
            tf.profiler.experimental.start(logdir)
            recorder = state.profiler
            type(state).profiler = None
        for name, fn in workloads().items():
            contenders = {"off": fn}
            if recorder is not None:
                contenders["on"] = profiled(fn, recorder)
            medians = harness.compare(contenders, rounds=args.rounds)
            harness.report(name, medians, baseline="off")
            if recorder is not None:
                print(f"  on / off {medians['on'] / medians['off']:6.2f}x")
        if recorder is not None:
            type(state).profiler = recorder
            tf.profiler.experimental.stop(save=False)


if __name__ == "__main__":
    main()
