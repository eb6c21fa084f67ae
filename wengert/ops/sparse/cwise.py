"""A sparse tensor times or over a dense one: `sp * dense` and `sp / dense`.

SparseDenseCwiseMul and SparseDenseCwiseDiv (inputs sp_indices [N, r], sp_values [N],
sp_shape [r], dense) broadcast `dense` to sp_shape (NumPy's rule: trailing dimensions, size 1
stretches) and combine each stored value with the dense entry at its coordinate,
out_k = v_k * d[i_k] (or v_k / d[i_k]); the result has the sparse operand's indices. Only the
dense entries at stored coordinates are read, so implicit zeros stay zero.

Derivatives (TensorFlow's rule). With j_k the entry of `dense` that i_k reads (i_k // scaling,
scaling = sp_shape // dense's shape padded with ones, leading dimensions dropped):
    Mul: d/dv = G d[j],        d/ddense = sum over k of G_k v_k at j_k
    Div: d/dv = G / d[j],      d/ddense = sum over k of -G_k v_k / d[j_k]^2 at j_k
the dense gradient a SparseTensorDenseAdd of those values onto zeros like `dense`. Mul is
bilinear (product-rule JVP); Div's JVP is t_v / d[j] - v t_d[j] / d[j]^2.

The one install of ops/sparse/ (the class lives in framework/, below the ops): this module puts
`__mul__`, `__truediv__` and `__div__` on SparseTensor, as TensorFlow defines them (a sparse
left operand only; `sp + x` is not defined, as in TensorFlow).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, multilinear
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ..array_ops import concat
from ..broadcast_ops import zeros_like
from ..creation_ops import ones, shape as shape_of, size
from ..indexing_ops import gather_nd
from ..math_ops import cast
from ..unary_ops import square
from .addition import DENSE_ADD

__all__ = ["sparse_dense_multiply", "sparse_dense_divide"]


def _kernel(op, combine):
    def kernel(sp_indices, sp_values, sp_shape, dense):
        shape = tuple(int(d) for d in sp_shape)
        try:
            full = np.broadcast_to(dense, shape)
        except ValueError:
            raise InvalidArgumentError(
                f"{op}: the dense operand of shape {list(dense.shape)} does not broadcast to "
                f"the sparse operand's shape {list(shape)}.") from None
        picked = full[tuple(np.asarray(sp_indices, np.int64).T)] if len(sp_indices) else \
            np.zeros(0, full.dtype)
        return combine(sp_values, picked).astype(np.result_type(sp_values, dense))
    return kernel


def _rule(sp_indices, sp_values, sp_shape, dense):
    return sp_values.shape, sp_values.dtype


def _read(indices, sp_shape, dense):
    """(the index into `dense` each stored entry reads, as TensorFlow computes it)."""
    dense_shape = cast(shape_of(dense), dtypes.int64)
    added = size(sp_shape) - size(dense_shape)
    padded = concat([ones(added[None], dtypes.int64), dense_shape], 0)
    scaled = cast(indices, dtypes.int64) // (cast(sp_shape, dtypes.int64) // padded)
    return scaled[:, added:]


def _grad(divide):
    def grad(op, g):
        indices, values, sp_shape, dense = op.inputs
        at = _read(indices, sp_shape, dense)
        d = gather_nd(dense, at)
        dx = g / d if divide else g * d
        dy_values = g * (-values / square(d)) if divide else g * values
        dy = execute(DENSE_ADD, (at, dy_values, cast(shape_of(dense), dtypes.int64),
                                 zeros_like(dense)))
        return None, dx, None, dy
    return grad


def _div_jvp(primals, tangents, outputs, **_):
    indices, values, sp_shape, dense = primals
    t_values, t_dense = tangents[1], tangents[3]
    d = gather_nd(dense, _read(indices, sp_shape, dense))
    total = None if t_values is None else t_values / d
    if t_dense is not None:
        part = -values * gather_nd(t_dense, _read(indices, sp_shape, dense)) / square(d)
        total = part if total is None else total + part
    return (total,)


def _declare(op_type, combine, grad, jvp):
    def raw(sp_indices, sp_values, sp_shape, dense, name=None):
        return execute(op_def, tuple(convert_to_tensor(t) for t in (
            sp_indices, sp_values, sp_shape, dense)), name=name)
    op_def = defop(op_type, _kernel(op_type, combine), shape=_rule, grad=grad, jvp=jvp, raw=raw)
    return op_def


CWISE_MUL = _declare("SparseDenseCwiseMul", np.multiply, _grad(False), multilinear)
CWISE_DIV = _declare("SparseDenseCwiseDiv", np.divide, _grad(True), _div_jvp)


def _apply(op_def, sp, dense):
    dense = convert_to_tensor(dense, dtype_hint=sp.dtype)
    values = execute(op_def, (sp.indices, sp.values, sp.dense_shape, dense))
    return SparseTensor(sp.indices, values, sp.dense_shape)


def sparse_dense_multiply(sp, dense):
    """`sp * dense`: each stored value times the (broadcast) dense entry at its coordinate."""
    return _apply(CWISE_MUL, sp, dense)


def sparse_dense_divide(sp, dense):
    """`sp / dense`: each stored value over the (broadcast) dense entry at its coordinate."""
    return _apply(CWISE_DIV, sp, dense)


SparseTensor.__mul__ = sparse_dense_multiply
SparseTensor.__truediv__ = SparseTensor.__div__ = sparse_dense_divide
