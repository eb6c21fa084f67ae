"""Tracing a function of 1,000 ops (issue 30): how long `tf.function` takes to turn a Python
function into a graph, wengert against TensorFlow 2.21.

    python bench/bench_tracing.py [rounds] [--ops N] [--only NAME ...]

Workload: a Python function of N = 1,000 elementwise ops on a float32 vector of 64 (a chain of
multiplies, adds, tanh and a reduce every 50 ops), wrapped in a fresh `tf.function` and traced
with `get_concrete_function(tf.TensorSpec([64]))`; each call times one whole trace (a new
function object each time, so nothing is cached), AutoGraph on as by default. Contenders:
- wengert:    `wengert.function(f).get_concrete_function(spec)`;
- tensorflow: `tf.function(f).get_concrete_function(spec)`, $TF_PYTHON (/work/tfvenv).
Protocol (bench/README.md, harness.py): each in a fresh process of its own with its framework's
default threading; rounds interleave; every round's figure, the per-round ratio and the medians
are printed. Goal (issue 30): wengert within 1.5x of TensorFlow's tracing time.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

CONTENDERS = [("wengert", "wengert", "setup_wengert", {}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {})]


def _chain(tf, ops):
    def f(x):
        for i in range(ops):
            step = i % 4
            if i % 50 == 49:
                x = x - tf.reduce_mean(x)
            elif step == 0:
                x = x * 0.999
            elif step == 1:
                x = x + 0.001
            elif step == 2:
                x = tf.tanh(x)
            else:
                x = x - 0.0005
        return x
    return f


def _setup(tf, ops):
    spec = tf.TensorSpec([64], tf.float32)
    body = _chain(tf, ops)

    def trace():
        tf.function(body).get_concrete_function(spec)
    trace()
    return {"trace": trace}


def setup_wengert(ops):
    sys.path.insert(0, os.path.dirname(HERE))  # this checkout's wengert first
    import wengert as tf
    return _setup(tf, ops)


def setup_tensorflow(ops):
    import tensorflow as tf
    return _setup(tf, ops)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=7)
    parser.add_argument("--ops", type=int, default=1000)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_tracing: tracing a function of {args.ops} ops, {args.rounds} rounds")
    specs = [(name, framework, setup, {**extra, "ops": args.ops})
             for name, framework, setup, extra in CONTENDERS]
    workers = harness.start_all("bench_tracing", specs, args.only, number=3)
    try:
        result = harness.run_rounds(workers, "trace", args.rounds)
    finally:
        harness.close_all(workers)
    harness.report_rounds(f"tracing {args.ops} ops into a graph (one whole trace per call)",
                          result, [("wengert", "tensorflow")],
                          ["wengert <= 1.5x tensorflow"])


if __name__ == "__main__":
    main()
