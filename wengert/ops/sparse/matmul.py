"""`tf.sparse.sparse_dense_matmul`: the product of a sparse matrix and a dense one.

The op (SparseTensorDenseMatMul, inputs a_indices [N, 2], a_values [N], a_shape [2], b) computes
C = op(A) @ op(B), op being the adjoint where `adjoint_a`/`adjoint_b` say so, without building A:
each entry (r, c, v) of A adds v * op(B)[c, :] to row r of C (with the adjoint, (c, r, conj v)).

Derivatives (TensorFlow's rule). With G the incoming gradient,
    d/dB      = op_A^H G, the same op with adjoint_a flipped (then adjointed when adjoint_b);
    d/dv_k    = sum_j G[r_k, j] conj(op(B)[c_k, j])    (r and c swapped and conjugated with
                                                       adjoint_a),
the second a gather of G's rows and op(B)'s rows, multiplied and summed. The op is bilinear in
(values, b), so its JVP is the product rule.

`sampled_addmm` (TensorFlow's composition, here too) computes only the entries of mat1 @ mat2
at given indices: out_k = alpha sum_j mat1[..., r_k, j] mat2[..., j, c_k] + beta values_k, the
rows and columns gathered (with batch dimensions) and multiplied elementwise.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, multilinear
from ...framework.sparse_tensor import SparseTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..complex_parts import conj
from ..array_ops import concat
from ..cast_ops import cast
from ..indexing_ops import gather, gather_nd
from ..matmul_ops import matrix_transpose
from ..reduce_ops import reduce_sum
from ..reshape_ops import transpose

__all__ = ["sparse_dense_matmul", "sampled_addmm"]

_OP = "SparseTensorDenseMatMul"


def _operand(b, adjoint_b):
    return np.conj(b).T if adjoint_b else b


def _matmul_kernel(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False):
    rows, cols = (1, 0) if adjoint_a else (0, 1)
    m, k = int(a_shape[rows]), int(a_shape[cols])
    rhs = _operand(b, adjoint_b)
    if rhs.shape[0] != k:
        raise InvalidArgumentError(
            f"{_OP}: Cannot multiply A and B because inner dimension does not match: {k} vs. "
            f"{rhs.shape[0]}.  Did you forget a transpose?  Dimensions of A: "
            f"{[int(d) for d in a_shape]}.  Dimensions of B: {list(b.shape)}")
    for what, col, bound in (("m", rows, m), ("k", cols, k)):
        bad = (a_indices[:, col] < 0) | (a_indices[:, col] >= bound)
        if bad.any():
            i = int(np.argmax(bad))
            raise InvalidArgumentError(f"{_OP}: {what} ({int(a_indices[i, col])}) from "
                                       f"index[{i},{col}] out of bounds (>={bound})")
    values = np.conj(a_values) if adjoint_a else a_values
    out = np.zeros((m, rhs.shape[1]), np.result_type(a_values, b))
    np.add.at(out, a_indices[:, rows], values[:, None] * rhs[a_indices[:, cols]])
    return out


def _matmul_rule(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False):
    if b.shape.rank not in (None, 2):
        raise ValueError(f"{_OP}: b must be a matrix, got shape {b.shape}.")
    shape = static_value(a_shape)
    m = None if shape is None else int(shape[1 if adjoint_a else 0])
    n = b.shape[0 if adjoint_b else 1] if b.shape.rank == 2 else None
    return TensorShape([m, n]), b.dtype


def _matmul_grad(op, grad):
    a_indices, a_values, a_shape, b = op.inputs
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    b_grad = execute(SPARSE_DENSE_MATMUL, (a_indices, a_values, a_shape, grad),
                     {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = matrix_transpose(b_grad, conjugate=True)
    rows, cols = a_indices[:, 0], a_indices[:, 1]
    rhs = transpose(b) if adj_b else conj(b)
    parts_g = gather(grad, cols if adj_a else rows)
    parts_b = gather(rhs, rows if adj_a else cols)
    values_grad = reduce_sum(parts_g * parts_b, axis=1)
    return None, conj(values_grad) if adj_a else values_grad, None, b_grad


SPARSE_DENSE_MATMUL = defop(
    _OP, _matmul_kernel, shape=_matmul_rule, grad=_matmul_grad, jvp=multilinear,
    raw=lambda a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False, name=None:
    _product(a_indices, a_values, a_shape, b, adjoint_a, adjoint_b, name))


def _product(indices, values, shape, b, adjoint_a, adjoint_b, name):
    indices = convert_to_tensor(indices, dtype_hint=dtypes.int64)
    shape = convert_to_tensor(shape, dtype_hint=dtypes.int64)
    values = convert_to_tensor(values)
    b = convert_to_tensor(b, dtype_hint=values.dtype)
    if shape.shape.rank == 1 and shape.shape[0] not in (None, 2):
        raise ValueError(f"sparse_dense_matmul: the sparse operand must be a matrix (rank 2), "
                         f"got dense_shape of {shape.shape[0]} dimensions.")
    return execute(SPARSE_DENSE_MATMUL, (indices, values, shape, b),
                   {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """op(sp_a) @ op(b) as a dense tensor, op being the adjoint where asked. Either operand may
    be the SparseTensor (a dense `sp_a` with a sparse `b` is computed as the transpose of the
    product the other way round, as TensorFlow does)."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        both = not adjoint_b
        product = sparse_dense_matmul(b, sp_a, adjoint_a=both, adjoint_b=both)
        return transpose(product, name=name)
    if not isinstance(sp_a, SparseTensor):
        raise TypeError(f"sparse_dense_matmul: sp_a must be a SparseTensor, got "
                        f"{type(sp_a).__name__}; build one with tf.sparse.from_dense.")
    return _product(sp_a.indices, sp_a.values, sp_a.dense_shape, b, adjoint_a, adjoint_b, name)


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=dtypes.float32):
    """(indices, alpha (mat1 @ mat2) at indices + beta values, dense_shape): the product's
    entries at `indices` only ([..., N, 2] row and column per entry, with batch dimensions)."""
    indices = convert_to_tensor(indices)
    values = convert_to_tensor(values, dtype=output_type)
    dense_shape = cast(convert_to_tensor(dense_shape), dtypes.int32)
    mat1 = convert_to_tensor(mat1, dtype=output_type)
    mat2 = convert_to_tensor(mat2, dtype=output_type)
    if mat1.shape.rank is None or mat1.shape.rank < 2:
        raise ValueError(f"sampled_addmm: mat1 must have rank 2 or more, got shape {mat1.shape}.")
    want = [mat1.shape[-2], mat2.shape[-1]]
    known = static_value(dense_shape)
    if known is not None and None not in want and list(np.ravel(known)) != want:
        raise ValueError(f"Dense shape: {np.ravel(known).tolist()} does not match output "
                         f"shape: {want}")
    batch_dims = mat1.shape.rank - 2
    rows = gather_nd(mat1, indices[..., :-1], batch_dims=batch_dims)
    cols = gather_nd(matrix_transpose(mat2),
                     concat([indices[..., :-2], indices[..., -1:]], axis=-1),
                     batch_dims=batch_dims)
    dot = reduce_sum(rows * cols, axis=-1)
    return indices, dot * alpha + values * beta, dense_shape
