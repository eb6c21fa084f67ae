"""Keras 3's control flow (`keras.ops.cond`, `switch`, `while_loop`, `fori_loop`, `scan`, `map`,
`associative_scan`, `vectorized_map`) over wengert's control flow ops, with the TensorFlow
backend's semantics; all are differentiable, eagerly and inside `tf.function`.

`scan(f, init, xs)` is JAX's `lax.scan`: with carry c_0 = init, step i computes
(c_{i+1}, y_i) = f(c_i, xs[i]) and the result is (c_n, stack(y_i)); `reverse=True` walks i from
n - 1 down to 0 while y_i stays at position i. Over a statically known length the steps are
written out one by one (as wengert's `map_fn` does); over a length known only at run time the
first step runs once, and wengert's `scan` carries (c, y) through the rest.

`associative_scan(f, elems)` returns the prefixes p_i = f(...f(f(e_0, e_1), e_2)..., e_i) for an
associative f, by doubling: after the round with offset d, p_i combines the 2d elements ending
at i, so ceil(log2 n) rounds of p_i = f(p_{i-d}, p_i) (for i >= d) finish it. The earlier
segment is always f's first argument, so f need not commute.
"""
from ...util import nest
from ...ops.array_ops import concat, stack
from ...ops.indexing_ops import reverse as _reverse
from ...ops.math_ops import clip_by_value
from ...ops.slice_ops import strided_slice
from ...control_flow.cond import cond as _cond, switch_case
from ...control_flow.functional import map_fn, scan as _tf_scan
from ...control_flow.vectorize import vectorized_map as _vectorized_map
from ...control_flow.while_loop import while_loop as _while_loop
from .core import convert_to_tensor

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "map", "associative_scan",
           "vectorized_map"]


def cond(pred, true_fn, false_fn):
    """`true_fn()` if pred else `false_fn()` (one If op in a graph)."""
    return _cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """`branches[index](*operands)`, the index clipped into range."""
    index = clip_by_value(convert_to_tensor(index, "int32"), 0, len(branches) - 1)
    return switch_case(index, [lambda b=b: b(*operands) for b in branches])


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; a lone loop variable (not
    a tuple or list) is passed and returned bare."""
    many = isinstance(loop_vars, (tuple, list))
    values = tuple(loop_vars) if many else (loop_vars,)

    def step(*args):
        out = body(*args)
        return tuple(out) if many else (out,)
    out = _while_loop(cond, step, values, maximum_iterations=maximum_iterations)
    return tuple(out) if many else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for i in [lower, upper)."""
    return _while_loop(lambda i, val: i < upper, lambda i, val: (i + 1, body_fun(i, val)),
                       (convert_to_tensor(lower), init_val))[1]


def map(f, xs):  # noqa: A001 (Keras's name)
    """f applied to each slice of xs along axis 0, the results stacked."""
    return map_fn(f, nest.map_structure(convert_to_tensor, xs))


def vectorized_map(function, elements):
    return _vectorized_map(function, elements)


def _scan_unrolled(f, init, xs, flat_xs, n, reverse):
    carry, ys = init, [None] * n
    for i in (range(n - 1, -1, -1) if reverse else range(n)):
        x = None if xs is None else nest.pack_sequence_as(xs, [t[i] for t in flat_xs])
        carry, ys[i] = f(carry, x)
    if n == 0 or ys[0] is None:
        return carry, None
    stacked = [stack(parts) for parts in zip(*[nest.flatten(y) for y in ys])]
    return carry, nest.pack_sequence_as(ys[0], stacked)


def _scan_dynamic(f, init, xs, flat_xs, reverse):
    if reverse:
        flat_xs = [_reverse(t, [0]) for t in flat_xs]
    first = nest.pack_sequence_as(xs, [t[0] for t in flat_xs])
    start = f(init, first)
    rest = nest.pack_sequence_as(xs, [t[1:] for t in flat_xs])

    def step(acc, x):
        return f(acc[0], x)
    acc = _tf_scan(step, rest, initializer=start)
    carry = nest.map_structure(lambda c0, c: concat([c0[None], c], 0)[-1], start[0], acc[0])
    ys = nest.map_structure(lambda y0, y: concat([y0[None], y], 0), start[1], acc[1])
    if reverse:
        ys = nest.map_structure(lambda y: _reverse(y, [0]), ys)
    return carry, ys


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """JAX's scan: `(carry, y) = f(carry, x)` over xs (or `length` steps of x=None); returns
    the last carry and the stacked ys."""
    if not callable(f):
        raise TypeError(f"scan: f must be a callable, got {type(f).__name__}.")
    if not isinstance(unroll, bool) and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(f"scan: unroll must be a positive integer or a bool, got {unroll!r}.")
    if xs is None and length is None:
        raise ValueError("scan: got no `xs` to scan over and no `length`.")
    flat_xs = [] if xs is None else [convert_to_tensor(t) for t in nest.flatten(xs)]
    n = int(length) if length is not None else flat_xs[0].shape[0]
    if n is not None:
        return _scan_unrolled(f, init, xs, flat_xs, n, reverse)
    return _scan_dynamic(f, init, xs, flat_xs, reverse)


def _along(x, axis, start, stop):
    begin, end = [0] * x.shape.rank, [0] * x.shape.rank
    begin[axis], end[axis] = start, stop
    mask = ~(1 << axis) & ((1 << x.shape.rank) - 1)
    return strided_slice(x, begin, end, begin_mask=mask, end_mask=mask)


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive prefix combinations of `elems` along `axis` under associative f."""
    if not callable(f):
        raise TypeError(f"associative_scan: f must be a callable, got {type(f).__name__}.")
    flat = [convert_to_tensor(t) for t in nest.flatten(elems)]
    axis = axis % flat[0].shape.rank
    n = flat[0].shape[axis]
    if n is None or any(t.shape[axis] != n for t in flat):
        raise ValueError("associative_scan: every input needs the same, statically known length "
                         f"along axis {axis}; got shapes {[t.shape for t in flat]}.")
    if reverse:
        flat = [_reverse(t, [axis]) for t in flat]
    offset = 1
    while offset < n:
        earlier = nest.pack_sequence_as(elems, [_along(t, axis, 0, n - offset) for t in flat])
        later = nest.pack_sequence_as(elems, [_along(t, axis, offset, n) for t in flat])
        combined = nest.flatten(f(earlier, later))
        flat = [concat([_along(t, axis, 0, offset), c], axis) for t, c in zip(flat, combined)]
        offset *= 2
    if reverse:
        flat = [_reverse(t, [axis]) for t in flat]
    return nest.pack_sequence_as(elems, flat)

