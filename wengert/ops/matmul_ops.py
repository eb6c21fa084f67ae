"""Linear algebra: matmul, einsum, tensordot, matvec, matrix_transpose, trace.

`matmul` of two matrices is the "MatMul" op; with a batch dimension on either side it is
"BatchMatMulV2", whose batch dimensions broadcast like NumPy's. For C = op(A) op(B), where op is an
optional transpose (adjoint: the conjugate transpose, the same for real numbers), the derivatives are matrix products again
(TensorFlow's `_MatMulGrad`), computed with the transpose flags instead of transposed copies:

    C = A B:      dA = G B^T,     dB = A^T G        C = A B^T:    dA = G B,       dB = G^T A
    C = A^T B:    dA = B G^T,     dB = A G          C = A^T B^T:  dA = B^T G^T,   dB = G^T A^T

A batched product returns gradients of the broadcast batch shape; the reverse pass sums them back.

`einsum` is the "Einsum" op. Its output is multilinear in the operands, so the gradient of one
operand is the einsum of the incoming gradient with all the other operands, written to that
operand's subscripts; an index that occurs in no other operand nor the output (summed away within
one operand) is restored by a ones tensor of the operand's shape (`ones_like`, so it works with
dimensions known only when a graph runs), which broadcasts the gradient along it. An operand that
repeats an index reads a diagonal ("ii->", "ii->i", "iij->j"): its gradient is computed into the
operand's distinct subscripts ("i"), then placed back on that diagonal by an einsum with a 0/1
mask (ones where the repeated axes agree), so it stays an einsum and differentiates again.
`tensordot` and `matvec` are einsums; `matrix_transpose` is a Transpose.

`trace` sums a diagonal (matrix_ops.diag_part); norms live in linalg_norm_ops.
"""
import string

import numpy as np

from ..framework.errors import InvalidArgumentError, UnimplementedError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop, multilinear, needs_grad
from ..framework.tensor import array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .shape_rules import axis_int
from .shape_rules import batch_rank
from .broadcast_ops import ones_like, zeros_like
from .reshape_ops import transpose
from .complex_parts import conj_if_complex
from .matrix_ops import diag, diag_part, set_diag
from .reduce_ops import reduce_sum

__all__ = ["matmul", "einsum", "tensordot", "matvec", "matrix_transpose", "diag_part",
           "set_diag", "diag", "trace"]


def _prefixed(op_type, rule, *args):
    """Run a shape rule from a public function, naming the op in its error (as execute does)."""
    try:
        return rule(*args)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None


# -- matmul ---------------------------------------------------------------------------------------
def _matmul_kernel(a, b, transpose_a, transpose_b):
    return np.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _adjoint(x):
    """The conjugate transpose of the last two axes (the transpose, for real numbers)."""
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


def _batch_matmul_kernel(x, y, adj_x, adj_y):
    return np.matmul(_adjoint(x) if adj_x else x, _adjoint(y) if adj_y else y)


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


MATMUL = defop("MatMul", _matmul_kernel, shape=_matmul_rule, grad=_matmul_grad, jvp=multilinear,
               batch=_matmul_batched, onnx=_matmul_onnx,
               batch_accepts=lambda op: not op.inputs[0].dtype.is_complex)  # (adj_* conjugate)
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
    shape_rules.check_same_dtype(*inputs)
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
                ellipsis = here if ellipsis is None else shape_rules.broadcast_shapes(ellipsis, here)
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
    """d/d(operand i) = einsum of grad and the other operands, into operand i's subscripts; a
    repeated index (a diagonal) is first summed into its unique subscripts, then spread back
    onto the diagonal."""
    target, x = subs[i], op.inputs[i]
    unique = "".join(dict.fromkeys(target))
    others = [s for j, s in enumerate(subs) if j != i]
    tensors = [grad] + [conj_if_complex(t) for j, t in enumerate(op.inputs) if j != i]
    present = set(out).union(*others)
    missing = [c for c in target if c not in present]
    if missing:  # summed within operand i only: broadcast the gradient along them with ones
        others.append(target)
        tensors.append(ones_like(x))  # of x's shape, which may be known only at run time
    lead = _ELLIPSIS if _ELLIPSIS not in target and _ELLIPSIS in out + "".join(others) else ""
    summed = execute(EINSUM, tensors, {"equation": _join([out] + others, lead + unique)})
    if unique == target:
        return summed  # NumPy needed the leading '...'; the reverse pass sums those axes
    return _onto_diagonals(summed, lead + unique, lead + target, x)


def _onto_diagonals(values, unique, target, x):
    """The tensor of x's shape that carries `values` (subscripts `unique`) on the diagonals
    that x's repeated subscripts (`target`) name, and zeros elsewhere: values times a 0/1
    mask of x's shape (built with set_diag, so dimensions known only at run time work)."""
    fresh = iter(c for c in string.ascii_letters if c not in target)
    renamed, first = [], {}
    for pos, c in enumerate(target):
        if c in first and c != _ELLIPSIS:
            renamed.append(next(fresh))
            continue
        first.setdefault(c, pos)
        renamed.append(c)
    axes = _subscript_axes(target, x)
    mask = None
    for pos, c in enumerate(target):
        if c != _ELLIPSIS and first[c] != pos:
            delta = _delta_mask(x, axes[first[c]], axes[pos])
            mask = delta if mask is None else mask * delta
    renamed = "".join(renamed)
    return execute(EINSUM, (values, mask), {"equation": _join([unique, renamed], renamed)})


def _subscript_axes(target, x):
    """The axis of x each subscript position names (x's rank must be known)."""
    rank = x.shape.rank
    if rank is None:
        raise UnimplementedError("Einsum: the gradient of an operand with a repeated index "
                                 "needs the operand's rank.")
    n_ell = rank - len(target.replace(_ELLIPSIS, ""))
    axes, axis = [], 0
    for c in target:
        axes.append(axis)
        axis += n_ell if c == _ELLIPSIS else 1
    return axes


def _delta_mask(x, p, q):
    """Ones where the indices along axes p and q of x agree, zeros elsewhere (x's shape)."""
    rank = x.shape.rank
    rest = [a for a in range(rank) if a not in (p, q)]
    perm = rest + [p, q]
    moved = transpose(zeros_like(x), perm)
    eye = set_diag(moved, ones_like(diag_part(moved)))
    return transpose(eye, [perm.index(a) for a in range(rank)])


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
    missing = sorted(set(out) - set("".join(subs)) - {_ELLIPSIS})
    if missing:
        raise ValueError(f"Einsum: output subscripts contain the label {missing[0]} not present "
                         f"in the input subscripts (equation {equation!r}).")
    return execute(EINSUM, tensors, {"equation": _join(subs, out)}, name)


def tensordot(a, b, axes, name=None):
    """Sum of products over axes of `a` and `b`: `axes` is an int N (the last N axes of a with
    the first N of b) or a pair of axis lists [[a axes], [b axes]]."""
    a, b = binary_operands(a, b, "Einsum")
    rank_a, rank_b = a.shape.rank, b.shape.rank
    if rank_a is None or rank_b is None:
        return _tensordot_unknown_rank(a, b, axes, name)
    if isinstance(axes, (int, np.integer)) or np.ndim(axes) == 0:
        n = axis_int(axes, "tensordot: axes")
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


def swap_with_last(x, axis):
    """x with axis `axis` and its last axis swapped (its own inverse), for any rank, known or
    not: an einsum of one operand, its middle axes an ellipsis."""
    axis = axis_int(axis, "axis")
    rank = x.shape.rank
    if rank is not None:
        axis %= max(rank, 1)
        if axis == rank - 1:
            return x
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        return transpose(x, perm)
    if axis == -1:
        return x
    if axis >= 0:  # "ab...z" -> "az...b"
        lead = "abcdefghijklmnopqrstuvwxy"[:axis + 1]
        swapped = lead[:axis] + "z"
        return einsum(f"{lead}...z->{swapped}...{lead[axis]}", x)
    tail = "abcdefghijklmnopqrstuvwxyz"[:-axis]  # the last -axis axes, spelled out
    swapped = tail[-1] + tail[1:-1] + tail[0]
    return einsum(f"...{tail}->...{swapped}", x)


def _tensordot_unknown_rank(a, b, axes, name):
    """tensordot when one operand's rank is unknown: its free axes become an einsum ellipsis
    (the last N axes of a with the first N of b, or axis lists counted from that operand's
    unknown end only where they are negative for a / non-negative for b)."""
    if a.shape.rank is None and b.shape.rank is None:
        raise InvalidArgumentError(f"tensordot: the ranks of both operands are unknown (shapes "
                                   f"{a.shape} and {b.shape}); give one a known rank.")
    if isinstance(axes, (int, np.integer)) or np.ndim(axes) == 0:
        n = axis_int(axes, "tensordot: axes")
        a_axes, b_axes = list(range(-n, 0)), list(range(n))
    else:
        a_axes, b_axes = ([axis_int(v, "tensordot: axes") for v in np.atleast_1d(ax)]
                          for ax in axes)
    known, rank = (b, b.shape.rank) if a.shape.rank is None else (a, a.shape.rank)
    fits = (all(i < 0 for i in a_axes) if a.shape.rank is None else
            all(j >= 0 for j in b_axes))
    if len(a_axes) != len(b_axes) or not fits or any(not -rank <= i < rank for i in (
            b_axes if known is b else a_axes)):
        raise InvalidArgumentError(
            f"tensordot: axes {axes!r} cannot be read for shapes {a.shape} and {b.shape}: with "
            "an unknown rank, a's axes must count from its end (negative) and b's from its "
            "start.")
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    sub_known = [next(letters) for _ in range(rank)]
    contracted = [next(letters) for _ in a_axes]
    known_axes = b_axes if known is b else a_axes
    for c, axis in zip(contracted, known_axes):
        sub_known[axis % rank] = c
    free = [c for c in sub_known if c not in contracted]
    if known is b:  # a is "...<contracted in a's order>"
        order = sorted(range(len(a_axes)), key=lambda i: a_axes[i])
        if sorted(a_axes) != list(range(-len(a_axes), 0)):
            raise InvalidArgumentError(f"tensordot: with a's rank unknown its contracted axes "
                                       f"must be its last ones, got {a_axes}.")
        sub_a, sub_b = "..." + "".join(contracted[i] for i in order), "".join(sub_known)
        out = "..." + "".join(free)
    else:
        order = sorted(range(len(b_axes)), key=lambda i: b_axes[i])
        if sorted(b_axes) != list(range(len(b_axes))):
            raise InvalidArgumentError(f"tensordot: with b's rank unknown its contracted axes "
                                       f"must be its first ones, got {b_axes}.")
        sub_a, sub_b = "".join(sub_known), "".join(contracted[i] for i in order) + "..."
        out = "".join(free) + "..."
    return einsum(f"{sub_a},{sub_b}->{out}", a, b, name=name)


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
    if conjugate:
        a = conj_if_complex(a)
    if rank is None:  # the leading axes are not known: swap the last two as an einsum
        return einsum("...ij->...ji", a, name=None if name == "matrix_transpose" else name)
    perm = tuple(range(rank - 2)) + (rank - 1, rank - 2)
    return transpose(a, perm, name=name)


# -- trace ------------------------------------------------------------------------------------------
def trace(x, name="trace"):
    """Sum of the main diagonal of each matrix in `x` [..., M, N]."""
    return reduce_sum(diag_part(x), axis=-1, name=name)
