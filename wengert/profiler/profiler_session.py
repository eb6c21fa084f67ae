"""Starting and stopping the profiler, as `tf.profiler.experimental` does.

`start(logdir, options)` begins recording every op that runs in any thread: eager ops (through
the hook in framework/execute.py) and the kernels of Session and tf.function plans (through the
hook in runtime/executor.py), by setting the execution state's class-level `profiler`
attribute, which every thread reads. `stop()` clears it, writes the Chrome trace under the
logdir (trace_events.py) and keeps the events so that `summary_table()` can print the most
expensive ops. As in TensorFlow, a second `start` while one runs raises AlreadyExistsError and
`stop` without a running profiler raises UnavailableError. `Profile(logdir)` is the pair as a
context manager; `Trace(name, step_num=...)` marks a region (a step when it has `step_num`)
whose ops are grouped under that step.

ProfilerOptions: `host_tracer_level` 0 records nothing, 1 only `Trace` regions, 2 and 3 regions
and ops; `delay_ms` drops what starts within that many milliseconds of `start`;
`device_tracer_level` concerns accelerators (there are none: any level records the host);
`python_tracer_level` 1 records every Python call too (python_tracer.py; slow, as in TF).
Remote profiling (a profiler server and its client) is in remote.py.
"""
import collections
import threading
import time

from ..framework.context import state
from ..framework.errors import AlreadyExistsError, UnavailableError
from .op_summary import format_table, op_totals
from .python_tracer import PythonTracer
from .recorder import Recorder
from .trace_events import write_trace

__all__ = ["ProfilerOptions", "start", "stop", "Profile", "Trace", "summary_table",
           "last_events"]

ProfilerOptions = collections.namedtuple(
    "ProfilerOptions", ["host_tracer_level", "python_tracer_level", "device_tracer_level",
                        "delay_ms"])
ProfilerOptions.__new__.__defaults__ = (2, 0, 1, None)

_lock = threading.Lock()
_session = {"logdir": None, "recorder": None, "python": None, "events": [], "path": None}


def _recorder_for(options):
    options = ProfilerOptions() if options is None else options
    if not isinstance(options, ProfilerOptions):
        raise TypeError("start: options must be a tf.profiler.experimental.ProfilerOptions, got "
                        f"{type(options).__name__}.")
    for field in ("host_tracer_level", "python_tracer_level", "device_tracer_level"):
        if not isinstance(getattr(options, field), int):
            raise TypeError(f"start: ProfilerOptions.{field} must be an int, got "
                            f"{getattr(options, field)!r}.")
    if options.delay_ms is not None and options.delay_ms < 0:
        raise ValueError(f"start: ProfilerOptions.delay_ms must be >= 0, got {options.delay_ms}.")
    recorder = Recorder(options.host_tracer_level, options.delay_ms)
    return recorder, PythonTracer(recorder) if options.python_tracer_level >= 1 else None


def start(logdir, options=None):
    """Start profiling; the trace goes under `logdir` when `stop()` is called."""
    with _lock:
        if state.profiler is not None or _session["recorder"] is not None:
            raise AlreadyExistsError("Another profiler is running.")
        recorder, python = _recorder_for(options)
        _session.update(logdir=logdir, recorder=recorder, python=python)
        type(state).profiler = recorder
        if python is not None:
            python.start()


def stop(save=True):
    """Stop profiling and (with `save`) write the trace; returns nothing, as TensorFlow."""
    with _lock:
        recorder = _session["recorder"]
        if recorder is None:
            raise UnavailableError(None, None,
                                   "Cannot export profiling results. No profiler is running.")
        if _session["python"] is not None:
            _session["python"].stop()
        type(state).profiler = None
        _session.update(recorder=None, events=recorder.events, path=None)
        if save and _session["logdir"]:
            _session["path"] = write_trace(_session["logdir"], recorder.events, recorder.begin)


def last_events():
    """The events of the last stopped session (Recorder tuples) and its trace file's path."""
    return list(_session["events"]), _session["path"]


def summary_table(limit=20, group_by="type", step=None):
    """The most expensive ops of the last stopped profiling session as a text table: total
    time, calls, average time and share, by op type (or by op name with group_by="name"), of
    all steps or of the Trace step `step`."""
    return format_table(op_totals(_session["events"], group_by, step), limit)


class Profile:
    """`with Profile(logdir):` profiles the block (start on entry, stop on exit)."""

    def __init__(self, logdir, options=None):
        self._logdir, self._options = logdir, options

    def __enter__(self):
        start(self._logdir, self._options)
        return self

    def __exit__(self, *exc):
        stop()


class Trace:
    """A region of the trace (a step when `step_num` is given): its ops carry the step number.
    Outside a profiling session it does nothing, as in TensorFlow."""

    def __init__(self, name, **kwargs):
        self._name, self._kwargs = name, kwargs
        recorder = state.profiler
        self._recorder = recorder if recorder is not None and recorder.regions else None

    def set_metadata(self, **kwargs):
        """Add key-value pairs to the region's arguments."""
        self._kwargs.update(kwargs)

    def __enter__(self):
        if self._recorder is not None:
            self._step = self._kwargs.get("step_num")
            if self._step is not None:
                self._recorder.open_steps().append(self._step)
            self._start = time.perf_counter_ns()
        return self

    def __exit__(self, *exc):
        recorder = self._recorder
        if recorder is None:
            return
        end = time.perf_counter_ns()
        if self._step is not None:
            recorder.open_steps().pop()
        details = {k: v for k, v in self._kwargs.items() if k not in ("step_num", "_r")}
        recorder.add("region", self._name, "", self._start, end,
                     self._step if self._step is not None else recorder.current_step(), details)

