"""`keras.ops.linalg`: Keras 3's linear algebra over wengert's tf.linalg ops, with the TensorFlow
backend's conventions and TensorFlow's gradients.

cholesky(x, upper) = L (or L^H); cholesky_inverse(c) = (c c^H)^{-1} from the factor c, by one
triangular solve: with W = c^{-1}, the inverse is W^H W (lower c) or W W^H (upper c).
svd(x) = (u, s, vh) with x = u diag(s) vh (full matrices by default); qr(x, mode) is reduced or
complete; lu_factor(x) = (lu, p) with the row permutation p as NumPy/SciPy give it (the inverse
of TensorFlow's); solve and solve_triangular accept a vector right-hand side. norm(x, ord, axis)
is NumPy's vector (axis an int) or matrix (axis a pair) norm, computed in float (int64 in floatx):
ord None/2: sqrt(sum |x|^2); inf/-inf: max/min |x|; 0: the count of non-zeros; p: (sum |x|^p)^(1/p);
for matrices "fro", 1/-1 (max/min column sum), inf/-inf (max/min row sum), 2/-2/"nuc" (max, min,
sum of the singular values). lstsq(a, b, rcond) is the minimum-norm least-squares solution from
the SVD, dropping singular values below rcond * s_max (rcond defaults to eps max(m, n)).
jvp(f, primals, tangents) is forward mode (ForwardAccumulator).
"""
import numpy as np

from ...util import nest
from ...autodiff.transforms import jvp as _jvp
from ...ops.array_ops import where
from ...ops.broadcast_ops import ones_like, zeros_like
from ...ops.cast_ops import cast
from ...ops.complex_ops import abs as _abs, conj
from ...ops.creation_ops import eye, shape as dynamic_shape
from ...ops.linalg.decompositions import (cholesky as _cholesky, eigh as _eigh, lu as _lu,
                                          qr as _qr, svd as _svd)
from ...ops.linalg.eig import eig as _eig
from ...ops.linalg.least_squares import matrix_rank as _matrix_rank, pinv as _pinv
from ...ops.linalg.matrix_functions import det as _det
from ...ops.linalg.solves import inv as _inv, solve as _solve, triangular_solve
from ...ops.math_ops import not_equal, pow as _pow
from ...ops.matmul_ops import adjoint, matmul
from ...ops.misc_math_ops import invert_permutation
from ...ops.reduce_ops import reduce_max, reduce_min, reduce_sum
from ...ops.reshape_ops import expand_dims, reshape, squeeze, transpose
from ...ops.unary_ops import sqrt
from .. import backend
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "lu_factor", "norm",
           "qr", "solve", "solve_triangular", "svd", "lstsq", "matrix_rank", "pinv", "jvp"]


def cholesky(x, upper=False):
    """The Cholesky factor L of a Hermitian positive-definite x (L^H when upper)."""
    out = _cholesky(convert_to_tensor(x))
    return adjoint(out) if upper else out


def cholesky_inverse(x, upper=False):
    """The inverse of c c^H (lower) or c^H c (upper) from the Cholesky factor c = x."""
    x = convert_to_tensor(x)
    identity = eye(dynamic_shape(x)[-1], dtype=x.dtype)
    w = triangular_solve(x, identity, lower=not upper)
    return matmul(w, w, adjoint_b=True) if upper else matmul(w, w, adjoint_a=True)


def det(x):
    return _det(convert_to_tensor(x))


def eig(x):
    """(eigenvalues, eigenvectors) of a general square x (complex)."""
    return _eig(convert_to_tensor(x))


def eigh(x):
    """(eigenvalues ascending, eigenvectors) of a Hermitian x."""
    return _eigh(convert_to_tensor(x))


def inv(x):
    return _inv(convert_to_tensor(x))


def lu_factor(x):
    """(lu, p): the packed LU factors and the row permutation (NumPy's convention)."""
    lu, p = _lu(convert_to_tensor(x))
    return lu, invert_permutation(p)


def qr(x, mode="reduced"):
    """(q, r) of x, reduced or complete."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete'; got {mode!r}.")
    return _qr(convert_to_tensor(x), full_matrices=mode == "complete")


def _vector_rhs(a, b, fn):
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if b.shape.rank == a.shape.rank - 1:
        return squeeze(fn(a, expand_dims(b, -1)), [-1])
    return fn(a, b)


def solve(a, b):
    """x with a x = b (b a matrix or a vector)."""
    return _vector_rhs(a, b, _solve)


def solve_triangular(a, b, lower=False):
    """x with a x = b for triangular a (upper unless lower=True)."""
    return _vector_rhs(a, b, lambda m, r: triangular_solve(m, r, lower=lower))


def svd(x, full_matrices=True, compute_uv=True):
    """(u, s, vh) with x = u diag(s) vh; only s when compute_uv is False."""
    x = convert_to_tensor(x)
    if not compute_uv:
        return _svd(x, full_matrices=full_matrices, compute_uv=False)
    s, u, v = _svd(x, full_matrices=full_matrices, compute_uv=True)
    return u, s, adjoint(v)


def matrix_rank(x, tol=None):
    return _matrix_rank(convert_to_tensor(x), tol=tol)


def pinv(x, rcond=None):
    return _pinv(convert_to_tensor(x), rcond=rcond)


def lstsq(a, b, rcond=None):
    """The minimum-norm least-squares solution of a x = b for a 2-D a (b 1-D or 2-D)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if a.shape.rank != 2:
        raise TypeError(f"lstsq: {a.shape.rank}-dimensional array given; a must be "
                        "two-dimensional.")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"lstsq: the leading dimensions of a {a.shape} and b {b.shape} must "
                         "match.")
    vector = b.shape.rank == 1
    b = b[:, None] if vector else b
    if b.shape.rank != 2:
        raise TypeError(f"lstsq: {b.shape.rank}-dimensional b given; b must be one- or "
                        "two-dimensional.")
    m, n = a.shape
    eps = float(np.finfo(a.dtype.as_numpy_dtype).eps)
    rcond = eps * max(n, m) if rcond is None else (eps if rcond < 0 else rcond)
    u, s, vh = svd(a, full_matrices=False)
    keep = s >= cast(rcond, s.dtype) * s[0]
    safe = where(keep, s, ones_like(s))
    s_inv = where(keep, cast(1.0, s.dtype) / safe, zeros_like(s))[:, None]
    x = matmul(adjoint(vh), cast(s_inv, a.dtype) * matmul(adjoint(u), b))
    return reshape(x, [-1]) if vector else x


def _float(x):
    x = convert_to_tensor(x)
    dtype = backend.floatx() if x.dtype.name == "int64" else result_type(x.dtype.name, float)
    return cast(x, dtype)


def _vector_norm(x, ord, axis, keepdims):  # noqa: A002 (NumPy's name)
    if ord is None or ord == 2:
        return sqrt(reduce_sum(x * conj(x), axis=axis, keepdims=keepdims))
    if ord == float("inf"):
        return reduce_max(_abs(x), axis=axis, keepdims=keepdims)
    if ord == float("-inf"):
        return reduce_min(_abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return reduce_sum(cast(not_equal(x, 0), x.dtype), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid ord {ord!r} for a vector norm.")
    p = cast(ord, x.dtype)
    return _pow(reduce_sum(_pow(_abs(x), p), axis=axis, keepdims=keepdims), 1.0 / p)


def _line_sums(x, inner, outer, keepdims, reduce):
    if not keepdims and outer > inner:
        outer -= 1
    return reduce(reduce_sum(_abs(x), axis=inner, keepdims=keepdims), axis=outer,
                  keepdims=keepdims)


def _matrix_norm(x, ord, axis, keepdims):  # noqa: A002
    rank = x.shape.rank
    rows, cols = (a % rank for a in axis)
    if ord is None or ord == "fro":
        return sqrt(reduce_sum(x * conj(x), axis=[rows, cols], keepdims=keepdims))
    line = {1: (rows, cols, reduce_max), -1: (rows, cols, reduce_min),
            float("inf"): (cols, rows, reduce_max), float("-inf"): (cols, rows, reduce_min)}
    if ord in line:
        inner, outer, reduce = line[ord]
        return _line_sums(x, inner, outer, keepdims, reduce)
    if ord not in ("nuc", 2, -2):
        raise ValueError(f"norm: invalid ord {ord!r} for a matrix norm.")
    order = [a for a in range(rank) if a not in (rows, cols)] + [rows, cols]
    s = _svd(transpose(x, order), compute_uv=False)
    out = {2: reduce_max, -2: reduce_min, "nuc": reduce_sum}[ord](s, axis=-1)
    if keepdims:
        out = expand_dims(expand_dims(out, min(rows, cols)), max(rows, cols))
    return out


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 (NumPy's name)
    """NumPy's vector or matrix norm of x (see the module docstring)."""
    x = _float(x)
    rank = x.shape.rank
    axes = tuple(range(rank)) if axis is None else (axis,) if isinstance(axis, int) else tuple(
        axis)
    if any(a < -rank or a >= rank for a in axes):
        raise ValueError(f"norm: every axis must be in [-ndim, ndim); got ndim={rank}, "
                         f"axis={axis}.")
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError(f"norm: invalid axis {axis!r} (one axis for a vector norm, two for a "
                     "matrix norm).")


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), its directional derivative along tangents[, aux]), by forward mode."""
    flat = [convert_to_tensor(p) for p in nest.flatten(primals)]
    flat_t = [cast(convert_to_tensor(t), p.dtype) for t, p in zip(nest.flatten(tangents), flat)]
    primals = nest.pack_sequence_as(primals, flat)
    tangents = nest.pack_sequence_as(tangents, flat_t)
    return _jvp(fun, tuple(primals), tuple(tangents), has_aux=has_aux)
