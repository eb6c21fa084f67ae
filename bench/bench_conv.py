"""Convolution benchmarks (issue 7): conv2d forward, and forward + backward (both gradients).

    python bench/bench_conv.py [--rounds N]

Workload: batch 64, 28x28x32 float32 input, 3x3x32x64 filters, stride 1, SAME padding.
- forward:  y = conv2d(x, w).
- backward: y = conv2d(x, w) under a tape, then the gradients of sum(y * g) with respect to x
            and w (g a fixed random output gradient), as a training step computes them.
Goal: wengert within 2x of PyTorch's CPU time in the same run. PyTorch runs in its own layout
(NCHW) and in channels-last memory (the layout wengert uses, often PyTorch's fastest on CPU);
the ratio against the faster of the two is the one that counts. Max and average pooling of the
conv output (2x2, stride 2) are timed for context.
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

N, H, W, C, O, K = 64, 28, 28, 32, 64, 3


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, H, W, C), dtype=np.float32)
    w = rng.standard_normal((K, K, C, O), dtype=np.float32) * np.float32(0.1)
    g = rng.standard_normal((N, H, W, O), dtype=np.float32)
    return x, w, g


def wengert_contenders():
    x0, w0, g0 = _data()
    x, w, g = tf.constant(x0), tf.Variable(w0), tf.constant(g0)

    def forward():
        return tf.nn.conv2d(x, w, 1, "SAME")

    def backward():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv2d(x, w, 1, "SAME")
        return tape.gradient(y, [x, w], output_gradients=g)

    def max_pool():
        return tf.nn.max_pool2d(g, 2, 2, "VALID")

    def avg_pool():
        return tf.nn.avg_pool2d(g, 2, 2, "VALID")
    return forward, backward, max_pool, avg_pool


def torch_contenders(channels_last):
    x0, w0, g0 = _data()
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    x = torch.tensor(x0).permute(0, 3, 1, 2).contiguous(memory_format=fmt).requires_grad_()
    w = torch.tensor(w0).permute(3, 2, 0, 1).contiguous(memory_format=fmt).requires_grad_()
    g = torch.tensor(g0).permute(0, 3, 1, 2).contiguous(memory_format=fmt)

    def forward():
        with torch.no_grad():
            return torch.nn.functional.conv2d(x, w, padding=1)

    def backward():
        y = torch.nn.functional.conv2d(x, w, padding=1)
        return torch.autograd.grad(y, (x, w), g)

    def max_pool():
        return torch.nn.functional.max_pool2d(g, 2, 2)

    def avg_pool():
        return torch.nn.functional.avg_pool2d(g, 2, 2)
    return forward, backward, max_pool, avg_pool


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    contenders = {"wengert": wengert_contenders()}
    if torch is not None:
        contenders["pytorch (NCHW)"] = torch_contenders(False)
        contenders["pytorch (chan-last)"] = torch_contenders(True)
        print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads")
    titles = ["conv2d forward", "conv2d forward + backward (dx and dw)",
              "max_pool2d 2x2/2 of the conv output", "avg_pool2d 2x2/2 of the conv output"]
    goals = {0: "within 2x of PyTorch", 1: "within 2x of PyTorch"}
    for k, title in enumerate(titles):
        medians = harness.compare({name: fns[k] for name, fns in contenders.items()},
                                  rounds=args.rounds, target_seconds=0.2)
        harness.report(f"{title} (batch {N}, {H}x{W}x{C}, {K}x{K}x{C}x{O}, SAME, float32)",
                       medians, goals=[goals[k]] if k in goals else ())
        torch_times = [s for name, s in medians.items() if name != "wengert"]
        if torch_times:
            print(f"  wengert / fastest pytorch {medians['wengert'] / min(torch_times):6.2f}x")


if __name__ == "__main__":
    main()
