"""Memory saved by `recompute_grad`: peak traced memory of a forward and backward pass.

A 32-layer tanh network in 8 segments of 4 layers, batch 256, width 512, float64 (1 MiB per
activation). Without recompute_grad the tape keeps every layer's activations until the reverse
pass; with each segment wrapped in recompute_grad it keeps only the segment boundaries, and the
reverse pass recomputes one segment at a time. Peak memory is measured with tracemalloc (NumPy
reports its allocations to it); gradients are checked to be identical, and times are printed.
Run: python bench/bench_recompute_grad.py
"""
import time
import tracemalloc

import numpy as np

import wengert as tf
from wengert.autodiff.custom import recompute_grad

SEGMENTS, LAYERS, BATCH, WIDTH = 8, 4, 256, 512


def make_weights(rng):
    return [tf.Variable(rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH))
            for _ in range(SEGMENTS * LAYERS)]


def segment(weights):
    def run(h):
        for w in weights:
            h = tf.tanh(tf.matmul(h, w))
        return h
    return run


def loss_and_grads(x, weights, recompute):
    blocks = [segment(weights[k * LAYERS:(k + 1) * LAYERS]) for k in range(SEGMENTS)]
    if recompute:
        blocks = [recompute_grad(b) for b in blocks]
    with tf.GradientTape() as tape:
        h = x
        for block in blocks:
            h = block(h)
        loss = tf.reduce_mean(tf.square(h))
    return loss, tape.gradient(loss, weights)


def measure(x, weights, recompute):
    tracemalloc.start()
    start = time.perf_counter()
    loss, grads = loss_and_grads(x, weights, recompute)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return loss, [g.numpy() for g in grads], peak, seconds


def main():
    rng = np.random.default_rng(0)
    weights = make_weights(rng)
    x = tf.constant(rng.standard_normal((BATCH, WIDTH)))
    loss_a, grads_a, peak_a, time_a = measure(x, weights, recompute=False)
    loss_b, grads_b, peak_b, time_b = measure(x, weights, recompute=True)
    assert float(loss_a) == float(loss_b)
    for a, b in zip(grads_a, grads_b):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
    mib = 1 << 20
    grad_bytes = sum(g.nbytes for g in grads_a)  # held by both runs: the result itself
    print(f"{SEGMENTS * LAYERS} tanh layers in {SEGMENTS} segments, batch {BATCH}, width "
          f"{WIDTH}, float64 (activation = {BATCH * WIDTH * 8 / mib:.0f} MiB)")
    for label, peak, seconds in (("plain tape", peak_a, time_a),
                                 ("recompute_grad", peak_b, time_b)):
        print(f"  {label:15s} peak {peak / mib:7.1f} MiB (beyond the {grad_bytes / mib:.0f} MiB "
              f"of gradients: {(peak - grad_bytes) / mib:6.1f} MiB)   {seconds * 1e3:7.1f} ms")
    saved = 1 - (peak_b - grad_bytes) / (peak_a - grad_bytes)
    print(f"  memory saved: {(peak_a - peak_b) / mib:.1f} MiB, {saved:.0%} of the working "
          f"memory; time x{time_b / time_a:.2f}; gradients identical")


if __name__ == "__main__":
    main()
