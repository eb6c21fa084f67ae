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

Rows are assembled with wengert ops (stack, reshape), so the result is itself recorded by any
outer tape: a Hessian is the jacobian of a gradient computed under an outer tape.
"""
import numpy as np

from ..framework.tensor import Tensor, constant
from ..util import nest
from . import backprop
from .backprop import UnconnectedGradients, backward

__all__ = ["jacobian", "batch_jacobian"]


def jacobian(tape, target, sources, unconnected_gradients=UnconnectedGradients.NONE):
    """d(target)/d(sources), each of shape target.shape + source.shape, in sources' structure."""
    from .tape import _as_target, _check_sources
    unconnected = _unconnected_mode(unconnected_gradients)
    target = _as_target(target)
    flat_sources = _check_sources(sources)
    target_shape = tuple(target.shape)
    size = int(np.prod(target_shape, dtype=np.int64))
    records = tape._begin_reverse_pass()
    try:
        connected = tape._connected(flat_sources)
        path = _pruned(records, [target], connected)
        rows = [backward(path, [target], connected, [_one_hot(target, [i], size)])
                for i in range(size)]
    finally:
        tape._end_reverse_pass()
    results = []
    for k, source in enumerate(flat_sources):
        column = [row[k] for row in rows]
        results.append(_assemble(column, source, target_shape, tuple(source.shape), 0,
                                 unconnected))
    return nest.pack_sequence_as(sources, results)


def batch_jacobian(tape, target, source, unconnected_gradients=UnconnectedGradients.NONE):
    """Per-example Jacobians of target [b, *T] w.r.t. source [b, *S]: shape [b, *T, *S]."""
    from .tape import _as_target, _check_sources
    unconnected = _unconnected_mode(unconnected_gradients)
    target = _as_target(target)
    (source,) = _check_sources([source])
    target_shape, source_shape = tuple(target.shape), tuple(source.shape)
    _check_batch(target_shape, source_shape)
    batch = target_shape[0]
    size = int(np.prod(target_shape[1:], dtype=np.int64))
    records = tape._begin_reverse_pass()
    try:
        connected = tape._connected([source])
        path = _pruned(records, [target], connected)
        rows = []
        for j in range(size):
            seed = _one_hot(target, [b * size + j for b in range(batch)], batch * size)
            rows.append(backward(path, [target], connected, [seed])[0])
    finally:
        tape._end_reverse_pass()
    out_shape = (batch,) + target_shape[1:]
    return _assemble(rows, source, out_shape, source_shape[1:], 1, unconnected)


def _pruned(records, targets, sources):
    """The records on a path from a source to a target, in execution order (pruned once, so
    each of the many reverse passes walks only these)."""
    source_ids = {id(s) for s in sources if s.dtype.is_floating}
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
    from ..ops.array_core import zeros_like
    from ..ops.array_ops import reshape, stack
    rows = [r if r is not None else zeros_like(source) for r in rows]
    stacked = stack(rows, axis=axis)
    return reshape(stacked, out_shape)


def _zeros(shape, source):
    return constant(np.zeros(shape, dtype=source.dtype.as_numpy_dtype))


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
