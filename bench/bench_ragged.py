"""A ragged elementwise op plus to_tensor (issue 29): wengert against TensorFlow 2.21.

    python bench/bench_ragged.py [rounds] [--only NAME ...]

Workload: a RaggedTensor of 10,000 rows whose lengths are drawn uniformly from 0..40 (mean 20,
about 200,000 float32 values; every contender reads the same lengths and values from one .npz),
built once from its values and row lengths; each call computes `tf.sin(rt) * 2.0 + 1.0` (three
elementwise ops on the flat values, keeping the partition) and pads the result to a dense
[10,000, longest row] tensor with `to_tensor()`. Contenders:
- wengert:     eager, op by op;
- tensorflow:  TensorFlow's own ragged ops, eager, $TF_PYTHON (/work/tfvenv).
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; micro-workload calls are batched to about
50 ms and reported as seconds per call. Goal (issue 29): wengert within 2x of TensorFlow.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

ROWS, MAX_LENGTH = 10_000, 40


def save_data(folder):
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, MAX_LENGTH + 1, ROWS).astype(np.int64)
    values = rng.standard_normal(int(lengths.sum())).astype(np.float32)
    path = os.path.join(folder, "ragged.npz")
    np.savez(path, lengths=lengths, values=values)
    return path, int(lengths.sum())


def _workload(tf, data):
    arrays = np.load(data)
    rt = tf.RaggedTensor.from_row_lengths(tf.constant(arrays["values"]),
                                          tf.constant(arrays["lengths"]))

    def call():
        return (tf.sin(rt) * 2.0 + 1.0).to_tensor()
    call()
    return {"elementwise+to_tensor": call}


def setup_wengert(data):
    sys.path.insert(0, os.path.dirname(HERE))
    import wengert
    return _workload(wengert, data)


def setup_tensorflow(data):
    import tensorflow
    return _workload(tensorflow, data)


CONTENDERS = [("wengert", "wengert", "setup_wengert", {}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {})]
PAIRS = [("wengert", "tensorflow")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_ragged: ragged sin * 2 + 1 then to_tensor, {args.rounds} rounds")
    with tempfile.TemporaryDirectory() as folder:
        data, count = save_data(folder)
        specs = [(name, framework, setup, {"data": data})
                 for name, framework, setup, _ in CONTENDERS]
        workers = harness.start_all("bench_ragged", specs, args.only)
        try:
            result = harness.run_rounds(workers, "elementwise+to_tensor", args.rounds)
        finally:
            harness.close_all(workers)
    harness.report_rounds(f"ragged elementwise + to_tensor ({ROWS} rows, {count} values)",
                          result, PAIRS, ["wengert <= 2x tensorflow"])


if __name__ == "__main__":
    main()
