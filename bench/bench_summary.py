"""Summary writer overhead (issue 20): the eager MLP training step of bench_core (batch 128,
784-512-512-10) with and without `tf.summary.scalar("loss", loss, step=i)` on every step; the
goal is at most 2% added time. For context, PyTorch's step with and without
`torch.utils.tensorboard.SummaryWriter.add_scalar` (when PyTorch and TensorBoard are installed),
and the cost of one `tf.summary.scalar` call alone.

    python bench/bench_summary.py [--rounds 15]
"""
import argparse
import itertools
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

try:
    import torch
except ImportError:
    torch = None


def contenders(logdir):
    steps = {"wengert": bench_core.wengert_mlp(tf)}
    if torch is not None:
        steps["pytorch"] = bench_core.torch_mlp(torch)
    wengert_step = steps["wengert"]
    writer = tf.summary.create_file_writer(os.path.join(logdir, "wengert"))
    counter = itertools.count()

    def wengert_logged():  # inside `with writer.as_default():` around the whole loop
        loss = wengert_step()
        tf.summary.scalar("loss", loss, step=next(counter))
        return loss

    out = {"wengert": wengert_step, "wengert + scalar": wengert_logged}
    if "pytorch" in steps and _torch_writer_available():
        from torch.utils.tensorboard import SummaryWriter
        torch_writer = SummaryWriter(os.path.join(logdir, "torch"))
        torch_step, torch_counter = steps["pytorch"], itertools.count()

        def torch_logged():
            loss = torch_step()
            torch_writer.add_scalar("loss", loss.item(), next(torch_counter))
            return loss
        out["pytorch"] = torch_step
        out["pytorch + add_scalar"] = torch_logged
    return out, writer


def _torch_writer_available():
    try:
        import torch.utils.tensorboard  # noqa: F401
    except Exception:  # noqa: BLE001 - needs the tensorboard package too
        return False
    return True


def scalar_call_cost(logdir):
    writer = tf.summary.create_file_writer(os.path.join(logdir, "calls"))
    loss = tf.constant(np.float32(0.5))
    counter = itertools.count()
    writer.set_as_default()

    def call():
        tf.summary.scalar("loss", loss, step=next(counter))
    seconds = harness.compare({"tf.summary.scalar": call}, rounds=5)
    writer.close()
    tf.summary.create_noop_writer().set_as_default()
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as logdir:
        steps, writer = contenders(logdir)
        with writer.as_default():
            medians = harness.compare(steps, rounds=args.rounds)
        writer.close()
        harness.report("mlp step, with and without a scalar summary per step", medians,
                       goals=["wengert + scalar / wengert <= 1.02"])
        added = medians["wengert + scalar"] / medians["wengert"] - 1.0
        print(f"  added by the summary: {100 * added:+.2f}% (goal <= 2%)")
        if "pytorch + add_scalar" in medians:
            added = medians["pytorch + add_scalar"] / medians["pytorch"] - 1.0
            print(f"  PyTorch's SummaryWriter adds: {100 * added:+.2f}%")
        harness.report("one tf.summary.scalar call (eager, queued)", scalar_call_cost(logdir),
                       baseline="tf.summary.scalar")


if __name__ == "__main__":
    main()
