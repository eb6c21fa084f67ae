"""`einsum` and the contractions written with it: `tensordot`, and `swap_with_last` (an axis
exchanged with the last one, for any rank, known or not).

`einsum` is the "Einsum" op. Its output is multilinear in the operands, so the gradient of one
operand is the einsum of the incoming gradient with all the other operands, written to that
operand's subscripts; an index that occurs in no other operand nor the output (summed away within
one operand) is restored by a ones tensor of the operand's shape (`ones_like`, so it works with
dimensions known only when a graph runs), which broadcasts the gradient along it. An operand that
repeats an index reads a diagonal ("ii->", "ii->i", "iij->j"): its gradient is computed into the
operand's distinct subscripts ("i"), then placed back on that diagonal by an einsum with a 0/1
mask (ones where the repeated axes agree), so it stays an einsum and differentiates again; for an
operand of unknown rank with an ellipsis the mask is a product of identity matrices whose sizes are
read when the graph runs. `tensordot` is an einsum too (with an ellipsis for an operand of unknown
rank); with both ranks unknown it is TensorFlow's matrix product of the operands reshaped to
[free, contracted] and [contracted, free], their sizes read when the graph runs.
"""
import string

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import binary_operands, execute
from ..framework.registry import defop, multilinear, needs_grad
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .broadcast_ops import ones_like, zeros_like
from .complex_parts import conj_if_complex
from .creation_ops import eye
from .query_ops import shape, size
from .reduce_ops import reduce_prod
from .array_ops import concat, stack
from .matrix_ops import diag_part, set_diag
from .reshape_ops import reshape, transpose
from .shape_rules import axis_int, batch_rank

__all__ = ["einsum", "tensordot"]


def _prefixed(op_type, rule, *args):
    """Run a shape rule from a public function, naming the op in its error (as execute does)."""
    try:
        return rule(*args)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None


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
    renamed = "".join(renamed)
    if x.shape.rank is None and _ELLIPSIS in target:
        return _onto_diagonals_by_eyes(values, unique, target, renamed)
    rank = len(target) if x.shape.rank is None else x.shape.rank
    axes = _subscript_axes(target, rank)
    mask = None
    for pos, c in enumerate(target):
        if c != _ELLIPSIS and first[c] != pos:
            delta = _delta_mask(x, rank, axes[first[c]], axes[pos])
            mask = delta if mask is None else mask * delta
    return execute(EINSUM, (values, mask), {"equation": _join([unique, renamed], renamed)})


def _onto_diagonals_by_eyes(values, unique, target, renamed):
    """_onto_diagonals for an operand of unknown rank: each repeated subscript pairs with its
    first occurrence through an identity matrix whose size is read from `values` when the
    graph runs (counted from the end after the ellipsis)."""
    eyes, pairs = [], []
    for c, r in zip(target, renamed):
        if c == r:
            continue
        pos = unique.index(c)
        axis = pos - len(unique) if unique.index(_ELLIPSIS) < pos else pos
        eyes.append(eye(shape(values)[axis], dtype=values.dtype))
        pairs.append(c + r)
    return execute(EINSUM, [values] + eyes, {"equation": _join([unique] + pairs, renamed)})


def _subscript_axes(target, rank):
    """The axis of an operand of rank `rank` each subscript position names."""
    n_ell = rank - len(target.replace(_ELLIPSIS, ""))
    axes, axis = [], 0
    for c in target:
        axes.append(axis)
        axis += n_ell if c == _ELLIPSIS else 1
    return axes


def _delta_mask(x, rank, p, q):
    """Ones where the indices along axes p and q of x agree, zeros elsewhere (x's shape)."""
    rest = [a for a in range(rank) if a not in (p, q)]
    perm = rest + [p, q]
    moved = transpose(zeros_like(x), perm)
    eye_ = set_diag(moved, ones_like(diag_part(moved)))
    return transpose(eye_, [perm.index(a) for a in range(rank)])


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
               onnx=lambda ctx, op, *xs: ctx.node("Einsum", xs, equation=op.attrs["equation"]),
               raw=lambda inputs, equation, name=None: einsum(equation, *inputs, name=name))


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
    if isinstance(axes, (int, np.integer)) or np.ndim(axes) == 0:
        n = axis_int(axes, "tensordot: axes")
        a_axes, b_axes = list(range(-n, 0)), list(range(n))
    else:
        a_axes, b_axes = ([axis_int(v, "tensordot: axes") for v in np.atleast_1d(ax)]
                          for ax in axes)
    if a.shape.rank is None and b.shape.rank is None:
        return _tensordot_both_unknown(a, b, a_axes, b_axes, name)
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


def axes_mover(axes, to_end, what):
    """The einsum equation ("ab...->b...a") that moves `axes` of a tensor of unknown rank (all
    counted from its start, or all from its end) to its end (or its start) in the order given,
    the other axes keeping theirs; read backwards ("b...a->ab...") it moves them back."""
    if len({i >= 0 for i in axes}) > 1 or len(set(axes)) != len(axes):
        raise InvalidArgumentError(
            f"{what}: with an unknown rank the axes must all count from the start (>= 0) or "
            f"all from the end (< 0), without repeats; got {list(axes)}.")
    span = max(axes) + 1 if axes[0] >= 0 else -min(axes)
    named = string.ascii_letters[:span]
    picked = "".join(named[i] for i in axes)
    free = "".join(c for c in named if c not in picked)
    sub = named + "..." if axes[0] >= 0 else "..." + named
    rest = free + "..." if axes[0] >= 0 else "..." + free
    return f"{sub}->{rest + picked if to_end else picked + rest}"


def _moved(x, axes, to_end):
    return einsum(axes_mover(axes, to_end, "tensordot"), x) if axes else x


def _tensordot_both_unknown(a, b, a_axes, b_axes, name):
    """tensordot of two operands of unknown rank, as TensorFlow does it: the contracted axes
    moved to a's end and b's start, both reshaped to matrices with sizes read when the graph
    runs, one matrix product, and the free dimensions restored."""
    if len(a_axes) != len(b_axes):
        raise InvalidArgumentError(f"tensordot: {len(a_axes)} axes of a but {len(b_axes)} of b.")
    n = len(a_axes)
    a, b = _moved(a, a_axes, True), _moved(b, b_axes, False)
    shape_a, shape_b = shape(a), shape(b)
    free_a = shape_a[:size(shape_a) - n]
    free_b = shape_b[n:]
    inner = reduce_prod(shape_b[:n])
    product = einsum("ik,kj->ij", reshape(a, stack([-1, inner])), reshape(b, stack([inner, -1])))
    return reshape(product, concat([free_a, free_b], 0), name=name)
