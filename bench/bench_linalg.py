"""Linear algebra and FFT gradients (issue 17), side by side with NumPy by hand and PyTorch.

    python bench/bench_linalg.py [--rounds N]

Workloads (float64):
- the gradient of logdet(A) + trace(inv(A) B) with respect to A, for 256 x 256 symmetric
  positive-definite A and B: wengert through `linalg.logdet`, `linalg.inv` and a tape; NumPy by
  hand with the closed form inv(A)^T - (inv(A) B inv(A))^T; PyTorch through `torch.logdet`,
  `torch.linalg.inv` and autograd.
- the gradient of sum(y^2), y = irfft(rfft(x) * rfft(k)), a circular convolution of 2^16
  samples, with respect to the signal x and the kernel k: wengert's `signal.rfft`/`irfft`,
  PyTorch's `torch.fft`, NumPy by hand (the adjoint convolutions as FFT products).
Goal: within 1.5x of PyTorch. Only ratios are meaningful; run on a quiet machine.
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
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None

N_MATRIX, N_SIGNAL = 256, 1 << 16


def _spd(rng, n):
    m = rng.standard_normal((n, n))
    return m @ m.T / n + np.eye(n)


def logdet_contenders(rng):
    a, b = _spd(rng, N_MATRIX), _spd(rng, N_MATRIX)
    a_t, b_t = tf.constant(a), tf.constant(b)

    def wengert():
        with tf.GradientTape() as tape:
            tape.watch(a_t)
            loss = tf.linalg.logdet(a_t) + tf.linalg.trace(tf.linalg.inv(a_t) @ b_t)
        return tape.gradient(loss, a_t)

    def numpy_by_hand():
        inv = np.linalg.inv(a)
        return inv.T - (inv @ b @ inv).T

    contenders = {"wengert": wengert, "numpy by hand": numpy_by_hand}
    if torch is not None:
        a_p, b_p = torch.tensor(a, requires_grad=True), torch.tensor(b)

        def pytorch():
            a_p.grad = None
            loss = torch.logdet(a_p) + torch.trace(torch.linalg.inv(a_p) @ b_p)
            loss.backward()
            return a_p.grad
        contenders["pytorch"] = pytorch
        np.testing.assert_allclose(wengert().numpy(), pytorch().numpy(), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(wengert().numpy(), numpy_by_hand(), rtol=1e-8, atol=1e-10)
    return contenders


def fft_conv_contenders(rng):
    x, k = rng.standard_normal(N_SIGNAL), rng.standard_normal(N_SIGNAL)
    x_t, k_t = tf.constant(x), tf.constant(k)

    def wengert():
        with tf.GradientTape() as tape:
            tape.watch([x_t, k_t])
            y = tf.signal.irfft(tf.signal.rfft(x_t) * tf.signal.rfft(k_t))
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x_t, k_t])

    def numpy_by_hand():
        fx, fk = np.fft.rfft(x), np.fft.rfft(k)
        y = np.fft.irfft(fx * fk, N_SIGNAL)
        fg = np.fft.rfft(2 * y)  # the adjoint of circular convolution: correlation
        return np.fft.irfft(fg * np.conj(fk), N_SIGNAL), np.fft.irfft(fg * np.conj(fx), N_SIGNAL)

    contenders = {"wengert": wengert, "numpy by hand": numpy_by_hand}
    if torch is not None:
        x_p, k_p = torch.tensor(x, requires_grad=True), torch.tensor(k, requires_grad=True)

        def pytorch():
            x_p.grad = k_p.grad = None
            y = torch.fft.irfft(torch.fft.rfft(x_p) * torch.fft.rfft(k_p), n=N_SIGNAL)
            (y * y).sum().backward()
            return x_p.grad, k_p.grad
        contenders["pytorch"] = pytorch
        for mine, theirs in zip(wengert(), pytorch()):
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-8, atol=1e-8)
    for mine, theirs in zip(wengert(), numpy_by_hand()):
        np.testing.assert_allclose(mine.numpy(), theirs, rtol=1e-8, atol=1e-8)
    return contenders


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    if torch is not None:
        torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    goal = ["within 1.5x of PyTorch"]
    harness.report(f"gradient of logdet(A) + trace(inv(A) B), {N_MATRIX}x{N_MATRIX} SPD, float64",
                   harness.compare(logdet_contenders(rng), rounds=args.rounds), goals=goal)
    harness.report(f"gradient of an rfft convolution of {N_SIGNAL} samples, float64",
                   harness.compare(fft_conv_contenders(rng), rounds=args.rounds), goals=goal)


if __name__ == "__main__":
    main()
