"""Linear solves and inverses: "MatrixInverse", "MatrixSolve", "MatrixTriangularSolve",
"BandedTriangularSolve", and cholesky_solve built on triangular solves.

Everything follows from differentiating A C = B (A^H C = B with `adjoint`):
    dA C + A dC = dB     =>     dC = A^{-1} (dB - dA C)                       (the JVP)
and, transposing that map, for an incoming gradient G of C (TensorFlow's linalg_grad rules):
    grad B = A^{-H} G                    (a solve with the adjoint flag flipped)
    grad A = -grad_B C^H                 (with `adjoint`: -C grad_B^H)
A triangular solve reads one triangle of A, so its grad A keeps that triangle (band_part); a
banded one reads K diagonals, so its grad A is those diagonals of the dense gradient (diag_part
with TensorFlow's LEFT_RIGHT packing). The inverse Y = A^{-1} has dY = -Y dA Y, hence
grad A = -Y^H G Y^H (with `adjoint`, Y = A^{-H}: dY = -Y dA^H Y, grad A = -Y G^H Y).
The rules are solves and products again, so they differentiate to any order. Batch dimensions of
the matrix and right-hand side broadcast for triangular and banded solves (as in TensorFlow);
MatrixSolve needs them equal. A singular matrix raises InvalidArgumentError naming the op and the
batch index of the first singular matrix.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, needs_grad
from .. import shape_rules
from ..cast_ops import cast
from ..creation_ops import range as range_, shape as shape_of
from ..einsum_ops import einsum
from ..math_ops import equal
from ..reshape_ops import reshape
from ..matrix_ops import band_part, diag, diag_part, diagonals_to_matrix
from .common import (batch_label, linalg_input, loop_matrices, matrix_dims, mm, singular_error,
                     solve_batch, square_input, square_rule)

__all__ = ["inv", "solve", "triangular_solve", "banded_triangular_solve", "cholesky_solve",
           "matrix_solve", "matrix_triangular_solve", "matrix_inverse"]


def _same_batch_rhs_rule(op_type, broadcast):
    def rule(matrix, rhs, **_):
        shape_rules.check_same_dtype(matrix, rhs)
        square_rule(matrix)
        batch_a, m, _ = matrix_dims(matrix, "matrix")
        batch, _, k = solve_batch(
            batch_a, m, rhs, f"matrix {matrix.shape} and rhs {rhs.shape} disagree: rhs must have "
            f"{m} rows.", None if broadcast else f"matrix {matrix.shape} and rhs {rhs.shape} "
            "must have the same batch dimensions.")
        return batch.concatenate([matrix.shape[-1] if m is None else m, k]), matrix.dtype
    rule.__name__ = f"_{op_type}_rule"
    return rule


def _broadcast_batches(matrix, rhs):
    batch = np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    return (np.broadcast_to(matrix, batch + matrix.shape[-2:]),
            np.broadcast_to(rhs, batch + rhs.shape[-2:]))


# -- MatrixInverse --------------------------------------------------------------------------------
def _inverse_kernel(a, adjoint):
    try:
        out = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        raise singular_error("MatrixInverse", a) from None
    return np.conj(np.swapaxes(out, -1, -2)) if adjoint else out


def _inverse_grad(op, grad):
    y, adj = op.outputs[0], op.get_attr("adjoint")
    return -mm(y, mm(grad, y, adjoint_a=adj, adjoint_b=not adj), adjoint_a=not adj)


def _inverse_jvp(primals, tangents, outputs, adjoint):
    y = outputs[0]
    return -mm(y, mm(tangents[0], y, adjoint_a=adjoint))


INVERSE = defop("MatrixInverse", _inverse_kernel, shape=square_rule, grad=_inverse_grad,
                jvp=_inverse_jvp, batch="safe",
                raw=lambda input, adjoint=False, name=None: inv(input, adjoint, name))


def inv(input, adjoint=False, name=None):  # noqa: A002
    """The inverse of each square matrix in `input` [..., N, N] (of its adjoint if `adjoint`)."""
    x = square_input(input, "MatrixInverse")
    return execute(INVERSE, (x,), {"adjoint": bool(adjoint)}, name)


matrix_inverse = inv


# -- MatrixSolve ----------------------------------------------------------------------------------
def _solve_kernel(matrix, rhs, adjoint):
    a = np.conj(np.swapaxes(matrix, -1, -2)) if adjoint else matrix
    try:
        return np.linalg.solve(a, rhs)
    except np.linalg.LinAlgError:
        raise singular_error("MatrixSolve", matrix) from None


def _solve_grads(op, grad, solve_again, keep=None):
    """TensorFlow's rule for C = A^{-1} B (or A^{-H} B): grad_B = A^{-H} G, grad_A = -grad_B C^H.
    `solve_again(a, rhs, adjoint)` solves with the same kind of matrix; `keep` projects grad_A
    onto the entries the op reads."""
    a, adj, c = op.inputs[0], op.get_attr("adjoint"), op.outputs[0]
    grad_b = solve_again(a, grad, not adj)
    grad_a = None
    if needs_grad(op, 0):
        grad_a = -mm(c, grad_b, adjoint_b=True) if adj else -mm(grad_b, c, adjoint_b=True)
        grad_a = keep(op, grad_a) if keep is not None else grad_a
    return grad_a, grad_b if needs_grad(op, 1) else None


def _solve_jvp_rhs(tangents, c, adjoint, dense_da=None):
    """dB - dA C (dA^H C with `adjoint`): the right-hand side whose solve is dC."""
    da, db = tangents
    if da is None:
        return db
    da = dense_da(da) if dense_da is not None else da
    term = mm(da, c, adjoint_a=adjoint)
    return -term if db is None else db - term


def _solve_grad(op, grad):
    return _solve_grads(op, grad, lambda a, g, adj: solve(a, g, adjoint=adj))


def _solve_jvp(primals, tangents, outputs, adjoint):
    return solve(primals[0], _solve_jvp_rhs(tangents, outputs[0], adjoint), adjoint=adjoint)


SOLVE = defop("MatrixSolve", _solve_kernel, shape=_same_batch_rhs_rule("MatrixSolve", False),
              grad=_solve_grad, jvp=_solve_jvp,
              raw=lambda matrix, rhs, adjoint=False, name=None: solve(matrix, rhs, adjoint, name))


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint(matrix) @ X = rhs if `adjoint`): matrix [..., M, M],
    rhs [..., M, K] with the same batch dimensions."""
    a = linalg_input(matrix, "MatrixSolve", "matrix")
    b = linalg_input(rhs, "MatrixSolve", "rhs")
    _prefixed("MatrixSolve", SOLVE.shape, a, b)
    return execute(SOLVE, (a, b), {"adjoint": bool(adjoint)}, name)


matrix_solve = solve


def _prefixed(op_type, rule, *args, **attrs):
    try:
        return rule(*args, **attrs)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None


# -- MatrixTriangularSolve ------------------------------------------------------------------------
def _triangular_kernel(op_type, matrix, rhs, lower, adjoint):
    from scipy.linalg import solve_triangular  # imported when first needed
    a, b = _broadcast_batches(matrix, rhs)
    trans = "C" if adjoint else "N"

    def one(m, r, index):
        try:
            return solve_triangular(m, r, lower=lower, trans=trans, check_finite=False)
        except np.linalg.LinAlgError as err:
            raise InvalidArgumentError(
                f"{op_type}: the {'lower' if lower else 'upper'} triangular matrix"
                f"{batch_label(a.shape[:-2], index)} is singular ({err}); a triangular solve "
                "needs a nonzero diagonal.") from None
    out = loop_matrices(one, a, b, empty=lambda batch: np.zeros(batch + b.shape[-2:], b.dtype))
    return out.astype(np.result_type(matrix, rhs), copy=False)


def _triangular_grad(op, grad):
    lower = op.get_attr("lower")
    return _solve_grads(
        op, grad, lambda a, g, adj: triangular_solve(a, g, lower=lower, adjoint=adj),
        keep=lambda op, g: band_part(g, -1, 0) if lower else band_part(g, 0, -1))


def _triangular_jvp(primals, tangents, outputs, lower, adjoint):
    def triangle(da):
        return band_part(da, -1, 0) if lower else band_part(da, 0, -1)
    rhs = _solve_jvp_rhs(tangents, outputs[0], adjoint, triangle)
    return triangular_solve(primals[0], rhs, lower=lower, adjoint=adjoint)


TRIANGULAR_SOLVE = defop(
    "MatrixTriangularSolve",
    lambda matrix, rhs, lower, adjoint: _triangular_kernel("MatrixTriangularSolve", matrix, rhs,
                                                           lower, adjoint),
    shape=_same_batch_rhs_rule("MatrixTriangularSolve", True), grad=_triangular_grad,
    jvp=_triangular_jvp, batch="safe",
    raw=lambda matrix, rhs, lower=True, adjoint=False, name=None: triangular_solve(
        matrix, rhs, lower, adjoint, name))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with T @ X = rhs, T the lower (or upper) triangle of `matrix` [..., M, M] (its adjoint if
    `adjoint`); rhs [..., M, K]; batch dimensions broadcast."""
    a = linalg_input(matrix, "MatrixTriangularSolve", "matrix")
    b = linalg_input(rhs, "MatrixTriangularSolve", "rhs")
    _prefixed("MatrixTriangularSolve", TRIANGULAR_SOLVE.shape, a, b)
    return execute(TRIANGULAR_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)},
                   name)


matrix_triangular_solve = triangular_solve


def cholesky_solve(chol, rhs, name=None):
    """X with A @ X = rhs, given chol = cholesky(A) [..., M, M]: two triangular solves."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True, name=name)


# -- BandedTriangularSolve ------------------------------------------------------------------------
def _band_k(num_bands, lower):
    return (-(num_bands - 1), 0) if lower else (0, num_bands - 1)


def _banded_kernel(bands, rhs, lower, adjoint):
    n = bands.shape[-1]
    dense = diagonals_to_matrix(bands, _band_k(bands.shape[-2], lower), n, n, "LEFT_RIGHT")
    return _triangular_kernel("BandedTriangularSolve", dense, rhs, lower, adjoint)


def _banded_rule(bands, rhs, lower, adjoint):
    shape_rules.check_same_dtype(bands, rhs)
    batch_a, _, n = matrix_dims(bands, "bands")
    batch, rows, k = solve_batch(batch_a, n, rhs, f"bands {bands.shape} describe {n} x {n} "
                                 f"matrices but rhs {rhs.shape} has {{rows}} rows.")
    return batch.concatenate([n if n is not None else rows, k]), bands.dtype


def _dense(bands, lower):
    n, num_bands = bands.shape[-1], bands.shape[-2]
    if n is None or num_bands is None:
        raise InvalidArgumentError("BandedTriangularSolve: the gradient needs the shape of "
                                   "`bands` known.")
    return diag(bands, k=_band_k(num_bands, lower), num_rows=n, num_cols=n, align="LEFT_RIGHT")


def _banded_grad(op, grad):
    bands, lower = op.inputs[0], op.get_attr("lower")
    grad_bands, grad_rhs = _solve_grads(
        op, grad, lambda a, g, adj: banded_triangular_solve(a, g, lower=lower, adjoint=adj))
    if grad_bands is None:
        return grad_bands, grad_rhs
    if bands.shape.rank is None or bands.shape[-2] is None:
        return _bands_of(grad_bands, shape_of(bands)[-2], lower), grad_rhs
    k = _band_k(bands.shape[-2], lower)
    return diag_part(grad_bands, k=k, align="LEFT_RIGHT"), grad_rhs


def _bands_of(g, num_bands, lower):
    """diag_part(g, k=_band_k(num_bands, lower), align="LEFT_RIGHT") for a number of bands
    known only when the graph runs (as TensorFlow reads it with tf.shape): band r, entry i is
    g[..., i, i + offset(r)] (offset -r below the diagonal, num_bands - 1 - r above), picked by
    an einsum with a 0/1 selector; entries off the matrix are zero."""
    i = range_(shape_of(g)[-1])
    r = range_(num_bands)
    offset = -r if lower else num_bands - 1 - r
    cols = reshape(i, [1, -1, 1]) + reshape(offset, [-1, 1, 1])
    select = cast(equal(cols, reshape(i, [1, 1, -1])), g.dtype)
    return einsum("...ic,ric->...ri", g, select)


def _banded_jvp(primals, tangents, outputs, lower, adjoint):
    rhs = _solve_jvp_rhs(tangents, outputs[0], adjoint, lambda d: _dense(d, lower))
    return banded_triangular_solve(primals[0], rhs, lower=lower, adjoint=adjoint)


BANDED_SOLVE = defop("BandedTriangularSolve", _banded_kernel, shape=_banded_rule,
                     grad=_banded_grad, jvp=_banded_jvp, batch="safe",
                     raw=lambda matrix, rhs, lower=True, adjoint=False, name=None:
                     banded_triangular_solve(matrix, rhs, lower, adjoint, name))


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """X with T @ X = rhs for a triangular T given by its K diagonals: bands [..., K, M] (for
    `lower`, the main diagonal first, then the subdiagonals; otherwise the superdiagonals, the
    main diagonal last), packed with LEFT_RIGHT alignment as TensorFlow stores them."""
    a = linalg_input(bands, "BandedTriangularSolve", "bands")
    b = linalg_input(rhs, "BandedTriangularSolve", "rhs")
    _prefixed("BandedTriangularSolve", _banded_rule, a, b, lower=lower, adjoint=adjoint)
    return execute(BANDED_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)}, name)
