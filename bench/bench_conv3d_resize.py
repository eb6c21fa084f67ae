"""conv3d and bilinear resize, forward + backward (issue 18), side by side with PyTorch.

    python bench/bench_conv3d_resize.py [--rounds N]

Workloads (float32, channels-last for wengert as TensorFlow's default, channels-first for
PyTorch as its own):
- conv3d: batch 8, a 16^3 volume of 8 channels -> 16 channels, 3x3x3 kernel, SAME padding;
  the gradient of sum(y * g) with respect to the input and the kernel.
- resize: bilinear, batch 32, 64x64x3 -> 128x128 (half-pixel centers, TensorFlow 2's
  `image.resize`; PyTorch's `interpolate(mode="bilinear", align_corners=False)`), the gradient
  with respect to the images.
Goal: within 2x of PyTorch. Only ratios are meaningful; run on a quiet machine.
"""
import argparse
import os
import sys

# One BLAS thread, as PyTorch is given one below: a fair comparison, and on a shared 2-core
# machine a second BLAS thread fighting other work makes GEMM times swing by 5-10x.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None


def conv3d_contenders(rng):
    x = rng.standard_normal((8, 16, 16, 16, 8)).astype(np.float32)
    k = (rng.standard_normal((3, 3, 3, 8, 16)) * 0.1).astype(np.float32)
    g = rng.standard_normal((8, 16, 16, 16, 16)).astype(np.float32)
    x_t, k_t, g_t = tf.constant(x), tf.constant(k), tf.constant(g)

    def wengert():
        with tf.GradientTape() as tape:
            tape.watch([x_t, k_t])
            y = tf.nn.conv3d(x_t, k_t, strides=[1, 1, 1, 1, 1], padding="SAME")
        return tape.gradient(y, [x_t, k_t], output_gradients=g_t)

    contenders = {"wengert": wengert}
    if torch is not None:
        x_p = torch.tensor(x.transpose(0, 4, 1, 2, 3).copy(), requires_grad=True)
        k_p = torch.tensor(k.transpose(4, 3, 0, 1, 2).copy(), requires_grad=True)
        g_p = torch.tensor(g.transpose(0, 4, 1, 2, 3).copy())

        def pytorch():
            x_p.grad = k_p.grad = None
            F.conv3d(x_p, k_p, padding=1).backward(g_p)
            return x_p.grad, k_p.grad
        contenders["pytorch"] = pytorch
        (dx, dk), (tx, tk) = wengert(), pytorch()
        np.testing.assert_allclose(dx.numpy(), tx.numpy().transpose(0, 2, 3, 4, 1), atol=2e-3)
        np.testing.assert_allclose(dk.numpy(), tk.numpy().transpose(2, 3, 4, 1, 0), atol=2e-2)
    return contenders


def resize_contenders(rng):
    x = rng.standard_normal((32, 64, 64, 3)).astype(np.float32)
    g = rng.standard_normal((32, 128, 128, 3)).astype(np.float32)
    x_t, g_t = tf.constant(x), tf.constant(g)

    def wengert():
        with tf.GradientTape() as tape:
            tape.watch(x_t)
            y = tf.image.resize(x_t, [128, 128], method="bilinear")
        return tape.gradient(y, x_t, output_gradients=g_t)

    contenders = {"wengert": wengert}
    if torch is not None:
        x_p = torch.tensor(x.transpose(0, 3, 1, 2).copy(), requires_grad=True)
        g_p = torch.tensor(g.transpose(0, 3, 1, 2).copy())

        def pytorch():
            x_p.grad = None
            F.interpolate(x_p, size=(128, 128), mode="bilinear",
                          align_corners=False).backward(g_p)
            return x_p.grad
        contenders["pytorch"] = pytorch
        np.testing.assert_allclose(wengert().numpy(), pytorch().numpy().transpose(0, 2, 3, 1),
                                   atol=1e-3)
    return contenders


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    if torch is not None:
        torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    goal = ["within 2x of PyTorch"]
    harness.report("conv3d fwd + bwd, batch 8, 16^3 x 8 -> 16 channels, 3x3x3",
                   harness.compare(conv3d_contenders(rng), rounds=args.rounds), goals=goal)
    harness.report("resize bilinear fwd + bwd, batch 32, 64x64x3 -> 128x128",
                   harness.compare(resize_contenders(rng), rounds=args.rounds), goals=goal)


if __name__ == "__main__":
    main()
