"""Jacobians from a tape: every partial derivative of a target with respect to its sources.

For a target y of shape T and a source x of shape S the Jacobian J has shape T + S, with
J[i, j] = dy_i / dx_j. Reverse mode gives one row per pass: seeding the reverse pass with the
one-hot vector e_i computes e_i^T J = (dy_i/dx_j)_j, i.e. row i. So

    jacobian(y, x)       = stack([vjp(e_i) for i in range(size(y))])  reshaped to T + S

The tape's records are pruned once to the ops between the sources and the target, and every row
runs the reverse pass over that short list only.

`batch_jacobian(y, x)` is for a batch of independent examples: y [b, *T], x [b, *S], and example k
of y depends only on example k of x. Then seeding with e_j placed in every example at once gives,
in one pass, row j of all b per-example Jacobians, so only size(T) passes are needed:

    batch_jacobian(y, x)[k, t, s] = dy[k, t] / dx[k, s]        shape [b, *T, *S]

Vectorized (the default, TensorFlow's `experimental_use_pfor=True`): all rows in one reverse pass
whose seed stacks every one-hot vector, the identity reshaped to [m, *T] (for batch_jacobian
seed[j, k, ...] = e_j in every example k), and whose gradients all carry that leading m; see
batched.py. The pass runs when every op on the pruned path has a batch-safe gradient rule;
otherwise (custom gradients, control flow, graph mode, ops without one) it falls back to one pass
per row, as `experimental_use_pfor=False` requests. The rows run in blocks (`_batched_rows`) so that
m times the largest tensor stays bounded. `last_mode()` says which ran, and why.

Rows are assembled with wengert ops (stack, reshape), so the result is itself recorded by any
outer tape: a Hessian is the jacobian of a gradient computed under an outer tape.
"""
import numpy as np

from ..framework.context import state
from ..framework.tensor import Tensor, array_of, constant
from ..ops.broadcast_ops import broadcast_to, zeros_like
from ..ops.reshape_ops import reshape
from ..ops.array_ops import concat, stack
from ..ops.reshape_ops import transpose
from ..util import nest
from . import backprop, batched
from .backprop import UnconnectedGradients, backward
from .targets import as_target, check_sources

__all__ = ["jacobian", "batch_jacobian", "last_mode"]

_LAST = ["", None]  # how the latest jacobian ran: "vectorized" or "loop", and why a loop


def last_mode():
    """("vectorized", None) or ("loop", reason) for the latest jacobian/batch_jacobian call."""
    return tuple(_LAST)


def jacobian(tape, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
             experimental_use_pfor=True):
    """d(target)/d(sources), each of shape target.shape + source.shape, in sources' structure."""
    unconnected = _unconnected_mode(unconnected_gradients)
    target = as_target(target)
    flat_sources = _in_graph(check_sources(sources))
    target_shape = tuple(target.shape)
    size = int(np.prod(target_shape, dtype=np.int64))
    records = tape._begin_reverse_pass()
    try:
        connected = tape._connected(flat_sources)
        path = _pruned(records, [target], connected)
        vectorized = _vectorize(path, target, size, experimental_use_pfor)
        if vectorized:
            columns = _batched_rows(path, target, connected, _identity_rows(target, size), (size,))
        else:
            rows = [backward(path, [target], connected, [_one_hot(target, [i], size)])
                    for i in range(size)]
            columns = [[row[k] for row in rows] for k in range(len(flat_sources))]
    finally:
        tape._end_reverse_pass()
    results = []
    for column, source in zip(columns, flat_sources):
        if vectorized:
            results.append(_reshaped(column, source, target_shape, unconnected))
        else:
            results.append(_assemble(column, source, target_shape, tuple(source.shape), 0,
                                     unconnected))
    return nest.pack_sequence_as(sources, results)


def batch_jacobian(tape, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                   experimental_use_pfor=True):
    """Per-example Jacobians of target [b, *T] w.r.t. source [b, *S]: shape [b, *T, *S]. An
    unconnected source gives zeros whatever `unconnected_gradients` says (after checking it), as
    TensorFlow's batch_jacobian has always done."""
    _unconnected_mode(unconnected_gradients)
    unconnected = UnconnectedGradients.ZERO
    target = as_target(target)
    (source,) = _in_graph(check_sources([source]))
    target_shape, source_shape = tuple(target.shape), tuple(source.shape)
    _check_batch(target_shape, source_shape)
    batch = target_shape[0]
    size = int(np.prod(target_shape[1:], dtype=np.int64))
    out_shape = (batch,) + target_shape[1:]
    records = tape._begin_reverse_pass()
    try:
        connected = tape._connected([source])
        path = _pruned(records, [target], connected)
        if _vectorize(path, target, size, experimental_use_pfor):
            (column,) = _batched_rows(path, target, connected,
                                    _per_example_rows(target, size), (size,))
            return _per_example(column, source, out_shape, unconnected)
        rows = []
        for j in range(size):
            seed = _one_hot(target, [b * size + j for b in range(batch)], batch * size)
            rows.append(backward(path, [target], connected, [seed])[0])
    finally:
        tape._end_reverse_pass()
    return _assemble(rows, source, out_shape, source_shape[1:], 1, unconnected)


def _in_graph(sources):
    """While a graph is built, an eager source stands for the graph's capture of it (the
    tensor the recorded ops read), as in GradientTape.gradient."""
    graph = state.graph
    return sources if graph is None else [graph.captured(s) for s in sources]


def _vectorize(path, target, size, use_pfor):
    """Whether to run the batched pass; records the answer for last_mode()."""
    reason = "experimental_use_pfor=False" if not use_pfor else (
        "the target is empty" if size == 0 else batched.why_not(path, target))
    _LAST[:] = ["vectorized", None] if reason is None else ["loop", reason]
    return reason is None


def _identity_rows(target, size):
    """Seeds for rows start..stop of the Jacobian: the identity's rows, shaped [n, *T]."""
    dtype, shape = target.dtype.as_numpy_dtype, tuple(target.shape)

    def rows(start, stop):
        seed = np.zeros((stop - start, size), dtype)
        seed[np.arange(stop - start), np.arange(start, stop)] = 1
        return seed.reshape((stop - start,) + shape)
    return rows


def _per_example_rows(target, size):
    """batch_jacobian's seeds: seed[j, k, ...] = e_j in example k, shaped [n, b, *T']."""
    dtype, shape = target.dtype.as_numpy_dtype, tuple(target.shape)

    def rows(start, stop):
        seed = np.zeros((stop - start, 1, size), dtype)
        seed[np.arange(stop - start), 0, np.arange(start, stop)] = 1
        return np.repeat(seed, shape[0], axis=1).reshape((stop - start,) + shape)
    return rows


def _reshaped(column, source, target_shape, unconnected):
    """A vectorized column [m, *S] as the Jacobian block T + S."""
    out_shape = tuple(target_shape) + tuple(source.shape)
    if column is None:
        return None if unconnected == UnconnectedGradients.NONE else _zeros(out_shape, source)
    return reshape(column, out_shape)


def _per_example(column, source, out_shape, unconnected):
    """batch_jacobian's column [m, b, *S'] as [b, *T', *S']."""
    full = tuple(out_shape) + tuple(source.shape[1:])
    if column is None:
        return None if unconnected == UnconnectedGradients.NONE else _zeros(full, source)
    rank = len(column.shape)
    swapped = transpose(column, (1, 0) + tuple(range(2, rank)))
    return reshape(swapped, full)


def _pruned(records, targets, sources):
    """The records on a path from a source to a target, in execution order (pruned once, so
    each of the many reverse passes walks only these)."""
    source_ids = {id(s) for s in sources if s.dtype.is_differentiable}
    path, _ = backprop._prune(records, targets, source_ids, frozenset())
    path.reverse()
    return path


def _one_hot(target, positions, size):
    seed = np.zeros(size, dtype=target.dtype.as_numpy_dtype)
    seed[positions] = 1
    return Tensor(seed.reshape(tuple(target.shape)))


def _assemble(rows, source, lead_shape, tail_shape, axis, unconnected):
    """Stack the per-pass gradients (each of the source's shape) along `axis` and reshape to
    lead_shape + tail_shape. All None means the source is unconnected."""
    out_shape = tuple(lead_shape) + tuple(tail_shape)
    if all(r is None for r in rows):
        if unconnected == UnconnectedGradients.NONE:
            return None
        return _zeros(out_shape, source)
    if not rows:
        return _zeros(out_shape, source)
    rows = [r if r is not None else zeros_like(source) for r in rows]
    stacked = stack(rows, axis=axis)
    return reshape(stacked, out_shape)


def _zeros(shape, source):
    return constant(np.zeros(shape, dtype=source.dtype.as_numpy_dtype))


# -- the vectorized pass (batched.py) --------------------------------------------------------------
def _batched_rows(path, target, sources, seed_rows, lead_shape):
    """Gradients of `target` for each source, each [m, *source.shape] (or None if unconnected),
    from seeds seed_rows(start, stop) -> array [stop - start, *lead_shape[1:]...], in blocks of
    rows small enough that m * (largest tensor) < batched.ROW_BLOCK_ELEMENTS."""
    views = [batched.view(op) for op in path]
    rows = lead_shape[0]
    block = max(1, batched.ROW_BLOCK_ELEMENTS // max(1, _largest(path, target)))
    parts = []
    for start in range(0, rows, block):
        seed = Tensor(seed_rows(start, min(rows, start + block)))
        parts.append(backward(views, [target], sources, [seed], batch_dims=1))
    return [_join([p[k] for p in parts], s, rows) for k, s in enumerate(sources)]


def _largest(path, target):
    sizes = [int(np.prod(target.shape, dtype=np.int64))]
    for op in path:
        for t in op.inputs + op.outputs:
            value = array_of(t)
            if value is not None:
                sizes.append(np.size(value))
    return max(sizes)


def _join(blocks, source, rows):
    """One source's blocks of rows concatenated along the batch axis (None: unconnected)."""
    if all(b is None for b in blocks):
        return None
    shape = (-1,) + tuple(source.shape)
    full = []
    for b, count in zip(blocks, _block_sizes(rows, len(blocks))):
        if b is None:
            b = Tensor(np.zeros((count,) + tuple(source.shape), source.dtype.as_numpy_dtype))
        elif len(b.shape) == len(source.shape):  # a rule gave an unbatched (zero) gradient
            b = broadcast_to(b, (count,) + tuple(source.shape))
        full.append(reshape(b, shape) if len(b.shape) != len(shape) else b)
    return full[0] if len(full) == 1 else concat(full, 0)


def _block_sizes(rows, count):
    size = -(-rows // count)
    return [min(size, rows - i * size) for i in range(count)]


def _unconnected_mode(value):
    mode = getattr(value, "value", value)
    if mode not in (UnconnectedGradients.NONE, UnconnectedGradients.ZERO):
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {value!r}.")
    return mode


def _check_batch(target_shape, source_shape):
    if len(target_shape) < 1 or len(source_shape) < 1:
        raise ValueError(f"batch_jacobian: target (shape {target_shape}) and source (shape "
                         f"{source_shape}) must both have a leading batch dimension (rank >= "
                         "1); use jacobian() for unbatched values.")
    if target_shape[0] != source_shape[0]:
        raise ValueError(f"batch_jacobian: target has batch size {target_shape[0]} (shape "
                         f"{target_shape}) but source has batch size {source_shape[0]} (shape "
                         f"{source_shape}); the first dimensions must match.")
