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

Figures (wengert/tensorflow per round, `python bench/bench_checkpoint.py 7`, 2-core machine):
  before (quiet): save 1.22x, restore 0.98x (medians).
  2026-11-29 07:38 UTC, load 5.8-6.4 (busy): save 528/784, 349/445, 292/396, 233/389,
    346/538, 378/513, 473/490 ms: 0.67, 0.78, 0.74, 0.60, 0.64, 0.74, 0.97x, median 0.74x;
    restore 200/265, 87/207, 243/138, 135/228, 104/180, 126/191, 194/173 ms: 0.76, 0.42,
    1.76, 0.59, 0.58, 0.66, 1.13x, median 0.66x.
  2026-11-29 07:57 UTC, load 15.8-16.2 (very busy): save 700/1110, 335/832, 656/765, 392/730,
    596/1240, 340/649, 616/962 ms: 0.63, 0.40, 0.86, 0.54, 0.48, 0.52, 0.64x, median 0.54x;
    restore 263/637, 128/524, 528/409, 289/582, 452/383, 205/513, 175/411 ms: 0.41, 0.24,
    1.29, 0.50, 1.18, 0.40, 0.43x, median 0.43x.
What changed (issue 31): the replaced data file's blocks are freed in the background (a hidden
hard link deleted after the flush; TensorFlow's rename frees them while it waits, about 90 ms
for 100 MB), the CRC32C are computed in a thread while the bytes are written and while they
are read (google-crc32c's C library through ctypes, without the GIL), and the helper threads
start without waiting to be scheduled. What is left of a save: copying 100 MB into the page
cache (~40 ms of CPU), the rename's start of writeback for the new file (ext4's
auto_da_alloc, 10-50 ms, kept: it is what makes a rename over an old checkpoint survive a
power cut, as TensorFlow's does) and the object graph (a few ms).
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
