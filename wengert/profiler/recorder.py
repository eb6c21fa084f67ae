"""The record a running profiler keeps: one event per op run, per kernel a plan runs, and per
`Trace` region.

An event is a plain tuple `(kind, name, op_type, thread, start_ns, end_ns, step, details)`:
`kind` is "op" (an eager op), "kernel" (a step of a Session or tf.function plan) or "region"
(a `Trace` block); times come from `time.perf_counter_ns`; `step` is the `step_num` of the
innermost `Trace` region that carries one on that thread when the event began (None outside
any step); `details` holds the input signatures, the output signatures and the bytes of the
outputs, computed when the event ends so that no array outlives its op because of the record.

The eager hook: `execute` hands every eager op to `run_op` while a profiler runs. `run_op` hides
the profiler from this thread (an instance attribute shadows the class-level one), runs the op
through `execute` again, times it and records it. Kernels of compiled plans are timed by
plan_timing.py.
"""
import threading
import time

from ..framework.context import state
from ..framework.execute import execute
from ..framework.tensor import array_of
from .plan_timing import signature, timed_function

__all__ = ["Recorder"]

_clock = time.perf_counter_ns
_ident = threading.get_ident


class Recorder:
    """Events of one profiling session (see the module docstring)."""

    def __init__(self, host_level=2, delay_ms=None):
        self.events = []
        self.begin = _clock() + int((delay_ms or 0) * 1_000_000)
        self.ops = host_level >= 2
        self.regions = host_level >= 1
        self.local = threading.local()
        self._plans = {}

    def open_steps(self):
        """This thread's stack of open step numbers (innermost last)."""
        steps = getattr(self.local, "steps", None)
        if steps is None:
            steps = self.local.steps = []
        return steps

    def current_step(self):
        steps = getattr(self.local, "steps", None)
        return steps[-1] if steps else None

    def add(self, kind, name, op_type, start, end, step, details):
        if start >= self.begin:
            self.events.append((kind, name, op_type, threading.get_ident(), start, end, step,
                                details))

    def run_op(self, op_def, inputs, attrs, name):
        """Run one eager op (the hook in framework/execute.py) and record it."""
        st = state
        st.profiler = None
        start = _clock()
        try:
            result = execute(op_def, inputs, attrs, name)
        finally:
            end = _clock()
            del st.profiler
        if self.ops and start >= self.begin:
            outs, size = signature([array_of(t) for t in result] if type(result) is tuple else
                                   (array_of(result),))
            steps = getattr(self.local, "steps", None)
            self.events.append(("op", name or op_def.type, op_def.type, _ident(), start, end,
                                steps[-1] if steps else None,
                                (signature([array_of(t) for t in inputs])[0], outs, size)))
        return result

    def plan_function(self, plan):
        """The plan's compiled function with every kernel timed (the hook in
        runtime/executor.py); built once per plan for this session."""
        entry = self._plans.get(id(plan))
        if entry is None or entry[0] is not plan:
            entry = self._plans[id(plan)] = (plan, timed_function(plan, self))
        return entry[1]
