"""Higher-order functions over the first axis: map_fn, scan, foldl, foldr.

Each unstacks its `elems` (a tensor or a nested structure of tensors of one length) along axis
0 and calls `fn` once per element:

    map_fn:  out[i] = fn(elems[i])
    scan:    a_i = fn(a_{i-1}, elems[i]), a_{-1} = initializer (or a_0 = elems[0]); out[i] = a_i
    foldl:   the last a of a scan from the front;   foldr: the last of a scan from the back

When the length is known (always eagerly, and in graphs when the leading dimension is static)
the calls are made one after another in Python, as TensorFlow's eager mode does: every op fn runs
is an ordinary op, so tapes record them and `tf.gradients` differentiates them, to any order.
In a graph whose leading dimension is known only when it runs, the loop is one `while_loop`
(differentiable through its kept per-iteration values): fn is traced once on the first element
to learn its outputs, and the loop writes each result into its row of buffers allocated for all
rows (tensor_scatter_nd_update: loop variables keep their shapes, as the loop's gradient
needs). Structures
of any nesting are flattened and re-packed (util/nest.py).

The loop options follow TensorFlow 2: `back_prop=False` stops the gradient at the outputs while
a graph or function is built and changes nothing eagerly (TensorFlow's eager loops ignore it
too); `parallel_iterations` must be positive (TypeError, as TensorFlow's) and, like
`swap_memory` (GPU-to-host swapping of the kept values), changes no result on a CPU;
`infer_shape=True` makes results of different static shapes a ValueError before they are
stacked; `name` scopes the ops built ("map", "scan", "foldl", "foldr" by default).
"""
from ..framework import dtypes
from ..framework.context import op_scope, state
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import concat, stack
from ..ops.creation_ops import shape as shape_of, zeros
from ..ops.indexing_ops import gather, reverse as flip
from ..ops.reshape_ops import expand_dims
from ..ops.scatter_ops import tensor_scatter_nd_update
from ..util import nest
from .loop_options import check_loop_options, without_gradient
from .while_loop import while_loop

__all__ = ["map_fn", "scan", "foldl", "foldr"]


# -- elements -------------------------------------------------------------------------------------------
def _flat_elements(elems, what):
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{what}: elems must hold at least one tensor.")
    for t in flat:
        if t.shape.rank == 0:
            raise ValueError(f"{what}: elems must have a first dimension to unstack, got a "
                             f"scalar.")
    return flat


def _static_length(flat, what):
    """The common first dimension of the elements if it is known while building, else None."""
    lengths = {t.shape[0] for t in flat if t.shape.rank is not None}
    known = {n for n in lengths if n is not None}
    if len(known) > 1:
        raise ValueError(f"{what}: all elements must have the same first dimension, got "
                         f"{sorted(known)}.")
    if state.graph is None or (known and None not in lengths):
        return known.pop() if known else 0
    return None


def _element(elems, flat, i):
    """Element i of every leaf: a strided slice for a Python int, a gather for a tensor."""
    pick = (lambda t: t[i]) if isinstance(i, int) else (lambda t: gather(t, i))
    return nest.pack_sequence_as(elems, [pick(t) for t in flat])


def _stacked(results, what, infer_shape=True):
    """Per-leaf stacks of a list of equally structured results; with `infer_shape`, results
    whose static shapes differ are a ValueError (TensorFlow's TensorArray check)."""
    first = results[0]
    leaves = [nest.flatten(r) for r in results]
    if any(len(l) != len(leaves[0]) for l in leaves):
        raise ValueError(f"{what}: fn must return the same structure for every element.")
    if infer_shape:
        _check_same_shapes(leaves, what)
    return nest.pack_sequence_as(first, [stack([l[k] for l in leaves])
                                         for k in range(len(leaves[0]))])


def _check_same_shapes(leaves, what):
    for k in range(len(leaves[0])):
        shape = convert_to_tensor(leaves[0][k]).shape
        for row in leaves[1:]:
            other = convert_to_tensor(row[k]).shape
            if not shape.is_compatible_with(other):
                raise ValueError(f"{what}: Incompatible shape for value ({other}), expected "
                                 f"({shape}): fn's results must have one shape to be stacked "
                                 "(infer_shape=True).")
            shape = shape.merge_with(other)


def _check_signature(result, signature, what):
    """fn_output_signature / dtype: the dtypes fn's results must have."""
    if signature is None:
        return result
    specs = nest.flatten(signature)
    leaves = nest.flatten(result)
    if len(specs) != len(leaves):
        raise TypeError(f"{what}: fn returned {len(leaves)} tensors, but its output signature "
                        f"declares {len(specs)}.")
    for leaf, spec in zip(leaves, specs):
        want = dtypes.as_dtype(getattr(spec, "dtype", spec))
        if convert_to_tensor(leaf).dtype != want:
            raise TypeError(f"{what}: fn returned a {convert_to_tensor(leaf).dtype.name} tensor "
                            f"where its output signature says {want.name}.")
    return result


def _empty_outputs(signature, flat, what):
    if signature is None:
        raise ValueError(f"{what}: elems are empty, so fn is never called; give "
                         "fn_output_signature to say what the (empty) outputs are.")
    return nest.map_structure(
        lambda spec: zeros([0] + list(getattr(spec, "shape", TensorShape([])) or []),
                           dtypes.as_dtype(getattr(spec, "dtype", spec))), signature)


# -- the loop for lengths known only when a graph runs ------------------------------------------------------
def _accumulating_loop(step, first_outputs, count, start=1, carry=None):
    """Run step(i, carry) for i in [start, count) in one while_loop; each step returns
    (outputs, carry). Output i is written into row i of buffers of `count` rows (row 0 from
    first_outputs), so every loop variable keeps its shape, which the loop's gradient needs.
    Returns (the buffers, the final carry)."""
    firsts = [convert_to_tensor(o) for o in nest.flatten(first_outputs)]
    rows = expand_dims(count, 0)
    buffers = [tensor_scatter_nd_update(zeros(concat([rows, shape_of(o, out_type=count.dtype)], 0),
                                              o.dtype), [[0]], expand_dims(o, 0))
               for o in firsts]
    carry_flat = [convert_to_tensor(c) for c in nest.flatten(carry)] if carry is not None else []

    def cond(i, *_):
        return i < count

    def body(i, bufs, carries):
        outputs, new_carry = step(i, nest.pack_sequence_as(carry, carries)
                                  if carry is not None else None)
        row = expand_dims(expand_dims(i, 0), 0)
        bufs = [tensor_scatter_nd_update(b, row, expand_dims(convert_to_tensor(o), 0))
                for b, o in zip(bufs, nest.flatten(outputs))]
        carries = [convert_to_tensor(c) for c in nest.flatten(new_carry)] \
            if carry is not None else []
        return i + 1, bufs, carries

    start = convert_to_tensor(start, dtype=count.dtype)
    invariants = (TensorShape([]), [TensorShape([None] + list(o.shape)) for o in firsts],
                  [c.shape for c in carry_flat])
    _, bufs, carries = while_loop(cond, body, (start, buffers, carry_flat),
                                  shape_invariants=invariants)
    packed_carry = nest.pack_sequence_as(carry, carries) if carry is not None else None
    return nest.pack_sequence_as(first_outputs, bufs), packed_carry


# -- map_fn ------------------------------------------------------------------------------------------------
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """fn applied to each element of `elems` along axis 0, the results stacked (a structure of
    tensors if fn returns one)."""
    check_loop_options("map_fn", parallel_iterations, swap_memory, zero_is_default=True)
    with op_scope(name, "map"):
        return without_gradient(_map(fn, elems, dtype, infer_shape, fn_output_signature),
                                 back_prop)


def _map(fn, elems, dtype, infer_shape, fn_output_signature):
    signature = fn_output_signature if fn_output_signature is not None else dtype
    flat = _flat_elements(elems, "map_fn")
    n = _static_length(flat, "map_fn")
    if n == 0:
        return _empty_outputs(signature, flat, "map_fn")
    if n is not None:
        return _stacked([_check_signature(fn(_element(elems, flat, i)), signature, "map_fn")
                         for i in range(n)], "map_fn", infer_shape)
    first = _check_signature(fn(_element(elems, flat, 0)), signature, "map_fn")
    count = shape_of(flat[0])[0]
    outputs, _ = _accumulating_loop(lambda i, _: (fn(_element(elems, flat, i)), None), first,
                                    count)
    return outputs


# -- scan, foldl, foldr ------------------------------------------------------------------------------------
def _order(n, reverse):
    return range(n - 1, -1, -1) if reverse else range(n)


def _scan(fn, elems, initializer, reverse, what, keep_all, options, infer_shape=True):
    """scan / foldl / foldr under their options (parallel_iterations, back_prop,
    swap_memory, name)."""
    parallel_iterations, back_prop, swap_memory, name = options
    check_loop_options(what, parallel_iterations, swap_memory)
    with op_scope(name, what):
        return without_gradient(_scanned(fn, elems, initializer, reverse, what, keep_all,
                                          infer_shape), back_prop)


def _scanned(fn, elems, initializer, reverse, what, keep_all, infer_shape):
    flat = _flat_elements(elems, what)
    n = _static_length(flat, what)
    if n == 0 and initializer is None:
        raise ValueError(f"{what}: elems are empty and there is no initializer.")
    if n is not None:
        order = list(_order(n, reverse))
        acc = initializer if initializer is not None else _element(elems, flat, order[0])
        steps = order if initializer is not None else order[1:]
        history = [] if initializer is not None else [acc]
        for i in steps:
            acc = fn(acc, _element(elems, flat, i))
            history.append(acc)
        if not keep_all:
            return acc
        if not history:
            return nest.map_structure(lambda a: zeros([0] + list(convert_to_tensor(a).shape),
                                                      convert_to_tensor(a).dtype), initializer)
        return _stacked(history[::-1] if reverse else history, what, infer_shape)
    return _dynamic_scan(fn, elems, flat, initializer, reverse, what, keep_all)


def _dynamic_scan(fn, elems, flat, initializer, reverse, what, keep_all):
    """scan / fold when the length is known only when the graph runs (one while_loop)."""
    count = shape_of(flat[0])[0]

    def position(i):
        return count - 1 - i if reverse else i
    if initializer is None:
        acc, start = _element(elems, flat, position(0)), 1
    else:
        acc, start = fn(initializer, _element(elems, flat, position(0))), 1

    def step(i, carry):
        new = fn(carry, _element(elems, flat, position(i)))
        return new, new
    history, final = _accumulating_loop(step, acc, count, start=start, carry=acc)
    if not keep_all:
        return final
    if reverse:
        history = nest.map_structure(lambda h: flip(h, [0]), history)
    return history


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """The running results a_i = fn(a_{i-1}, elems[i]) stacked along axis 0 (from the back
    with reverse=True; out[i] always belongs to elems[i]). Without an initializer, a_0 is
    elems[0]."""
    return _scan(fn, elems, initializer, reverse, "scan", True,
                 (parallel_iterations, back_prop, swap_memory, name), infer_shape)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """fn folded over elems from the front: fn(...fn(fn(initializer, e0), e1)..., e_last)."""
    return _scan(fn, elems, initializer, False, "foldl", False,
                 (parallel_iterations, back_prop, swap_memory, name))


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """fn folded over elems from the back: fn(...fn(fn(initializer, e_last), ...), e0)."""
    return _scan(fn, elems, initializer, True, "foldr", False,
                 (parallel_iterations, back_prop, swap_memory, name))
