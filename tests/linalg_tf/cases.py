"""Cases run the same way by wengert and by TensorFlow 2.21 (tests/test_linalg_tf.py): each is a
function of the namespace (`wengert` or `tensorflow`, both called `tf`) and NumPy inputs, built
only from public tf.* calls, so one definition serves both. The test compares outputs and the
gradients of sum(real(output * seed)) with respect to every floating-point input."""
import numpy as np

_RNG = np.random.default_rng(2117)


def _spd(n, batch=()):
    a = _RNG.uniform(-1, 1, size=batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _well(n, batch=()):
    return _RNG.uniform(-1, 1, size=batch + (n, n)) + 3 * np.eye(n)


def _r(*shape):
    return _RNG.uniform(-1, 1, size=shape)


def _tri(*shape):
    d = _r(*shape)
    d[..., 1, :] += 4.0
    return d


# Cases compared forward only: Lu has no gradient in TensorFlow (LookupError in both);
# TensorFlow's eigh_tridiagonal finds eigenvalues by bisection and its "gradient" differentiates
# the bisection steps (not d lambda_k / d alpha_i = v_ik^2); wengert's goes through eigh and is
# checked against finite differences in the op table.
FORWARD_ONLY = {"lu", "eigh_tridiagonal"}

# name -> (function(tf, *tensors), inputs); the function returns a tensor or a tuple of them.
CASES = {
    # TensorFlow's conventions: cholesky's gradient is symmetric, eigh's lower-triangular
    "cholesky": (lambda tf, a: tf.linalg.cholesky(a), [_spd(3, (2,))]),
    "eigh_values": (lambda tf, a: tf.linalg.eigh(a)[0], [_r(2, 4, 4)]),
    "eigh_vectors_gauge_free": (
        lambda tf, a: tf.abs(tf.linalg.eigh(a)[1]), [_spd(4)]),
    "eigvalsh": (lambda tf, a: tf.linalg.eigvalsh(a), [_r(3, 3)]),
    "svd_values": (lambda tf, a: tf.linalg.svd(a, compute_uv=False), [_r(2, 4, 3)]),
    "svd_gauge_free": (lambda tf, a: tf.abs(tf.linalg.svd(a)[1]) + 0 * tf.reduce_sum(
        tf.linalg.svd(a)[0]), [_r(3, 5)]),
    "svd_full": (lambda tf, a: tf.abs(tf.linalg.svd(a, full_matrices=True)[2]), [_r(2, 3)]),
    "qr": (lambda tf, a: tf.linalg.qr(a), [_r(2, 5, 3)]),
    "qr_wide": (lambda tf, a: tf.linalg.qr(a), [_r(3, 5)]),
    "det": (lambda tf, a: tf.linalg.det(a), [_well(3, (2,))]),
    "slogdet": (lambda tf, a: tf.linalg.slogdet(a), [_r(2, 3, 3)]),
    "logdet": (lambda tf, a: tf.linalg.logdet(a), [_spd(4)]),
    "inv": (lambda tf, a: tf.linalg.inv(a, adjoint=True), [_well(3)]),
    "solve": (lambda tf, a, b: tf.linalg.solve(a, b), [_well(3, (2,)), _r(2, 3, 2)]),
    "triangular_solve": (lambda tf, a, b: tf.linalg.triangular_solve(a, b, lower=False,
                                                                      adjoint=True),
                         [_well(3), _r(2, 3, 2)]),
    "banded_triangular_solve": (
        lambda tf, a, b: tf.linalg.banded_triangular_solve(a, b, lower=True),
        [np.concatenate([3 + _r(1, 4), _r(2, 4)]), _r(4, 2)]),
    "tridiagonal_solve": (lambda tf, d, b: tf.linalg.tridiagonal_solve(d, b),
                          [_tri(2, 3, 5), _r(2, 5, 2)]),
    "tridiagonal_matmul": (lambda tf, d, b: tf.linalg.tridiagonal_matmul(d, b),
                           [_r(3, 5), _r(5, 2)]),
    "lstsq": (lambda tf, a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.1), [_r(5, 3), _r(5, 2)]),
    "lstsq_under": (lambda tf, a, b: tf.linalg.lstsq(a, b), [_r(2, 4), _r(2, 1)]),
    "expm": (lambda tf, a: tf.linalg.expm(a), [_r(3, 3)]),
    "sqrtm": (lambda tf, a: tf.linalg.sqrtm(a), [_spd(3)]),
    "pinv": (lambda tf, a: tf.linalg.pinv(a), [_r(4, 3)]),
    "matrix_rank": (lambda tf, a: tf.linalg.matrix_rank(a), [np.outer(_r(3), _r(4))]),
    "lu": (lambda tf, a: tf.linalg.lu(a), [_r(2, 4, 4)]),
    "lu_solve": (lambda tf, lu, p, b: tf.linalg.lu_solve(lu, p, b),
                 [np.tril(_r(3, 3), -1) + np.triu(_well(3)), np.array([1, 2, 0], np.int32),
                  _r(3, 2)]),
    "lu_reconstruct": (lambda tf, lu, p: tf.linalg.lu_reconstruct(lu, p),
                       [_r(2, 3, 3), np.array([[2, 0, 1], [0, 2, 1]], np.int32)]),
    "diag_v3": (lambda tf, d: tf.linalg.diag(d, k=(-1, 1), num_rows=4, padding_value=2.0,
                                             align="LEFT_RIGHT"), [_r(2, 3, 3)]),
    "diag_part_v3": (lambda tf, x: tf.linalg.diag_part(x, k=(-2, 1), padding_value=-1.0),
                     [_r(2, 3, 4)]),
    "set_diag_v3": (lambda tf, x, d: tf.linalg.set_diag(x, d, k=(1, 2), align="RIGHT_RIGHT"),
                    [_r(4, 5), _r(2, 4)]),
    "band_part": (lambda tf, x: tf.linalg.band_part(x, 1, 0), [_r(3, 4)]),
    "cross": (lambda tf, a, b: tf.linalg.cross(a, b), [_r(2, 3), _r(2, 3)]),
    "tensor_diag_part": (lambda tf, x: tf.linalg.tensor_diag_part(x), [_r(2, 3, 2, 3)]),
    "einsum_trace": (lambda tf, x: tf.einsum("ii->", x), [_r(3, 3)]),
    "einsum_diag": (lambda tf, x, y: tf.einsum("ii,ij->j", x, y), [_r(3, 3), _r(3, 2)]),
    "norm_spectral": (lambda tf, x: tf.norm(x, ord=2, axis=[-2, -1]), [_r(2, 3, 4)]),
    "normalize": (lambda tf, x: tf.linalg.normalize(x, ord=1, axis=1), [_r(3, 4)]),
    "eigh_tridiagonal": (lambda tf, a, b: tf.linalg.eigh_tridiagonal(a, b), [_r(4), _r(3)]),
    "global_norm": (lambda tf, a, b: tf.linalg.global_norm([a, b]), [_r(3), _r(2, 2)]),
}
