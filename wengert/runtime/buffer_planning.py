"""What a plan knows when it compiles about the arrays it will hold: which steps may write their
result into a dying input, which variable updates may change the variable's array in place, and
which variables' arrays leave the plan; plus one fusion (a sum of scattered slices).

Buffers. Every slot of a plan holds an array, and arrays may share memory. An op declared
`returns_view` may return (a view of) one of its inputs, or an array it was given (a constant, a
variable's value), so its outputs share its inputs' *buffers*; a stateful op may return the
variable's array and keep the value it was handed; every other op returns a fresh array, a new
buffer. Walking the steps in order with each slot's last use (the plan's liveness), the plan knows
at every step which buffers some live slot still holds. From that, and nothing at run time:

- a step may write its result into input i (its OpDef's `inplace` kernel with `out=`) when input i
  dies at this step, no other live slot holds its buffer, the buffer was made fresh by a step of
  this run (never a fed array, a constant, a variable's value, the output of a view op, or a value
  handed to a stateful op), and it has the output's fully known shape and dtype, at least
  `IN_PLACE_MIN_SIZE` elements (below that an allocation is cheaper than NumPy's `out=`
  handling);
- a variable update (AssignAdd/AssignSub: their `inplace` form) may change the variable's array
  in place when no live slot holds it (no read of the variable, view of one, or earlier update's
  result is used later or fetched). The store adds its own condition: an eager variable's array
  must not be lent to a tensor outside the plan (framework/variables.py);
- variables whose arrays a fetched value or a stateful op's input may share are lent when the
  run ends (the store disowns them: their next update writes a new array).

What it saves: on bench_graph's traced MLP step (784-512-512-10, batch 128) 9 of its 28 steps
write in place (both relus, both relu gradients, two learning-rate products, the three weight
updates), each saving an allocation of up to 1.6 MB and keeping fewer buffers alive. Measured on
a quiet 2-core machine by bench/bench_buffer_planning.py (the same step compiled without
in-place writes, interleaved, medians of 31 rounds), in-place / fresh-array time was 1.02, 0.95
and 0.97 at batch 128 and 0.98, 0.97 and 0.98 at batch 1024 in three runs: a small gain (about
3%), which is why the planner stays. Unoptimized plans (`Session(optimize=False)`) write nothing
in place.
"""
import numpy as np

from ..framework.variables import Variable
from ..ops.broadcast_ops import ADD_N
from ..ops.elementwise import IN_PLACE_MIN_SIZE
from ..ops.indexing_ops import STRIDED_SLICE_GRAD
from ..ops.shape_rules import static_shape

__all__ = ["plan_buffers", "fuse_scatter_sums"]


def plan_buffers(steps, fetch_slots, optimize):
    """Sets each step's `into` (the input position its result is written into, or None) and
    returns the variables whose arrays may leave the plan (a fetched value or a stateful op's
    input may share them). Slots no step produced (fed, constants) hold fixed buffers."""
    holds = {}     # slot -> the buffers its array may share memory with
    live = {}      # buffer -> how many live slots hold it
    kept = set()   # buffers handed to a stateful op (the store may keep them)
    variables = {}
    for step in steps:
        ins = [_buffers_of(i, holds, variables) for i in step.inputs]
        for slot in step.frees:  # inputs dying here no longer hold their buffers
            for buffer in holds.pop(slot, ()):
                live[buffer] -= 1
        step.into = _choose(step, ins, live, kept) if optimize else None
        out = _output_buffers(step, ins, kept)
        for slot in step.outputs:
            if slot is None:
                continue
            holds[slot] = out if out is not None else (slot,)
            for buffer in holds[slot]:
                live[buffer] = live.get(buffer, 0) + 1
            if slot in step.frees:  # never used: dead at once
                for buffer in holds.pop(slot):
                    live[buffer] -= 1
    escaping = kept.union(*(holds.get(s, ()) for s in fetch_slots))
    return [variables[b] for b in escaping if b in variables]


def _buffers_of(item, holds, variables):
    if isinstance(item, Variable):
        key = ("variable", id(item))
        variables[key] = item
        return (key,)
    return holds.get(item, (("fixed", item),))  # fed or constant: not made by this run


def _output_buffers(step, ins, kept):
    """The buffers a step's outputs may share (None: each output is a fresh buffer)."""
    if step.into is not None and not step.stateful:
        return ins[step.into]
    if step.stateful:  # returns the variable's array; may keep the value it was handed
        for item, buffers in zip(step.inputs, ins):
            if not isinstance(item, Variable):
                kept.update(buffers)
        return tuple(b for buffers in ins for b in buffers) + (("fixed", id(step)),)
    if step.op.op_def.returns_view:  # shares its inputs' buffers; never written itself
        return tuple(b for buffers in ins for b in buffers) + (("fixed", id(step)),)
    return None


def _choose(step, ins, live, kept):
    """The input position a step writes its result into, or None."""
    op_def = step.op.op_def
    if op_def.inplace is None or step.kernel is not op_def.kernel:  # (a fused or replaced kernel)
        return None
    if step.stateful:  # a variable update: in place when no live slot holds the variable's array
        var = step.inputs[0]
        if isinstance(var, Variable) and live.get(("variable", id(var)), 0) == 0:
            return 0
        return None
    if len(step.outputs) != 1 or step.outputs[0] is None:
        return None
    out = _static(step.op.outputs[0])
    if out is None or np.prod(out[0]) < IN_PLACE_MIN_SIZE:
        return None
    for index, slot in enumerate(step.inputs):
        if (type(slot) is int and slot in step.frees and _writable(ins[index], live, kept)
                and _static(step.op.inputs[index]) == out):
            return index
    return None


def _writable(buffers, live, kept):
    return all(type(b) is int and b not in kept and live.get(b, 0) == 0 for b in buffers)


def _static(tensor):
    """(shape tuple, numpy dtype) when the shape is fully known, else None."""
    shape = static_shape(tensor)
    if shape is None or None in shape:
        return None
    return shape, tensor.dtype.as_numpy_dtype


# -- fusing a sum of scattered slices ---------------------------------------------------------
def _scatter_sum(*grads, shape, dtype, keys):
    """AddN of StridedSliceGrad(grad_k, shape, spec_k): zeros, then each slice gets its grad
    added in order (equal to the sum of the zero-padded arrays)."""
    out = np.zeros(shape, dtype)
    for key, grad in zip(keys, grads):
        out[key] += grad
    return out


def fuse_scatter_sums(steps, fetch_slots):
    """Replace AddN(StridedSliceGrad(g_0, ...), ..., StridedSliceGrad(g_n, ...)) (the gradient of
    a variable read by many slices, as in `w[i]` in a loop) by one `_scatter_sum` step."""
    uses = {}
    for step in steps:
        for slot in step.inputs:
            if type(slot) is int:  # not a Variable (read and assign steps take those)
                uses[slot] = uses.get(slot, 0) + 1
    for slot in fetch_slots:
        uses[slot] = uses.get(slot, 0) + 2
    producer = {step.outputs[0]: step for step in steps
                if step.op.op_def is STRIDED_SLICE_GRAD and len(step.outputs) == 1}
    drop = set()
    for index, step in enumerate(steps):
        if step.op.op_def is not ADD_N or len(step.inputs) < 2:
            continue
        parts = [producer.get(slot) for slot in step.inputs]
        if any(p is None or uses.get(p.outputs[0]) != 1 for p in parts):
            continue
        out = _static(step.op.outputs[0])
        if out is None or any(tuple(p.attrs["shape"]) != out[0] or
                              _static(p.op.inputs[0]) is None for p in parts):
            continue
        keys = [_scatter_key(p, out[0]) for p in parts]
        if any(k is None for k in keys):
            continue
        # a Step (executor.py, which imports this module, defines the class)
        fused = type(step)(step.op, [p.inputs[0] for p in parts], step.outputs)
        fused.kernel = _scatter_sum
        fused.attrs = {"shape": out[0], "dtype": out[1], "keys": tuple(keys)}
        steps[index] = fused
        drop.update(id(p) for p in parts)
    return [step for step in steps if id(step) not in drop] if drop else steps


def _scatter_key(step, shape):
    """The NumPy index a StridedSliceGrad step scatters into, checked on a probe (None when
    its spec is not understood)."""
    if np.prod(shape) > 1e5:
        return None
    try:
        key = tuple(slice(*s) if type(s) is tuple else s for s in step.attrs["spec"])
        grad = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)[key] + 1.0
        expected = np.zeros(shape)
        expected[key] = grad
        got = step.kernel(grad, shape=shape, spec=step.attrs["spec"])
    except Exception:  # noqa: BLE001 - then the kernels run, as unoptimized
        return None
    return key if np.array_equal(got, expected) else None
