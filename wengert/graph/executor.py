"""Compiling the part of a graph that some fetches need into a flat plan, and running it.

A plan is built once per (fetches, fed tensors) and cached by the Session:
1. Prune: walk the graph's ops backwards from the fetched tensors and ops (creation order is a
   topological order, so one reverse scan finds every needed op); an op whose outputs are all
   fed does not run, and neither do its inputs unless something else needs them.
2. Optimize (optional, on by default): merge duplicate computations (same op type, same inputs,
   same attributes) and fold ops whose inputs are all constants into constants.
3. Lay out: every tensor gets a slot in a flat list; each step knows its kernel, its input and
   output slots, and which slots die after it (their last use), so intermediate arrays are freed
   as soon as possible.
Running a plan is then one loop over steps with no graph walking and no dictionary look-ups.
"""
import numpy as np

from ..framework.errors import FailedPreconditionError, InvalidArgumentError, OpError
from ..framework.variables import Variable

__all__ = ["Plan", "compile_plan"]

_PURE_EXCLUDED = {"Placeholder", "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                  "AssignSubVariableOp", "NoOp", "RandomStandardNormal", "RandomUniform",
                  "TruncatedNormal", "Dropout"}


class Step:
    __slots__ = ("op", "kernel", "attrs", "inputs", "outputs", "frees", "stateful")

    def __init__(self, op, inputs, outputs):
        self.op = op
        self.kernel = op.op_def.kernel
        self.attrs = op.attrs
        self.inputs = inputs      # slot numbers, or Variable objects for variable inputs
        self.outputs = outputs    # slot numbers
        self.frees = ()
        self.stateful = getattr(op.op_def, "stateful", False)


class Plan:
    """Steps to compute `fetch_slots` from the fed slots."""

    def __init__(self, steps, n_slots, feed_slots, fetch_slots, constants):
        self.steps = steps
        self.n_slots = n_slots
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots
        self.constants = constants  # (slot, array) pairs preloaded before each run

    def run(self, feed_values, variables):
        values = [None] * self.n_slots
        for slot, array in self.constants:
            values[slot] = array
        for slot, array in zip(self.feed_slots, feed_values):
            values[slot] = array
        for step in self.steps:
            try:
                if step.stateful:  # gets the variables themselves, to write them
                    args = [values[i] if type(i) is int else i for i in step.inputs]
                    out = step.kernel(variables, *args, **step.attrs)
                else:
                    args = [values[i] if type(i) is int else variables.read(i)
                            for i in step.inputs]
                    out = step.kernel(*args, **step.attrs)
            except OpError:
                raise
            except (ValueError, TypeError, IndexError, FloatingPointError) as exc:
                raise InvalidArgumentError(
                    f"{step.op.type} (op '{step.op.name}') failed at run time on inputs of shapes "
                    f"{[np.shape(a) for a in args]}: {exc}", step.op) from None
            outs = step.outputs
            if len(outs) == 1:
                values[outs[0]] = out
            elif outs:
                for slot, v in zip(outs, out):
                    values[slot] = v
            for slot in step.frees:
                values[slot] = None
        return [values[i] for i in self.fetch_slots]


def _needed_ops(ops, fetch_tensors, fetch_ops, fed):
    """The ops that must run, in creation order."""
    need_tensor = {id(t) for t in fetch_tensors}
    need_op = {id(o) for o in fetch_ops}
    chosen = []
    for op in reversed(ops):
        wanted = id(op) in need_op or any(
            id(o) in need_tensor and id(o) not in fed for o in op.outputs)
        if not wanted:
            continue
        if op.type == "Placeholder":
            out = op.outputs[0]
            raise InvalidArgumentError(
                f"You must feed a value for placeholder '{op.name}' (dtype {out.dtype.name}, "
                f"shape {out.shape}): pass it in feed_dict={{{op.name}: value}}.", op)
        chosen.append(op)
        for t in op.inputs:
            need_tensor.add(id(t))
        for c in op.control_inputs:
            need_op.add(id(c))
    chosen.reverse()
    return chosen


def compile_plan(graph, fetch_tensors, fetch_ops, fed_tensors, optimize=True):
    fed = {id(t) for t in fed_tensors}
    ops = _needed_ops(graph._ops, fetch_tensors, fetch_ops, fed)
    slots = {}

    def slot_of(t):
        key = id(t)
        if key not in slots:
            slots[key] = len(slots)
        return slots[key]

    feed_slots = [slot_of(t) for t in fed_tensors]
    alias = {}      # id(tensor) -> the equivalent tensor that is computed instead
    constants = {}  # slot -> folded value
    signatures = {}
    steps = []
    for op in ops:
        inputs = [t if isinstance(t, Variable) else slot_of(_resolve(t, alias))
                  for t in op.inputs]
        if optimize and op.type not in _PURE_EXCLUDED and not getattr(
                op.op_def, "stateful", False):
            key = _signature(op, inputs)
            twin = signatures.get(key) if key is not None else None
            if twin is not None:
                for mine, theirs in zip(op.outputs, twin.outputs):
                    alias[id(mine)] = _resolve(theirs, alias)
                continue
            if key is not None:
                signatures[key] = op
            if op.type == "Const" or (inputs and all(
                    type(i) is int and i in constants for i in inputs)):
                if _fold(op, inputs, constants, slot_of):
                    continue
        steps.append(Step(op, inputs, [slot_of(o) for o in op.outputs]))
    fetch_slots = [slot_of(_resolve(t, alias)) for t in fetch_tensors]
    _mark_last_uses(steps, set(fetch_slots) | set(constants))
    consts = [(s, v) for s, v in constants.items()]
    return Plan(steps, len(slots), feed_slots, fetch_slots, consts)


def _resolve(t, alias):
    return alias.get(id(t), t)


def _signature(op, inputs):
    """A hashable key for 'same computation', or None if the attributes are not comparable."""
    parts = []
    for k, v in sorted(op.attrs.items()):
        if isinstance(v, np.ndarray):
            if v.size > 64:
                return None
            v = (v.dtype.str, v.shape, v.tobytes())
        try:
            hash(v)
        except TypeError:
            return None
        parts.append((k, v))
    return (op.type, tuple(i if type(i) is int else ("var", id(i)) for i in inputs),
            tuple(parts), op.gradient_override)


def _fold(op, inputs, constants, slot_of):
    """Compute a constant-input op now; True if it was folded."""
    if op.op_def.num_outputs == 0:
        return False
    try:
        out = op.op_def.kernel(*[constants[i] for i in inputs], **op.attrs)
    except Exception:  # noqa: BLE001 - leave the error for run time, where it is reported
        return False
    outs = (out,) if op.op_def.num_outputs == 1 else tuple(out)
    for t, value in zip(op.outputs, outs):
        constants[slot_of(t)] = value
    return True


def _mark_last_uses(steps, keep):
    last = {}
    for index, step in enumerate(steps):
        for slot in step.inputs:
            if type(slot) is int:
                last[slot] = index
        for slot in step.outputs:
            last.setdefault(slot, index)
    frees = {}
    for slot, index in last.items():
        if slot not in keep:
            frees.setdefault(index, []).append(slot)
    for index, slots in frees.items():
        steps[index].frees = tuple(slots)


def uninitialized(var):
    return FailedPreconditionError(
        f"Attempting to use uninitialized value {var.name.rsplit(':', 1)[0]!r}: run "
        "session.run(tf.compat.v1.global_variables_initializer()) (or the variable's "
        "initializer) first.")
