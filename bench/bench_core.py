"""Foundation benchmarks (issue 2): seed, chain and mlp, wengert vs hand-written NumPy vs PyTorch.

    python bench/bench_core.py [--rounds N]

- seed:  x = 3.0, y = x*x, z = y*y, dz/dx under a tape (forward and gradient).
         Goal: wengert takes at most half of PyTorch's time.
- chain: float64 vector of 64, 300 steps y = tanh(y * w[i]) for a Variable w of 300 values,
         gradient of sum(y) w.r.t. w. Goal: no slower than PyTorch.
- mlp:   batch 128, 784-512-512-10 float32, relu, softmax cross-entropy, gradients of the three
         weight matrices and an SGD update. Goal: within 1.15x of hand-written NumPy.
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

# OpenMP threads that spin after PyTorch's work would take the CPU from whichever contender runs
# next on this 2-core machine; passive waiting keeps the interleaved rounds independent.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
try:
    import torch
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None


# -- seed ---------------------------------------------------------------------------------------
def seed_contenders():
    x = tf.constant(3.0)

    def wengert_seed():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            z = y * y
        return z, tape.gradient(z, x)

    xn = np.float32(3.0)

    def numpy_seed():
        y = xn * xn
        z = y * y
        return z, (2 * y) * (2 * xn)

    out = {"wengert": wengert_seed, "numpy (by hand)": numpy_seed}
    if torch is not None:
        xt = torch.tensor(3.0, requires_grad=True)

        def torch_seed():
            y = xt * xt
            z = y * y
            return z, torch.autograd.grad(z, xt)
        out["pytorch"] = torch_seed
    return out


# -- chain --------------------------------------------------------------------------------------
STEPS, WIDTH = 300, 64


def chain_contenders():
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=STEPS) * 0.5
    y0 = rng.normal(size=WIDTH)
    w = tf.Variable(w0)
    y_init = tf.constant(y0)

    def wengert_chain():
        with tf.GradientTape() as tape:
            y = y_init
            for i in range(STEPS):
                y = tf.tanh(y * w[i])
            loss = tf.reduce_sum(y)
        return tape.gradient(loss, w)

    def numpy_chain():
        ys = [y0]
        y = y0
        for i in range(STEPS):
            y = np.tanh(y * w0[i])
            ys.append(y)
        grad_w = np.empty(STEPS)
        g = np.ones(WIDTH)
        for i in range(STEPS - 1, -1, -1):
            g = g * (1.0 - ys[i + 1] ** 2)
            grad_w[i] = np.dot(g, ys[i])
            g = g * w0[i]
        return grad_w

    out = {"wengert": wengert_chain, "numpy (by hand)": numpy_chain}
    if torch is not None:
        wt = torch.tensor(w0, requires_grad=True)
        yt0 = torch.tensor(y0)

        def torch_chain():
            y = yt0
            for i in range(STEPS):
                y = torch.tanh(y * wt[i])
            return torch.autograd.grad(y.sum(), wt)
        out["pytorch"] = torch_chain
    return out, (wengert_chain, numpy_chain)


# -- mlp ----------------------------------------------------------------------------------------
BATCH, SIZES, LR = 128, (784, 512, 512, 10), 0.01


def _mlp_data(batch=BATCH):
    rng = np.random.default_rng(0)
    x = rng.random((batch, SIZES[0]), dtype=np.float32)
    labels = rng.integers(0, SIZES[-1], size=batch).astype(np.int32)
    weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
               for a, b in zip(SIZES[:-1], SIZES[1:])]
    return x, labels, weights


def mlp_contenders():
    x, labels, weights = _mlp_data()
    tx, tlabels = tf.constant(x), tf.constant(labels)
    tw = [tf.Variable(w) for w in weights]
    lr = tf.constant(np.float32(LR))

    def wengert_mlp():
        with tf.GradientTape() as tape:
            h = tx
            for w in tw[:-1]:
                h = tf.nn.relu(tf.matmul(h, w))
            logits = tf.matmul(h, tw[-1])
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tlabels, logits=logits))
        grads = tape.gradient(loss, tw)
        for w, g in zip(tw, grads):
            w.assign_sub(lr * g)
        return loss

    nw = [w.copy() for w in weights]
    rows = np.arange(BATCH)

    def numpy_mlp():
        acts = [x]
        h = x
        for w in nw[:-1]:
            h = np.maximum(h @ w, 0)
            acts.append(h)
        logits = h @ nw[-1]
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, labels])
        g = exp / total
        g[rows, labels] -= 1
        g /= BATCH
        grads = []
        for i in range(len(nw) - 1, -1, -1):
            grads.append(acts[i].T @ g)
            if i:
                g = (g @ nw[i].T) * (acts[i] > 0)
        for w, gw in zip(nw, reversed(grads)):
            w -= LR * gw
        return loss

    out = {"wengert": wengert_mlp, "numpy (by hand)": numpy_mlp}
    if torch is not None:
        xt, lt = torch.tensor(x), torch.tensor(labels, dtype=torch.long)
        wt = [torch.tensor(w, requires_grad=True) for w in weights]

        def torch_mlp():
            h = xt
            for w in wt[:-1]:
                h = torch.relu(h @ w)
            loss = torch.nn.functional.cross_entropy(h @ wt[-1], lt)
            grads = torch.autograd.grad(loss, wt)
            with torch.no_grad():
                for w, g in zip(wt, grads):
                    w -= LR * g
            return loss
        out["pytorch"] = torch_mlp
    return out


def check_chain_agrees(pair):
    wengert_chain, numpy_chain = pair
    np.testing.assert_allclose(wengert_chain().numpy(), numpy_chain(), rtol=1e-10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"wengert {tf.__version__}, NumPy {np.__version__}, PyTorch "
          f"{torch.__version__ if torch else 'not installed'}; {os.cpu_count()} CPUs")
    seed = harness.compare(seed_contenders(), rounds=args.rounds)
    harness.report("seed: dz/dx of z = (x*x)^2", seed,
                   goals=["wengert / pytorch <= 0.50"])
    chain, pair = chain_contenders()
    check_chain_agrees(pair)
    harness.report("chain: 300 x tanh(y * w[i]), d sum(y) / dw",
                   harness.compare(chain, rounds=args.rounds),
                   goals=["wengert / pytorch <= 1.00"])
    harness.report("mlp: 784-512-512-10 training step, batch 128",
                   harness.compare(mlp_contenders(), rounds=args.rounds),
                   goals=["wengert / numpy (by hand) <= 1.15"])


if __name__ == "__main__":
    main()
