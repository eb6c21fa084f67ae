"""Op-table rows for the linear algebra op families (issue 17): solves and inverses
(ops/linalg/solves.py), decompositions (decompositions.py), matrix functions
(matrix_functions.py), least squares (least_squares.py), tridiagonal systems and the
compositions of composite.py.

Inputs are well conditioned: symmetric positive definite matrices with a comfortable smallest
eigenvalue, triangles with a dominant diagonal, spectra with distinct values. Where TensorFlow's
gradient differentiates a symmetrized function (cholesky: A -> chol((A + A^T)/2)), the row
symmetrizes its input first so finite differences see the same function. Eigenvectors and
singular vectors are defined up to sign: rows normalize them (first row positive) in both the
function and the reference, so float32 and float64 agree.
"""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

_RNG = np.random.default_rng(17)


def spd(*shape):
    a = _RNG.uniform(-1, 1, size=shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def lower(*shape):
    a = np.tril(_RNG.uniform(-1, 1, size=shape))
    n = shape[-1]
    return a + np.eye(n) * (2.0 + _RNG.uniform(0, 1, size=shape[:-1])[..., None, :])


def well(*shape):
    """A well-conditioned square matrix: a random one plus a multiple of the identity."""
    return _RNG.uniform(-1, 1, size=shape) + 3.0 * np.eye(shape[-1])


def _sym(a):
    return 0.5 * (a + tf.linalg.matrix_transpose(a))


def _np_sym(a):
    return 0.5 * (a + np.swapaxes(a, -1, -2))


def _signs_tf(v):
    return v * tf.sign(v[..., :1, :])


def _signs_np(v):
    return v * np.sign(v[..., :1, :])


def _eigh(a):
    w, v = tf.linalg.eigh(a)
    return w, _signs_tf(v)


def _eigh_ref(a):
    w, v = np.linalg.eigh(a)
    return w, _signs_np(v)


def _svd(a, full_matrices=False):
    s, u, v = tf.linalg.svd(a, full_matrices=full_matrices)
    flip = tf.sign(u[..., :1, :])
    return s, u * flip, v * flip


def _svd_ref(a, full_matrices=False):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    flip = np.sign(u[..., :1, :])
    return s, u * flip, np.swapaxes(vh, -1, -2) * flip


def _t(x, flag):
    return np.swapaxes(x, -1, -2) if flag else x


def _solve_tri_ref(matrix, rhs, lower=True, adjoint=False):
    tri = np.tril(matrix) if lower else np.triu(matrix)
    return np.linalg.solve(_t(np.broadcast_to(tri, rhs.shape[:-2] + tri.shape[-2:]), adjoint),
                           rhs)


def _bands_dense(bands, lower=True):
    k, n = bands.shape[-2:]
    out = np.zeros(bands.shape[:-2] + (n, n))
    for row in range(k):
        d = -row if lower else k - 1 - row
        length = n - abs(d)
        for t in range(length):
            i, j = (t - d, t) if d < 0 else (t, t + d)
            # LEFT_RIGHT: superdiagonals packed left, subdiagonals right
            col = t if d >= 0 else t + (n - length)
            out[..., i, j] = bands[..., row, col]
    return out


def _banded_ref(bands, rhs, lower=True, adjoint=False):
    return np.linalg.solve(_t(_bands_dense(bands, lower), adjoint), rhs)


def _tridiagonal_dense(d):
    m = d.shape[-1]
    out = np.zeros(d.shape[:-2] + (m, m))
    for i in range(m):
        out[..., i, i] = d[..., 1, i]
        if i + 1 < m:
            out[..., i, i + 1] = d[..., 0, i]
        if i > 0:
            out[..., i, i - 1] = d[..., 2, i]
    return out


def _tridiagonal_bands(*shape):
    d = _RNG.uniform(-1, 1, size=shape + (3,) + (5,))
    d[..., 1, :] += 4.0
    return d


def _lstsq_ref(a, b, l2_regularizer=0.0, fast=True):
    ah = np.swapaxes(a, -1, -2)
    if a.shape[-2] >= a.shape[-1]:
        return np.linalg.solve(ah @ a + l2_regularizer * np.eye(a.shape[-1]), ah @ b)
    return ah @ np.linalg.solve(a @ ah + l2_regularizer * np.eye(a.shape[-2]), b)


def _expm_ref(a):
    from scipy.linalg import expm
    return np.stack([expm(m) for m in a.reshape((-1,) + a.shape[-2:])]).reshape(a.shape)


def _sqrtm_ref(a):
    w, v = np.linalg.eigh(a)  # the inputs are SPD
    return (v * np.sqrt(w)[..., None, :]) @ np.swapaxes(v, -1, -2)


_PERM = np.array([2, 0, 1], np.int32)


def _lu_ref(a):
    from scipy.linalg import lu_factor
    packed, piv = lu_factor(a)
    perm = np.arange(a.shape[-1])
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    return packed, perm.astype(np.int32)


def _unit_lower_upper(lu):
    return np.tril(lu, -1) + np.eye(lu.shape[-1]), np.triu(lu)


def _lu_solve_ref(lu, perm, rhs):
    low, up = _unit_lower_upper(lu)
    return np.linalg.solve(low @ up, rhs[..., perm, :])


def _lu_reconstruct_ref(lu, perm):
    low, up = _unit_lower_upper(lu)
    return (low @ up)[..., np.argsort(perm), :]


def _eigh_tri_ref(alpha, beta, **_):
    return np.linalg.eigvalsh(np.diag(alpha) + np.diag(beta, -1) + np.diag(beta, 1))


ROWS = [
    # -- solves and inverses ---------------------------------------------------------------------
    OpInfo("linalg.inv", tf.linalg.inv,
           lambda a, adjoint=False: np.linalg.inv(_t(a, adjoint)),
           [Sample((well(3, 3),)), Sample((well(2, 3, 3),), {"adjoint": True}, name="adjoint")]),
    OpInfo("linalg.solve", tf.linalg.solve,
           lambda a, b, adjoint=False: np.linalg.solve(_t(a, adjoint), b),
           [Sample((well(3, 3), rand(3, 2))),
            Sample((well(2, 3, 3), rand(2, 3, 1)), {"adjoint": True}, name="adjoint-batch")]),
    OpInfo("linalg.triangular_solve", tf.linalg.triangular_solve, _solve_tri_ref, [
        Sample((lower(3, 3), rand(3, 2)), name="lower"),
        Sample((np.swapaxes(lower(2, 3, 3), -1, -2), rand(2, 3, 2)), {"lower": False},
               name="upper-batch"),
        Sample((lower(3, 3), rand(2, 3, 1)), {"adjoint": True}, name="adjoint-broadcast")]),
    OpInfo("linalg.banded_triangular_solve", tf.linalg.banded_triangular_solve, _banded_ref, [
        Sample((np.concatenate([2.5 + rand(2, 1, 4, low=0, high=1), rand(2, 1, 4)], axis=1),
                rand(4, 2)), name="lower-broadcast"),
        Sample((np.concatenate([rand(2, 1, 4), rand(2, 1, 4), 2.5 + rand(2, 1, 4, low=0,
                                                                         high=1)], axis=1),
                rand(2, 4, 1)), {"lower": False, "adjoint": True}, name="upper-adjoint")]),
    OpInfo("linalg.cholesky_solve", tf.linalg.cholesky_solve,
           lambda c, b: np.linalg.solve(np.tril(c) @ np.swapaxes(np.tril(c), -1, -2), b),
           [Sample((lower(3, 3), rand(3, 2))), Sample((lower(2, 3, 3), rand(2, 3, 1)),
                                                       name="batch")]),
    OpInfo("linalg.tridiagonal_solve", tf.linalg.tridiagonal_solve,
           lambda d, b: np.linalg.solve(_tridiagonal_dense(d), b),
           [Sample((_tridiagonal_bands(), rand(5, 2))),
            Sample((_tridiagonal_bands(2), rand(2, 5, 1)), name="batch")]),
    OpInfo("linalg.tridiagonal_matmul", tf.linalg.tridiagonal_matmul,
           lambda d, b: _tridiagonal_dense(d) @ b,
           [Sample((rand(3, 5), rand(5, 2))), Sample((rand(2, 3, 5), rand(2, 5, 3)),
                                                      name="batch")]),
    # -- decompositions --------------------------------------------------------------------------
    OpInfo("linalg.cholesky", lambda a: tf.linalg.cholesky(_sym(a)),
           lambda a: np.linalg.cholesky(_np_sym(a)),
           [Sample((spd(3, 3),)), Sample((spd(2, 4, 4),), name="batch")],
           notes="symmetrized input: TensorFlow's gradient is symmetric"),
    OpInfo("linalg.eigh", _eigh, _eigh_ref,
           [Sample((rand(3, 3),), name="lower-triangle-read"), Sample((spd(2, 4, 4),),
                                                                      name="batch")]),
    OpInfo("linalg.eigvalsh", tf.linalg.eigvalsh, np.linalg.eigvalsh,
           [Sample((rand(3, 3),)), Sample((spd(2, 4, 4),), name="batch")]),
    OpInfo("linalg.svd", _svd, _svd_ref, [
        Sample((rand(2, 3, 3),), name="square"),
        Sample((rand(2, 4, 3),), name="tall"),
        Sample((rand(1, 3, 5),), name="wide"),
        Sample((rand(2, 3, 3),), {"full_matrices": True}, name="full-square")], rtol=1e-4),
    OpInfo("linalg.svd_values", lambda a: tf.linalg.svd(a, compute_uv=False),
           lambda a: np.linalg.svd(a, compute_uv=False),
           [Sample((rand(2, 4, 3),), name="tall"), Sample((rand(2, 2, 3),), name="wide")]),
    OpInfo("linalg.qr", tf.linalg.qr, lambda a, full_matrices=False: np.linalg.qr(
        a, mode="complete" if full_matrices else "reduced"), [
        Sample((rand(2, 3, 3),), name="square"),
        Sample((rand(2, 5, 3),), name="deep"),
        Sample((rand(2, 3, 5),), name="wide"),
        Sample((rand(1, 3, 4),), {"full_matrices": True}, name="wide-full")], rtol=1e-4),
    OpInfo("linalg.lu", tf.linalg.lu, _lu_ref, [Sample((well(3, 3),))], grad=False,
           notes="Lu has no gradient in TensorFlow"),
    OpInfo("linalg.lu_solve", lambda lu, b: tf.linalg.lu_solve(lu, _PERM, b),
           lambda lu, b: _lu_solve_ref(lu, _PERM, b),
           [Sample((np.tril(rand(3, 3), -1) + np.triu(well(3, 3)), rand(3, 2)))]),
    OpInfo("linalg.lu_reconstruct", lambda lu: tf.linalg.lu_reconstruct(lu, _PERM),
           lambda lu: _lu_reconstruct_ref(lu, _PERM), [Sample((rand(3, 3),))]),
    OpInfo("linalg.lu_matrix_inverse", lambda lu: tf.linalg.lu_matrix_inverse(lu, _PERM),
           lambda lu: _lu_solve_ref(lu, _PERM, np.eye(3)),
           [Sample((np.tril(rand(3, 3), -1) + np.triu(well(3, 3)),))]),
    OpInfo("linalg.eigh_tridiagonal", tf.linalg.eigh_tridiagonal, _eigh_tri_ref,
           [Sample((rand(4), rand(3)))]),
    # -- determinants and matrix functions -------------------------------------------------------
    OpInfo("linalg.det", tf.linalg.det, np.linalg.det,
           [Sample((well(3, 3),)), Sample((rand(2, 3, 3),), name="batch")]),
    OpInfo("linalg.slogdet", tf.linalg.slogdet, lambda a: tuple(np.linalg.slogdet(a)),
           [Sample((well(3, 3),)), Sample((rand(2, 3, 3),), name="batch-signs")]),
    OpInfo("linalg.logdet", lambda a: tf.linalg.logdet(_sym(a)),
           lambda a: np.linalg.slogdet(_np_sym(a))[1],
           [Sample((spd(3, 3),)), Sample((spd(2, 4, 4),), name="batch")]),
    OpInfo("linalg.expm", tf.linalg.expm, _expm_ref,
           [Sample((rand(3, 3, low=-1, high=1),)), Sample((rand(2, 2, 2, low=-1, high=1),),
                                                          name="batch")]),
    OpInfo("linalg.sqrtm", tf.linalg.sqrtm, _sqrtm_ref,
           [Sample((spd(3, 3),)), Sample((spd(2, 2, 2),), name="batch")], fwd_rtol=1e-6),
    # -- least squares -----------------------------------------------------------------------
    OpInfo("linalg.lstsq", tf.linalg.lstsq, _lstsq_ref, [
        Sample((rand(1, 5, 3), rand(1, 5, 2)), name="overdetermined"),
        Sample((rand(2, 2, 4), rand(2, 2, 1)), name="underdetermined"),
        Sample((rand(2, 4, 3), rand(2, 4, 2)), {"l2_regularizer": 0.5}, name="regularized")],
           notes="batched samples: the gradient needs the matrix dimensions when built (a "
                 "graph's unknown leading dimension is a batch dimension here)"),
    OpInfo("linalg.pinv", tf.linalg.pinv, np.linalg.pinv,
           [Sample((rand(2, 4, 3),), name="tall"), Sample((rand(1, 3, 5),), name="wide")]),
    OpInfo("linalg.matrix_rank", tf.linalg.matrix_rank, np.linalg.matrix_rank,
           [Sample((rand(4, 3),)), Sample((np.outer(rand(3), rand(4)),), name="rank-1")],
           grad=False),
    OpInfo("linalg.normalize", tf.linalg.normalize,
           lambda x, ord="euclidean", axis=None: (
               x / np.linalg.norm(x, axis=axis, keepdims=True) if ord == "euclidean" else
               x / np.abs(x).sum(axis=axis, keepdims=True),
               np.linalg.norm(x, axis=axis, keepdims=True) if ord == "euclidean" else
               np.abs(x).sum(axis=axis, keepdims=True)),
           [Sample((rand(3, 4),), {"axis": 1}), Sample((rand(3, 4) + 3,), {"ord": 1, "axis": 0},
                                                      name="ord1")]),
]
