"""Hessian-vector product of the Rosenbrock function in 100,000 dimensions, side by side.

    f(x) = sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2

- wengert, forward over reverse: a ForwardAccumulator around a GradientTape; the tangent of the
  gradient is H v. Three ways: eagerly; the same Python function under `tf.function` (the
  accumulator and the tape trace into one graph of primal, gradient and tangent ops, which the
  executor prunes, folds and runs with buffers reused in place); and `wengert.func.hvp`, the
  same computation through the transforms, eagerly;
- NumPy, by hand: H is tridiagonal, diag_i = 1200 x_i^2 - 400 x_{i+1} + 2 (+ 200 for i > 0) and
  H[i, i+1] = H[i+1, i] = -400 x_i, so H v costs a few vector operations;
- PyTorch, `torch.func.jvp(torch.func.grad(f), (x,), (v,))` (skipped if torch is missing).

All in float64; results are checked against each other before timing. Prints the median time of
each and the ratios. Run: python bench/bench_hvp.py [n] [repeats] [--default-malloc]

Memory note: every fresh 800 KB array costs page faults, and glibc hands large freed blocks back
to the system, so each call faults its arrays in again; where page faults are slow (some
sandboxes: ~1 ms per array) that dominates all three contenders. The script therefore asks glibc
(mallopt, when available) to keep freed memory for reuse, for all contenders alike, as a long
running process would; --default-malloc skips that.
"""
import sys
import time

import numpy as np

import wengert as tf
from wengert import func
from wengert.autodiff.forward import ForwardAccumulator


def rosenbrock(x):
    head, tail = x[:-1], x[1:]
    return tf.reduce_sum(100.0 * tf.square(tail - tf.square(head)) + tf.square(1.0 - head))


def hvp_wengert(x, v):
    with ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = rosenbrock(x)
        g = tape.gradient(y, x)
    return acc.jvp(g)


hvp_traced = tf.function(hvp_wengert)


def hvp_func(x, v):
    return func.hvp(rosenbrock, x, v)


def hvp_numpy(x, v):
    head, tail = x[:-1], x[1:]
    diag = np.zeros_like(x)
    diag[:-1] = 1200.0 * head * head - 400.0 * tail + 2.0
    diag[1:] += 200.0
    off = -400.0 * head
    out = diag * v
    out[:-1] += off * v[1:]
    out[1:] += off * v[:-1]
    return out


def torch_hvp():
    try:
        import torch
        from torch.func import grad, jvp
    except ImportError:
        return None

    def f(x):
        head, tail = x[:-1], x[1:]
        return torch.sum(100.0 * (tail - head ** 2) ** 2 + (1.0 - head) ** 2)
    torch.set_num_threads(1)
    return lambda x, v: jvp(grad(f), (x,), (v,))[1]


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main(n=100_000, repeats=50):
    rng = np.random.default_rng(0)
    x_np, v_np = rng.uniform(-2, 2, n), rng.standard_normal(n)
    x, v = tf.constant(x_np), tf.constant(v_np)
    want = hvp_numpy(x_np, v_np)
    np.testing.assert_allclose(hvp_wengert(x, v).numpy(), want, rtol=1e-10, atol=1e-8)
    np.testing.assert_allclose(hvp_func(x, v).numpy(), want, rtol=1e-10, atol=1e-8)
    np.testing.assert_allclose(hvp_traced(x, v).numpy(), want, rtol=1e-10, atol=1e-8)
    results = {
        "numpy (by hand)": median_time(lambda: hvp_numpy(x_np, v_np), repeats),
        "wengert fwd-over-rev": median_time(lambda: hvp_wengert(x, v), repeats),
        "wengert tf.function": median_time(lambda: hvp_traced(x, v), repeats),
        "wengert func.hvp": median_time(lambda: hvp_func(x, v), repeats),
    }
    torch_fn = torch_hvp()
    if torch_fn is not None:
        import torch
        xt, vt = torch.from_numpy(x_np), torch.from_numpy(v_np)
        np.testing.assert_allclose(torch_fn(xt, vt).numpy(), want, rtol=1e-10, atol=1e-8)
        results["torch.func jvp(grad)"] = median_time(lambda: torch_fn(xt, vt), repeats)
    print(f"Hessian-vector product, Rosenbrock, n = {n:,}, float64, median of {repeats}")
    for name, seconds in results.items():
        print(f"  {name:24s} {seconds * 1e3:8.3f} ms")
    for name in ("wengert fwd-over-rev", "wengert tf.function"):
        ours = results[name]
        print(f"  {name} / numpy: {ours / results['numpy (by hand)']:.2f}x  (target <= 3x)")
        if "torch.func jvp(grad)" in results:
            print(f"  {name} / torch: {ours / results['torch.func jvp(grad)']:.2f}x  "
                  "(target < 1x)")
    return results


def keep_freed_memory():
    """glibc: serve large arrays from the heap and never trim it (mallopt), so freed arrays are
    reused instead of being faulted in again. Returns whether it applied."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(libc.mallopt(m_mmap_threshold, 64 << 20)) and bool(
        libc.mallopt(m_trim_threshold, 1 << 30))


if __name__ == "__main__":
    if "--default-malloc" not in sys.argv:
        print("glibc keeps freed memory for reuse:", keep_freed_memory())
    main(*(int(a) for a in sys.argv[1:] if a.isdigit()))
