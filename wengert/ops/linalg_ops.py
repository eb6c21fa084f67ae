"""Linear algebra: matmul, einsum, tensordot, matvec, diagonals, trace, norms.

`matmul` of two matrices is the "MatMul" op; with a batch dimension on either side it is
"BatchMatMulV2", whose batch dimensions broadcast like NumPy's. For C = op(A) op(B), where op is an
optional transpose (adjoint: the same for real numbers), the derivatives are matrix products again
(TensorFlow's `_MatMulGrad`), computed with the transpose flags instead of transposed copies:

    C = A B:      dA = G B^T,     dB = A^T G        C = A B^T:    dA = G B,       dB = G^T A
    C = A^T B:    dA = B G^T,     dB = A G          C = A^T B^T:  dA = B^T G^T,   dB = G^T A^T

A batched product returns gradients of the broadcast batch shape; the reverse pass sums them back.

`einsum` is the "Einsum" op. Its output is multilinear in the operands, so the gradient of one
operand is the einsum of the incoming gradient with all the other operands, written to that
operand's subscripts; an index that occurs in no other operand nor the output (summed away within
one operand) is restored by a ones tensor of the operand's shape (`ones_like`, so it works with
dimensions known only when a graph runs), which broadcasts the gradient along it. An operand that
repeats an index (a diagonal, "ii->") has no gradient here; use `trace` or `diag_part`.
`tensordot` and `matvec` are einsums; `matrix_transpose` is a Transpose.

`diag_part` ("MatrixDiagPart") and `set_diag` ("MatrixSetDiag") are each other's adjoints: the
gradient of a diagonal is a zero matrix carrying g on its diagonal, and set_diag passes g to the
input off the diagonal and to the new diagonal on it. `diag` ("MatrixDiag") puts a vector on the
diagonal of zeros; its gradient is diag_part of g. `trace` sums a diagonal. `norm` is the
euclidean/Frobenius norm (gradient x / norm, NaN where the norm is 0, as in TensorFlow), or the
1- and inf-norms (sums and maxima of |x|).
"""
import string

import numpy as np

from ..framework.errors import InvalidArgumentError, UnimplementedError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop, linear, multilinear, needs_grad
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shapes
from .array_core import batch_rank, ones_like, zeros_like
from .array_ops import transpose
from .reduce_ops import reduce_euclidean_norm, reduce_max, reduce_sum
from .unary_ops import abs as abs_

__all__ = ["matmul", "einsum", "tensordot", "matvec", "matrix_transpose", "diag_part",
           "set_diag", "diag", "trace", "norm"]


def _prefixed(op_type, rule, *args):
    """Run a shape rule from a public function, naming the op in its error (as execute does)."""
    try:
        return rule(*args)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None


# -- matmul ---------------------------------------------------------------------------------------
def _matmul_kernel(a, b, transpose_a, transpose_b):
    return np.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _batch_matmul_kernel(x, y, adj_x, adj_y):
    return np.matmul(np.swapaxes(x, -1, -2) if adj_x else x,
                     np.swapaxes(y, -1, -2) if adj_y else y)


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
    shapes.check_same_dtype(a, b)
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
    shapes.check_same_dtype(x, y)
    if x.shape.rank is None or y.shape.rank is None:
        return TensorShape(None), x.dtype
    m = x.shape[-1] if adj_x else x.shape[-2]
    n = y.shape[-2] if adj_y else y.shape[-1]
    k_x = x.shape[-2] if adj_x else x.shape[-1]
    k_y = y.shape[-1] if adj_y else y.shape[-2]
    if k_x is not None and k_y is not None and k_x != k_y:
        raise _inner_dims_error(x, y, adj_x, adj_y)
    try:
        batch = shapes.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except InvalidArgumentError:
        raise InvalidArgumentError(
            f"batch dimensions of a {x.shape.as_list()} and b "
            f"{y.shape.as_list()} cannot broadcast: {x.shape[:-2]} vs {y.shape[:-2]}. Batch "
            "dimensions must be equal or 1.") from None
    return TensorShape(tuple(batch) + (m, n)), x.dtype


def _product_grads(op, grad, product, ta, tb):
    """TensorFlow's _MatMulGrad: both gradients as products with transpose flags."""
    a, b = op.inputs
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
    return _product_grads(
        op, grad, lambda x, y, tx, ty: execute(MATMUL, (x, y), _MATMUL_ATTRS[tx, ty]),
        op.get_attr("transpose_a"), op.get_attr("transpose_b"))


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


MATMUL = defop("MatMul", _matmul_kernel, shape=_matmul_rule, grad=_matmul_grad, jvp=multilinear, batch=_matmul_batched,
               onnx=_matmul_onnx)
BATCH_MATMUL = defop("BatchMatMulV2", _batch_matmul_kernel, shape=_batch_matmul_rule,
                     grad=_batch_matmul_grad, jvp=multilinear, batch="safe",
                     onnx=lambda ctx, op, a, b: _matmul_onnx(ctx, op, a, b, ("adj_x", "adj_y")))


_MATMUL_ATTRS = {(ta, tb): {"transpose_a": ta, "transpose_b": tb}
                 for ta in (False, True) for tb in (False, True)}


def _rank(t):
    value = array_of(t)  # eager: the array's ndim, no TensorShape to build
    return value.ndim if value is not None else t.shape.rank


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """The matrix product op(a) @ op(b), op being an optional transpose (adjoint: the same for
    real numbers). Inputs of rank > 2 are batches of matrices; batch dimensions broadcast."""
    if (transpose_a and adjoint_a) or (transpose_b and adjoint_b):
        raise ValueError("matmul: give transpose_x or adjoint_x, not both.")
    a, b = binary_operands(a, b, "MatMul")
    if a.dtype.is_bool:
        raise TypeError(f"MatMul: bool operands are not supported (shapes {a.shape} and "
                        f"{b.shape}); cast them to a numeric dtype.")
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    rank_a, rank_b = _rank(a), _rank(b)
    if rank_a == 2 and rank_b == 2:
        return execute(MATMUL, (a, b), _MATMUL_ATTRS[ta, tb], name)
    if (rank_a is not None and rank_a < 2) or (rank_b is not None and rank_b < 2):
        raise InvalidArgumentError(
            f"MatMul: both operands must have rank >= 2, got a of shape {a.shape} and b of shape "
            f"{b.shape}. For a matrix-vector product use linalg.matvec, or expand_dims the "
            "vector.")
    return execute(BATCH_MATMUL, (a, b), {"adj_x": ta, "adj_y": tb}, name)


# -- einsum ---------------------------------------------------------------------------------------
_ELLIPSIS = "*"  # internal one-character stand-in for "..."


def _parse_equation(equation, count):
    """(list of input subscripts, output subscripts), explicit, '...' written as '*'."""
    text = equation.replace(" ", "").replace("...", _ELLIPSIS)
    lhs, arrow, out = text.partition("->")
    subs = lhs.split(",")
    if len(subs) != count:
        raise InvalidArgumentError(f"equation {equation!r} names {len(subs)} operands "
                                   f"but {count} were given.")
    for s in subs + [out]:
        bad = [c for c in s if not (c.isalpha() or c == _ELLIPSIS)]
        if bad or s.count(_ELLIPSIS) > 1:
            raise InvalidArgumentError(f"invalid subscripts {s.replace('*', '...')!r} "
                                       f"in equation {equation!r}.")
    if not arrow:
        letters = "".join(subs)
        out = "".join(sorted(c for c in set(letters) if c.isalpha() and letters.count(c) == 1))
        if _ELLIPSIS in letters:
            out = _ELLIPSIS + out
    return subs, out


def _join(subs, out):
    return (",".join(subs) + "->" + out).replace(_ELLIPSIS, "...")


def _einsum_kernel(*arrays, equation):
    optimize = len(arrays) > 1 and sum(a.size for a in arrays) > 4096
    out = np.einsum(equation, *arrays, optimize=optimize)
    return out.copy() if len(arrays) == 1 else out  # NumPy may return a view of the input


def _einsum_rule(*inputs, equation):
    shapes.check_same_dtype(*inputs)
    subs, out = _parse_equation(equation, len(inputs))
    sizes, ellipsis = {}, None
    for t, s in zip(inputs, subs):
        if t.shape.rank is None:
            return TensorShape(None), inputs[0].dtype
        n_ell = t.shape.rank - len(s.replace(_ELLIPSIS, ""))
        if n_ell < 0 or (n_ell > 0 and _ELLIPSIS not in s):
            raise InvalidArgumentError(f"subscripts {_join([s], '')[:-2]!r} do not match an operand of "
                                       f"rank {t.shape.rank} (shape {t.shape}) in {equation!r}.")
        dims = list(t.shape)
        for c in s:
            if c == _ELLIPSIS:
                here = TensorShape(dims[:n_ell])
                ellipsis = here if ellipsis is None else shapes.broadcast_shapes(ellipsis, here)
                dims = dims[n_ell:]
                continue
            d = dims.pop(0)
            if sizes.get(c) not in (None, d) and d is not None:
                raise InvalidArgumentError(
                    f"index {c!r} has size {sizes[c]} in one operand and {d} in another "
                    f"(operand shapes {[str(i.shape) for i in inputs]}, equation {equation!r}).")
            sizes[c] = d if sizes.get(c) is None else sizes[c]
    dims = []
    for c in out:
        dims.extend((ellipsis or ()) if c == _ELLIPSIS else (sizes[c],))
    return TensorShape(dims), inputs[0].dtype


def _einsum_grad(op, grad):
    subs, out = _parse_equation(op.get_attr("equation"), len(op.inputs))
    return [_einsum_operand_grad(op, grad, subs, out, i) if needs_grad(op, i) else None
            for i in range(len(op.inputs))]


def _einsum_operand_grad(op, grad, subs, out, i):
    """d/d(operand i) = einsum of grad and the other operands, into operand i's subscripts."""
    target, x = subs[i], op.inputs[i]
    if len(set(target)) != len(target):
        raise UnimplementedError(
            f"Einsum: no gradient for an operand whose subscripts repeat an index ({target!r} in "
            f"{op.get_attr('equation')!r}); use linalg.trace or linalg.diag_part instead.")
    others = [s for j, s in enumerate(subs) if j != i]
    tensors = [grad] + [t for j, t in enumerate(op.inputs) if j != i]
    present = set(out).union(*others)
    missing = [c for c in target if c not in present]
    if missing:  # summed within operand i only: broadcast the gradient along them with ones
        others.append(target)
        tensors.append(ones_like(x))  # of x's shape, which may be known only at run time
    if _ELLIPSIS not in target and _ELLIPSIS in out + "".join(others):
        target = _ELLIPSIS + target  # NumPy needs it; the reverse pass sums the extra axes
    equation = _join([out] + others, target)
    return execute(EINSUM, tensors, {"equation": equation})


def _unique_subscripts(op):
    subs, _ = _parse_equation(op.get_attr("equation"), len(op.inputs))
    return all(len(set(s)) == len(s) for s in subs)


def _einsum_batched(op, grad):
    """The ordinary rule with fresh letters for the batch axes leading the gradient's and each
    result's subscripts."""
    subs, out = _parse_equation(op.get_attr("equation"), len(op.inputs))
    used = set(op.get_attr("equation"))
    lead = "".join([c for c in string.ascii_letters if c not in used]
                   [:batch_rank(grad, op.outputs[0])])
    return [_einsum_batched_operand(op, grad, subs, lead + out, lead, i)
            if needs_grad(op, i) else None for i in range(len(op.inputs))]


def _einsum_batched_operand(op, grad, subs, out, lead, i):
    target, x = subs[i], op.inputs[i]
    others = [s for j, s in enumerate(subs) if j != i]
    tensors = [grad] + [t for j, t in enumerate(op.inputs) if j != i]
    if any(c not in set(out).union(*others) for c in target):  # summed within operand i
        others.append(target)
        tensors.append(ones_like(x))  # of x's shape, which may be known only at run time
    if _ELLIPSIS not in target and _ELLIPSIS in out + "".join(others):
        target = _ELLIPSIS + target
    return execute(EINSUM, tensors, {"equation": _join([out] + others, lead + target)})


EINSUM = defop("Einsum", _einsum_kernel, shape=_einsum_rule, grad=_einsum_grad, jvp=multilinear, batch=_einsum_batched, batch_accepts=_unique_subscripts,
               onnx=lambda ctx, op, *xs: ctx.node("Einsum", xs, equation=op.attrs["equation"]))


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, e.g. einsum("bij,bjk->bik", a, b); '...' stands for broadcast
    batch dimensions. `name=` may be given as a keyword."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected arguments {sorted(kwargs)}.")
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    tensors = [convert_to_tensor(t) for t in inputs]
    if not tensors:
        raise ValueError("einsum: give at least one operand.")
    if any(t.dtype != tensors[0].dtype for t in tensors[1:]):
        kinds = ", ".join(t.dtype.name for t in tensors)
        raise InvalidArgumentError(
            f"Einsum: operands have different dtypes ({kinds}; shapes "
            f"{[str(t.shape) for t in tensors]}); cast them to one dtype.")
    subs, out = _prefixed("Einsum", _parse_equation, equation, len(tensors))
    return execute(EINSUM, tensors, {"equation": _join(subs, out)}, name)


def tensordot(a, b, axes, name=None):
    """Sum of products over axes of `a` and `b`: `axes` is an int N (the last N axes of a with
    the first N of b) or a pair of axis lists [[a axes], [b axes]]."""
    a, b = binary_operands(a, b, "Einsum")
    rank_a, rank_b = a.shape.rank, b.shape.rank
    if isinstance(axes, (int, np.integer)) or np.ndim(axes) == 0:
        n = int(axes)
        if n < 0 or n > min(rank_a, rank_b):
            raise InvalidArgumentError(f"tensordot: axes={n} is out of range for shapes "
                                       f"{a.shape} and {b.shape}.")
        a_axes, b_axes = list(range(rank_a - n, rank_a)), list(range(n))
    else:
        a_axes, b_axes = ([int(v) for v in np.atleast_1d(ax)] for ax in axes)
    if len(a_axes) != len(b_axes):
        raise InvalidArgumentError(f"tensordot: {len(a_axes)} axes of a but {len(b_axes)} of b.")
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    sub_a = [next(letters) for _ in range(rank_a)]
    sub_b = [next(letters) for _ in range(rank_b)]
    for i, j in zip(a_axes, b_axes):
        sub_b[j % rank_b] = sub_a[i % rank_a]
    contracted = set(sub_b) & set(sub_a)
    out = [c for c in sub_a if c not in contracted] + [c for c in sub_b if c not in contracted]
    return einsum(f"{''.join(sub_a)},{''.join(sub_b)}->{''.join(out)}", a, b, name=name)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """op(a) @ b for matrices a [..., M, N] and vectors b [..., N] (batch dims broadcast)."""
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
    perm = tuple(range(rank - 2)) + (rank - 1, rank - 2)
    return transpose(a, perm, name=name)


# -- diagonals and trace --------------------------------------------------------------------------
def _diag_part_kernel(x):
    return np.diagonal(x, axis1=-2, axis2=-1).copy()


def _set_diag_kernel(x, diagonal):
    out = np.array(x, copy=True)
    n = min(x.shape[-2:])
    idx = np.arange(n)
    out[..., idx, idx] = diagonal
    return out


def _diag_part_rule(x):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    if x.shape.rank < 2:
        raise InvalidArgumentError(f"input must have rank >= 2, got shape "
                                   f"{x.shape}.")
    m, n = x.shape[-2:]
    k = None if m is None or n is None else min(m, n)
    return TensorShape(tuple(x.shape[:-2]) + (k,)), x.dtype


def _set_diag_rule(x, diagonal):
    shapes.check_same_dtype(x, diagonal)
    want = _diag_part_rule(x)[0]
    if not want.is_compatible_with(diagonal.shape):
        raise InvalidArgumentError(f"a diagonal of shape {diagonal.shape} does "
                                   f"not fit an input of shape {x.shape}; it needs shape {want}.")
    return x.shape, x.dtype


def _diag_part_grad(op, grad):
    return execute(SET_DIAG, (zeros_like(op.inputs[0]), grad))


def _set_diag_grad(op, grad):
    d_input = d_diagonal = None
    if needs_grad(op, 0):
        d_input = execute(SET_DIAG, (grad, zeros_like(op.inputs[1])))
    if needs_grad(op, 1):
        d_diagonal = execute(DIAG_PART, (grad,))
    return d_input, d_diagonal


def _diag_kernel(d):
    out = np.zeros(d.shape + d.shape[-1:], d.dtype)
    idx = np.arange(d.shape[-1])
    out[..., idx, idx] = d
    return out


def _diag_rule(d):
    if d.shape.rank is not None and d.shape.rank < 1:
        raise InvalidArgumentError(f"diagonal must have rank >= 1, got shape {d.shape}.")
    if d.shape.rank is None:
        return TensorShape(None), d.dtype
    return TensorShape(tuple(d.shape) + (d.shape[-1],)), d.dtype


def _diag_part_batched(op, grad):
    x = op.inputs[0]
    nb = batch_rank(grad, op.outputs[0])
    zeros = Tensor(np.zeros(tuple(grad.shape[:nb]) + tuple(x.shape), x.dtype.as_numpy_dtype))
    return execute(SET_DIAG, (zeros, grad))


DIAG_PART = defop("MatrixDiagPart", _diag_part_kernel, shape=_diag_part_rule,
                  grad=_diag_part_grad, jvp=linear, batch=_diag_part_batched)
DIAG = defop("MatrixDiag", _diag_kernel, shape=_diag_rule,
             grad=lambda op, grad: execute(DIAG_PART, (grad,)), jvp=linear, batch="safe")
SET_DIAG = defop("MatrixSetDiag", _set_diag_kernel, shape=_set_diag_rule, grad=_set_diag_grad,
                 jvp=linear, batch="safe")


def diag_part(input, name="diag_part", k=0):  # noqa: A002
    """The main diagonal of each matrix in `input` [..., M, N]: shape [..., min(M, N)]."""
    if k != 0:
        raise UnimplementedError("diag_part: only the main diagonal (k=0) is supported.")
    x = convert_to_tensor(input)
    _prefixed("MatrixDiagPart", _diag_part_rule, x)
    return execute(DIAG_PART, (x,), name=name)


def set_diag(input, diagonal, name="set_diag", k=0):  # noqa: A002
    """`input` with the main diagonal of each matrix replaced by `diagonal`."""
    if k != 0:
        raise UnimplementedError("set_diag: only the main diagonal (k=0) is supported.")
    x, d = binary_operands(input, diagonal, "MatrixSetDiag")
    _prefixed("MatrixSetDiag", _set_diag_rule, x, d)
    return execute(SET_DIAG, (x, d), name=name)


def diag(diagonal, name="diag", k=0):
    """Square matrices [..., N, N] with `diagonal` [..., N] on the diagonal, zeros elsewhere."""
    if k != 0:
        raise UnimplementedError("diag: only the main diagonal (k=0) is supported.")
    d = convert_to_tensor(diagonal)
    _prefixed("MatrixDiag", _diag_rule, d)
    return execute(DIAG, (d,), name=name)


def trace(x, name="trace"):
    """Sum of the main diagonal of each matrix in `x` [..., M, N]."""
    return reduce_sum(diag_part(x), axis=-1, name=name)


# -- norm ---------------------------------------------------------------------------------------
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norm (axis None or an int) or matrix norm (axis a pair).

    ord: 'euclidean' (and 2 for vectors), 'fro' (the same sum over a matrix), 1, np.inf, or a
    positive number p for vectors. axis None treats the whole tensor as one vector. The gradient
    of the euclidean norm, x / norm, is NaN where the norm is 0 (as in TensorFlow)."""
    x = convert_to_tensor(tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"norm: input must be floating point, got {x.dtype.name}; cast it.")
    keepdims = bool(keepdims)
    matrix = axis is not None and not isinstance(axis, int) and len(axis) == 2
    if axis is not None and not isinstance(axis, int) and len(axis) not in (1, 2):
        raise ValueError(f"norm: axis must be None, an int or a pair of ints, got {axis!r}.")
    if ord in ("euclidean", "fro") or (ord == 2 and not matrix):
        if ord == "fro" and axis is not None and not matrix:
            raise ValueError("norm: ord='fro' needs axis=None or a pair of axes (a matrix norm).")
        return reduce_euclidean_norm(x, axis, keepdims, name=name)
    if matrix:
        return _matrix_norm(x, ord, axis, keepdims, name)
    return _vector_norm(x, ord, axis, keepdims, name)


def _vector_norm(x, ord, axis, keepdims, name):  # noqa: A002
    if ord == 1:
        return reduce_sum(abs_(x), axis, keepdims, name=name)
    if ord == np.inf:
        return reduce_max(abs_(x), axis, keepdims, name=name)
    if isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord > 0:
        p = x.dtype.as_numpy_dtype(ord)
        return reduce_sum(abs_(x) ** p, axis, keepdims) ** (1 / p)
    raise ValueError(f"norm: ord must be 'euclidean', 1, 2, np.inf or a positive number for a "
                     f"vector norm, got {ord!r}.")


def _matrix_norm(x, ord, axis, keepdims, name):  # noqa: A002
    rows, cols = axis
    if ord == 1:      # largest column sum
        sums, top = rows, cols
    elif ord == np.inf:  # largest row sum
        sums, top = cols, rows
    elif ord == 2:
        raise UnimplementedError("norm: the spectral norm (ord=2 over a matrix) needs a "
                                 "singular value decomposition, which wengert does not have.")
    else:
        raise ValueError(f"norm: ord must be 'fro', 'euclidean', 1 or np.inf for a matrix "
                         f"norm, got {ord!r}.")
    out = reduce_max(reduce_sum(abs_(x), sums, keepdims=True), top, keepdims=True)
    if keepdims:
        return out
    return reduce_sum(out, [rows, cols], name=name)  # drops the two size-1 axes
