"""Matrix products: matmul, matvec, matrix_transpose, adjoint, trace.

`matmul` of two matrices is the "MatMul" op; with a batch dimension on either side it is
"BatchMatMulV2", whose batch dimensions broadcast like NumPy's. With an `output_type` other than
the operands' dtype it is "BatchMatMulV3", which TensorFlow runs only for (u)int8 operands and an
int32 product, computed in int32 so that it never wraps around (no gradient: integers). For C = op(A) op(B), where op is an
optional transpose (adjoint: the conjugate transpose, the same for real numbers), the derivatives are matrix products again
(TensorFlow's `_MatMulGrad`), computed with the transpose flags instead of transposed copies:

    C = A B:      dA = G B^T,     dB = A^T G        C = A B^T:    dA = G B,       dB = G^T A
    C = A^T B:    dA = B G^T,     dB = A G          C = A^T B^T:  dA = B^T G^T,   dB = G^T A^T

A batched product returns gradients of the broadcast batch shape; the reverse pass sums them back.

`matvec` is an einsum (einsum_ops.py); `matrix_transpose` is a Transpose, and `adjoint` the
conjugating one.

`trace` sums a diagonal (matrix_ops.diag_part); norms live in linalg/norms.py.
"""

import numpy as np

from ..framework import dtypes, intra_op_threads
from ..framework.context import state
from ..framework.errors import InvalidArgumentError, NotFoundError
from ..framework.execute import binary_operands, execute, named_operands
from ..framework.registry import defop, multilinear, needs_grad
from ..framework.tensor import array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .complex_parts import conj_if_complex
from .einsum_ops import einsum
from .matrix_ops import diag, diag_part, set_diag
from .reduce_ops import reduce_sum
from .reshape_ops import transpose

__all__ = ["matmul", "matvec", "matrix_transpose", "diag_part", "set_diag", "diag",
           "trace"]


# -- matmul ---------------------------------------------------------------------------------------
def _matmul_kernel(a, b, transpose_a, transpose_b):
    """Split between the cores by blocks of the result (framework/intra_op_threads.py)."""
    return intra_op_threads.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _adjoint(x):
    """The conjugate transpose of the last two axes (the transpose, for real numbers)."""
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


def _batch_matmul_kernel(x, y, adj_x, adj_y):
    """The stack is split between the cores, each product on one BLAS thread
    (framework/intra_op_threads.py: attention's small products, 40 ms -> 1.5 ms under load)."""
    return intra_op_threads.matmul(_adjoint(x) if adj_x else x, _adjoint(y) if adj_y else y)


def _inner_dims_error(a, b, ta, tb):
    k_a = a.shape[-2] if ta else a.shape[-1]
    k_b = b.shape[-1] if tb else b.shape[-2]
    return InvalidArgumentError(
        f"inner dimensions differ: a is {a.shape.as_list()}"
        f"{' (transposed)' if ta else ''}, b is {b.shape.as_list()}"
        f"{' (transposed)' if tb else ''}; the {'rows' if ta else 'columns'} of a ({k_a}) must "
        f"equal the {'columns' if tb else 'rows'} of b ({k_b}). Transpose an operand "
        "(transpose_a/transpose_b) or fix its shape.")


def _matmul_rule(a, b, transpose_a, transpose_b):
    shape_rules.check_same_dtype(a, b)
    for t, label in ((a, "a"), (b, "b")):
        if t.shape.rank is not None and t.shape.rank != 2:
            raise InvalidArgumentError(f"{label} must be a matrix (rank 2), got shape "
                                       f"{t.shape}.")
    if a.shape.rank is None or b.shape.rank is None:
        return TensorShape([None, None]), a.dtype
    m, k_a = (a.shape[1], a.shape[0]) if transpose_a else (a.shape[0], a.shape[1])
    k_b, n = (b.shape[1], b.shape[0]) if transpose_b else (b.shape[0], b.shape[1])
    if k_a is not None and k_b is not None and k_a != k_b:
        raise _inner_dims_error(a, b, transpose_a, transpose_b)
    return TensorShape([m, n]), a.dtype


def _batch_matmul_rule(x, y, adj_x, adj_y):
    shape_rules.check_same_dtype(x, y)
    if x.shape.rank is None or y.shape.rank is None:
        return TensorShape(None), x.dtype
    m = x.shape[-1] if adj_x else x.shape[-2]
    n = y.shape[-2] if adj_y else y.shape[-1]
    k_x = x.shape[-2] if adj_x else x.shape[-1]
    k_y = y.shape[-1] if adj_y else y.shape[-2]
    if k_x is not None and k_y is not None and k_x != k_y:
        raise _inner_dims_error(x, y, adj_x, adj_y)
    try:
        batch = shape_rules.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except InvalidArgumentError:
        raise InvalidArgumentError(
            f"batch dimensions of a {x.shape.as_list()} and b "
            f"{y.shape.as_list()} cannot broadcast: {x.shape[:-2]} vs {y.shape[:-2]}. Batch "
            "dimensions must be equal or 1.") from None
    return TensorShape(tuple(batch) + (m, n)), x.dtype


def _product_grads(op, grad, product, ta, tb, inputs=None):
    """TensorFlow's _MatMulGrad: both gradients as products with transpose flags."""
    a, b = inputs or op.inputs
    if not ta and not tb:
        pairs = ((grad, b, False, True), (a, grad, True, False))
    elif not ta and tb:
        pairs = ((grad, b, False, False), (grad, a, True, False))
    elif ta and not tb:
        pairs = ((b, grad, False, True), (a, grad, False, False))
    else:
        pairs = ((b, grad, True, True), (grad, a, True, True))
    return [product(*args) if needs_grad(op, i) else None for i, args in enumerate(pairs)]


def _matmul_grad(op, grad):
    """MatMul transposes without conjugating, so for complex operands the rule's products take
    conj(a) and conj(b) (TensorFlow's _MatMulGrad)."""
    return _product_grads(
        op, grad, lambda x, y, tx, ty: execute(MATMUL, (x, y), _MATMUL_ATTRS[tx, ty]),
        op.get_attr("transpose_a"), op.get_attr("transpose_b"),
        [conj_if_complex(t) for t in op.inputs])


def _batch_matmul_grad(op, grad):
    return _product_grads(
        op, grad, lambda x, y, tx, ty: execute(BATCH_MATMUL, (x, y), {"adj_x": tx, "adj_y": ty}),
        op.get_attr("adj_x"), op.get_attr("adj_y"))


def _matmul_batched(op, grad):
    """MatMul's rule transposes with `.T`; the batched product swaps only the last two axes."""
    def product(x, y, tx, ty):
        return execute(BATCH_MATMUL, (x, y), {"adj_x": tx, "adj_y": ty})
    return _product_grads(op, grad, product, op.get_attr("transpose_a"),
                          op.get_attr("transpose_b"))


def _swap_last_two(ctx, name, tensor):
    rank = ctx.rank(tensor)
    return ctx.transpose(name, list(range(rank - 2)) + [rank - 1, rank - 2])


def _matmul_onnx(ctx, op, a, b, flags=("transpose_a", "transpose_b")):
    """ONNX MatMul, after transposing the last two axes of the flagged operands."""
    if op.attrs[flags[0]]:
        a = _swap_last_two(ctx, a, op.inputs[0])
    if op.attrs[flags[1]]:
        b = _swap_last_two(ctx, b, op.inputs[1])
    return ctx.node("MatMul", [a, b])


def _matmul_vmap(op, inputs, batched):
    """MatMul over a batch of examples is BatchMatMulV2, which broadcasts an unbatched operand
    (for real operands, where transposing is the adjoint)."""
    if op.inputs[0].dtype.is_complex:
        return None
    return (execute(BATCH_MATMUL, tuple(inputs), {"adj_x": op.attrs["transpose_a"],
                                                  "adj_y": op.attrs["transpose_b"]}),)


MATMUL = defop("MatMul", _matmul_kernel, shape=_matmul_rule, grad=_matmul_grad, jvp=multilinear,
               batch=_matmul_batched, vmap=_matmul_vmap, onnx=_matmul_onnx,
               batch_accepts=lambda op: not op.inputs[0].dtype.is_complex,  # (adj_* conjugate)
               raw=lambda a, b, transpose_a=False, transpose_b=False, grad_a=False, grad_b=False,
               name=None: matmul(a, b, transpose_a, transpose_b, name=name))
BATCH_MATMUL = defop("BatchMatMulV2", _batch_matmul_kernel, shape=_batch_matmul_rule,
                     grad=_batch_matmul_grad, jvp=multilinear, batch="safe",
                     onnx=lambda ctx, op, a, b: _matmul_onnx(ctx, op, a, b, ("adj_x", "adj_y")),
                     raw=lambda x, y, adj_x=False, adj_y=False, grad_x=False, grad_y=False,
                     name=None: matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y, name=name))


_V3_PAIRS = {("int8", "int8"), ("int8", "uint8"), ("uint8", "int8"), ("uint8", "uint8")}


def _batch_matmul_v3_kernel(x, y, adj_x, adj_y, Tout):  # noqa: N803 (TensorFlow's attr name)
    out = Tout.as_numpy_dtype
    return _batch_matmul_kernel(x.astype(out), y.astype(out), adj_x, adj_y)


def _batch_matmul_v3_rule(x, y, adj_x, adj_y, Tout):  # noqa: N803
    if (x.dtype.name, y.dtype.name) not in _V3_PAIRS or Tout.name != "int32":
        raise NotFoundError(
            f"matmul with output_type={Tout.name} of {x.dtype.name} and {y.dtype.name} "
            "operands has no kernel (BatchMatMulV3 computes (u)int8 x (u)int8 -> int32 "
            "products); leave output_type out, or cast the operands first.")
    shape, _ = _batch_matmul_rule(x, y if x.dtype == y.dtype else _SameDtype(y, x.dtype),
                                  adj_x, adj_y)
    return shape, Tout


class _SameDtype:
    """A stand-in for an operand, with another operand's dtype (BatchMatMulV3 mixes dtypes)."""

    def __init__(self, t, dtype):
        self.shape, self.dtype = t.shape, dtype


BATCH_MATMUL_V3 = defop(
    "BatchMatMulV3", _batch_matmul_v3_kernel, shape=_batch_matmul_v3_rule, grad=None,
    raw=lambda x, y, Tout, adj_x=False, adj_y=False, grad_x=False, grad_y=False, name=None:
    matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y, output_type=Tout, name=name))

_MATMUL_ATTRS = {(ta, tb): {"transpose_a": ta, "transpose_b": tb}
                 for ta in (False, True) for tb in (False, True)}


def _rank(t):
    value = array_of(t)  # eager: the array's ndim, no TensorShape to build
    return value.ndim if value is not None else t.shape.rank


def _sparse_hint(a, b, what, vector_b=False):
    """a_is_sparse / b_is_sparse: TensorFlow then multiplies with SparseMatMul (float32) or
    MatMul, both for one pair of matrices: the product is the same, and batches are refused
    with TensorFlow's InvalidArgumentError."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if (a.shape.rank or 2) > 2 or (b.shape.rank or 2) > (1 if vector_b else 2):
        raise InvalidArgumentError(
            f"{what}: a_is_sparse / b_is_sparse multiply one matrix by one "
            f"{'vector' if vector_b else 'matrix'} (TensorFlow's SparseMatMul and MatMul), got "
            f"shapes {a.shape} and {b.shape}; drop the sparse hints for batches.")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """The matrix product op(a) @ op(b), op being an optional transpose (adjoint: the same for
    real numbers). Inputs of rank > 2 are batches of matrices; batch dimensions broadcast.
    a_is_sparse / b_is_sparse pick TensorFlow's sparse kernel, which gives the same product of
    two matrices and refuses batches (see _sparse_hint)."""
    if (transpose_a and adjoint_a) or (transpose_b and adjoint_b):
        raise ValueError("matmul: give transpose_x or adjoint_x, not both.")
    if a_is_sparse or b_is_sparse:
        _sparse_hint(a, b, "matmul")
    if output_type is not None:
        output_type = dtypes.as_dtype(output_type)
        a, b = convert_to_tensor(a), convert_to_tensor(b)
        if output_type != a.dtype or output_type != b.dtype:
            return _mixed_matmul(a, b, transpose_a or adjoint_a, transpose_b or adjoint_b,
                                 output_type, name)
    if state.graph is None:  # eagerly nothing is named: binary_operands, one call fewer
        a, b = binary_operands(a, b, "MatMul")
    else:
        a, b, name = named_operands(a, b, "MatMul", name, "MatMul", ("a", "b"))
    if a.dtype.is_bool:
        raise TypeError(f"MatMul: bool operands are not supported (shapes {a.shape} and "
                        f"{b.shape}); cast them to a numeric dtype.")
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    rank_a, rank_b = _rank(a), _rank(b)
    if rank_a == 2 and rank_b == 2:
        if a.dtype.is_complex:  # MatMul transposes; an adjoint conjugates first
            a = conj_if_complex(a) if adjoint_a else a
            b = conj_if_complex(b) if adjoint_b else b
        return execute(MATMUL, (a, b), _MATMUL_ATTRS[ta, tb], name)
    if (rank_a is not None and rank_a < 2) or (rank_b is not None and rank_b < 2):
        raise InvalidArgumentError(
            f"MatMul: both operands must have rank >= 2, got a of shape {a.shape} and b of shape "
            f"{b.shape}. For a matrix-vector product use linalg.matvec, or expand_dims the "
            "vector.")
    if a.dtype.is_complex and (transpose_a or transpose_b):  # BatchMatMulV2's adj_* conjugate
        a = conj_if_complex(a) if transpose_a else a
        b = conj_if_complex(b) if transpose_b else b
    return execute(BATCH_MATMUL, (a, b), {"adj_x": ta, "adj_y": tb}, name)


def _mixed_matmul(a, b, adj_a, adj_b, output_type, name):
    """TensorFlow's BatchMatMulV3: (u)int8 operands, an int32 product (no int8 overflow)."""
    rank_a, rank_b = _rank(a), _rank(b)
    if (rank_a is not None and rank_a < 2) or (rank_b is not None and rank_b < 2):
        raise InvalidArgumentError(
            f"MatMul: both operands must have rank >= 2, got a of shape {a.shape} and b of shape "
            f"{b.shape}.")
    _batch_matmul_v3_rule(a, b, adj_a, adj_b, output_type)
    return execute(BATCH_MATMUL_V3, (a, b),
                   {"adj_x": bool(adj_a), "adj_y": bool(adj_b), "Tout": output_type}, name)


# -- einsum ---------------------------------------------------------------------------------------


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """op(a) @ b for matrices a [..., M, N] and vectors b [..., N] (batch dims broadcast);
    a_is_sparse / b_is_sparse as for matmul (a matrix and a vector only)."""
    if a_is_sparse or b_is_sparse:
        _sparse_hint(a, b, "matvec", vector_b=True)
    a, b = binary_operands(a, b, "Einsum")
    if (a.shape.rank or 2) < 2 or (b.shape.rank or 1) < 1:
        raise InvalidArgumentError(f"matvec: a must have rank >= 2 and b rank >= 1, got shapes "
                                   f"{a.shape} and {b.shape}.")
    spec = "...ji,...j->...i" if (transpose_a or adjoint_a) else "...ij,...j->...i"
    return einsum(spec, a, b, name=name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """`a` with its last two dimensions swapped (tf.linalg.matrix_transpose)."""
    a = convert_to_tensor(a)
    if a.shape.rank is not None and a.shape.rank < 2:
        raise InvalidArgumentError(f"matrix_transpose: input must have rank >= 2, got shape "
                                   f"{a.shape}.")
    rank = a.shape.rank
    if conjugate:
        a = conj_if_complex(a)
    if rank is None:  # the leading axes are not known: swap the last two as an einsum
        return einsum("...ij->...ji", a, name=None if name == "matrix_transpose" else name)
    perm = tuple(range(rank - 2)) + (rank - 1, rank - 2)
    return transpose(a, perm, name=name)


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions of `matrix` (tf.linalg.adjoint)."""
    return matrix_transpose(matrix, name=name or "adjoint", conjugate=True)


# -- trace ------------------------------------------------------------------------------------------
def trace(x, name="trace"):
    """Sum of the main diagonal of each matrix in `x` [..., M, N]."""
    return reduce_sum(diag_part(x), axis=-1, name=name)
