"""The one reverse pass (reverse-mode automatic differentiation), shared by every caller.

Given op records in execution order (a tape's Wengert list, or a graph's ops), targets `ys`,
sources `xs` and seed gradients for the targets, it computes dys/dxs by the chain rule:

    grad(x) = sum over ops `op` that consumed x:  VJP_op(grad(outputs of op))[x's position]

1. Find what depends on a source: one forward scan marks every tensor reached from a source
   (a tape whose watched roots are all sources already knows: its watched set).
2. Walk the ops in reverse execution order. An op runs only when one of its outputs received a
   gradient (so it leads to a target) and one of its floating-point inputs is reached from a
   source; the other inputs are listed in `op.skip_input_indices` for its rule. Each op's outputs
   have received every contribution by then (all their consumers ran later), so their gradients
   are summed once and handed to the op's registered gradient function, which returns one
   gradient (or None) per input. (`_prune` does both scans ahead of time for callers that run
   many passes over one path: the rows of a Jacobian.)
3. A gradient whose shape differs from its input's (the forward op broadcast the input) is summed
   back to the input's shape, here and nowhere else.
4. Gradients are dropped as soon as their tensor's producer has consumed them, so memory stays
   proportional to the live frontier, not to the whole history.
5. Sparse gradients (`IndexedSlices`, from gather) stay sparse: they pass through variable reads
   and identities, sum by concatenation (densely when mixed with a dense gradient), reach an eager
   caller as they are, and are densified before any other gradient function sees them. Only the
   tensors that received one are checked (`sparse`), so the dense path pays nothing for them.

"No gradient" is None, never a zeros array, until the caller asks for zeros. Gradient functions are
written in wengert ops, so this pass, run under an outer tape or inside a graph, is itself recorded
or built as ops: that is what gives higher-order derivatives and graph-mode `gradients()`.
Everything is iterative; a chain of any length works.
"""
from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import _GRADIENTS, _MISSING, _OP_DEFS, get_gradient_function
from ..framework.tensor import Tensor
from ..framework.variables import EAGER_TYPES as _EAGER
from ..ops import array_core
from ..ops.indexed_slices_ops import aggregate

__all__ = ["backward", "UnconnectedGradients"]


class UnconnectedGradients:
    """What a source that does not affect the target gets: None (default) or zeros."""

    NONE = "none"
    ZERO = "zero"


def backward(records, targets, sources, seeds, unconnected=UnconnectedGradients.NONE,
             stop_ids=frozenset(), observer=None, batch_dims=0, reachable=None):
    """Gradients of `targets` with respect to `sources` (a list, one entry per source).

    records: op records in execution order. targets: tensors. sources: tensors or variables.
    seeds: one gradient per target (a tensor). stop_ids: ids of tensors treated as constants.
    observer(op, out_grads, in_grads): optional per-step callback (tracing, numeric checks).
    batch_dims: leading dimensions every gradient carries beyond its tensor's shape (the
    vectorized Jacobian's stacked seeds, autodiff/batched.py); 0 for an ordinary pass.
    reachable: when the caller knows that every record depends on a source, the ids of the
    sources and of every record's outputs (a tape whose watched roots are all sources); the
    forward scan is then skipped.
    """
    if observer is None and state.grad_observers:  # debugging.trace_backprop and friends
        hooks = state.grad_observers
        observer = hooks[0] if len(hooks) == 1 else (
            lambda op, out_grads, in_grads: [h(op, out_grads, in_grads) for h in hooks])
    if unconnected not in (UnconnectedGradients.NONE, UnconnectedGradients.ZERO):
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {unconnected!r}.")
    source_ids = {id(s) for s in sources if s.dtype.is_floating}
    reached = reachable if reachable is not None else _reached_from(records, source_ids)[1]
    if stop_ids:
        reached = reached - (stop_ids - source_ids)
    needed = set()  # floating-point inputs of the ops walked so far that reach a source
    grads = {}
    sparse = set()  # ids of the tensors that received an IndexedSlices gradient
    for target, seed in zip(targets, seeds):
        grads.setdefault(id(target), []).append(seed)
    get, pop, needs = grads.get, grads.pop, needed.add
    for op in reversed(records):  # everything per op is inlined: this loop is the pass's cost
        outputs = op.outputs
        if len(outputs) == 1:
            key = id(outputs[0])
            parts = get(key) if key in source_ids else pop(key, None)
            if parts is None or key in stop_ids:
                continue
            if sparse and key in sparse:
                grad = _sparse_sum(op, parts)
            else:
                grad = parts[0] if len(parts) == 1 else array_core.sum_gradients(parts)
            out_grads = None  # one output, whose gradient is `grad`
        else:
            out_grads = _take_output_grads(op, grads, source_ids, stop_ids)
            if out_grads is None:
                continue
        inputs = op.inputs
        skip = ()  # the inputs whose gradient nobody needs (integer, or not reaching a source)
        for t in inputs:
            key = id(t)
            if key in needed or key in reached and (  # a floating-point input (inline test)
                    t._value.dtype.kind == "f" if type(t) is Tensor else t.dtype.is_floating):
                needs(key)
            else:
                skip = None  # listed once all are marked
        if skip is None:
            skip = tuple(i for i, t in enumerate(inputs) if id(t) not in needed)
            if len(skip) == len(inputs):
                continue
        op.skip_input_indices = skip
        fn = _GRADIENTS.get(op.gradient_override or op.type, _MISSING)
        if fn is _MISSING:
            fn = get_gradient_function(op)  # raises LookupError naming the op and its type
        if fn is None:
            continue
        in_grads = fn(op, grad) if out_grads is None else fn(op, *out_grads)
        if type(in_grads) is not tuple and type(in_grads) is not list:
            in_grads = (in_grads,)
        if len(in_grads) != len(inputs):
            raise _wrong_count(op, in_grads)
        if observer is not None:
            observer(op, (grad,) if out_grads is None else out_grads, in_grads)
        for t, g in zip(inputs, in_grads):
            key = id(t)
            if g is None or key not in needed:
                continue
            # An eager gradient of the input's shape and dtype needs no fitting. (NumPy's
            # builtin dtypes are singletons: `is` decides; `_fit_to_input` settles the rest.)
            if type(g) is Tensor and type(t) in _EAGER:
                value, like = g._value, t._value
                fits = value.shape == like.shape and value.dtype is like.dtype
            else:
                fits = False
            if not fits:
                g = _fit_to_input(op, t, g, batch_dims)
                if type(g) is IndexedSlices:
                    sparse.add(key)
            parts = get(key)
            if parts is None:
                grads[key] = [g]
            else:
                parts.append(g)
    return [_result(s, grads.get(id(s)), unconnected, id(s) in sparse) for s in sources]


def _prune(records, targets, source_ids, stop_ids):
    """Ops on a path from a source to a target (in reverse execution order), and the ids of the
    floating-point tensors on such paths (the only ones that need a gradient). Sets each path
    op's `skip_input_indices` to the inputs whose gradient nobody needs."""
    forward, reached = _reached_from(records, source_ids)
    if stop_ids:
        reached = reached - (stop_ids - source_ids)
    needed = {id(t) for t in targets}
    path = []
    for op in reversed(forward):
        for out in op.outputs:
            if id(out) in needed:
                break
        else:
            continue
        path.append(op)
        skip = ()
        for i, t in enumerate(op.inputs):
            if id(t) in reached and _floating(t):
                needed.add(id(t))
            else:
                skip += (i,)
        op.skip_input_indices = skip
    return path, needed


def _floating(t):
    """Whether t is a floating-point tensor (eagerly read off the array, no DType lookup)."""
    return t._value.dtype.kind == "f" if type(t) is Tensor else t.dtype.is_floating


def _reached_from(records, source_ids):
    """The records that depend on a source (in order), and the ids of the tensors they reach."""
    reached = set(source_ids)
    reach = reached.add
    forward = []
    keep = forward.append
    for op in records:
        for t in op.inputs:
            if id(t) in reached:
                keep(op)
                for out in op.outputs:
                    reach(id(out))
                break
    return forward, reached


def _take_output_grads(op, grads, source_ids, stop_ids):
    """For a multi-output op: the summed gradient of each output (zeros for outputs that got
    none), or None when no output received a gradient. Sources' gradients stay in `grads`."""
    summed = []
    for out in op.outputs:
        key = id(out)
        parts = grads.get(key) if key in source_ids else grads.pop(key, None)
        if parts is None or key in stop_ids:
            summed.append(None)
        else:
            g = parts[0] if len(parts) == 1 else aggregate(parts)
            summed.append(g._dense() if type(g) is IndexedSlices else g)
    if all(g is None for g in summed):
        return None
    return [g if g is not None else _zeros_for(out) for g, out in zip(summed, op.outputs)]


def _wrong_count(op, in_grads):
    return InvalidArgumentError(
        f"The gradient function for op '{op.name}' (type {op.type}) returned "
        f"{len(in_grads)} gradients, but the op has {len(op.inputs)} inputs; a gradient "
        "function must return one gradient (or None) per input.", op)


def _fit_to_input(op, t, g, batch_dims=0):
    """Convert a rule's result to a tensor of the input's shape, undoing broadcasting."""
    if batch_dims:  # shape [B..., *input.shape] (autodiff/batched.py)
        from .batched import fit
        return fit(op, t, g, batch_dims)
    if type(g) is Tensor and type(t) in _EAGER and g._value.dtype == t._value.dtype:
        # Eager, right dtype, other shape: the input was broadcast (e.g. a scalar times a vector).
        return array_core.unbroadcast_eager(g, t._value.shape, op)
    if type(g) is IndexedSlices:
        return _fit_slices(op, t, g)
    g = array_core.as_gradient(g, t)
    source, target = array_core.static_shape(g), array_core.static_shape(t)
    if source != target or source is None or None in source:
        g = array_core.unbroadcast(g, t, op)
    return g


def _fit_slices(op, t, g):
    """A sparse gradient is kept sparse; it must have its input's dtype and row shape."""
    if g.dtype != t.dtype:
        raise InvalidArgumentError(
            f"The gradient function of op '{op.name}' (type {op.type}) returned IndexedSlices "
            f"of dtype {g.dtype.name} for an input of dtype {t.dtype.name}.", op)
    if not g.shape.is_compatible_with(t.shape):
        raise InvalidArgumentError(
            f"The gradient function of op '{op.name}' (type {op.type}) returned IndexedSlices "
            f"of dense shape {g.shape} for an input of shape {t.shape}.", op)
    return g


def _sparse_sum(op, parts):
    """The summed gradient of an output some of whose parts are IndexedSlices, densified
    unless `op`'s gradient function hands it on unchanged (a read or an identity)."""
    g = aggregate(parts)
    if type(g) is IndexedSlices and not _passes_sparse(op):
        return g._dense()
    return g


def _passes_sparse(op):
    """Whether op's gradient rule (an override's, if any) hands IndexedSlices on unchanged."""
    if op.gradient_override is None:
        return op.op_def.passes_sparse
    override = _OP_DEFS.get(op.gradient_override)
    return override is not None and override.passes_sparse


def _zeros_for(t):
    return array_core.zeros_like_gradient(t)


def _result(source, parts, unconnected, has_sparse=False):
    if parts and has_sparse:
        g = aggregate(parts)
        # In a graph (Session, traced function) the caller gets the dense gradient: fetching
        # IndexedSlices is not supported there. Eagerly it is returned sparse, as TensorFlow does.
        return g._dense() if type(g) is IndexedSlices and state.graph is not None else g
    if parts:
        return parts[0] if len(parts) == 1 else array_core.sum_gradients(parts)
    if unconnected == UnconnectedGradients.ZERO:
        return _zeros_for(source)
    return None
