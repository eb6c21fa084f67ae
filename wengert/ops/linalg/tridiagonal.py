"""Tridiagonal systems: "TridiagonalSolve" and "TridiagonalMatMul".

A tridiagonal matrix A [M, M] is stored compactly as diagonals [..., 3, M]: the superdiagonal
(its last entry unused), the main diagonal, the subdiagonal (its first entry unused), so row i of
A x is  sub[i] x[i-1] + main[i] x[i] + super[i] x[i+1].

- TridiagonalMatMul(super, main, sub, rhs) (each diagonal [..., 1, M]) is linear in the three
  diagonals together and in rhs (d(A x) = dA x + A dx): grad main = sum over columns of conj(rhs) * G; grad super = the same with
  rhs shifted up one row, grad sub with rhs shifted down; grad rhs = A^H G written with the
  diagonals conjugated and shifted (TensorFlow's rule).
- TridiagonalSolve: X = A^{-1} B, so as for any solve (linalg_solve_ops)
      dX = A^{-1} (dB - dA X),     grad B = A^{-H} G,     grad A = -grad_B X^H
  restricted to the three diagonals: grad diagonals = -(grad_B X^H) read on its super-, main and
  subdiagonal (computed in O(M K), without forming the product). A^H is again tridiagonal: its
  superdiagonal is A's subdiagonal shifted up, and so on (conjugated).
Kernels: SciPy's banded LAPACK solver per matrix (gtsv), naming the batch index of a singular one.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, needs_grad
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..array_ops import concat, stack
from ..broadcast_ops import zeros_like
from ..matmul_ops import matrix_transpose
from ..matrix_ops import diag_part
from ..reduce_ops import reduce_sum
from ..reshape_ops import expand_dims
from .common import (batch_label, conj_if_complex, linalg_input, loop_matrices, matrix_dims,
                     solve_batch)

__all__ = ["tridiagonal_solve", "tridiagonal_matmul"]


# -- TridiagonalMatMul ----------------------------------------------------------------------------
def _matmul_kernel(superdiag, maindiag, subdiag, rhs):
    sup, main, sub = superdiag[..., 0, :, None], maindiag[..., 0, :, None], subdiag[..., 0, :,
                                                                                    None]
    out = main * rhs
    out[..., :-1, :] += sup[..., :-1, :] * rhs[..., 1:, :]
    out[..., 1:, :] += sub[..., 1:, :] * rhs[..., :-1, :]
    return out


def _matmul_rule(superdiag, maindiag, subdiag, rhs):
    shape_rules.check_same_dtype(superdiag, maindiag, subdiag, rhs)
    batch, rows, cols = matrix_dims(rhs, "rhs")
    for d in (superdiag, maindiag, subdiag):
        _, one, m = matrix_dims(d, "each diagonal")
        if one not in (None, 1) or (m is not None and rows is not None and m != rows):
            raise InvalidArgumentError(f"diagonals must have shape [..., 1, {rows}] to multiply "
                                       f"rhs {rhs.shape}, got {d.shape}.")
    if batch is None:
        return TensorShape(None), rhs.dtype
    return rhs.shape, rhs.dtype


def _shift_up(x):
    """Rows moved up one (row i holds row i + 1), zeros in the last row."""
    return concat([x[..., 1:, :], zeros_like(x[..., :1, :])], axis=-2)


def _shift_down(x):
    return concat([zeros_like(x[..., :1, :]), x[..., :-1, :]], axis=-2)


def _transpose_rows(x):
    return expand_dims(x, -2)


def _matmul_grad(op, grad):
    superdiag, maindiag, subdiag, rhs = op.inputs
    rhs_conj = conj_if_complex(rhs)
    grads = [None] * 4
    if needs_grad(op, 0):
        grads[0] = _transpose_rows(reduce_sum(_shift_up(rhs_conj) * grad, axis=-1))
    if needs_grad(op, 1):
        grads[1] = _transpose_rows(reduce_sum(rhs_conj * grad, axis=-1))
    if needs_grad(op, 2):
        grads[2] = _transpose_rows(reduce_sum(_shift_down(rhs_conj) * grad, axis=-1))
    if needs_grad(op, 3):
        def column(d):
            return conj_if_complex(d[..., 0, :])[..., :, None]
        grads[3] = (_shift_down(column(superdiag) * grad) + column(maindiag) * grad
                    + _shift_up(column(subdiag) * grad))
    return grads


def _matmul_jvp(primals, tangents, outputs):
    """Linear in the three diagonals together and in rhs: d(A x) = dA x + A dx."""
    total = None
    if any(t is not None for t in tangents[:3]):
        diags = [t if t is not None else zeros_like(p) for p, t in zip(primals, tangents[:3])]
        total = execute(MATMUL, (*diags, primals[3]))
    if tangents[3] is not None:
        term = execute(MATMUL, (*primals[:3], tangents[3]))
        total = term if total is None else total + term
    return total


MATMUL = defop("TridiagonalMatMul", _matmul_kernel, shape=_matmul_rule, grad=_matmul_grad,
               jvp=_matmul_jvp, args=("superdiag", "maindiag", "subdiag", "rhs"))


def _compact(diagonals, diagonals_format, op_type):
    """The [..., 3, M] compact form of diagonals given as 'compact', 'sequence' or 'matrix'."""
    if diagonals_format == "compact":
        return linalg_input(diagonals, op_type, "diagonals")
    if diagonals_format == "sequence":
        parts = [linalg_input(d, op_type, "diagonals") for d in diagonals]
        if len(parts) != 3:
            raise ValueError(f"{op_type}: diagonals_format='sequence' needs three tensors "
                             f"(superdiagonal, diagonal, subdiagonal), got {len(parts)}.")
        return stack(parts, axis=-2)
    if diagonals_format == "matrix":
        matrix = linalg_input(diagonals, op_type, "diagonals")
        return diag_part(matrix, k=(-1, 1), align="LEFT_RIGHT")
    raise ValueError(f"{op_type}: diagonals_format must be 'compact', 'sequence' or 'matrix', "
                     f"got {diagonals_format!r}.")


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A @ rhs for tridiagonal A given by its diagonals ('compact' [..., 3, M], 'sequence' of
    three [..., M] tensors, or the full 'matrix' [..., M, M]); rhs [..., M, N]."""
    compact = _compact(diagonals, diagonals_format, "TridiagonalMatMul")
    b = linalg_input(rhs, "TridiagonalMatMul", "rhs")
    parts = [compact[..., i:i + 1, :] for i in range(3)]
    try:
        _matmul_rule(*parts, b)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"TridiagonalMatMul: {err.message}") from None
    return execute(MATMUL, (*parts, b), name=name)


# -- TridiagonalSolve -----------------------------------------------------------------------------
def _solve_kernel(diagonals, rhs, partial_pivoting, perturb_singular):
    from scipy.linalg import solve_banded  # imported when first needed
    batch = np.broadcast_shapes(diagonals.shape[:-2], rhs.shape[:-2])
    d = np.broadcast_to(diagonals, batch + diagonals.shape[-2:])
    b = np.broadcast_to(rhs, batch + rhs.shape[-2:])

    def one(diags, r, index):
        banded = np.zeros_like(diags)
        banded[0, 1:], banded[1], banded[2, :-1] = diags[0, :-1], diags[1], diags[2, 1:]
        try:
            return solve_banded((1, 1), banded, r, check_finite=False)
        except (np.linalg.LinAlgError, ValueError) as err:
            if perturb_singular:
                raise NotImplementedError(
                    f"TridiagonalSolve: the tridiagonal matrix{batch_label(batch, index)} is "
                    "singular, and perturb_singular=True (TensorFlow's perturbed pivots) is not "
                    "supported by wengert; regularize the diagonal instead.") from None
            raise InvalidArgumentError(
                f"TridiagonalSolve: the tridiagonal matrix{batch_label(batch, index)} is "
                f"singular ({err}).") from None
    out = loop_matrices(one, d, b, empty=lambda shape: np.zeros(b.shape, b.dtype))
    return out.astype(np.result_type(diagonals, rhs), copy=False)


def _solve_rule(diagonals, rhs, partial_pivoting, perturb_singular):
    shape_rules.check_same_dtype(diagonals, rhs)
    batch_d, three, m = matrix_dims(diagonals, "diagonals")
    if three not in (None, 3):
        raise InvalidArgumentError(f"diagonals must have shape [..., 3, M], got "
                                   f"{diagonals.shape}.")
    batch, rows, k = solve_batch(batch_d, m, rhs, f"diagonals {diagonals.shape} and rhs "
                                 f"{rhs.shape} disagree: rhs needs {m} rows.")
    return batch.concatenate([rows if rows is not None else m, k]), rhs.dtype


def _adjoint_diagonals(diags):
    """The compact diagonals of A^H: superdiagonal = conj(sub) shifted left, and so on."""
    sup, main, sub = (diags[..., i, :] for i in range(3))
    zero = zeros_like(main[..., :1])
    return conj_if_complex(stack([concat([sub[..., 1:], zero], -1), main,
                        concat([zero, sup[..., :-1]], -1)], axis=-2))


def _three_diagonals_of_product(x, y):
    """The super-, main and subdiagonal of x @ y^H, in O(M K)."""
    y = conj_if_complex(y)
    main = reduce_sum(x * y, axis=-1)
    sup = reduce_sum(x * _shift_up(y), axis=-1)
    sub = reduce_sum(x * _shift_down(y), axis=-1)
    return stack([sup, main, sub], axis=-2)


def _solve_attrs(op):
    return {"partial_pivoting": op.get_attr("partial_pivoting"),
            "perturb_singular": op.get_attr("perturb_singular")}


def _solve_grad(op, grad):
    diags, x = op.inputs[0], op.outputs[0]
    grad_rhs = execute(SOLVE, (_adjoint_diagonals(diags), grad), _solve_attrs(op))
    grad_diags = -_three_diagonals_of_product(grad_rhs, x) if needs_grad(op, 0) else None
    return grad_diags, grad_rhs


def _solve_jvp(primals, tangents, outputs, partial_pivoting, perturb_singular):
    d_diags, d_rhs = tangents
    x = outputs[0]
    rhs = d_rhs
    if d_diags is not None:
        parts = [d_diags[..., i:i + 1, :] for i in range(3)]
        term = execute(MATMUL, (*parts, x))
        rhs = -term if rhs is None else rhs - term
    return execute(SOLVE, (primals[0], rhs), {"partial_pivoting": partial_pivoting,
                                              "perturb_singular": perturb_singular})


SOLVE = defop("TridiagonalSolve", _solve_kernel, shape=_solve_rule, grad=_solve_grad,
              jvp=_solve_jvp, raw=lambda diagonals, rhs, partial_pivoting=True,
              perturb_singular=False, name=None: tridiagonal_solve(
                  diagonals, rhs, name=name, partial_pivoting=partial_pivoting,
                  perturb_singular=perturb_singular))


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """X with A @ X = rhs for tridiagonal A given by its diagonals ('compact' [..., 3, M],
    'sequence', or 'matrix'); rhs [..., M, K] or [..., M] (then X is [..., M]).
    transpose_rhs / conjugate_rhs apply to rhs first. LAPACK's gtsv pivots partially either way;
    a singular matrix raises naming its batch index. perturb_singular=True (which needs
    partial_pivoting) gives the same solution for a nonsingular matrix; for a singular one
    TensorFlow perturbs the pivots, which wengert refuses (NotImplementedError)."""
    if perturb_singular and not partial_pivoting:
        raise ValueError("tridiagonal_solve: partial_pivoting must be True if perturb_singular "
                         "is.")
    compact = _compact(diagonals, diagonals_format, "TridiagonalSolve")
    b = linalg_input(rhs, "TridiagonalSolve", "rhs")
    if transpose_rhs:
        b = matrix_transpose(b)
    if conjugate_rhs:
        b = conj_if_complex(b)
    vector = (b.shape.rank is not None and compact.shape.rank is not None
              and b.shape.rank == compact.shape.rank - 1)
    if vector:
        b = expand_dims(b, -1)
    attrs = {"partial_pivoting": bool(partial_pivoting),
             "perturb_singular": bool(perturb_singular)}
    try:
        _solve_rule(compact, b, **attrs)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"TridiagonalSolve: {err.message}") from None
    out = execute(SOLVE, (compact, b), attrs, name=name)
    return out[..., 0] if vector else out
