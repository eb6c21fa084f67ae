"""Gaussian-process regression: fit an RBF kernel's lengthscale, signal and noise variance by
maximizing the log marginal likelihood, with exact gradients through Cholesky.

    python examples/gaussian_process.py

For inputs x, targets y and kernel matrix K = s^2 exp(-|x_i - x_j|^2 / (2 l^2)) + sigma^2 I,
    log p(y) = -1/2 y^T K^{-1} y - 1/2 log det K - n/2 log(2 pi)
             = -1/2 y^T alpha   - sum(log diag L)  - n/2 log(2 pi),
with L = cholesky(K) and alpha = cholesky_solve(L, y): one factorization gives both terms, and
its gradient with respect to (l, s, sigma) flows through Cholesky's and the triangular solves'
rules. The parameters are optimized as logarithms (so they stay positive) by SciPy's L-BFGS-B
through `wengert.optimize.minimize`, which asks wengert for the value and gradient together;
then the posterior mean and variance are predicted at new points.
"""
import numpy as np

import wengert as tf
import wengert.optimize


def make_data(n=40, noise=0.1, seed=0):
    """Noisy samples of sin(3x) on [-2, 2]."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-2.0, 2.0, size=n))
    return x, np.sin(3.0 * x) + noise * rng.normal(size=n)


def rbf_kernel(a, b, lengthscale, signal_variance):
    """s^2 exp(-|a_i - b_j|^2 / (2 l^2)) for 1-D inputs a [n], b [m]."""
    diff = tf.expand_dims(a, 1) - tf.expand_dims(b, 0)
    return signal_variance * tf.exp(-0.5 * tf.square(diff / lengthscale))


def log_marginal_likelihood(x, y, lengthscale, signal_variance, noise_variance):
    """log p(y | x) of a zero-mean GP with an RBF kernel, through a Cholesky factorization."""
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    n = int(x.shape[0])
    k = rbf_kernel(x, x, lengthscale, signal_variance) + noise_variance * tf.eye(n, dtype=x.dtype)
    chol = tf.linalg.cholesky(k)
    alpha = tf.linalg.cholesky_solve(chol, tf.expand_dims(y, -1))
    data_fit = -0.5 * tf.reduce_sum(tf.expand_dims(y, -1) * alpha)
    complexity = -tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)))
    return data_fit + complexity - 0.5 * n * np.log(2.0 * np.pi)


def negative_lml(log_params, x, y):
    """-log p(y) as a function of (log l, log s^2, log sigma^2)."""
    params = tf.exp(log_params)
    return -log_marginal_likelihood(x, y, params[0], params[1], params[2])


def fit(x, y, start=(0.0, 0.0, -1.0)):
    """Maximize the marginal likelihood; returns (lengthscale, signal variance, noise
    variance) and SciPy's result."""
    result = wengert.optimize.minimize(negative_lml, np.array(start), args=(x, y),
                                       method="L-BFGS-B")
    return np.exp(result.x), result


def predict(x, y, x_new, lengthscale, signal_variance, noise_variance):
    """The posterior mean and variance of f at x_new."""
    n = len(x)
    k = rbf_kernel(x, x, lengthscale, signal_variance) + noise_variance * np.eye(n)
    k_star = rbf_kernel(x, x_new, lengthscale, signal_variance)
    chol = tf.linalg.cholesky(k)
    mean = tf.linalg.matvec(k_star, tf.linalg.cholesky_solve(chol, y[:, None])[:, 0],
                            transpose_a=True)
    v = tf.linalg.triangular_solve(chol, k_star)
    variance = signal_variance - tf.reduce_sum(v * v, axis=0)
    return mean, variance


def main(verbose=True):
    x, y = make_data()
    (lengthscale, signal, noise), result = fit(x, y)
    x_new = np.linspace(-2.0, 2.0, 9)
    mean, variance = predict(x, y, x_new, lengthscale, signal, noise)
    if verbose:
        print(f"log marginal likelihood {-result.fun:.4f} after {result.nit} L-BFGS-B steps")
        print(f"lengthscale {lengthscale:.4f}, signal variance {signal:.4f}, "
              f"noise variance {noise:.5f}")
        for xi, m, v in zip(x_new, mean.numpy(), variance.numpy()):
            print(f"  f({xi:+.2f}) = {m:+.3f} +- {2 * np.sqrt(max(v, 0.0)):.3f}   "
                  f"(sin(3x) = {np.sin(3 * xi):+.3f})")
    return (lengthscale, signal, noise), result, (x_new, mean.numpy(), variance.numpy())


if __name__ == "__main__":
    main()
