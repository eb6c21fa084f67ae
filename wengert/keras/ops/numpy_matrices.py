"""Keras 3's matrix structure: diagonals (`diag`, `diagflat`, `diagonal`, `trace`), triangles
(`tril`, `triu`) and the Vandermonde matrix (`vander`).

Diagonal k of a matrix holds the entries (i, i + k). `diagonal` moves axis1 and axis2 last and
reads diagonal `offset` from the matrices there; `tril`/`triu` keep the entries on and below /
above diagonal k of the last two axes and zero the rest. The gradients scatter back to the
diagonal or mask with the same triangle.

    trace(x) = sum_i x[i, i + offset]      vander(x)[i, j] = x[i] ** (N - 1 - j)  (or ** j)
"""
from ...ops import array_ops, math_ops, reduce_ops
from ...ops.broadcast_ops import zeros_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import range as tf_range, zeros as tf_zeros
from ...ops.matrix_ops import diag as tf_diag, diag_part
from ...ops.reshape_ops import expand_dims, reshape
from .dtypes import convert, result_type
from .numpy_shapes import moveaxis

__all__ = ["diag", "diagflat", "diagonal", "trace", "tril", "triu", "vander"]

_WIDENED = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32",
            "uint16": "uint32"}


def diag(x, k=0):
    """The matrix with 1-D x on diagonal k, or diagonal k of 2-D x."""
    x = convert(x)
    if x.shape.rank == 1:
        return tf_diag(x, k=k)
    if x.shape.rank == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"keras.ops.diag: x must be 1-D or 2-D; got shape {tuple(x.shape)}.")


def diagflat(x, k=0):
    """The matrix with the flattened x on diagonal k."""
    return diag(reshape(convert(x), [-1]), k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """Diagonal `offset` of the matrices in the plane of axis1 and axis2, as the last axis."""
    x = moveaxis(convert(x), (axis1, axis2), (-2, -1))
    rows, cols = x.shape[-2], x.shape[-1]
    if offset <= -rows or offset >= cols:
        return tf_zeros(list(x.shape[:-2]) + [0], dtype=x.dtype.name)
    return diag_part(x, k=offset)


def _band(x, k, lower):
    """x where the column minus the row is <= k (lower) or >= k (upper), zero elsewhere."""
    x = convert(x)
    rows = expand_dims(tf_range(x.shape[-2], dtype="int32"), 1)
    cols = expand_dims(tf_range(x.shape[-1], dtype="int32"), 0)
    offset = math_ops.subtract(cols, rows)
    keep = math_ops.less_equal(offset, k) if lower else math_ops.greater_equal(offset, k)
    return array_ops.where(keep, x, zeros_like(x))


def tril(x, k=0):
    """The lower triangle of the last two axes: entries on and below diagonal k."""
    return _band(x, k, lower=True)


def triu(x, k=0):
    """The upper triangle of the last two axes: entries on and above diagonal k."""
    return _band(x, k, lower=False)


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of diagonal `offset` in the plane of axis1 and axis2 (small integers and bools
    sum in int32/uint32)."""
    x = convert(x)
    wide = _WIDENED.get(x.dtype.name)
    x = cast(x, wide) if wide else x
    return reduce_ops.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D x: columns x ** (N - 1), ..., x ** 0 (increasing
    powers when `increasing`)."""
    x = convert(x)
    count = x.shape[0] if N is None else N
    powers = tf_range(count) if increasing else tf_range(count - 1, -1, -1)
    compute = result_type(x.dtype.name, "float32")
    table = math_ops.pow(expand_dims(cast(x, compute), -1), cast(powers, compute))
    return cast(table, x.dtype.name)
