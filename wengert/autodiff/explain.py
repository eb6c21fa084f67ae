"""Why is my gradient None? `GradientTape.explain(target, sources)` and `explain_gradients(ys, xs)`.

A gradient is None when the reverse pass finds no differentiable path from the target back to the
source. The explanation reads only what the tape (or graph) already holds, so explaining costs
nothing until it is asked for. For each source it checks, in order:

1. the source's dtype is not floating point (integers and bools carry no gradient);
2. the tape never watched it: a constant never passed to `watch()`, a Variable with
   `trainable=False`, a trainable Variable on a tape with `watch_accessed_variables=False`, or one
   not read while the tape was recording;
3. on the tape's records, with every op counted (differentiable or not): does the source reach the
   target? If it does, every path is cut, and the first cut on each path is named: a
   `StopGradient` op, an op without a gradient (ArgMax, a comparison, ...) or an op whose result
   is an integer or bool (a cast to int);
4. if it does not, the chain breaks: the tensors derived from the source and the tensors the
   target was computed from are compared. A constant on the target's side equal to a tensor
   derived from the source means the value left wengert (`np.asarray`/`.numpy()` and back); a
   target produced by an op another tape recorded means it was recorded on another tape; a target
   no tape recorded means it was computed outside the tape's `with` block or under
   `stop_recording()` (named when the tape noted where stop_recording was used); a source no
   recorded op consumed is not used at all.

Limits. The tape records only ops that consume watched tensors, so what was computed off the tape
is seen only through its results. The NumPy round trip is detected by equal values (same shape,
dtype and elements), which is sound for the report's purpose (it is stated as what happened to that
value) but misses a round trip that also changed the value (e.g. `np.exp(t)` then back). A
released non-persistent tape has no records left: only the checks of 1 and 2 apply, and the report
says so (explain before `gradient()`, or use `persistent=True`).
"""
import numpy as np

from ..framework.context import state
from ..framework.registry import _GRADIENTS, _MISSING
from ..framework.tensor import Tensor, array_of
from ..framework.variables import READ_VARIABLE, Variable, variable_op_name
from ..ops.array_ops import STOP_GRADIENT
from ..util import nest

__all__ = ["GradientReport", "SourceExplanation", "ExplainMixin", "explain_tape",
           "describe_missing", "explain_gradients", "CAUSES"]

CONNECTED = "has a gradient"
NOT_FLOAT = "integer or bool dtype"
NOT_WATCHED = "constant never watched"
NOT_TRAINABLE = "Variable with trainable=False"
NOT_READ = "Variable not read while recording"
LEFT_WENGERT = "value left wengert (converted to NumPy and back)"
STOPPED = "stop_gradient or stop_recording on the path"
NON_DIFFERENTIABLE = "every path passes through a non-differentiable op"
OTHER_TAPE = "recorded on another tape or outside the tape's context"
NOT_USED = "not used at all"
RELEASED = "tape released"
CAUSES = (CONNECTED, NOT_FLOAT, NOT_WATCHED, NOT_TRAINABLE, NOT_READ, LEFT_WENGERT, STOPPED,
          NON_DIFFERENTIABLE, OTHER_TAPE, NOT_USED, RELEASED)


class SourceExplanation:
    """One source's entry: `.has_gradient`, `.cause` (one of CAUSES), `.op` (the op named by
    the cause, or None), `.detail` (a sentence), `.name`, `.source`."""

    __slots__ = ("source", "name", "has_gradient", "cause", "op", "detail")

    def __init__(self, source, name, cause, detail, op=None):
        self.source = source
        self.name = name
        self.has_gradient = cause == CONNECTED
        self.cause = cause
        self.op = op
        self.detail = detail

    def __str__(self):
        if self.has_gradient:
            return f"{self.name}: has a gradient"
        return f"{self.name}: NO gradient - {self.cause}.\n    {self.detail}"

    def __repr__(self):
        return f"<SourceExplanation {self.name}: {self.cause}>"


class GradientReport:
    """Per-source explanations (iterable, indexable) and `.target_op`, the last op connected to
    the target. `str(report)` is the plain-text explanation."""

    def __init__(self, entries, target_op, target_note, sources=None):
        self.entries = entries
        self.target_op = target_op
        self.target_note = target_note
        self._structure = sources

    @property
    def all_connected(self):
        return all(e.has_gradient for e in self.entries)

    def missing(self):
        return [e for e in self.entries if not e.has_gradient]

    def __iter__(self):
        return iter(self.entries)

    def __len__(self):
        return len(self.entries)

    def __getitem__(self, i):
        return self.entries[i]

    def __str__(self):
        head = f"Gradient report. Target: {self.target_note}"
        return "\n".join([head] + [f"  {e}" for e in self.entries])

    __repr__ = __str__


class ExplainMixin:
    """Adds `explain` to GradientTape (`class GradientTape(ExplainMixin)`)."""

    def explain(self, target, sources):
        """Why each of `sources` has (or has no) gradient of `target`: a GradientReport."""
        return explain_tape(self, target, sources)


# -- names ----------------------------------------------------------------------------------------
def _op_label(op):
    return f"'{op.name}' (type {op.type})" if op is not None else "none"


def _source_name(s, index):
    if isinstance(s, Variable):
        return f"Variable '{variable_op_name(s)}:0'"
    op = getattr(s, "_op", None)
    shape = f"{s.dtype.name}{list(s.shape)}" if hasattr(s, "dtype") else ""
    if getattr(s, "graph", None) is not None:
        return f"'{s.name}' {shape}"
    if op is not None:
        return f"source {index} (output of {_op_label(op)}, {shape})"
    return f"source {index} ({shape})"


# -- the tape -------------------------------------------------------------------------------------
def explain_tape(tape, target, sources):
    flat_sources = nest.flatten(sources)
    targets = [t for t in nest.flatten(target)]
    records = tape._records
    index = _Index(records or (), tape._watched)
    target_op, note = _target_op(index, targets, records is None, tape_kind="tape")
    entries = []
    for i, s in enumerate(flat_sources):
        name = _source_name(s, i)
        cause, detail, op = _first_checks(tape, s)
        if cause is None:
            if records is None:
                cause, detail = RELEASED, (
                    "This non-persistent tape released its records after gradient(); explain "
                    "before calling gradient(), or use GradientTape(persistent=True).")
            else:
                cause, detail, op = _path_checks(index, targets, s, tape)
        entries.append(SourceExplanation(s, name, cause, detail, op))
    return GradientReport(entries, target_op, note, sources)


def _first_checks(tape, s):
    """Causes visible from the source alone (dtype, watching)."""
    if not s.dtype.is_differentiable:
        return NOT_FLOAT, (f"Its dtype is {s.dtype.name}; only floating-point tensors carry "
                           "gradients. cast() it to a float dtype before the computation if "
                           "it should have one."), None
    if id(s) in tape._watched:
        return None, None, None
    released = tape._records is None
    if isinstance(s, Variable):
        if released and s.trainable and any(v is s for v in tape._watched_vars):
            return None, None, None
        if not s.trainable:
            return NOT_TRAINABLE, ("Tapes do not watch non-trainable variables when they are "
                                   "read; call tape.watch(v) or create it trainable."), None
        if not tape._watch_accessed:
            return NOT_READ, ("The tape was created with watch_accessed_variables=False and "
                              "this variable was never passed to tape.watch()."), None
        return NOT_READ, ("The tape did not see this variable read while it was recording: it "
                          "is not used in computing the target, or it was read outside the "
                          "tape's `with` block (or under stop_recording())."), None
    if released:
        return None, None, None
    return NOT_WATCHED, ("The tape never watched it: constants are not watched automatically. "
                         "Call tape.watch(x) inside the `with` block before using it, or make "
                         "it a tf.Variable."), None


def _path_checks(index, targets, s, tape):
    """For a watched floating source: cut paths, broken chains, or no use at all."""
    derived, last = index.forward_from(s)
    upstream = index.backward_from(targets)
    if any(id(t) == id(s) for t in targets) or (derived & upstream["ids"]):
        blockers = _blockers(index, s, upstream["ids"], {id(t) for t in targets})
        if blockers is None:
            return CONNECTED, "", None
        return _blocked(blockers)
    match = index.value_match(derived, upstream["constants"] + targets)
    if match is not None:
        producer, consumer = match
        where = f"consumed by op {_op_label(consumer)}" if consumer else "the target itself"
        return LEFT_WENGERT, (f"The value of {producer.name}:0, computed from it by op "
                              f"{_op_label(producer)}, reappears as a constant ({where}): it "
                              "was converted to NumPy (np.asarray, .numpy(), a NumPy function) and "
                              "back to a tensor, so the tape lost track of it. Use wengert ops "
                              "instead of NumPy inside the tape."), producer
    paused = getattr(tape, "_paused_at", None)
    used = (f" The last op this tape recorded from it is {_op_label(last)}; the chain to the "
            "target breaks after it." if last is not None else "")
    if paused:
        return STOPPED, (f"stop_recording() was used on this tape at {_lines(paused)}: ops run "
                         "there were not recorded, and the target was computed from their "
                         "results." + used), last
    if upstream["target_unrecorded"]:
        foreign = upstream["foreign_op"]
        how = (f"The target was produced by op {_op_label(foreign)}, recorded on another tape "
               "(this one did not watch its inputs, or was not active)." if foreign is not None
               else "No tape recorded the op that produced the target: it ran outside this "
               "tape's `with` block (or on tensors the tape did not watch).")
        return OTHER_TAPE, how + used, foreign or last
    if last is None:
        return NOT_USED, ("The tape watched it, but no op it recorded used it: the target was "
                          "computed without it."), None
    return OTHER_TAPE, ("The target used a value computed outside the tape's context instead "
                        "of the recorded result." + used), last


def _blocked(blockers, stop_ids=frozenset()):
    if not blockers:
        return NON_DIFFERENTIABLE, ("A path to the target exists, but a gradient function on "
                                    "it returned None for the input on that path."), None
    stops = [op for op in blockers if op.op_def is STOP_GRADIENT]
    if stops:
        return STOPPED, (f"Every path to the target passes through stop_gradient: op "
                         f"{_op_label(stops[0])}."), stops[0]
    held = [op for op in blockers if any(id(t) in stop_ids for t in op.outputs)]
    if held:
        return STOPPED, (f"The output of op {_op_label(held[0])} is in stop_gradients, and "
                         "every path to the target passes through it."), held[0]
    text = ", ".join(_blocker_text(op) for op in blockers)
    return NON_DIFFERENTIABLE, (f"Every path to the target passes through an op that carries "
                                f"no gradient: {text}."), blockers[0]


def _blocker_text(op):
    if not _differentiable(op):
        return f"{_op_label(op)} has no gradient"
    kinds = ", ".join(t.dtype.name for t in op.outputs)
    return f"{_op_label(op)} outputs {kinds}, which carries no gradient"


def _lines(paused):
    return ", ".join(f"{f}:{n}" for f, n in paused)


def _differentiable(op):
    return _GRADIENTS.get(op.gradient_override or op.type, _MISSING) is not None


def _target_op(index, targets, released, tape_kind):
    if released:
        return None, "unknown (the tape released its records)"
    for t in targets:
        op = index.producer.get(id(t))
        if op is not None:
            return op, f"{t.name}, produced by op {_op_label(op)} (the last op connected to it)"
    op = next((getattr(t, "_op", None) for t in targets if getattr(t, "_op", None)), None)
    if op is not None:
        return op, f"produced by op {_op_label(op)}, which this {tape_kind} did not record"
    return None, f"not recorded by this {tape_kind} (no op connects it to watched tensors)"


class _Index:
    """Producers and consumers over a list of op records, for the structural checks."""

    def __init__(self, records, watched, stop_ids=frozenset()):
        self.records = records
        self.watched = watched
        self.stop_ids = stop_ids
        self.producer = {}
        self.consumers = {}
        for op in records:
            for t in op.outputs:
                self.producer[id(t)] = op
            for t in op.inputs:
                self.consumers.setdefault(id(t), []).append(op)

    def forward_from(self, s):
        """Ids of every tensor derived from `s` on the records, and the last op among them."""
        reached, last = {id(s)}, None
        for op in self.records:
            if any(id(t) in reached for t in op.inputs):
                last = op
                reached.update(id(t) for t in op.outputs)
        return reached, last

    def backward_from(self, targets):
        """Ids of tensors the targets were computed from; constants (unrecorded inputs) met on
        the way; whether a target itself is unrecorded (and by which foreign op)."""
        ids, constants, foreign = {id(t) for t in targets}, [], None
        unrecorded = False
        for t in targets:
            if id(t) not in self.producer and id(t) not in self.watched:
                unrecorded = True
                foreign = foreign or getattr(t, "_op", None)
        for op in reversed(self.records):
            if any(id(t) in ids for t in op.outputs):
                for t in op.inputs:
                    ids.add(id(t))
                    if id(t) not in self.producer and id(t) not in self.watched:
                        constants.append((t, op))
        return {"ids": ids, "constants": constants, "target_unrecorded": unrecorded,
                "foreign_op": foreign}

    def value_match(self, derived, candidates):
        """(producer op, consumer op) when a constant on the target's side has the value of a
        tensor derived from the source, else None."""
        values = []
        for op in self.records:
            for t in op.outputs:
                if id(t) in derived and t.dtype.is_differentiable:
                    values.append((t, op))
        for item in candidates:
            const, consumer = item if isinstance(item, tuple) else (item, None)
            c = array_of(const)
            if c is None or not isinstance(c, np.ndarray) and not np.isscalar(c):
                continue
            c = np.asarray(c)
            for t, op in values:
                v = np.asarray(array_of(t))
                if v.shape == c.shape and v.size and (v is c or np.array_equal(v, c)):
                    return op, consumer
        return None


# -- graphs ---------------------------------------------------------------------------------------
def explain_gradients(ys, xs, stop_gradients=None):
    """For graph mode: why each of `xs` has (or has no) gradient in `gradients(ys, xs)`."""
    ys = nest.flatten(ys)
    flat_xs = nest.flatten(xs)
    graph = getattr(ys[0], "graph", None) or state.graph
    if graph is None:
        raise ValueError("explain_gradients works on graph tensors; for eager code use "
                         "GradientTape.explain(target, sources).")
    stop_ids = frozenset(id(t) for t in nest.flatten(stop_gradients or []))
    records = list(graph.get_operations())
    index = _Index(records, watched=set(), stop_ids=stop_ids)
    target_op, note = _target_op(index, ys, False, tape_kind="graph")
    entries = []
    for i, x in enumerate(flat_xs):
        entries.append(SourceExplanation(x, _source_name(x, i), *_graph_cause(graph, index, ys,
                                                                                x)))
    return GradientReport(entries, target_op, note, xs)


def _graph_cause(graph, index, ys, x):
    if not x.dtype.is_differentiable:
        return NOT_FLOAT, (f"Its dtype is {x.dtype.name}; only floating-point tensors carry "
                           "gradients."), None
    if isinstance(x, Tensor) and getattr(x, "graph", None) is None:
        hit = graph._captured.get(id(x))
        if hit is not None:
            const_op = hit[1].op
            return LEFT_WENGERT, (f"It is an eager tensor: the graph captured its value as "
                                  f"constant op {_op_label(const_op)}, which has no gradient. "
                                  "Pass it as an argument (a placeholder) instead."), const_op
        return OTHER_TAPE, "It is an eager tensor, not part of this graph.", None
    if getattr(x, "graph", graph) is not graph:
        return OTHER_TAPE, "It belongs to another graph.", None
    source = x
    if isinstance(x, Variable):
        reads = [op for op in index.records if op.op_def is READ_VARIABLE and op.inputs[0] is x]
        if not reads:
            return NOT_USED, "The graph never reads this variable.", None
    upstream = index.backward_from(ys)
    derived, last = index.forward_from(source)
    if not (derived & upstream["ids"]):
        if last is None:
            return NOT_USED, "No op of the graph uses it.", None
        return NOT_USED, (f"It is used (last by op {_op_label(last)}), but nothing computed from "
                          "it reaches the target."), last
    blockers = _blockers(index, source, upstream["ids"], {id(y) for y in ys})
    if blockers is None:
        return CONNECTED, "", None
    return _blocked(blockers, index.stop_ids)


def _blockers(index, source, upstream, target_ids):
    """The first op on each source-to-target path where the gradient stops (no gradient rule,
    no float output, a stop_gradients tensor), in record order; None when a path carries one."""
    if id(source) in target_ids:
        return None
    live, blockers = {id(source)}, []
    for op in index.records:
        if not any(id(t) in live for t in op.inputs) or not any(
                id(t) in upstream for t in op.outputs):
            continue
        if (not _differentiable(op) or not any(t.dtype.is_differentiable for t in op.outputs)
                or not any(id(t) in live and t.dtype.is_differentiable for t in op.inputs)):
            blockers.append(op)
            continue
        outs = [id(t) for t in op.outputs]
        stopped = [i for i in outs if i in index.stop_ids]
        if stopped:
            blockers.append(op)
        live.update(i for i in outs if i not in index.stop_ids)
    if live & target_ids:
        return None
    return blockers


# -- for error messages (optimizers) ------------------------------------------------------------
def describe_missing(variables, tape=None, target=None):
    """Text explaining why `variables` got no gradient, for an optimizer's "no gradients"
    error or warning. With the tape and target (before a non-persistent tape's gradient(), or
    with a persistent tape) it is the full report; otherwise what the variables alone show."""
    if tape is not None and target is not None:
        return str(explain_tape(tape, target, list(variables)))
    lines = []
    for v in variables:
        name = _source_name(v, 0)
        if not v.dtype.is_differentiable:
            lines.append(f"  {name}: {NOT_FLOAT} ({v.dtype.name}).")
        elif isinstance(v, Variable) and not v.trainable:
            lines.append(f"  {name}: {NOT_TRAINABLE}; tapes do not watch it when it is read.")
        else:
            lines.append(f"  {name}: not connected to the loss. For the cause (stop_gradient, a "
                         "non-differentiable op, NumPy in between, ...), compute the loss under "
                         "GradientTape(persistent=True) and print tape.explain(loss, variables).")
    return "\n".join(lines)
