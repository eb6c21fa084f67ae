"""What the plans' in-place writes buy: the same traced training steps compiled with and without
runtime/buffer_planning.py writing results into dying inputs and updating variables in place.

    python bench/bench_buffer_planning.py [--rounds N] [--batches 128 1024]

For each batch size, two copies of bench_graph's MLP step (784-512-512-10, relu, sparse softmax
cross-entropy, SGD by assign_sub inside the traced function; same data, separate Variables) are
traced: "in place" as wengert compiles it, "fresh arrays" with the planner choosing no step to
write into an input (every result a new array, every variable update a new array). They run
interleaved (harness.compare), and the two copies' losses are checked equal first. One contender
(wengert) against itself, so one process; only the ratio is meaningful.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_graph  # noqa: E402
import harness  # noqa: E402
import wengert as tf  # noqa: E402
from wengert.runtime import buffer_planning  # noqa: E402


def _traced_step(batch):
    """A traced MLP step at `batch` rows, compiled now (its plan fixed by the first call)."""
    step, tx, tl, _ = bench_graph.make_traced_mlp(batch)
    loss = step(tx, tl)
    return (lambda: step(tx, tl)), float(loss.numpy())


def _without_in_place(make):
    choose = buffer_planning._choose
    buffer_planning._choose = lambda *args: None
    try:
        return make()
    finally:
        buffer_planning._choose = choose


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--batches", type=int, nargs="+", default=[128, 1024])
    args = parser.parse_args()
    print(f"wengert {tf.__version__}, NumPy {np.__version__}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")
    for batch in args.batches:
        in_place, loss_a = _traced_step(batch)
        fresh, loss_b = _without_in_place(lambda b=batch: _traced_step(b))
        np.testing.assert_allclose(loss_a, loss_b, rtol=1e-6)
        medians = harness.compare({"in place": in_place, "fresh arrays": fresh},
                                  rounds=args.rounds)
        harness.report(f"mlp 784-512-512-10 traced step, batch {batch}", medians,
                       baseline="in place")


if __name__ == "__main__":
    main()
