"""Foundation benchmarks (issue 2): seed, chain and mlp, wengert vs hand-written NumPy vs PyTorch.

    python bench/bench_core.py [rounds]

- seed:  x = 3.0, y = x*x, z = y*y, dz/dx under a tape (forward and gradient).
         Goal: wengert takes at most 0.45x PyTorch's time.
- chain: float64 vector of 64, 300 steps y = tanh(y * w[i]) for a Variable w of 300 values,
         gradient of sum(y) w.r.t. w. Goal: no slower than PyTorch.
- mlp:   batch 128, 784-512-512-10 float32, relu, softmax cross-entropy, gradients of the three
         weight matrices and an SGD update. Goal: within 1.1x of hand-written NumPy.
All eager; chain and mlp also as a traced `wengert.function` (contender wengert-traced).
Protocol (bench/README.md): wengert, wengert-traced, NumPy and PyTorch each run in a fresh
process of their own with default threading (harness.py); rounds interleave them; the report
gives every round, the per-round ratios and the medians. PyTorch is skipped when $TORCH_PYTHON (default
/work/torchvenv/bin/python) is absent. This module imports no framework at the top: each
contender's setup function imports its own, inside its own process.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

STEPS, WIDTH = 300, 64
BATCH, SIZES, LR = 128, (784, 512, 512, 10), 0.01
WORKLOADS = {
    "seed": ("seed: dz/dx of z = (x*x)^2", [("wengert", "pytorch")], ["wengert/pytorch <= 0.45"]),
    "chain": ("chain: 300 x tanh(y * w[i]), d sum(y) / dw",
              [("wengert", "pytorch"), ("wengert", "numpy"), ("wengert-traced", "pytorch"),
               ("wengert-traced", "numpy")], ["wengert/pytorch <= 1.00"]),
    "mlp": ("mlp: 784-512-512-10 training step, batch 128",
            [("wengert", "numpy"), ("wengert", "pytorch"), ("wengert-traced", "numpy"),
             ("wengert-traced", "pytorch")], ["wengert/numpy <= 1.10"]),
}


def chain_data():
    rng = np.random.default_rng(0)
    return rng.normal(size=STEPS) * 0.5, rng.normal(size=WIDTH)


def mlp_data(batch=BATCH):
    rng = np.random.default_rng(0)
    x = rng.random((batch, SIZES[0]), dtype=np.float32)
    labels = rng.integers(0, SIZES[-1], size=batch).astype(np.int32)
    weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
               for a, b in zip(SIZES[:-1], SIZES[1:])]
    return x, labels, weights


# -- wengert ------------------------------------------------------------------------------------
def setup_wengert():
    import wengert as tf
    chain = wengert_chain(tf)
    np.testing.assert_allclose(chain().numpy(), numpy_chain()(), rtol=1e-10)
    return {"seed": wengert_seed(tf), "chain": chain, "mlp": wengert_mlp(tf)}


def setup_wengert_traced():
    """The chain and mlp steps, each traced once by `wengert.function` and then replayed."""
    import wengert as tf
    chain = tf.function(wengert_chain(tf))
    np.testing.assert_allclose(chain().numpy(), numpy_chain()(), rtol=1e-10)
    return {"chain": chain, "mlp": tf.function(wengert_mlp(tf))}


def wengert_seed(tf):
    x = tf.constant(3.0)

    def seed():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            z = y * y
        return z, tape.gradient(z, x)
    return seed


def wengert_chain(tf):
    w0, y0 = chain_data()
    w, y_init = tf.Variable(w0), tf.constant(y0)

    def chain():
        with tf.GradientTape() as tape:
            y = y_init
            for i in range(STEPS):
                y = tf.tanh(y * w[i])
            loss = tf.reduce_sum(y)
        return tape.gradient(loss, w)
    return chain


def wengert_mlp(tf):
    x, labels, weights = mlp_data()
    tx, tlabels = tf.constant(x), tf.constant(labels)
    tw = [tf.Variable(w) for w in weights]
    lr = tf.constant(np.float32(LR))

    def mlp():
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
    return mlp


# -- NumPy by hand ------------------------------------------------------------------------------
def setup_numpy():
    xn = np.float32(3.0)

    def seed():
        y = xn * xn
        z = y * y
        return z, (2 * y) * (2 * xn)
    return {"seed": seed, "chain": numpy_chain(), "mlp": numpy_mlp()}


def numpy_chain():
    w0, y0 = chain_data()

    def chain():
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
    return chain


def numpy_mlp():
    x, labels, weights = mlp_data()
    rows = np.arange(BATCH)

    def mlp():
        acts = [x]
        h = x
        for w in weights[:-1]:
            h = np.maximum(h @ w, 0)
            acts.append(h)
        logits = h @ weights[-1]
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, labels])
        g = exp / total
        g[rows, labels] -= 1
        g /= BATCH
        grads = []
        for i in range(len(weights) - 1, -1, -1):
            grads.append(acts[i].T @ g)
            if i:
                g = (g @ weights[i].T) * (acts[i] > 0)
        for w, gw in zip(weights, reversed(grads)):
            w -= LR * gw
        return loss
    return mlp


# -- PyTorch ------------------------------------------------------------------------------------
def setup_pytorch():
    import torch
    return {"seed": torch_seed(torch), "chain": torch_chain(torch), "mlp": torch_mlp(torch)}


def torch_seed(torch):
    xt = torch.tensor(3.0, requires_grad=True)

    def seed():
        y = xt * xt
        z = y * y
        return z, torch.autograd.grad(z, xt)
    return seed


def torch_chain(torch):
    w0, y0 = chain_data()
    wt, yt0 = torch.tensor(w0, requires_grad=True), torch.tensor(y0)

    def chain():
        y = yt0
        for i in range(STEPS):
            y = torch.tanh(y * wt[i])
        return torch.autograd.grad(y.sum(), wt)
    return chain


def torch_mlp(torch):
    x, labels, weights = mlp_data()
    xt, lt = torch.tensor(x), torch.tensor(labels, dtype=torch.long)
    wt = [torch.tensor(w, requires_grad=True) for w in weights]

    def mlp():
        h = xt
        for w in wt[:-1]:
            h = torch.relu(h @ w)
        loss = torch.nn.functional.cross_entropy(h @ wt[-1], lt)
        grads = torch.autograd.grad(loss, wt)
        with torch.no_grad():
            for w, g in zip(wt, grads):
                w -= LR * g
        return loss
    return mlp


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    harness.header(f"bench_core: eager micro-workloads, {rounds} interleaved rounds")
    specs = [(name, name, f"setup_{name}", {}) for name in ("wengert", "numpy", "pytorch")]
    specs.insert(1, ("wengert-traced", "wengert", "setup_wengert_traced", {}))
    workers = harness.start_all("bench_core", specs)
    try:
        for workload, (title, pairs, goals) in WORKLOADS.items():
            result = harness.run_rounds(workers, workload, rounds)
            harness.report_rounds(title, result, pairs, goals)
    finally:
        harness.close_all(workers)


if __name__ == "__main__":
    main()
