"""Norms: tf.norm / tf.linalg.norm and tf.linalg.normalize, compositions of other ops.

Vector norms (axis None: the whole tensor as one vector, or an int): 'euclidean' (= 2)
sqrt(sum |x|^2), whose gradient x / norm is NaN where the norm is 0 (as in TensorFlow); 1: sum |x|;
inf: max |x| (the gradient split among ties, as reduce_max does); any p > 0: (sum |x|^p)^(1/p).
Matrix norms (axis a pair): 'fro'/'euclidean' over both axes; 1 the largest column sum and inf the
largest row sum of |x|; 2 the spectral norm, the largest singular value s_1 (TensorFlow computes
it with an SVD, so does this), whose gradient is u_1 v_1^H for a distinct largest value; with an
unknown rank the two axes move last through an einsum.
`normalize` returns (x / norm, norm) with the norm kept for broadcasting.
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..cast_ops import cast
from ..einsum_ops import axes_mover, einsum
from ..reshape_ops import expand_dims, transpose
from .decompositions import svd
from ..reduce_ops import reduce_euclidean_norm, reduce_max, reduce_sum
from ..unary_ops import abs as abs_

__all__ = ["norm", "normalize"]


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norm (axis None or an int) or matrix norm (axis a pair of ints).

    ord: 'euclidean' (and 2 for vectors), 'fro' (the same sum over a matrix), 1, np.inf, 2 for
    the spectral norm of a matrix, or a positive number p for vectors."""
    x = convert_to_tensor(tensor)
    if not (x.dtype.is_floating or getattr(x.dtype, "is_complex", False)):
        raise TypeError(f"norm: input must be floating point or complex, got {x.dtype.name}; "
                        "cast it.")
    keepdims = bool(keepdims)
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    entries = axis if isinstance(axis, (list, tuple)) else [axis]
    if axis is not None and not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool)
                                    for a in entries):
        raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                         f"integers, got {axis!r}.")
    matrix = axis is not None and not isinstance(axis, (int, np.integer))
    if matrix and len(axis) != 2:
        raise ValueError(f"norm: axis must be None, an int or a pair of ints, got {axis!r}.")
    rank = x.shape.rank
    if matrix and (axis[0] % rank == axis[1] % rank if rank else axis[0] == axis[1]):
        raise ValueError(f"norm: the two axes of a matrix norm must differ, got {axis!r}.")
    if ord in ("euclidean", "fro") or (ord == 2 and not matrix):
        if ord == "fro" and not matrix and axis is not None:
            raise ValueError("norm: ord='fro' needs axis=None or a pair of axes (a matrix norm).")
        return reduce_euclidean_norm(x, axis, keepdims, name=name)
    if matrix:
        return _matrix_norm(x, ord, list(axis), keepdims, name)
    return _vector_norm(x, ord, axis, keepdims, name)


def _vector_norm(x, ord, axis, keepdims, name):  # noqa: A002
    if ord == 1:
        return reduce_sum(abs_(x), axis, keepdims, name=name)
    if ord == np.inf:
        return reduce_max(abs_(x), axis, keepdims, name=name)
    if isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord > 0:
        magnitude = abs_(x)
        p = magnitude.dtype.as_numpy_dtype(ord)
        return reduce_sum(magnitude ** p, axis, keepdims) ** (1 / p)
    raise ValueError(f"norm: ord must be 'euclidean', 1, 2, np.inf or a positive number for a "
                     f"vector norm, got {ord!r}.")


def _matrix_norm(x, ord, axis, keepdims, name):  # noqa: A002
    rows, cols = axis
    if ord == 2:
        if x.shape.rank is None:
            return _spectral_norm_unknown_rank(x, rows, cols, keepdims)
        return _spectral_norm(x, rows, cols, keepdims, name)
    if ord == 1:      # largest column sum
        sums, top = rows, cols
    elif ord == np.inf:  # largest row sum
        sums, top = cols, rows
    else:
        raise ValueError(f"norm: ord must be 'fro', 'euclidean', 1, 2 or np.inf for a matrix "
                         f"norm, got {ord!r}.")
    out = reduce_max(reduce_sum(abs_(x), sums, keepdims=True), top, keepdims=True)
    if keepdims:
        return out
    return reduce_sum(out, [rows, cols], name=name)  # drops the two size-1 axes


def _spectral_norm(x, rows, cols, keepdims, name):
    rank = x.shape.rank
    rows, cols = rows % rank, cols % rank
    rest = [a for a in range(rank) if a not in (rows, cols)]
    moved = transpose(x, rest + [rows, cols])
    largest = reduce_max(svd(moved, compute_uv=False), axis=-1)
    if not keepdims:
        return largest
    for a in sorted((rows, cols)):
        largest = expand_dims(largest, a)
    return largest


def _spectral_norm_unknown_rank(x, rows, cols, keepdims):
    """The spectral norm of a tensor of unknown rank: its two axes (both counted from the start
    or both from the end) moved last by an einsum whose ellipsis stands for the others."""
    moved = einsum(axes_mover([rows, cols], True, "norm"), x)
    largest = reduce_max(svd(moved, compute_uv=False), axis=-1)
    if not keepdims:
        return largest
    for a in sorted((rows, cols), reverse=rows < 0):
        largest = expand_dims(largest, a)
    return largest


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / norm, norm), the norm taken as `norm` does, with keepdims=True."""
    with op_scope(name, "normalize"):
        x = convert_to_tensor(tensor)
        magnitude = norm(x, ord=ord, axis=axis, keepdims=True)
        if magnitude.dtype != x.dtype:
            return x / cast(magnitude, x.dtype), magnitude
        return x / magnitude, magnitude
