"""keras.ops.linalg (wengert/keras/ops/linalg.py) against Keras 3 on TensorFlow 2.21 (values and
gradients) and, without TensorFlow, against NumPy and finite differences."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.keras.ops import linalg as L
from wengert.testing import check_grads

RNG = np.random.default_rng(16)


def r(*shape):
    return RNG.standard_normal(shape)


def spd(n, batch=()):
    a = r(*batch, n, n)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


LOWER = np.tril(r(4, 4)) + 4 * np.eye(4)
CASES = [
    TFCase("cholesky", "keras.ops.linalg.cholesky(x0)", L.cholesky, [spd(4, (2,))], wrt=[0]),
    TFCase("cholesky_upper", "keras.ops.linalg.cholesky(x0, upper=True)",
           lambda x: L.cholesky(x, upper=True), [spd(3)], wrt=[0]),
    TFCase("cholesky_inverse", "keras.ops.linalg.cholesky_inverse(x0)", L.cholesky_inverse,
           [LOWER], wrt=[0]),
    TFCase("cholesky_inverse_upper", "keras.ops.linalg.cholesky_inverse(x0, upper=True)",
           lambda x: L.cholesky_inverse(x, upper=True), [LOWER.T.copy()], wrt=[0]),
    TFCase("det", "keras.ops.linalg.det(x0)", L.det, [r(2, 3, 3)], wrt=[0]),
    TFCase("eig_values", "tf.sort(tf.math.real(keras.ops.linalg.eig(x0)[0]))",
           lambda x: tf.sort(tf.math.real(L.eig(x)[0])), [spd(3)]),
    TFCase("eigh", "keras.ops.linalg.eigh(x0)[0]", lambda x: L.eigh(x)[0], [spd(4)], wrt=[0]),
    TFCase("eigh_vectors_abs", "tf.abs(keras.ops.linalg.eigh(x0)[1])",
           lambda x: tf.abs(L.eigh(x)[1]), [spd(3)], wrt=[0]),
    TFCase("inv", "keras.ops.linalg.inv(x0)", L.inv, [spd(3, (2,))], wrt=[0]),
    TFCase("lu_factor", "keras.ops.linalg.lu_factor(x0)", L.lu_factor, [r(4, 4)]),
    TFCase("norm", "keras.ops.linalg.norm(x0)", L.norm, [r(3, 4)], wrt=[0]),
    TFCase("norm_int", "keras.ops.linalg.norm(x0, axis=1)", lambda x: L.norm(x, axis=1),
           [np.arange(12).reshape(3, 4)]),
    TFCase("norm_vec_ord3", "keras.ops.linalg.norm(x0, ord=3, axis=0, keepdims=True)",
           lambda x: L.norm(x, ord=3, axis=0, keepdims=True), [r(3, 4)], wrt=[0]),
    TFCase("norm_vec_inf", "keras.ops.linalg.norm(x0, ord=float('inf'), axis=-1)",
           lambda x: L.norm(x, ord=float("inf"), axis=-1), [r(3, 4)], wrt=[0]),
    TFCase("norm_vec_0", "keras.ops.linalg.norm(x0, ord=0, axis=-1)",
           lambda x: L.norm(x, ord=0, axis=-1), [np.round(r(3, 4))]),
    TFCase("norm_fro", "keras.ops.linalg.norm(x0, ord='fro', axis=(1, 2))",
           lambda x: L.norm(x, ord="fro", axis=(1, 2)), [r(2, 3, 4)], wrt=[0]),
    TFCase("norm_mat_1", "keras.ops.linalg.norm(x0, ord=1, axis=(0, 1))",
           lambda x: L.norm(x, ord=1, axis=(0, 1)), [r(3, 4)], wrt=[0]),
    TFCase("norm_mat_ninf_keep", "keras.ops.linalg.norm(x0, ord=-float('inf'), axis=(2, 1), "
           "keepdims=True)", lambda x: L.norm(x, ord=-float("inf"), axis=(2, 1), keepdims=True),
           [r(2, 3, 4)], wrt=[0]),
    TFCase("norm_nuc", "keras.ops.linalg.norm(x0, ord='nuc', axis=(0, 1))",
           lambda x: L.norm(x, ord="nuc", axis=(0, 1)), [r(4, 3)], wrt=[0]),
    TFCase("norm_2_keep", "keras.ops.linalg.norm(x0, ord=2, axis=(1, 2), keepdims=True)",
           lambda x: L.norm(x, ord=2, axis=(1, 2), keepdims=True), [r(2, 4, 3)], wrt=[0]),
    TFCase("qr", "keras.ops.linalg.qr(x0)", L.qr, [r(5, 3)], wrt=[0]),
    TFCase("qr_complete", "keras.ops.linalg.qr(x0, mode='complete')",
           lambda x: L.qr(x, mode="complete"), [r(4, 3)]),
    TFCase("solve", "keras.ops.linalg.solve(x0, x1)", L.solve, [spd(3), r(3, 2)], wrt=[0, 1]),
    TFCase("solve_vector", "keras.ops.linalg.solve(x0, x1)", L.solve, [spd(3, (2,)), r(2, 3)],
           wrt=[0, 1]),
    TFCase("solve_triangular", "keras.ops.linalg.solve_triangular(x0, x1, lower=True)",
           lambda a, b: L.solve_triangular(a, b, lower=True), [LOWER, r(4, 2)], wrt=[0, 1]),
    TFCase("solve_triangular_upper_vec", "keras.ops.linalg.solve_triangular(x0, x1)",
           L.solve_triangular, [LOWER.T.copy(), r(4)], wrt=[0, 1]),
    TFCase("svd_values", "keras.ops.linalg.svd(x0, compute_uv=False)",
           lambda x: L.svd(x, compute_uv=False), [r(4, 3)], wrt=[0]),
    TFCase("svd_abs", "[tf.abs(t) for t in keras.ops.linalg.svd(x0, full_matrices=False)]",
           lambda x: [tf.abs(t) for t in L.svd(x, full_matrices=False)], [r(4, 3)]),
    TFCase("svd_full_shapes", "[tf.shape(t) for t in keras.ops.linalg.svd(x0)]",
           lambda x: [tf.shape(t) for t in L.svd(x)], [r(4, 3)]),
    TFCase("lstsq", "keras.ops.linalg.lstsq(x0, x1)", L.lstsq, [r(5, 3), r(5, 2)], wrt=[0, 1]),
    TFCase("lstsq_vector_rcond", "keras.ops.linalg.lstsq(x0, x1, rcond=1e-3)",
           lambda a, b: L.lstsq(a, b, rcond=1e-3), [r(3, 4), r(3)], wrt=[0, 1]),
    TFCase("matrix_rank", "keras.ops.linalg.matrix_rank(x0)", L.matrix_rank,
           [np.outer(r(4), r(4)) + np.outer(r(4), r(4))]),
    TFCase("pinv", "keras.ops.linalg.pinv(x0)", L.pinv, [r(4, 3)], wrt=[0]),
    TFCase("jvp", "keras.ops.linalg.jvp(lambda a: tf.sin(a) * a, (x0,), (x1,))",
           lambda p, t: L.jvp(lambda a: tf.sin(a) * a, (p,), (t,)), [r(3), r(3)], wrt=[0, 1]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_against_keras(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-6, atol=1e-8)


def test_values_against_numpy():
    a, b = r(4, 3), r(4, 2)
    np.testing.assert_allclose(L.lstsq(a, b), np.linalg.lstsq(a, b, rcond=None)[0])
    u, s, vh = (np.asarray(t) for t in L.svd(a))
    np.testing.assert_allclose(u[:, :3] * s @ vh, a, atol=1e-12)
    lu, p = (np.asarray(t) for t in L.lu_factor(a[:3]))
    lower = np.tril(lu, -1) + np.eye(3)
    np.testing.assert_allclose((lower @ np.triu(lu))[p], a[:3], atol=1e-12)
    for order in (None, 1, 3, np.inf):
        np.testing.assert_allclose(L.norm(a, ord=order, axis=0),
                                   np.linalg.norm(a, ord=order, axis=0))
    for order in ("fro", "nuc", 1, -1, 2, -2, np.inf):
        np.testing.assert_allclose(L.norm(a, ord=order), np.linalg.norm(a, ord=order))
    c = np.linalg.cholesky(spd(3))
    np.testing.assert_allclose(L.cholesky_inverse(c), np.linalg.inv(c @ c.T))
    with pytest.raises(ValueError, match="mode"):
        L.qr(a, mode="r")


@pytest.mark.parametrize("fn, args", [
    (L.cholesky_inverse, [LOWER]),
    (lambda x: L.norm(x, ord="nuc"), [r(3, 3)]),
    (lambda x: L.norm(x, ord=3, axis=1), [r(2, 3)]),
    (L.lstsq, [r(4, 2), r(4)]),
    (lambda x: L.svd(x, compute_uv=False), [r(3, 2)]),
    (lambda a, b: L.solve(a, b), [spd(3), r(3)]),
], ids=["cholesky_inverse", "nuc", "p3", "lstsq", "svd", "solve"])
def test_gradients_by_finite_differences(fn, args):
    check_grads(fn, args, order=1)
