"""tf.linalg beyond the op table (issue 17): errors for singular and non-positive-definite input
that name the op and the batch index, TensorFlow's conventions at repeated eigenvalues and for
full_matrices, the unsupported cases TensorFlow also refuses, conjugate gradients, the static
shapes of the solves where a graph knows only part of their inputs' shapes. (The public
namespace is checked against TensorFlow's in tests/test_linalg_tf.py.)"""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads

RNG = np.random.default_rng(3)


def spd(n, batch=()):
    a = RNG.uniform(-1, 1, size=batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def test_cholesky_names_the_matrix_that_is_not_positive_definite():
    stack = np.stack([spd(2), np.array([[1.0, 2.0], [2.0, 1.0]]), spd(2)]).reshape(3, 1, 2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cholesky: .*batch index \(1, 0\) is not positive definite"):
        tf.linalg.cholesky(stack)


@pytest.mark.parametrize("call,op_type", [
    (lambda a: tf.linalg.inv(a), "MatrixInverse"),
    (lambda a: tf.linalg.solve(a, np.ones((2, 2, 1))), "MatrixSolve"),
    (lambda a: tf.linalg.lu(a), "Lu"),
])
def test_singular_matrices_are_named_by_batch_index(call, op_type):
    stack = np.stack([np.eye(2), np.ones((2, 2))])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"{op_type}: .*batch index 1 is not invertible"):
        call(stack)


def test_triangular_solve_with_a_zero_pivot_raises():
    stack = np.stack([np.eye(2), np.zeros((2, 2))])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"MatrixTriangularSolve: .*batch index 1 is singular"):
        tf.linalg.triangular_solve(stack, np.ones((2, 2, 1)))


def test_lstsq_of_a_rank_deficient_matrix_asks_for_regularization():
    with pytest.raises(tf.errors.InvalidArgumentError, match="l2_regularizer"):
        tf.linalg.lstsq(np.ones((3, 2)), np.ones((3, 1)))
    # fast=False: the minimum-norm solution, as LAPACK's gelsd
    x = tf.linalg.lstsq(np.ones((3, 2)), np.ones((3, 1)), fast=False)
    np.testing.assert_allclose(x.numpy(), [[0.5], [0.5]])


def test_integer_input_is_refused_with_the_op_named():
    with pytest.raises(TypeError, match="Cholesky: input must be float"):
        tf.linalg.cholesky(tf.constant([[1, 0], [0, 1]]))


def test_shape_errors_name_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixSolve: .*rhs must have 3"):
        tf.linalg.solve(np.eye(3), np.ones((2, 1)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="square"):
        tf.linalg.det(np.ones((2, 3)))


def test_eigh_gradient_at_repeated_eigenvalues_is_finite_as_in_tensorflow():
    """TensorFlow broadens 1/(w_i - w_j) (x / (x^2 + 1e-20)), so equal eigenvalues give 0."""
    a = tf.constant(np.diag([1.0, 1.0, 2.0]))
    with tf.GradientTape() as tape:
        tape.watch(a)
        w, v = tf.linalg.eigh(a)
        loss = tf.reduce_sum(w) + tf.reduce_sum(v * v)
    assert np.all(np.isfinite(tape.gradient(loss, a).numpy()))


def test_logdet_gradient_is_the_inverse():
    a = spd(4)
    with tf.GradientTape() as tape:
        x = tf.constant(a)
        tape.watch(x)
        y = tf.linalg.logdet(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), np.linalg.inv(a), rtol=1e-10)


def test_slogdet_sign_has_no_gradient():
    a = tf.constant(RNG.normal(size=(3, 3)))
    with tf.GradientTape() as tape:
        tape.watch(a)
        sign, _ = tf.linalg.slogdet(a)
    grad = tape.gradient(sign, a)
    assert grad is None or not np.any(grad.numpy())


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)])
def test_svd_full_matrices_gradient_when_dimensions_differ_by_one(shape):
    check_grads(lambda a: tf.abs(tf.linalg.svd(a, full_matrices=True)[1]),
                [RNG.normal(size=shape)], order=2)
    check_grads(lambda a: tf.abs(tf.linalg.svd(a, full_matrices=True)[2]),
                [RNG.normal(size=shape)], order=1)


def test_unsupported_derivatives_raise_as_in_tensorflow():
    a = tf.constant(RNG.normal(size=(5, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        q, _ = tf.linalg.qr(a, full_matrices=True)
        _, u, _ = tf.linalg.svd(a, full_matrices=True)
    with pytest.raises(tf.errors.UnimplementedError, match="Qr: .*full_matrices"):
        tape.gradient(q, a)
    with pytest.raises(tf.errors.UnimplementedError, match="Svd: .*full_matrices"):
        tape.gradient(u, a)
    with tf.GradientTape() as tape:
        tape.watch(a)
        x = tf.linalg.lstsq(a, np.ones((5, 1)), fast=False)
    with pytest.raises(ValueError, match="fast=False"):
        tape.gradient(x, a)


def test_sqrtm_without_a_real_root_gives_nans_as_tensorflow():
    assert np.all(np.isnan(tf.linalg.sqrtm(np.diag([-1.0, 4.0])).numpy()))


def test_conjugate_gradient_solves_a_batch_and_differentiates():
    a = spd(5, (2,))
    b = RNG.normal(size=(2, 5))
    state = tf.linalg.experimental.conjugate_gradient(tf.constant(a), tf.constant(b),
                                                      tol=1e-12, max_iter=50)
    np.testing.assert_allclose(state.x.numpy(), np.linalg.solve(a, b[..., None])[..., 0],
                               rtol=1e-8)
    assert int(state.i) <= 6

    class Diagonal:                      # anything with matvec works as the operator
        def __init__(self, d):
            self.d = d

        def matvec(self, x):
            return self.d * x
    d = tf.constant([1.0, 2.0, 4.0], tf.float64)
    rhs = tf.constant([1.0, 1.0, 1.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(rhs)
        x = tf.linalg.experimental.conjugate_gradient(Diagonal(d), rhs, tol=1e-12).x
    np.testing.assert_allclose(x.numpy(), [1.0, 0.5, 0.25])
    np.testing.assert_allclose(tape.gradient(x, rhs).numpy(), [1.0, 0.5, 0.25])


def test_conjugate_gradient_inside_a_function():
    a, b = spd(4), RNG.normal(size=4)

    @tf.function
    def solve(a, b):
        return tf.linalg.experimental.conjugate_gradient(a, b, tol=1e-12, max_iter=20).x
    np.testing.assert_allclose(solve(tf.constant(a), tf.constant(b)).numpy(),
                               np.linalg.solve(a, b), rtol=1e-8)


def test_gradients_of_a_traced_function_match_eager():
    a = spd(3, (2,))

    def loss(x):
        return tf.reduce_sum(tf.linalg.logdet(x)) + tf.reduce_sum(tf.linalg.inv(x))

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return tape.gradient(y, x)
    np.testing.assert_allclose(tf.function(grad)(tf.constant(a)).numpy(),
                               grad(tf.constant(a)).numpy(), rtol=1e-12)


# -- the shape rule of the solves (linalg/common.py's solve_batch), as a graph sees it ------------
def _graph_shape(call, *shapes):
    with tf.Graph().as_default():
        shape = call(*[tf.compat.v1.placeholder(tf.float64, s) for s in shapes]).shape
        return None if shape.rank is None else shape.as_list()


@pytest.mark.parametrize("call,shapes,expected", [
    (tf.linalg.solve, ([None, 3, 3], [2, 3, 4]), [2, 3, 4]),
    (tf.linalg.solve, ([None, None], [3, 4]), [None, 4]),
    (tf.linalg.solve, ([3, None], [None, 2]), [3, 2]),
    (tf.linalg.triangular_solve, ([2, 3, 3], [1, 3, 1]), [2, 3, 1]),
    (tf.linalg.triangular_solve, (None, [3, 1]), None),
    (tf.linalg.banded_triangular_solve, ([3, 5], [2, 5, 1]), [2, 5, 1]),
    (tf.linalg.banded_triangular_solve, ([3, None], [4, 2]), [4, 2]),
    (tf.linalg.tridiagonal_solve, ([None, 3, None], [2, 4, 1]), [2, 4, 1]),
    (tf.linalg.lstsq, ([2, 5, 3], [None, 5, 2]), [2, 3, 2]),
    (tf.linalg.lstsq, ([5, None], [5, 2]), [None, 2]),
])
def test_solve_shapes_with_unknown_dimensions(call, shapes, expected):
    assert _graph_shape(call, *shapes) == expected


@pytest.mark.parametrize("call,shapes,message", [
    (tf.linalg.solve, ([2, 3, 3], [4, 3, 1]), r"must have the same batch dimensions"),
    (tf.linalg.solve, ([3, 3], [4, 1]), r"rhs must have 3 rows"),
    (tf.linalg.triangular_solve, ([2, 3, 3], [4, 3, 1]), r"cannot broadcast"),
    (tf.linalg.banded_triangular_solve, ([3, 5], [4, 1]),
     r"describe 5 x 5 matrices but rhs \(4, 1\) has 4 rows"),
    (tf.linalg.tridiagonal_solve, ([3, 5], [4, 1]), r"rhs needs 5 rows"),
    (tf.linalg.lstsq, ([5, 3], [4, 2]), r"must have the same number of rows"),
    (tf.linalg.lstsq, ([2, 5, 3], [3, 5, 2]), r"must have the same batch dimensions"),
])
def test_solve_shape_errors(call, shapes, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _graph_shape(call, *shapes)
