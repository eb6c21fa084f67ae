"""Least squares, pseudo-inverse and rank: "MatrixSolveLs", lstsq, pinv, matrix_rank.

`lstsq` (MatrixSolveLs) with fast=True solves the regularized normal equations through a Cholesky
factorization, as TensorFlow does: for A [M, N] with M >= N,
    X = (A^H A + λI)^{-1} A^H B            (min ||A X - B||^2 + λ||X||^2),
and for M < N the minimum-norm form X = A^H (A A^H + λI)^{-1} B. Differentiating, with
G = A^H A + λI and R = B - A X (overdetermined),
    dX = G^{-1} (dA^H R + A^H (dB - dA X)),
    grad B = A Z,   grad A = -A (X Z^H + Z X^H) + B Z^H,     Z = G^{-1} g_X;
and with H = A A^H + λI, T = H^{-1} B (underdetermined),
    dX = dA^H T + A^H H^{-1} (dB - dA X - A dA^H T),
    grad B = H^{-1} A g_X,   grad A = -grad_B (T^H A) + T (g_X - A^H grad_B)^H
(TensorFlow's linalg_grad). fast=False uses LAPACK's minimum-norm least squares (l2_regularizer
ignored) and, as in TensorFlow, has no gradient. λ is an attribute: it gets no gradient. Where
the matrix dimensions are known only when the graph runs, both gradients are built (the Gram
matrix of the branch not taken replaced by the identity) and a select keeps the right one, as
TensorFlow's tf.cond does.

`pinv` is V diag(1/s) U^H from the SVD, singular values at or below rcond * max(s) dropped
(TensorFlow's default rcond = 10 max(M, N) eps); it differentiates through the SVD. `matrix_rank`
counts the singular values above tol (default max(M, N) eps max(s)); an integer, no gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, needs_grad
from .. import shape_rules
from ..cast_ops import cast
from ..broadcast_ops import ones_like, zeros_like
from ..reshape_ops import expand_dims
from ..array_ops import where
from ..creation_ops import shape as shape_of
from .common import (adjoint, batch_label, eye_like, first_failure, linalg_input,
                     loop_matrices, matrix_dims, mm, solve_batch)
from .decompositions import cholesky, svd
from .solves import cholesky_solve
from ..reduce_ops import reduce_max, reduce_sum
from ..math_ops import greater_equal, logical_not

__all__ = ["lstsq", "matrix_solve_ls", "pinv", "matrix_rank"]


def _gram(a, l2_regularizer, first_kind, valid=None):
    """A^H A + λI (first kind) or A A^H + λI, and its Cholesky factor (graph ops). Where `valid`
    (a boolean known when the graph runs) is False the identity stands in, so the branch the
    run does not take still factors."""
    gram = mm(a, a, adjoint_a=True) if first_kind else mm(a, a, adjoint_b=True)
    if l2_regularizer:
        gram = gram + l2_regularizer * eye_like(gram)
    if valid is not None:
        gram = where(valid, gram, eye_like(gram))
    return cholesky(gram)


def _lstsq_kernel(matrix, rhs, l2_regularizer, fast):
    if not fast:
        return _min_norm(matrix, rhs)
    a_h = np.conj(np.swapaxes(matrix, -1, -2))
    over = matrix.shape[-2] >= matrix.shape[-1]
    gram = a_h @ matrix if over else matrix @ a_h
    if l2_regularizer:
        gram = gram + l2_regularizer * np.eye(gram.shape[-1], dtype=gram.dtype)
    try:
        np.linalg.cholesky(gram)
    except np.linalg.LinAlgError:
        index = first_failure(lambda g: np.all(np.linalg.eigvalsh(g) > 0), gram)
        raise InvalidArgumentError(
            f"MatrixSolveLs: the matrix{batch_label(matrix.shape[:-2], index)} (shape "
            f"{matrix.shape}) is rank deficient, so its Gram matrix is not positive definite; "
            "pass l2_regularizer > 0 or fast=False.") from None
    if over:
        return np.linalg.solve(gram, a_h @ rhs)
    return a_h @ np.linalg.solve(gram, rhs)


def _min_norm(matrix, rhs):
    batch = np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(matrix, batch + matrix.shape[-2:])
    b = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    return loop_matrices(lambda m, r, _: np.linalg.lstsq(m, r, rcond=None)[0], a, b,
                         empty=lambda shape: np.zeros(shape + (a.shape[-1], b.shape[-1]),
                                                      b.dtype))


def _lstsq_rule(matrix, rhs, l2_regularizer, fast):
    shape_rules.check_same_dtype(matrix, rhs)
    batch_a, m, n = matrix_dims(matrix, "matrix")
    pair = f"matrix {matrix.shape} and rhs {rhs.shape} must have the same"
    batch, _, k = solve_batch(batch_a, m, rhs, f"{pair} number of rows.",
                              f"{pair} batch dimensions.")
    return batch.concatenate([n, k]), matrix.dtype


def _shape_mn(a):
    m, n = a.shape[-2], a.shape[-1]
    if m is None or n is None:
        raise InvalidArgumentError("MatrixSolveLs: the derivative needs the matrix dimensions "
                                   "known.")
    return m, n


def _lstsq_grad(op, grad):
    if not op.get_attr("fast"):
        raise ValueError("MatrixSolveLs: no gradient for fast=False, as in TensorFlow; use "
                         "fast=True (normal equations).")
    a = op.inputs[0]
    m, n = a.shape[-2], a.shape[-1]
    if m is not None and n is not None:
        return _overdetermined_grad(op, grad) if m >= n else _underdetermined_grad(op, grad)
    dims = shape_of(a)  # TensorFlow's tf.cond on the run-time shape, as a select of both
    over = greater_equal(dims[-2], dims[-1])
    over_a, over_b = _overdetermined_grad(op, grad, over)
    under_a, under_b = _underdetermined_grad(op, grad, logical_not(over))
    return where(over, over_a, under_a), None if over_b is None else where(over, over_b, under_b)


def _overdetermined_grad(op, grad, valid=None):
    (a, b), x, lam = op.inputs, op.outputs[0], op.get_attr("l2_regularizer")
    z = cholesky_solve(_gram(a, lam, True, valid), grad)
    xzt = mm(x, z, adjoint_b=True)
    grad_a = -mm(a, xzt + adjoint(xzt)) + mm(b, z, adjoint_b=True)
    return grad_a, mm(a, z) if needs_grad(op, 1) else None


def _underdetermined_grad(op, grad, valid=None):
    (a, b), lam = op.inputs, op.get_attr("l2_regularizer")
    chol = _gram(a, lam, False, valid)
    grad_b = cholesky_solve(chol, mm(a, grad))
    t = cholesky_solve(chol, b)
    grad_a = (-mm(grad_b, mm(t, a, adjoint_a=True))
              + mm(t, grad - mm(a, grad_b, adjoint_a=True), adjoint_b=True))
    return grad_a, grad_b


def _lstsq_jvp(primals, tangents, outputs, l2_regularizer, fast):
    if not fast:
        raise ValueError("MatrixSolveLs: no derivative for fast=False (as TensorFlow's "
                         "gradient); use fast=True.")
    a, b = primals
    da, db = tangents
    x = outputs[0]
    m, n = _shape_mn(a)
    if m >= n:
        rhs = 0.0 * x
        if da is not None:
            rhs = rhs + mm(da, b - mm(a, x), adjoint_a=True) - mm(a, mm(da, x), adjoint_a=True)
        if db is not None:
            rhs = rhs + mm(a, db, adjoint_a=True)
        return cholesky_solve(_gram(a, l2_regularizer, True), rhs)
    chol = _gram(a, l2_regularizer, False)
    t = cholesky_solve(chol, b)
    rhs = 0.0 * t
    if db is not None:
        rhs = rhs + db
    if da is not None:
        rhs = rhs - mm(da, x) - mm(a, mm(da, t, adjoint_a=True))
    dx = mm(a, cholesky_solve(chol, rhs), adjoint_a=True)
    return dx + mm(da, t, adjoint_a=True) if da is not None else dx


LSTSQ = defop("MatrixSolveLs", _lstsq_kernel, shape=_lstsq_rule, grad=_lstsq_grad,
              jvp=_lstsq_jvp, raw=lambda matrix, rhs, l2_regularizer, fast=True, name=None:
              lstsq(matrix, rhs, l2_regularizer, fast, name))


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution X [..., N, K] of matrix [..., M, N] @ X = rhs [..., M, K]
    (regularized by l2_regularizer; minimum norm when M < N); see the module docstring."""
    a = linalg_input(matrix, "MatrixSolveLs", "matrix")
    b = linalg_input(rhs, "MatrixSolveLs", "rhs")
    if getattr(a.dtype, "is_complex", False) and l2_regularizer and a.dtype.size == 16:
        raise NotImplementedError("lstsq: complex128 with l2_regularizer != 0 is disabled "
                                  "in TensorFlow for poor accuracy; so here.")
    attrs = {"l2_regularizer": float(l2_regularizer), "fast": bool(fast)}
    try:
        _lstsq_rule(a, b, **attrs)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"MatrixSolveLs: {err.message}") from None
    return execute(LSTSQ, (a, b), attrs, name)


matrix_solve_ls = lstsq


def _larger_dim(x):
    """max(M, N): a Python number, or (dimensions known only at run time) a real scalar tensor
    read from the shape when the graph runs."""
    _, m, n = matrix_dims(x, "a")
    if m is not None and n is not None:
        return float(max(m, n))
    dims = shape_of(x)[-2:]
    real = getattr(x.dtype, "real_dtype", x.dtype)
    return cast(reduce_max(dims), real)


def _eps(dtype):
    real = getattr(dtype, "real_dtype", dtype)
    return float(np.finfo(real.as_numpy_dtype).eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse [..., N, M] of each matrix of `a` [..., M, N], from its
    SVD; singular values <= rcond * max(s) count as zero (default rcond = 10 max(M, N) eps).
    validate_args: as for matrix_rank, the checks run whatever it says."""
    del validate_args
    x = linalg_input(a, "pinv", "a")
    if rcond is None:
        rcond = 10.0 * _larger_dim(x) * _eps(x.dtype)
    s, u, v = svd(x, full_matrices=False, compute_uv=True)
    cutoff = rcond * reduce_max(s, axis=-1, keepdims=True)
    kept = s > cutoff
    inverse = where(kept, 1.0 / where(kept, s, ones_like(s)), zeros_like(s))  # no 1/0 anywhere
    inverse = cast(inverse, x.dtype) if inverse.dtype != x.dtype else inverse
    return mm(v * expand_dims(inverse, -2), u, adjoint_b=True, name=name)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each matrix above `tol` (default max(M, N) eps
    max(s)): an int32 of the batch shape. The dtype and rank are checked whatever
    validate_args says (TensorFlow checks them statically either way; its runtime assertions
    are for shapes unknown while building, which the kernel checks here when it runs)."""
    del validate_args
    x = linalg_input(a, "matrix_rank", "a")
    s = svd(x, compute_uv=False)
    if tol is None:
        tol = _larger_dim(x) * _eps(x.dtype) * reduce_max(s, axis=-1, keepdims=True)
    return reduce_sum(cast(s > tol, dtypes.int32), axis=-1, name=name)
