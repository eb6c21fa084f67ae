"""The Gaussian-process example (examples/gaussian_process.py, issue 17): its log marginal
likelihood matches a NumPy computation, its gradient with respect to the lengthscale and the noise
variance matches finite differences, and wengert.optimize (SciPy's L-BFGS-B) finds a stationary
point that improves on the start and recovers the data's noise level."""
from pathlib import Path

import numpy as np
import pytest

import wengert as tf
from wengert import demo

pytest.importorskip("scipy")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
gp = demo.load_example("gaussian_process", EXAMPLES)


def _numpy_lml(x, y, lengthscale, signal, noise):
    k = signal * np.exp(-0.5 * (x[:, None] - x[None, :]) ** 2 / lengthscale ** 2)
    k += noise * np.eye(len(x))
    sign, logdet = np.linalg.slogdet(k)
    return -0.5 * y @ np.linalg.solve(k, y) - 0.5 * logdet - 0.5 * len(x) * np.log(2 * np.pi)


def test_log_marginal_likelihood_matches_numpy():
    x, y = gp.make_data(n=25)
    got = gp.log_marginal_likelihood(x, y, 0.7, 1.3, 0.05)
    np.testing.assert_allclose(got.numpy(), _numpy_lml(x, y, 0.7, 1.3, 0.05), rtol=1e-12)


def test_gradient_in_lengthscale_and_noise_matches_finite_differences():
    x, y = gp.make_data(n=25)
    params = [0.7, 1.3, 0.05]
    ell, noise = tf.constant(params[0], tf.float64), tf.constant(params[2], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([ell, noise])
        lml = gp.log_marginal_likelihood(x, y, ell, params[1], noise)
    d_ell, d_noise = (g.numpy() for g in tape.gradient(lml, [ell, noise]))
    eps = 1e-6
    for index, analytic in ((0, d_ell), (2, d_noise)):
        up, down = list(params), list(params)
        up[index] += eps
        down[index] -= eps
        numeric = (_numpy_lml(x, y, *up) - _numpy_lml(x, y, *down)) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6)


def test_optimization_finds_a_stationary_point():
    x, y = gp.make_data()
    start = np.array([0.0, 0.0, -1.0])
    (lengthscale, signal, noise), result = gp.fit(x, y, start)
    assert result.success
    assert -result.fun > -gp.negative_lml(tf.constant(start), x, y).numpy() + 10.0
    _, gradient = tf.optimize.value_and_gradient(gp.negative_lml, result.x, args=(x, y))
    assert np.max(np.abs(gradient)) < 1e-3
    assert 0.3 < lengthscale < 1.5 and 0.003 < noise < 0.03  # the data's noise is 0.01


def test_main_predicts_the_function():
    _, _, (x_new, mean, variance) = gp.main(verbose=False)
    np.testing.assert_allclose(mean, np.sin(3 * x_new), atol=0.2)  # 40 noisy points
    assert np.all(variance > 0) and np.all(variance < 0.02)
