"""Compiling the part of a graph that some fetches need into a flat plan, and running it.

A plan is built once per (fetches, fed tensors) and cached by the Session:
1. Prune: walk the graph's ops backwards from the fetched tensors and ops (creation order is a
   topological order, so one reverse scan finds every needed op, control inputs included); an
   op whose outputs are all fed does not run, and neither do its inputs unless something else
   needs them.
2. Optimize (optional, on by default): merge duplicate computations (same op type, same inputs,
   same attributes, same control inputs) and fold ops whose inputs are all constants into
   constants. Stateful ops (variable reads and writes, placeholders, random ops) are never merged
   or folded, except that a variable read by several ops with no write between them is read once.
   An AddN of StridedSliceGrads (the gradient of `w[i]` read in a loop) becomes one scatter-sum;
   a Conv2D and the per-image ops only it feeds (bias, scale, Relu, pooling) one step (conv_fusion.py).
3. Lay out: every tensor gets a slot; each `Step` knows its kernel, its input and output slots,
   and which slots die after it (`frees`: their last use), so intermediates are freed as soon
   as possible. An input the kernel never reads (OpDef.unread: a fused gradient op's forward
   input, there for the op's own derivatives) is passed as None, so it dies at its last real use.
4. Buffers (buffer_planning.py): from the liveness of the slots and the OpDefs' `returns_view` flags,
   decide which steps write their result into an input that dies there (their OpDef's
   `inplace` kernel), which variable updates change the variable's array in place, and which
   variables' arrays leave the plan. All of it is decided now, from the plan, never at run time.
5. Start early (inter_op.py): a step whose OpDef says `concurrent` (a histogram summary) and
   whose inputs are large is started on a worker thread right after its last input is made, and
   its result is taken at its own place; its inputs live until then, so nothing writes into
   them while the worker reads them, and results and errors are those of running in order.
6. Generate: the steps become the body of one Python function, one line per step, with slots as
   local variables and kernels, attributes, constants and variables as globals. The source holds
   numbered identifiers only (`s3 = k2(s1, s0, **a4)`): no name, attribute or other string from
   the graph is ever pasted into it. `Plan.source` shows it with each op's name as a comment
   (that listing is for reading only; it is never compiled). `del` after a slot's last use frees
   the array. When a kernel fails, the failing line says which op it was, and the error names
   it with its input shapes.

Why generated code: running a plan is one call, with no graph walking and no per-step lists or
dictionaries. Measured with callgrind against a tight loop over precompiled (kernel, input slots,
attributes, output slots, frees) tuples holding the arrays in a list: on bench_graph's traced
chain (1,804 steps on arrays of 64 values) the loop costs 1.65 times the generated
function's instructions (18.0M against 10.9M per step); on the traced MLP (28 steps, dominated
by its matrix products) 1.01 times (59.9M against 59.2M).
"""
import sys

import numpy as np

from ..framework.context import state
from ..framework.errors import FailedPreconditionError, InvalidArgumentError, OpError
from ..framework.execute import explain_failure, out_of_memory
from ..framework.float_errors import IGNORE, reset_errstate, set_errstate
from ..framework.heap_padding import pad_heap_top
from ..framework.tensor import Tensor
from ..framework.variables import READ_VARIABLE, Variable, variable_op_name
from ..graph.graph import NO_OP, PLACEHOLDER
from .buffer_planning import fuse_scatter_sums, plan_buffers
from .conv_fusion import fuse_conv_epilogues
from .inter_op import CONCURRENT_MIN_SIZE, start

__all__ = ["Plan", "Step", "compile_plan"]


class Step:
    """One op of a plan: `inputs` are slot numbers (or Variables), `frees` the slots that die
    after it."""

    __slots__ = ("op", "kernel", "attrs", "inputs", "outputs", "frees", "stateful", "into")

    def __init__(self, op, inputs, outputs):
        self.op = op
        self.kernel = op.op_def.kernel
        self.attrs = op.attrs
        self.inputs = inputs
        self.outputs = outputs
        self.frees = ()
        self.stateful = op.op_def.stateful
        self.into = None  # the input its result is written into (buffer_planning.plan_buffers)

    def __repr__(self):
        return f"<Step {self.op.name} {self.inputs} -> {self.outputs} frees {self.frees}>"


class Plan:
    """Steps to compute `fetch_slots` from the fed slots, compiled into one Python function."""

    def __init__(self, steps, n_slots, feed_slots, fetch_slots, constants, optimize=False):
        self.optimize = optimize  # write results into dying inputs (buffer_planning.plan_buffers)
        self.steps = steps
        self.n_slots = n_slots
        self.feed_slots = feed_slots
        self.fetch_slots = fetch_slots
        self.constants = constants  # {slot: array}, computed once at compile time
        self.lends = plan_buffers(steps, fetch_slots, optimize)  # variables whose arrays leave
        self.source, self._fn, self._lines = _generate(self)  # (source: the listing)

    def run(self, feed_values, variables):
        """The fetched values (a list), given the fed arrays in `feed_slots` order and a
        variable store (`read(var)`, `write(var, value)`)."""
        fn = self._fn if state.profiler is None else state.profiler.plan_function(self)
        token = set_errstate(IGNORE)
        try:
            return fn(feed_values, variables)
        except OpError as err:
            if err.op is None:
                err.op = self._failing_op(sys.exc_info()[2])[0]
            raise
        except (ValueError, TypeError, IndexError, ArithmeticError) as exc:
            op, frame = self._failing_op(exc.__traceback__)
            if op is None:
                raise
            raise _explain(op, self, frame, exc) from None
        except MemoryError as exc:  # NumPy refused before allocating
            op = self._failing_op(exc.__traceback__)[0]
            if op is None or isinstance(exc, OpError):
                raise
            raise out_of_memory(op.op_def, op.inputs, op.name, exc) from None
        finally:
            reset_errstate(token)

    def error_for(self, exc):
        """The error to raise for `exc`, raised while this plan's compiled function (`_fn`,
        called directly by loops that run a plan many times) ran: as `run` would raise it;
        None when `exc` did not come from this plan's code."""
        if isinstance(exc, OpError):
            if exc.op is None:
                exc.op = self._failing_op(exc.__traceback__)[0]
            return exc if exc.op is not None else None
        op, frame = self._failing_op(exc.__traceback__)
        return None if op is None else _explain(op, self, frame, exc)

    def _failing_op(self, tb):
        """The op whose line of the generated code raised, and that frame's locals."""
        while tb is not None:
            if tb.tb_frame.f_code is self._fn.__code__:
                step = self._lines.get(tb.tb_lineno)
                return (step.op if step else None), tb.tb_frame.f_locals
            tb = tb.tb_next
        return None, {}


def _explain(op, plan, frame, exc):
    args = []
    step = next(s for s in plan.steps if s.op is op)
    for i in step.inputs:
        if type(i) is not int:
            continue
        value = frame.get(f"s{i}", plan.constants.get(i))
        args.append(Tensor(np.asarray(value)) if value is not None else None)
    if any(a is None for a in args) or step.stateful:
        return type(exc)(f"{op.type} (op '{op.name}') failed at run time: {exc}")
    error = explain_failure(op.op_def, args, op.attrs, op.name, exc)
    error.op = op
    return error


# -- generating the plan's function ---------------------------------------------------------------
def _generate(plan):
    """The plan's listing (its source with each op's name as a comment), the compiled function,
    and {line number: step}. The compiled source holds numbered identifiers only."""
    env = {}
    names = {}

    def global_name(obj, prefix):
        key = id(obj)
        if key not in names:
            names[key] = f"{prefix}{len(names)}"
            env[names[key]] = obj
        return names[key]

    for slot, value in plan.constants.items():
        env[f"c{slot}"] = value

    def ref(i):
        if type(i) is not int:
            return f"read({global_name(i, 'v')})"
        return f"c{i}" if i in plan.constants else f"s{i}"

    lines, notes = ["def plan(feeds, store):"], [""]
    if any(type(i) is not int for step in plan.steps for i in step.inputs):
        lines.append("    read = store.read")
        notes.append("")
    if plan.feed_slots:
        lines.append("    " + "".join(f"s{s}, " for s in plan.feed_slots) + "= feeds")
        notes.append("")
    line_of = {}
    starts = _concurrent_starts(plan.steps)  # {step index: steps started after it}
    jobs = {id(step): f"j{n}" for n, step in enumerate(s for ss in starts.values() for s in ss)}

    def emit_starts(after):
        for early in starts.get(after, ()):
            line_of[len(lines) + 1] = early
            lines.append(f"    {jobs[id(early)]} = {_start_line(early, ref, global_name)}")
            notes.append(f"  # {early.op.name} starts")

    emit_starts(-1)
    for index, step in enumerate(plan.steps):
        job = jobs.get(id(step))
        line_of[len(lines) + 1] = step
        lines.append("    " + (_step_line(step, ref, global_name) if job is None else
                               _collect_line(step, job)))
        notes.append(f"  # {step.op.name}")
        dead = [f"s{s}" for s in step.frees] + ([job] if job else [])
        if dead:
            lines.append("    del " + ", ".join(dead))
            notes.append("")
        emit_starts(index)
    for var in plan.lends:  # a fetched value or a stateful op may keep the variable's array
        lines.append(f"    store.lend({global_name(var, 'v')})")
        notes.append("")
    lines.append("    return [" + "".join(f"{ref(s)}, " for s in plan.fetch_slots) + "]")
    notes.append("")
    source = "\n".join(lines) + "\n"
    code = compile(source, f"<wengert plan {id(plan):x}>", "exec")
    exec(code, env)  # noqa: S102 - numbered identifiers only, generated above from the steps
    listing = "".join(line + note + "\n" for line, note in zip(lines, notes))
    return listing, env["plan"], line_of


def _step_line(step, ref, global_name):
    """`s5 = k2(s1, s3, **a4)`: the step's call (its in-place form when it writes into an
    input, an index for a slice), with numbered identifiers only."""
    op_def = step.op.op_def
    outs = "".join("_, " if s is None else f"s{s}, " for s in step.outputs)
    if op_def.num_outputs == 1:
        target = f"{outs[:-2]} = "
    else:  # a tuple of outputs (possibly of one, for ops with a variable number of outputs)
        target = f"{outs}= " if outs else ""
    if op_def is READ_VARIABLE and type(step.inputs[0]) is not int:
        return f"{target}{ref(step.inputs[0])}"
    if step.stateful:  # gets the store and the variables themselves, to write them
        kernel = op_def.inplace if step.into is not None else step.kernel
        args = ["store"] + [global_name(i, "v") if type(i) is not int else ref(i)
                            for i in step.inputs] + _attrs(step, global_name)
        return f"{target}{global_name(kernel, 'k')}({', '.join(args)})"
    args = [ref(i) for i in step.inputs]
    if op_def.index_key is not None and step.kernel is op_def.kernel and len(args) == 1:
        return f"{target}{args[0]}[{global_name(op_def.index_key(**step.attrs), 'a')}]"
    kernel = step.kernel
    if step.into is not None:
        kernel = op_def.inplace
        args.append(f"out={args[step.into]}")
    return f"{target}{global_name(kernel, 'k')}({', '.join(args + _attrs(step, global_name))})"


# -- ops started early on the inter-op pool (inter_op.py) ----------------------------------------
def _concurrent_starts(steps):
    """{index of a step (-1: the plan's start): the concurrent steps to start after it}. A step
    whose OpDef says `concurrent`, with large inputs (inter_op.py), starts right after the last
    step making one of its inputs, when other steps run between. Its inputs live until its own
    place, where its result is taken (their liveness says so), so no step writes into their
    buffers meanwhile. Steps with control inputs or variable inputs stay in order."""
    made, starts = {}, {}
    for index, step in enumerate(steps):
        if _starts_early(step):
            after = max((made.get(i, -1) for i in step.inputs), default=-1)
            if after < index - 1:
                starts.setdefault(after, []).append(step)
        for slot in step.outputs:
            if slot is not None:
                made[slot] = index
    return starts


def _starts_early(step):
    """Whether the step may run on the pool: a concurrent op on large enough inputs."""
    op = step.op
    if not (op.op_def.concurrent and step.outputs and step.into is None
            and not op.control_inputs and all(type(i) is int for i in step.inputs)):
        return False
    sizes = [t.shape.num_elements() for t in op.inputs]
    return None in sizes or sum(sizes) >= CONCURRENT_MIN_SIZE


def _start_line(step, ref, global_name):
    """`start(k2, a3, s1, s4)`: the kernel started on the pool with its inputs."""
    args = [global_name(start, "k"), global_name(step.kernel, "k"),
            global_name(step.attrs, "a") if step.attrs else global_name(_NO_ATTRS, "a")]
    return f"{args[0]}({', '.join(args[1:] + [ref(i) for i in step.inputs])})"


def _collect_line(step, job):
    """`s5 = j0.result()`: the started kernel's result(s), taken at the step's place."""
    outs = "".join("_, " if s is None else f"s{s}, " for s in step.outputs)
    target = f"{outs[:-2]} = " if step.op.op_def.num_outputs == 1 else f"{outs}= "
    return f"{target}{job}.result()"


_NO_ATTRS = {}


def _attrs(step, global_name):
    """The step's attributes, passed as one dict (their names never enter the source)."""
    return [f"**{global_name(step.attrs, 'a')}"] if step.attrs else []


# -- compiling ------------------------------------------------------------------------------------
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
        if op.op_def is PLACEHOLDER:
            out = op.outputs[0]
            raise _unfed(op, out)
        chosen.append(op)
        for t in op.inputs:
            need_tensor.add(id(t))
        for c in op.control_inputs:
            need_op.add(id(c))
    chosen.reverse()
    return chosen


def _unfed(op, out):
    return InvalidArgumentError(
        f"You must feed a value for placeholder tensor '{op.name}' with dtype "
        f"{out.dtype.name} and shape {out.shape}: pass it in feed_dict={{{op.name}: value}}.",
        op)


_UNREAD = object()  # the key of a plan's constant slot holding None (OpDef.unread inputs)


def compile_plan(graph, fetch_tensors, fetch_ops, fed_tensors, optimize=True):
    """A Plan computing `fetch_tensors` (and running `fetch_ops`) from `fed_tensors`."""
    pad_heap_top()  # plans reuse large arrays run after run (heap_padding.py)
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
    reads = {}      # id(variable) -> the tensor of its last read, while nothing wrote since
    steps = []
    for op in ops:
        if any(id(o) in fed for o in op.outputs) and all(id(o) in fed for o in op.outputs):
            continue  # fed: it was needed only as a control input; TensorFlow runs nothing
        inputs = [t if isinstance(t, Variable) else slot_of(alias.get(id(t), t))
                  for t in op.inputs]
        if optimize and op.op_def is READ_VARIABLE and isinstance(inputs[0], Variable):
            earlier = reads.get(id(inputs[0]))
            if earlier is not None:  # no write since that read: the same value
                alias[id(op.outputs[0])] = earlier
                continue
            reads[id(inputs[0])] = op.outputs[0]
        elif reads and op.op_def.stateful:
            reads.clear()  # it may write variables: later reads must run again
        if optimize and op.op_def.pure and op.op_def.num_outputs:
            key = _signature(op, inputs)
            twin = signatures.get(key) if key is not None else None
            if twin is not None:
                for mine, theirs in zip(op.outputs, twin.outputs):
                    alias[id(mine)] = alias.get(id(theirs), theirs)
                continue
            if key is not None:
                signatures[key] = op
            if not op.control_inputs and all(type(i) is int and i in constants
                                             for i in inputs):
                if _fold(op, inputs, constants, slot_of):
                    continue
        if op.op_def is NO_OP:
            continue  # its control inputs were scheduled; it computes nothing
        if op.op_def.unread:  # inputs only the op's derivatives use: the kernel gets None
            inputs = [slot_of(_UNREAD) if k in op.op_def.unread else i
                      for k, i in enumerate(inputs)]
            constants[slot_of(_UNREAD)] = None
        steps.append(Step(op, inputs, [None if id(o) in fed else slot_of(o)
                                       for o in op.outputs]))
    fetch_slots = [slot_of(alias.get(id(t), t)) for t in fetch_tensors]
    used = set(fetch_slots).union(*((i for i in step.inputs if type(i) is int)  # not variables
                                    for step in steps))
    constants = {slot: v for slot, v in constants.items() if slot in used}  # folded away
    if optimize:
        steps = fuse_scatter_sums(steps, fetch_slots)
        steps = fuse_conv_epilogues(steps, fetch_slots)
    _mark_last_uses(steps, set(fetch_slots) | set(constants))
    return Plan(steps, len(slots), feed_slots, fetch_slots, constants, optimize)


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
        parts.append((k, type(v), v))
    return (op.type, tuple(i if type(i) is int else ("var", id(i)) for i in inputs),
            tuple(parts), op.gradient_override, tuple(id(c) for c in op.control_inputs))


def _fold(op, inputs, constants, slot_of):
    """Compute a constant-input op now; True if it was folded."""
    token = set_errstate(IGNORE)
    try:
        out = op.op_def.kernel(*[constants[i] for i in inputs], **op.attrs)
    except Exception:  # noqa: BLE001 - leave the error for run time, where it is reported
        return False
    finally:
        reset_errstate(token)
    outs = (out,) if op.op_def.num_outputs == 1 else tuple(out)
    for t, value in zip(op.outputs, outs):
        value = np.asarray(value).view()
        value.flags.writeable = False  # shared by every run: nobody may change it
        constants[slot_of(t)] = value
    return True


def _mark_last_uses(steps, keep):
    last = {}
    for index, step in enumerate(steps):
        for slot in step.inputs:
            if type(slot) is int:
                last[slot] = index
        for slot in step.outputs:
            if slot is not None:
                last.setdefault(slot, index)
    frees = {}
    for slot, index in last.items():
        if slot not in keep:
            frees.setdefault(index, []).append(slot)
    for index, dead in frees.items():
        steps[index].frees = tuple(sorted(dead))


def uninitialized(var):
    return FailedPreconditionError(
        f"Attempting to use uninitialized value {variable_op_name(var)!r}: run "
        "session.run(tf.compat.v1.global_variables_initializer()) (or the variable's "
        "initializer) first.")
