"""Full Jacobians, side by side: vectorized reverse mode against one reverse pass per row.

Two functions, in float64:
- a small MLP, x [64] -> tanh(W1 x + b1) [128] -> W2 h [32]: J = W2 diag(1 - h^2) W1, [32, 64];
- an elementwise function of x [256], y = sin(x) * exp(x) + x^2: J is diagonal, [256, 256].

Contenders (each timed including the forward pass under the tape):
- wengert, `tape.jacobian(y, x)` (vectorized: one batched reverse pass seeded with the identity);
- wengert loop, `experimental_use_pfor=False` (one reverse pass per output element);
- NumPy by hand (the closed forms above);
- PyTorch, `torch.autograd.functional.jacobian(f, x, vectorize=True)` (skipped if torch is
  missing).
Results are checked against each other before timing. Only ratios are meaningful.
Run: python bench/bench_jacobian.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

import wengert as tf  # noqa: E402
from wengert.autodiff import jacobians  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover - optional
    torch = None

RNG = np.random.default_rng(0)
W1, B1, W2 = RNG.normal(size=(128, 64)) / 8, RNG.normal(size=128), RNG.normal(size=(32, 128)) / 11
X_MLP = RNG.normal(size=64)
X_ELEM = RNG.normal(size=256)


def mlp(x, w1, b1, w2):
    h = tf.tanh(tf.squeeze(tf.matmul(w1, x[:, None]), -1) + b1)
    return tf.squeeze(tf.matmul(w2, h[:, None]), -1)


def elementwise(x):
    return tf.sin(x) * tf.exp(x) + x * x


def wengert_jacobian(fn, x, *args, use_pfor=True):
    x = tf.constant(x)
    args = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, *args)
    return tape.jacobian(y, x, experimental_use_pfor=use_pfor).numpy()


def numpy_mlp(x):
    h = np.tanh(W1 @ x + B1)
    return W2 @ ((1 - h * h)[:, None] * W1)


def numpy_elementwise(x):
    return np.diag(np.cos(x) * np.exp(x) + np.sin(x) * np.exp(x) + 2 * x)


def torch_contender(fn, x):
    t = torch.from_numpy(x)
    return lambda: torch.autograd.functional.jacobian(fn, t, vectorize=True).numpy()


def torch_mlp():
    w1, b1, w2 = (torch.from_numpy(a) for a in (W1, B1, W2))
    return torch_contender(lambda x: w2 @ torch.tanh(w1 @ x + b1), X_MLP)


def torch_elementwise():
    return torch_contender(lambda x: torch.sin(x) * torch.exp(x) + x * x, X_ELEM)


def workload(title, wengert_fn, numpy_fn, torch_fn):
    contenders = {
        "wengert": lambda: wengert_fn(True),
        "wengert loop": lambda: wengert_fn(False),
        "numpy by hand": numpy_fn,
    }
    if torch is not None:
        contenders["torch vectorize"] = torch_fn()
    want = numpy_fn()
    for name, fn in contenders.items():
        np.testing.assert_allclose(fn(), want, rtol=1e-9, atol=1e-12, err_msg=name)
    wengert_fn(True)
    assert jacobians.last_mode() == ("vectorized", None), jacobians.last_mode()
    harness.report(title, harness.compare(contenders, rounds=9))


def main():
    workload("Jacobian of an MLP, x [64] -> tanh [128] -> [32]",
             lambda pfor: wengert_jacobian(mlp, X_MLP, W1, B1, W2, use_pfor=pfor),
             lambda: numpy_mlp(X_MLP), torch_mlp)
    workload("Jacobian of sin(x) * exp(x) + x^2, x [256]",
             lambda pfor: wengert_jacobian(elementwise, X_ELEM, use_pfor=pfor),
             lambda: numpy_elementwise(X_ELEM), torch_elementwise)


if __name__ == "__main__":
    main()
