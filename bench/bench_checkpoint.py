"""Saving and restoring a 100 MB checkpoint (issue 31): wengert's `tf.train.Checkpoint` against
TensorFlow 2.21's, both writing TensorFlow's tensor-bundle format.

    python bench/bench_checkpoint.py [rounds] [--megabytes M] [--only NAME ...]

Workload: a tf.Module holding 25 float32 variables of M/25 MB each (100 MB by default, values
from one seeded NumPy generator, the same in every contender). `save`: `Checkpoint.write` to a
prefix in the contender's own temporary directory (the files replaced each call, as in
training); `restore`: `Checkpoint.read` of that checkpoint into the module (every value read,
checksummed and assigned). Contenders: wengert, $WENGERT_PYTHON (this interpreter), and
tensorflow, $TF_PYTHON (/work/tfvenv). Protocol (bench/README.md, harness.py): each contender in
a fresh process with its framework's default threading; rounds interleave; every round's
figure, per-round ratios and medians are printed. Goal (issue 31): wengert at least as fast as
TensorFlow for both.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

PARTS = 25
CONTENDERS = [("wengert", "wengert", "setup_wengert", {}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {})]
PAIRS = [("wengert", "tensorflow")]


def arrays(megabytes):
    rng = np.random.default_rng(0)
    size = int(megabytes * 2**20 / 4 / PARTS)
    return [rng.standard_normal(size, dtype=np.float32) for _ in range(PARTS)]


def _workloads(tf, megabytes):
    module = tf.Module()
    module.parts = [tf.Variable(a) for a in arrays(megabytes)]
    folder = tempfile.mkdtemp(prefix="bench_checkpoint_")
    prefix = os.path.join(folder, "ckpt")
    checkpoint = tf.train.Checkpoint(model=module)

    def save():
        checkpoint.write(prefix)

    def restore():
        checkpoint.read(prefix).assert_consumed()
    save()
    restore()
    return {"save": save, "restore": restore}


def setup_wengert(megabytes):
    import wengert as tf
    return _workloads(tf, megabytes)


def setup_tensorflow(megabytes):
    import tensorflow as tf
    return _workloads(tf, megabytes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_checkpoint: {args.megabytes:g} MB, {args.rounds} interleaved rounds")
    specs = [(name, framework, setup, {**extra, "megabytes": args.megabytes})
             for name, framework, setup, extra in CONTENDERS]
    workers = harness.start_all("bench_checkpoint", specs, args.only, number=1, pause_gc=False)
    try:
        results = {w: harness.run_rounds(workers, w, args.rounds) for w in ("save", "restore")}
    finally:
        harness.close_all(workers)
    for workload, result in results.items():
        harness.report_rounds(f"{workload} a {args.megabytes:g} MB checkpoint "
                              f"({PARTS} float32 variables)", result, PAIRS,
                              ["wengert <= 1.0x tensorflow"])


if __name__ == "__main__":
    main()
