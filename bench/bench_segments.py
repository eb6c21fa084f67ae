"""Segment sums and top_k (issue 16), side by side with NumPy by hand and PyTorch.

    python bench/bench_segments.py [--rounds N]

Workloads (float32):
- embedding backward: 100,000 rows looked up in a 10,000 x 64 table (`gather`), then the gradient
  of sum(rows * g) with respect to the table, made dense: the 100,000 gradient rows summed into
  the 10,000 table rows (a segment sum). NumPy by hand: `np.add.at`; PyTorch: autograd through
  `table[ids]`, and `index_add_` on its own.
- unsorted_segment_sum forward of the same 100,000 rows into 10,000 segments (PyTorch:
  `index_add_`, NumPy: `np.add.at`).
- top_k of a 1000 x 1000 matrix along its rows, k = 1, 10 and 100 (PyTorch: `torch.topk`,
  NumPy: `argpartition` of the rows, then a sort of the k picked).
Goal: within 1.5x of PyTorch. Only ratios are meaningful; run on a quiet machine.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None

ROWS, SEGMENTS, WIDTH = 100_000, 10_000, 64
TOPK_SHAPE = (1000, 1000)


def _data():
    rng = np.random.default_rng(0)
    table = rng.standard_normal((SEGMENTS, WIDTH), dtype=np.float32)
    ids = rng.integers(0, SEGMENTS, ROWS).astype(np.int32)
    g = rng.standard_normal((ROWS, WIDTH), dtype=np.float32)
    matrix = rng.standard_normal(TOPK_SHAPE, dtype=np.float32)
    return table, ids, g, matrix


def wengert_contenders(ks):
    table0, ids0, g0, m0 = _data()
    table, ids, g, m = tf.constant(table0), tf.constant(ids0), tf.constant(g0), tf.constant(m0)

    def embedding_backward():
        with tf.GradientTape() as tape:
            tape.watch(table)
            rows = tf.gather(table, ids)
        return tf.convert_to_tensor(tape.gradient(rows, table, output_gradients=g))

    def segment_sum():
        return tf.math.unsorted_segment_sum(g, ids, SEGMENTS)

    tops = [lambda k=k: tf.math.top_k(m, k) for k in ks]
    return [embedding_backward, segment_sum] + tops


def numpy_contenders(ks):
    table0, ids0, g0, m0 = _data()

    def embedding_backward():
        out = np.zeros_like(table0)
        np.add.at(out, ids0, g0)
        return out

    def top(k):
        part = np.argpartition(-m0, k - 1, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(m0, part, 1), axis=1, kind="stable")
        picked = np.take_along_axis(part, order, 1)
        return np.take_along_axis(m0, picked, 1), picked

    return [embedding_backward, embedding_backward] + [lambda k=k: top(k) for k in ks]


def torch_contenders(ks):
    table0, ids0, g0, m0 = _data()
    table = torch.tensor(table0, requires_grad=True)
    ids, g, m = torch.tensor(ids0.astype(np.int64)), torch.tensor(g0), torch.tensor(m0)

    def embedding_backward():
        rows = table[ids]
        return torch.autograd.grad(rows, table, g)[0]

    def index_add():
        return torch.zeros(SEGMENTS, WIDTH).index_add_(0, ids, g)

    return [embedding_backward, index_add] + [lambda k=k: torch.topk(m, k) for k in ks]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--ks", type=int, nargs="+", default=[1, 10, 100])
    args = parser.parse_args()
    contenders = {"wengert": wengert_contenders(args.ks), "numpy": numpy_contenders(args.ks)}
    if torch is not None:
        contenders["pytorch"] = torch_contenders(args.ks)
        print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads")
    titles = [f"embedding backward: {ROWS:,} rows into a {SEGMENTS:,} x {WIDTH} table",
              f"unsorted_segment_sum: {ROWS:,} x {WIDTH} rows into {SEGMENTS:,} segments"]
    titles += [f"top_k of {TOPK_SHAPE[0]} x {TOPK_SHAPE[1]}, k = {k}" for k in args.ks]
    for i, title in enumerate(titles):
        medians = harness.compare({name: fns[i] for name, fns in contenders.items()},
                                  rounds=args.rounds, target_seconds=0.2)
        harness.report(title + " (float32)", medians, goals=["within 1.5x of PyTorch"])


if __name__ == "__main__":
    main()
