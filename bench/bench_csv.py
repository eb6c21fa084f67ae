"""make_csv_dataset over a 50 MB CSV (issue 29): wengert against TensorFlow 2.21.

    python bench/bench_csv.py [rounds] [--only NAME ...] [--megabytes N]

Data: one CSV file of about 50 MB written once from a seeded NumPy generator (header row;
8 float columns printed with 6 digits, 2 int columns, 1 short string column, an int label),
read by every contender. Workloads, one full epoch each (every batch pulled from the iterator):
- ordered:   make_csv_dataset(path, 256, label_name="label", num_epochs=1, shuffle=False);
- shuffled:  the same with shuffle=True, shuffle_seed=0 (buffer of 10,000 records).
Column types are inferred from the first 100 rows, as both libraries do by default.
Contenders: wengert, and TensorFlow ($TF_PYTHON, /work/tfvenv), eager iteration in both.
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; every round is reported.
Goal (issue 29): wengert within 1.5x of TensorFlow.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH = 256


def write_csv(folder, megabytes):
    """A CSV file of about `megabytes` MB; returns (path, rows)."""
    rng = np.random.default_rng(0)
    path = os.path.join(folder, "data.csv")
    words = np.array(["alpha", "beta", "gamma", "delta", "epsilon"])
    rows, block = 0, 20_000
    with open(path, "w") as f:
        f.write(",".join([f"f{i}" for i in range(8)] + ["n0", "n1", "word", "label"]) + "\n")
        while f.tell() < megabytes * 1e6:
            floats = rng.standard_normal((block, 8))
            ints = rng.integers(0, 100_000, (block, 2))
            word = words[rng.integers(0, len(words), block)]
            label = rng.integers(0, 2, block)
            lines = [",".join([*(f"{v:.6f}" for v in fl), str(a), str(b), w, str(y)])
                     for fl, (a, b), w, y in zip(floats, ints, word, label)]
            f.write("\n".join(lines) + "\n")
            rows += block
    return path, rows


def _workloads(tf, path):
    def epoch(**options):
        def run():
            ds = tf.data.experimental.make_csv_dataset(path, BATCH, label_name="label",
                                                       num_epochs=1, **options)
            for _ in ds:
                pass
        return run
    return {"ordered": epoch(shuffle=False), "shuffled": epoch(shuffle=True, shuffle_seed=0)}


def setup_wengert(path):
    sys.path.insert(0, os.path.dirname(HERE))
    import wengert
    return _workloads(wengert, path)


def setup_tensorflow(path):
    import tensorflow
    return _workloads(tensorflow, path)


CONTENDERS = [("wengert", "wengert", "setup_wengert"),
              ("tensorflow", "tensorflow", "setup_tensorflow")]
PAIRS = [("wengert", "tensorflow")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=3)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    parser.add_argument("--megabytes", type=float, default=50)
    args = parser.parse_args()
    harness.header(f"bench_csv: make_csv_dataset over a {args.megabytes:g} MB CSV, "
                   f"{args.rounds} rounds")
    with tempfile.TemporaryDirectory() as folder:
        path, rows = write_csv(folder, args.megabytes)
        specs = [(name, framework, setup, {"path": path})
                 for name, framework, setup in CONTENDERS]
        workers = harness.start_all("bench_csv", specs, args.only, number=1, pause_gc=False)
        try:
            results = {w: harness.run_rounds(workers, w, args.rounds)
                       for w in ("ordered", "shuffled")}
        finally:
            harness.close_all(workers)
    for workload, result in results.items():
        harness.report_rounds(f"make_csv_dataset, {workload}: one epoch of {rows} rows, "
                              f"batches of {BATCH}", result, PAIRS,
                              ["wengert <= 1.5x tensorflow"])


if __name__ == "__main__":
    main()
