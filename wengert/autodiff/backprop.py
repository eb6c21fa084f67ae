"""The one reverse pass (reverse-mode automatic differentiation), shared by every caller.

Given op records in execution order (a tape's Wengert list, or a graph's ops), targets `ys`,
sources `xs` and seed gradients for the targets, it computes dys/dxs by the chain rule:

    grad(x) = sum over ops `op` that consumed x:  VJP_op(grad(outputs of op))[x's position]

1. Find what depends on a source: one forward scan marks every tensor reached from a source
   (a tape whose watched roots are all sources already knows: its watched set).
2. Walk the ops in reverse execution order. An op runs only when one of its outputs received a
   gradient (so it leads to a target) and one of its floating-point inputs is reached from a
   source. Each op's outputs have received every contribution by then (all their consumers ran
   later), so their parts are summed once (`_total`, the one way parts are summed) and handed
   to the op's registered gradient function, which returns one gradient (or None) per input.
   Which inputs this pass skips is per-pass state: the rule gets a `PassView` of the record
   carrying `skip_input_indices` when there are some, the record itself otherwise; records are
   never written. (`_prune` does the scans ahead of time for callers that run many passes over
   one path: the rows of a Jacobian.)
3. A gradient whose shape differs from its input's (the forward op broadcast the input) is summed
   back to the input's shape by `fit_to_input`, through `broadcast_ops.unbroadcast`, here and
   nowhere else (the batched pass of vectorized Jacobians included).
4. Gradients are dropped as soon as their tensor's producer has consumed them, so memory stays
   proportional to the live frontier, not to the whole history.
5. Sparse gradients (`IndexedSlices`, from gather) stay sparse: they pass through variable reads
   and identities, sum by concatenation (densely when mixed with a dense gradient), reach the
   caller as they are (eagerly, and in a graph or a traced function, as TensorFlow gives them:
   optimizers then square a repeated row's pieces before summing them, as Keras does), and are
   densified before any other gradient function sees them. Only the
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
from ..ops import broadcast_ops
from ..ops.indexed_slices_ops import aggregate

__all__ = ["backward", "UnconnectedGradients"]


class UnconnectedGradients:
    """What a source that does not affect the target gets: None (default) or zeros."""

    NONE = "none"
    ZERO = "zero"


def backward(records, targets, sources, seeds, unconnected=UnconnectedGradients.NONE,
             stop_ids=frozenset(), reachable=None, batch_dims=0, consume=False):
    """Gradients of `targets` with respect to `sources` (a list, one entry per source).

    records: op records in execution order. targets: tensors. sources: tensors or variables.
    seeds: one gradient per target. stop_ids: ids of tensors treated as constants.
    reachable: the ids of the sources and of every record's outputs, when the caller knows that
    every record depends on a source (a tape whose watched roots are all sources); the forward
    scan is then skipped. batch_dims: leading dimensions every gradient carries beyond its
    tensor's shape (the vectorized Jacobian's stacked seeds, batched.py); 0 otherwise.
    consume: the caller gives the records up (a non-persistent tape): each is taken off the list
    as the pass reaches it, so the forward values only it held are freed during the pass.
    """
    if unconnected not in (UnconnectedGradients.NONE, UnconnectedGradients.ZERO):
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {unconnected!r}.")
    observer = _observer()
    source_ids = {id(s) for s in sources if s.dtype.is_differentiable}
    reached = reachable if reachable is not None else _reached_from(records, source_ids)[1]
    if stop_ids:
        reached = reached - (stop_ids - source_ids)
    needed = set()  # ids of the tensors whose gradient some op walked so far wants
    grads = {}      # id(tensor) -> its gradient parts received so far
    sparse = set()  # ids of the tensors that received an IndexedSlices gradient
    for target, seed in zip(targets, seeds):
        grads.setdefault(id(target), []).append(seed)
    get, pop = grads.get, grads.pop
    building = state.graph  # in a graph, each op's gradient ops go under "<op name>_grad/"
    walk = _consumed(records) if consume else reversed(records)
    for op in walk:  # the loop is the pass's cost: its common case is inline
        outputs = op.outputs
        if len(outputs) == 1:
            key = id(outputs[0])
            parts = get(key) if key in source_ids else pop(key, None)
            if parts is None or key in stop_ids:
                continue  # no gradient reaches this op's output
            grad = parts[0] if len(parts) == 1 and key not in sparse else _total(
                parts, key in sparse, key in sparse and _passes_sparse(op))
            out_grads = None  # one output, whose gradient is `grad`
        else:
            out_grads = _take_output_grads(op, grads, source_ids, stop_ids, sparse)
            if out_grads is None:
                continue
        skip = _skipped_inputs(op.inputs, needed, reached)
        if skip is None:
            continue  # no input needs a gradient
        fn = _rule(op) if batch_dims else _GRADIENTS.get(op.gradient_override or op.type, _MISSING)
        if fn is _MISSING:
            fn = get_gradient_function(op)  # raises LookupError naming the op and its type
        if fn is None:
            continue  # not differentiable: its inputs get no gradient from it
        rule_op = PassView(op, skip) if skip else op
        if building is None:
            in_grads = fn(rule_op, grad) if out_grads is None else fn(rule_op, *out_grads)
        else:
            with building.name_scope(f"{op.name}_grad"):
                in_grads = fn(rule_op, grad) if out_grads is None else fn(rule_op, *out_grads)
        if type(in_grads) is not tuple and type(in_grads) is not list:
            in_grads = (in_grads,)
        if len(in_grads) != len(op.inputs):
            raise _wrong_count(op, in_grads)
        if observer is not None:
            observer(op, (grad,) if out_grads is None else out_grads, in_grads)
        for t, g in zip(op.inputs, in_grads):
            key = id(t)
            if g is None or key not in needed:
                continue
            # An eager gradient of its input's shape and dtype is ready (NumPy's builtin dtypes
            # are singletons: `is` decides; fit_to_input settles the rest). is_eager_tensor
            # and array_of are inline here and below: this is the reverse pass's inner loop.
            if type(g) is not Tensor or type(t) not in _EAGER or (
                    g._value.shape != t._value.shape or g._value.dtype is not t._value.dtype):
                g = fit_to_input(op, t, g, batch_dims)
                if type(g) is IndexedSlices:
                    sparse.add(key)
            parts = get(key)
            if parts is None:
                grads[key] = [g]
            else:
                parts.append(g)
    return [_result(s, grads.get(id(s)), unconnected, id(s) in sparse) for s in sources]


def _consumed(records):
    """The records from last to first, each popped off `records` and, once the pass asks for
    the next, forgotten by its outputs (`_op`) unless another tape or a graph shares it: its
    inputs and outputs are then freed when no earlier record and no caller holds them (as
    TensorFlow's tape frees an op's saved tensors once its gradient has run). Every id the pass
    keys on belongs to a tensor recorded before it started, so a freed id is never looked up
    again for another tensor."""
    while records:
        op = records.pop()
        yield op
        if not op.shared and op.graph is None:
            _forget(op.outputs)  # (a loop here would hold its last tensor in this frame)


def _forget(outputs):
    for t in outputs:
        t._op = None


def _observer():
    """The per-step hook of debugging.trace_backprop and friends (`state.grad_observers`)."""
    hooks = state.grad_observers
    if not hooks:
        return None
    return hooks[0] if len(hooks) == 1 else (
        lambda op, out_grads, in_grads: [h(op, out_grads, in_grads) for h in hooks])


def _skipped_inputs(inputs, needed, reached):
    """Adds to `needed` the inputs that want a gradient (floating point, reached from a source)
    and returns the positions of the others: () when every input wants one, None when none does."""
    skip = ()
    for t in inputs:
        key = id(t)
        if key in needed or key in reached and (  # a floating-point input (inline test)
                t._value.dtype.kind in "fc" if type(t) is Tensor else t.dtype.is_differentiable):
            needed.add(key)
        else:
            skip = None  # listed once all are marked
    if skip is None:
        skip = tuple(i for i, t in enumerate(inputs) if id(t) not in needed)
        if len(skip) == len(inputs):
            return None
    return skip


class PassView:
    """An op record as one reverse pass's gradient rule sees it: every field of the record, plus
    `skip_input_indices`, the inputs whose gradient this pass does not need (`needs_grad(op, i)`
    reads it). The pass makes one only for an op with such inputs and hands the rule the record
    itself otherwise (whose class default is `()`), so records shared by tapes, graphs and
    passes are never written. Setting another attribute sets the record's."""

    __slots__ = ("_record", "skip_input_indices")

    def __init__(self, record, skip_input_indices):
        _set_slot(self, "_record", record)
        _set_slot(self, "skip_input_indices", skip_input_indices)

    def __getattr__(self, name):
        return getattr(self._record, name)

    def __setattr__(self, name, value):
        setattr(self._record, name, value)

    def __repr__(self):
        return repr(self._record)


_set_slot = object.__setattr__


def _prune(records, targets, source_ids, stop_ids):
    """Ops on a path from a source to a target (in reverse execution order), and the ids of the
    floating-point tensors on such paths (the only ones that need a gradient)."""
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
        for t in op.inputs:
            if id(t) in reached and _floating(t):
                needed.add(id(t))
    return path, needed


def _floating(t):
    """Whether t is a floating-point tensor (eagerly read off the array, no DType lookup:
    is_eager_tensor and array_of inline, for every input of every op on the path)."""
    return t._value.dtype.kind in "fc" if type(t) is Tensor else t.dtype.is_differentiable


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


def _take_output_grads(op, grads, source_ids, stop_ids, sparse):
    """For a multi-output op: the summed gradient of each output (zeros for outputs that got
    none), or None when no output received a gradient. Sources' gradients stay in `grads`."""
    summed = []
    for out in op.outputs:
        key = id(out)
        parts = grads.get(key) if key in source_ids else grads.pop(key, None)
        if parts is None or key in stop_ids:
            summed.append(None)
        else:
            summed.append(_total(parts, key in sparse, False))
    if all(g is None for g in summed):
        return None
    return [g if g is not None else _zeros_for(out) for g, out in zip(summed, op.outputs)]


def _total(parts, has_sparse, keep_sparse):
    """The one way a tensor's gradient parts are summed: one AddN op. When some parts are
    IndexedSlices (`has_sparse`) they sum sparsely (by concatenation; densely when mixed with
    dense parts), and a sparse total is densified unless `keep_sparse`."""
    if not has_sparse:
        return parts[0] if len(parts) == 1 else broadcast_ops.sum_gradients(parts)
    g = aggregate(parts)
    return g._dense() if type(g) is IndexedSlices and not keep_sparse else g


def _rule(op):
    """The gradient rule the batched pass calls: the op's batched variant when its OpDef has one
    (`defop(..., batch=fn)`: the same math with every axis shifted past the batch dimensions),
    else its ordinary, batch-safe rule."""
    batch = op.op_def.batch
    return batch if callable(batch) else _GRADIENTS.get(op.gradient_override or op.type, _MISSING)


def _passes_sparse(op):
    """Whether op's gradient rule (an override's, if any) hands IndexedSlices on unchanged."""
    if op.gradient_override is None:
        return op.op_def.passes_sparse
    override = _OP_DEFS.get(op.gradient_override)
    return override is not None and override.passes_sparse


def _wrong_count(op, in_grads):
    return InvalidArgumentError(
        f"The gradient function for op '{op.name}' (type {op.type}) returned "
        f"{len(in_grads)} gradients, but the op has {len(op.inputs)} inputs; a gradient "
        "function must return one gradient (or None) per input.", op)


def fit_to_input(op, t, g, batch_dims=0):
    """A rule's result `g` as the gradient of `op`'s input `t`: a tensor of t's dtype, summed
    over the axes along which the forward op broadcast t (`broadcast_ops.unbroadcast`, the one
    place that undoes broadcasting), with `batch_dims` leading dimensions kept; or IndexedSlices
    of t's dtype and shape, kept sparse (densified in a batched pass)."""
    if type(g) is IndexedSlices:
        if not batch_dims:
            return _fit_slices(op, t, g)
        g = g._dense()
    g = broadcast_ops.as_gradient(g, t, op)
    return broadcast_ops.unbroadcast(g, t, op, batch_dims)


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


def _zeros_for(t):
    return broadcast_ops.zeros_like_gradient(t)


def _result(source, parts, unconnected, has_sparse):
    """A source's gradient; a sparse one is returned sparse, eagerly and in a graph, as
    TensorFlow does (a Session fetches it as an IndexedSlicesValue)."""
    if parts:
        return _total(parts, has_sparse, True)
    if unconnected == UnconnectedGradients.ZERO:
        return _zeros_for(source)
    return None
