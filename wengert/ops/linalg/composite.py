"""tf.linalg functions that TensorFlow itself composes from other ops (linalg_impl.py), so their
derivatives come from those ops: lu_solve, lu_reconstruct, lu_matrix_inverse, eigh_tridiagonal.

With `lower_upper, perm = lu(A)` (gather(A, perm, axis=-2) = L U, L unit lower triangular in the
strictly lower part of lower_upper, U its upper triangle):
    lu_solve(lower_upper, perm, B) = U^{-1} L^{-1} gather(B, perm)      (two triangular solves)
    lu_reconstruct(lower_upper, perm) = gather(L U, inverse(perm))
    lu_matrix_inverse(lower_upper, perm) = lu_solve(lower_upper, perm, I)
They differentiate in lower_upper and B through the triangular solves and products (the Lu op
itself has no gradient, as in TensorFlow). `eigh_tridiagonal(alpha, beta)` builds the Hermitian
tridiagonal matrix with diagonal alpha and subdiagonal beta and hands it to eigh, so it has
eigh's derivative (TensorFlow uses bisection for the values; the values agree).
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.tensor import array_of, convert_to_tensor
from ...framework.context import op_scope
from ..broadcast_ops import broadcast_to, ones_like
from ..cast_ops import cast
from ..creation_ops import eye, shape as shape_of
from ..indexing_ops import boolean_mask, gather
from .common import conj_if_complex, linalg_input, mm
from .decompositions import eigh, eigvalsh
from .solves import triangular_solve
from .tridiagonal_bisection import bisection_eigenvalues
from ..io.script import numpy_function
from ..matrix_ops import band_part, diag, diag_part, set_diag
from ..sort_ops import argsort

__all__ = ["lu_solve", "lu_reconstruct", "lu_matrix_inverse", "eigh_tridiagonal"]


def _unit_lower(lower_upper):
    return set_diag(band_part(lower_upper, -1, 0), ones_like(diag_part(lower_upper)))


def _permute_rows(x, perm):
    """gather(x, perm, axis=-2) with perm's batch dimensions paired with x's."""
    batch_dims = (perm.shape.rank or 1) - 1
    return gather(x, perm, axis=-2, batch_dims=batch_dims)


def _with_batch(x, like):
    """x broadcast to the batch dimensions of `like` (static shapes)."""
    if like.shape.rank is None or x.shape.rank is None:
        return x  # batch dimensions unknown while building: the kernels broadcast them
    want = tuple(like.shape[:-2]) + tuple(x.shape[-2:])
    if tuple(x.shape) == want or None in want:
        return x
    return broadcast_to(x, want)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A @ X = rhs, from A's factorization `lower_upper, perm = lu(A)`."""
    lu_ = linalg_input(lower_upper, "lu_solve", "lower_upper")
    p = convert_to_tensor(perm)
    b = _with_batch(linalg_input(rhs, "lu_solve", "rhs"), lu_)
    if validate_args:
        _check_permutation(p)
    y = triangular_solve(_unit_lower(lu_), _permute_rows(b, p), lower=True)
    return triangular_solve(lu_, y, lower=False, name=name)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix A whose factorization is `lower_upper, perm` (the inverse of `lu`)."""
    with op_scope(name, "lu_reconstruct"):
        lu_ = linalg_input(lower_upper, "lu_reconstruct", "lower_upper")
        p = convert_to_tensor(perm)
        if validate_args:
            _check_permutation(p)
        product = mm(_unit_lower(lu_), band_part(lu_, 0, -1))
        return _permute_rows(product, argsort(p, axis=-1))


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """A^{-1} from A's factorization `lower_upper, perm = lu(A)`."""
    lu_ = linalg_input(lower_upper, "lu_matrix_inverse", "lower_upper")
    if lu_.shape.rank is not None and lu_.shape.rank < 2:
        raise InvalidArgumentError(f"lu_matrix_inverse: lower_upper must be a matrix or a batch "
                                   f"of matrices (rank >= 2), got shape {lu_.shape}.")
    if lu_.shape.rank is None or not lu_.shape.is_fully_defined():  # read when the graph runs
        size = shape_of(lu_)
        identity = eye(size[-1], batch_shape=size[:-2], dtype=lu_.dtype)
    else:
        identity = eye(lu_.shape[-1], batch_shape=tuple(lu_.shape[:-2]), dtype=lu_.dtype)
    return lu_solve(lu_, perm, identity, validate_args=validate_args, name=name)


def _check_permutation(perm):
    value = array_of(perm)
    if value is None:
        return
    n = value.shape[-1]
    if not np.all(np.sort(value, axis=-1) == np.arange(n)):
        raise InvalidArgumentError(f"perm must be a permutation of 0..{n - 1} along its last "
                                   f"axis, got {value.tolist()}.")


def _bisected(a, b, tol, select, select_range):
    """TensorFlow's bisection eigenvalues of the tridiagonal (alpha, beta), computed when the
    op runs (no gradient flows through a bisection's midpoints, in TensorFlow either)."""
    real = a.dtype.real_dtype if a.dtype.is_complex else a.dtype
    return numpy_function(lambda x, y: bisection_eigenvalues(x, y, float(tol), select,
                                                             select_range), [a, b], real)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """Eigenvalues (ascending) and, unless eigvals_only, eigenvectors of the Hermitian
    tridiagonal matrix with diagonal `alpha` [n] and subdiagonal `beta` [n - 1]. select: 'a'
    all, 'i' the indices select_range = [lo, hi] (inclusive), 'v' the eigenvalues in
    (lo, hi]. Given `tol`, the eigenvalues are TensorFlow's bisection to within
    max(tol, eps |T|) (tridiagonal_bisection.py), its very numbers; without it, exact."""
    with op_scope(name, "eigh_tridiagonal"):
        a = linalg_input(alpha, "eigh_tridiagonal", "alpha")
        b = linalg_input(beta, "eigh_tridiagonal", "beta")
        if a.shape.rank is None or b.shape.rank is None:
            raise TypeError(f"eigh_tridiagonal: alpha and beta must be vectors whose rank is known "
                            f"while the graph is built, got shapes {a.shape} and {b.shape}; give "
                            "the placeholders the shapes [n] and [n - 1] (TensorFlow raises "
                            "TypeError too).")
        if a.shape.rank != 1 or b.shape.rank != 1:
            raise InvalidArgumentError(f"eigh_tridiagonal: alpha and beta must be vectors, got "
                                       f"shapes {a.shape} and {b.shape}.")
        if a.shape[0] is not None and b.shape[0] is not None and b.shape[0] != a.shape[0] - 1:
            raise InvalidArgumentError(f"eigh_tridiagonal: beta must have one entry fewer than "
                                       f"alpha, got shapes {a.shape} and {b.shape}.")
        if select not in ("a", "i", "v"):
            raise ValueError(f"eigh_tridiagonal: select must be 'a', 'i' or 'v', got {select!r}.")
        if a.dtype != b.dtype and getattr(b.dtype, "is_complex", False):
            a = cast(a, b.dtype)  # a real diagonal with a complex subdiagonal
        matrix = diag(a) + diag(b, k=-1) + diag(conj_if_complex(b), k=1)
        if eigvals_only:
            values, vectors = eigvalsh(matrix), None
        else:
            values, vectors = eigh(matrix)
        if select != "a":
            lo, hi = select_range
        if select == "i":
            values = values[int(lo):int(hi) + 1]
            vectors = None if vectors is None else vectors[:, int(lo):int(hi) + 1]
        elif select == "v":
            keep = (values > lo) & (values <= hi)
            values = boolean_mask(values, keep)
            vectors = None if vectors is None else boolean_mask(vectors, keep, axis=1)
        if tol:  # TensorFlow's bisection to within tol (the vectors stay the exact ones)
            values = _bisected(a, b, tol, select, select_range)
        return values if eigvals_only else (values, vectors)
        lo, hi = select_range
        if tol:
            keep = None if select == "i" else (lambda v: (v > lo) & (v <= hi))
        if select == "i":
            values = values if tol else values[int(lo):int(hi) + 1]
            vectors = None if vectors is None else vectors[:, int(lo):int(hi) + 1]
        else:
            keep = (values > lo) & (values <= hi)
            values = boolean_mask(values, keep)
            vectors = None if vectors is None else boolean_mask(vectors, keep, axis=1)
        return values if eigvals_only else (values, vectors)
