"""Matrix decompositions: "Cholesky", "Qr", "SelfAdjointEigV2", "Svd", "Lu".

Derivatives (TensorFlow's linalg_grad for the reverse rules, the matching forward rules as JAX
states them; dA is a tangent, G an incoming gradient, ∘ the elementwise product):

- Cholesky A = L L^H. With Φ(X) = the lower triangle of X with its diagonal halved,
      dL = L Φ(L^{-1} dA L^{-H}),        grad A = sym(L^{-H} Φ(L^H G) L^{-1}),
  sym(X) = (X + X^H)/2: TensorFlow's gradient is symmetric, i.e. it differentiates
  A -> cholesky((A + A^H)/2); the forward rule uses the same symmetrized dA. The kernel reads the
  lower triangle. A matrix that is not positive definite raises, naming the batch index.
- eigh A = V diag(w) V^H (SelfAdjointEigV2, the lower triangle read). With F_ij = 1/(w_j - w_i)
  off the diagonal (0 on it; Lorentz-broadened as TensorFlow does, so equal eigenvalues give 0):
      dw = diag(V^H dA V),   dV = V (F ∘ V^H dA V),
      grad A = V (diag(gw) + F ∘ V^H gV) V^H, then (as TF) folded onto the lower triangle
  (X + X^H below the diagonal, X's diagonal on it), the part of A the kernel reads; the forward
  rule uses dA rebuilt from its lower triangle the same way.
- svd A = U diag(s) V^H (Svd returns s, U, V). TensorFlow's rule: with F_ij = 1/(s_j^2 - s_i^2),
      grad A = U [diag(gs) + (F∘U^H gU + (F∘U^H gU)^H) S + S (F∘V^H gV + (..)^H)] V^H
               + (for m < n) U S^{-1} (gV^H - gV^H V V^H)   (and the full_matrices term),
  worked on A^H when m > n. The forward rule: dP = U^H dA V, ds = diag(dP), and
      dU = U (F ∘ (dP S + S dP^H)) + (I - U U^H) dA V S^{-1},
      dV = V (F ∘ (S dP + dP^H S)) + (I - V V^H) dA^H U S^{-1}.
  Only distinct singular values are supported (repeated ones give TF's broadened result).
- qr A = Q R (m >= n, reduced or square; wide matrices by splitting A = [X, Y] so that
  X = Q U is square and V = Q^H Y): with Ω = tril(Q^H dA R^{-1}, -1) - (..)^H skew,
      dQ = Q (Ω - Q^H dA R^{-1}) + dA R^{-1},    dR = (Q^H dA R^{-1} - Ω) R,
  and TensorFlow's reverse rule (arXiv 2009.10071): with M = tril(Q^H gQ - gQ^H Q
  + R gR^H - gR R^H),  grad A = Q (gR + M R^{-H}) + (gQ - Q Q^H gQ) R^{-H}.
- Lu (pivoted, as TensorFlow) has no gradient in TensorFlow; neither here (LookupError names it).
"""
import collections
import warnings

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError, UnimplementedError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from ..array_ops import concat
from ..broadcast_ops import zeros_like
from ..cast_ops import cast
from ..matrix_ops import band_part, diag, diag_part, set_diag
from ..reshape_ops import expand_dims
from .common import (adjoint, batch_label, check_linalg_input, first_failure, linalg_input,
                     loop_matrices, matrix_dims, mm, real_part, safe_reciprocal, square_input,
                     square_rule, succeeds)
from .solves import triangular_solve

__all__ = ["cholesky", "qr", "eigh", "eigvalsh", "self_adjoint_eig", "self_adjoint_eigvals",
           "svd", "lu"]


def _static_dims(x, op_type):
    shape = x.shape
    if shape.rank is None or shape[-2] is None or shape[-1] is None:
        raise UnimplementedError(f"{op_type}: this derivative needs the matrix dimensions known "
                                 f"(got shape {shape}).")
    return shape[-2], shape[-1]


def _strictly_lower(x):
    return set_diag(band_part(x, -1, 0), zeros_like(diag_part(x)))


def _from_lower(x):
    """The Hermitian matrix whose lower triangle is x's (what the kernels read)."""
    return band_part(x, -1, 0) + adjoint(_strictly_lower(x))


# -- Cholesky -------------------------------------------------------------------------------------
def _cholesky_kernel(a):
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        index = first_failure(succeeds(np.linalg.cholesky), a)
        raise InvalidArgumentError(
            f"Cholesky: the input matrix{batch_label(a.shape[:-2], index)} is not positive "
            f"definite (shape {a.shape}); Cholesky needs a symmetric (Hermitian) positive "
            "definite matrix. Add a small multiple of the identity (jitter) if it is only "
            "nearly so.") from None


def _phi(x):
    """The lower triangle of x with its diagonal halved."""
    return band_part(set_diag(x, 0.5 * diag_part(x)), -1, 0)


def _right_solve_lower(l, x):
    """x L^{-1}, with a triangular solve: (L^{-H} x^H)^H."""
    return adjoint(triangular_solve(l, adjoint(x), lower=True, adjoint=True))


def _cholesky_grad(op, grad):
    l = op.outputs[0]
    middle = _phi(mm(l, grad, adjoint_a=True))
    grad_a = _right_solve_lower(l, triangular_solve(l, middle, lower=True, adjoint=True))
    return 0.5 * (grad_a + adjoint(grad_a))


def _cholesky_jvp(primals, tangents, outputs):
    l = outputs[0]
    da = 0.5 * (tangents[0] + adjoint(tangents[0]))
    left = triangular_solve(l, da, lower=True)                        # L^{-1} dA
    inner = adjoint(triangular_solve(l, adjoint(left), lower=True))   # L^{-1} dA L^{-H}
    return mm(l, _phi(inner))


CHOLESKY = defop("Cholesky", _cholesky_kernel, shape=square_rule, grad=_cholesky_grad,
                 jvp=_cholesky_jvp, batch="safe", args=("input",))


def cholesky(input, name=None):  # noqa: A002
    """The lower-triangular L with L @ L^H = input, for each Hermitian positive definite matrix
    of `input` [..., N, N] (only its lower triangle is read)."""
    x = square_input(input, "Cholesky")
    return execute(CHOLESKY, (x,), name=name)


# -- SelfAdjointEigV2 -----------------------------------------------------------------------------
def _eigh_kernel(a, compute_v):
    if compute_v:
        w, v = np.linalg.eigh(a)
        return w, v
    return np.linalg.eigvalsh(a), np.zeros((0,), a.dtype)


def _eigh_rule(a, compute_v):
    square_rule(a)
    real = _real_dtype(a.dtype)
    if a.shape.rank is None:
        return [(TensorShape(None), real), (TensorShape(None), a.dtype)]
    values = TensorShape(tuple(a.shape[:-1]))
    vectors = a.shape if compute_v else TensorShape([0])
    return [(values, real), (vectors, a.dtype)]


def _real_dtype(dtype):
    return getattr(dtype, "real_dtype", dtype)


def _gaps(values):
    """F_ij = 1/(w_j - w_i) off the diagonal, 0 on it (Lorentz-broadened)."""
    f = safe_reciprocal(expand_dims(values, -2) - expand_dims(values, -1))
    return set_diag(f, zeros_like(values))


def _as_dtype_of(x, like):
    return x if x.dtype == like.dtype else cast(x, like.dtype)


def _eigh_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        f = _as_dtype_of(_gaps(e), v)
        inner = diag(_as_dtype_of(grad_e, v)) + f * mm(v, grad_v, adjoint_a=True)
    else:
        _, v = eigh(op.inputs[0])
        inner = diag(_as_dtype_of(grad_e, v))
    grad_a = mm(v, mm(inner, v, adjoint_b=True))
    grad_a = band_part(grad_a + adjoint(grad_a), -1, 0)
    return set_diag(grad_a, 0.5 * diag_part(grad_a))


def _eigh_jvp(primals, tangents, outputs, compute_v):
    e = outputs[0]
    v = outputs[1] if compute_v else eigh(primals[0])[1]
    projected = mm(v, mm(_from_lower(tangents[0]), v), adjoint_a=True)
    de = real_part(diag_part(projected))
    if not compute_v:
        return de, None
    return de, mm(v, _as_dtype_of(_gaps(e), v) * projected)


EIGH = defop("SelfAdjointEigV2", _eigh_kernel, shape=_eigh_rule, grad=_eigh_grad,
             jvp=_eigh_jvp, num_outputs=2,
             raw=lambda input, compute_v=True, name=None: execute(
                 EIGH, (linalg_input(input, "SelfAdjointEigV2"),),
                 {"compute_v": bool(compute_v)}, name))


def eigh(tensor, name=None):
    """(eigenvalues ascending [..., N], eigenvectors [..., N, N] as columns) of each Hermitian
    matrix of `tensor` (only its lower triangle is read)."""
    x = square_input(tensor, "SelfAdjointEigV2")
    return execute(EIGH, (x,), {"compute_v": True}, name)


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of each Hermitian matrix of `tensor`."""
    x = square_input(tensor, "SelfAdjointEigV2")
    return execute(EIGH, (x,), {"compute_v": False}, name)[0]


self_adjoint_eig, self_adjoint_eigvals = eigh, eigvalsh


# -- Svd ------------------------------------------------------------------------------------------
def _svd_kernel(a, compute_uv, full_matrices):
    if not compute_uv:
        empty = np.zeros((0,), a.dtype)
        return np.linalg.svd(a, compute_uv=False), empty, empty
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return s, u, np.conj(np.swapaxes(vh, -1, -2))


def _svd_rule(a, compute_uv, full_matrices):
    check_linalg_input(a)
    batch, m, n = matrix_dims(a)
    real = _real_dtype(a.dtype)
    if batch is None:
        return [(TensorShape(None), real), (TensorShape(None), a.dtype),
                (TensorShape(None), a.dtype)]
    k = None if m is None or n is None else min(m, n)
    if not compute_uv:
        empty = TensorShape([0])
        return [(TensorShape(tuple(batch) + (k,)), real), (empty, a.dtype), (empty, a.dtype)]
    cols_u, cols_v = (m, n) if full_matrices else (k, k)
    return [(TensorShape(tuple(batch) + (k,)), real),
            (TensorShape(tuple(batch) + (m, cols_u)), a.dtype),
            (TensorShape(tuple(batch) + (n, cols_v)), a.dtype)]


def _svd_grad(op, grad_s, grad_u, grad_v):
    a = op.inputs[0]
    grad_s = _as_dtype_of(grad_s, a)
    if not op.get_attr("compute_uv"):
        _, u, v = svd(a, full_matrices=False, compute_uv=True)
        return mm(u, mm(diag(grad_s), v, adjoint_b=True))
    m, n = _static_dims(a, "Svd")
    s, u, v = op.outputs
    s = _as_dtype_of(s, a)
    flip = m > n
    if flip:  # work on A^H = V S U^H and take the adjoint at the end
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    full = op.get_attr("full_matrices")
    if full and abs(m - n) > 1:
        raise UnimplementedError(f"Svd: no gradient for full_matrices=True when the matrix "
                                 f"dimensions differ by more than 1 (got {m} x {n}), as in "
                                 "TensorFlow; use full_matrices=False.")
    grad_a = _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, full)
    return adjoint(grad_a) if flip else grad_a


def _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, full):
    """TensorFlow's rule for m <= n (u: m x m, v: n x m or n x n)."""
    s_mat = diag(s)
    f = _gaps(s * s)
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = f * mm(u, grad_u, adjoint_a=True)
    v_gv = mm(v1, grad_v1, adjoint_a=True)
    f_v = f * v_gv
    middle = diag(grad_s) + mm(f_u + adjoint(f_u), s_mat) + mm(s_mat, f_v + adjoint(f_v))
    grad_a = mm(u, mm(middle, v1, adjoint_b=True))
    if m != n:
        gv1t = adjoint(grad_v1)
        rest = gv1t - mm(mm(gv1t, v1), v1, adjoint_b=True)
        if full:
            v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
            rest = rest - mm(mm(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
        grad_a = grad_a + mm(mm(u, diag(safe_reciprocal(s))), rest)
    if getattr(s.dtype, "is_complex", False):
        diagonal = diag(diag_part(v_gv))
        grad_a = grad_a + 0.5 * mm(u, mm(mm(diag(safe_reciprocal(s)),
                                            adjoint(diagonal) - diagonal), v1, adjoint_b=True))
    return grad_a


def _svd_jvp(primals, tangents, outputs, compute_uv, full_matrices):
    a, da = primals[0], tangents[0]
    if not compute_uv:
        _, u, v = svd(a, full_matrices=False)
        return real_part(diag_part(mm(u, mm(da, v), adjoint_a=True))), None, None
    m, n = _static_dims(a, "Svd")
    if full_matrices and m != n:
        raise UnimplementedError("Svd: forward mode needs full_matrices=False (or a square "
                                 "matrix), as in JAX.")
    s, u, v = outputs
    dp = mm(u, mm(da, v), adjoint_a=True)
    ds = real_part(diag_part(dp))
    sc = _as_dtype_of(s, a)
    f = _as_dtype_of(_gaps(s * s), a)
    row, col = expand_dims(sc, -2), expand_dims(sc, -1)      # S on the right, on the left
    dps, sdp = dp * row, col * dp                              # dP S, S dP
    s_inv = _as_dtype_of(safe_reciprocal(s), a)
    du = mm(u, f * (dps + adjoint(dps)))
    dv = mm(v, f * (sdp + adjoint(sdp)))
    if getattr(a.dtype, "is_complex", False):
        skew = 0.5 * (dp - adjoint(dp))
        du = du + mm(u, set_diag(zeros_like(skew), diag_part(skew)) * expand_dims(s_inv, -2))
    if m > n:
        dav = mm(da, v)
        du = du + (dav - mm(u, mm(u, dav, adjoint_a=True))) * expand_dims(s_inv, -2)
    if n > m:
        dau = mm(da, u, adjoint_a=True)
        dv = dv + (dau - mm(v, mm(v, dau, adjoint_a=True))) * expand_dims(s_inv, -2)
    return ds, du, dv


SVD = defop("Svd", _svd_kernel, shape=_svd_rule, grad=_svd_grad, jvp=_svd_jvp, num_outputs=3,
            raw=lambda input, compute_uv=True, full_matrices=False, name=None: execute(
                SVD, (linalg_input(input, "Svd"),), {"compute_uv": bool(compute_uv),
                                                     "full_matrices": bool(full_matrices)}, name))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values s [..., P] (descending, P = min(M, N)) and, with compute_uv, U and V such
    that tensor = U diag(s) V^H: returns (s, u, v), or s alone without compute_uv."""
    x = linalg_input(tensor, "Svd")
    _svd_rule(x, compute_uv, full_matrices)
    s, u, v = execute(SVD, (x,), {"compute_uv": bool(compute_uv),
                                  "full_matrices": bool(full_matrices)}, name)
    return (s, u, v) if compute_uv else s


# -- Qr -------------------------------------------------------------------------------------------
def _qr_kernel(a, full_matrices):
    q, r = np.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    return q, r


def _qr_rule(a, full_matrices):
    check_linalg_input(a)
    batch, m, n = matrix_dims(a)
    if batch is None:
        return [(TensorShape(None), a.dtype), (TensorShape(None), a.dtype)]
    k = None if m is None or n is None else min(m, n)
    cols = m if full_matrices else k
    rows = m if full_matrices else k
    return [(TensorShape(tuple(batch) + (m, cols)), a.dtype),
            (TensorShape(tuple(batch) + (rows, n)), a.dtype)]


def _right_solve_upper(x, r):
    """x R^{-H} for upper-triangular R."""
    return adjoint(triangular_solve(r, adjoint(x), lower=False, adjoint=False))


def _qr_grad_deep(q, r, dq, dr):
    """TensorFlow's rule for m >= n (reduced, or square)."""
    qdq = mm(q, dq, adjoint_a=True)
    rdr = mm(r, dr, adjoint_b=True)
    tril = band_part(qdq - adjoint(qdq) + rdr - adjoint(rdr), -1, 0)
    grad = mm(q, dr + _right_solve_upper(tril, r)) + _right_solve_upper(dq - mm(q, qdq), r)
    if getattr(q.dtype, "is_complex", False):
        m = rdr - adjoint(qdq)
        eyem = set_diag(zeros_like(m), diag_part(m))
        correction = eyem - _as_dtype_of(real_part(eyem), q)
        grad = grad + _right_solve_upper(mm(q, adjoint(correction)), r)
    return grad


def _qr_grad(op, dq, dr):
    q, r = op.outputs
    m, n = _static_dims(op.inputs[0], "Qr")
    if m > n and op.get_attr("full_matrices"):
        raise UnimplementedError(f"Qr: no gradient when rows > columns ({m} x {n}) and "
                                 "full_matrices=True, as in TensorFlow; use "
                                 "full_matrices=False.")
    if m >= n:
        return _qr_grad_deep(q, r, dq, dr)
    y = op.inputs[0][..., :, m:]
    u, du, dv = r[..., :, :m], dr[..., :, :m], dr[..., :, m:]
    dx = _qr_grad_deep(q, u, dq + mm(y, dv, adjoint_b=True), du)
    return concat([dx, mm(q, dv)], axis=-1)


def _qr_jvp_deep(q, r, dx):
    dx_rinv = adjoint(triangular_solve(r, adjoint(dx), lower=False, adjoint=True))  # dX R^{-1}
    inner = mm(q, dx_rinv, adjoint_a=True)
    lower = _strictly_lower(inner)
    omega = lower - adjoint(lower)
    if getattr(q.dtype, "is_complex", False):
        omega = omega + set_diag(zeros_like(inner),
                                 diag_part(inner) - _as_dtype_of(real_part(diag_part(inner)), q))
    return mm(q, omega - inner) + dx_rinv, mm(inner - omega, r)


def _qr_jvp(primals, tangents, outputs, full_matrices):
    q, r = outputs
    a, da = primals[0], tangents[0]
    m, n = _static_dims(a, "Qr")
    if m > n and full_matrices:
        raise UnimplementedError("Qr: forward mode needs full_matrices=False when rows > "
                                 "columns, as in JAX.")
    if m >= n:
        return _qr_jvp_deep(q, r, da)
    dq, du = _qr_jvp_deep(q, r[..., :, :m], da[..., :, :m])
    dv = mm(dq, a[..., :, m:], adjoint_a=True) + mm(q, da[..., :, m:], adjoint_a=True)
    return dq, concat([du, dv], axis=-1)


QR = defop("Qr", _qr_kernel, shape=_qr_rule, grad=_qr_grad, jvp=_qr_jvp, num_outputs=2,
           raw=lambda input, full_matrices=False, name=None: qr(input, full_matrices, name))


# TensorFlow's named results: `qr(a).q`, `lu(a).p`.
Qr = collections.namedtuple("Qr", ["q", "r"])
Lu = collections.namedtuple("Lu", ["lu", "p"])


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """(q, r) with input = q @ r, q with orthonormal columns and r upper triangular, for each
    matrix of `input` [..., M, N]; full_matrices gives q [M, M] and r [M, N]."""
    x = linalg_input(input, "Qr")
    _qr_rule(x, full_matrices)
    return Qr(*execute(QR, (x,), {"full_matrices": bool(full_matrices)}, name))


# -- Lu -------------------------------------------------------------------------------------------
def _lu_kernel(a, output_idx_type):
    from scipy.linalg import lu_factor  # imported when first needed
    n = a.shape[-1]

    def one(matrix, index):
        with warnings.catch_warnings():  # a zero pivot is reported below, naming the matrix
            warnings.simplefilter("ignore")
            packed, pivots = lu_factor(matrix, check_finite=False, overwrite_a=False)
        if not np.all(np.diagonal(packed)):
            raise InvalidArgumentError(
                f"Lu: the input matrix{batch_label(a.shape[:-2], index)} is not invertible "
                f"(shape {a.shape}): a zero pivot appeared.")
        perm = np.arange(n)
        for i, p in enumerate(pivots):
            perm[i], perm[p] = perm[p], perm[i]
        return packed.astype(a.dtype, copy=False), perm.astype(output_idx_type)[None, :]
    result = loop_matrices(one, a, empty=lambda batch: (
        np.zeros(batch + (n, n), a.dtype), np.zeros(batch + (1, n), output_idx_type)))
    return result[0], result[1][..., 0, :]


def _lu_rule(a, output_idx_type):
    square_rule(a)
    index = dtypes.as_dtype(output_idx_type)
    if a.shape.rank is None:
        return [(TensorShape(None), a.dtype), (TensorShape(None), index)]
    return [(a.shape, a.dtype), (TensorShape(tuple(a.shape[:-1])), index)]


LU = defop("Lu", _lu_kernel, shape=_lu_rule, num_outputs=2,
           raw=lambda input, output_idx_type=dtypes.int32, name=None: lu(
               input, output_idx_type, name))


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    """(lower_upper, perm): the pivoted LU factorization of each square matrix of `input`:
    gather(input, perm, axis=-2) = L @ U, with L's unit diagonal implicit in lower_upper's
    strictly lower part and U its upper triangle."""
    x = square_input(input, "Lu")
    idx = dtypes.as_dtype(output_idx_type)
    if idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Lu: output_idx_type must be int32 or int64, got {idx.name}.")
    return Lu(*execute(LU, (x,), {"output_idx_type": idx.as_numpy_dtype}, name))
