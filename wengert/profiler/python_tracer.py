"""Python calls in the trace, for `ProfilerOptions(python_tracer_level=1)`.

While the session runs, a profile function (`sys.setprofile` in the thread that starts the
session, `threading.setprofile` for the threads started after it) sees every Python call and
return: a call pushes its start time on the thread's stack, the matching return pops it and
records a "python" event named as TensorFlow's Python tracer names them,
`$<file>:<first line> <qualified name>`, with the step of the enclosing `Trace` step. Returns of
frames that began before the session (the stack is empty) are skipped, as are the profiler's own
frames. Calls of built-in (C) functions are not recorded. A thread that was already running
when the session started is not traced (Python 3.11 installs a profile function per thread);
after `stop` the function removes itself from any thread the first time it runs there.
"""
import os
import sys
import threading
import time

__all__ = ["PythonTracer"]

_clock = time.perf_counter_ns
_OWN = os.path.dirname(os.path.abspath(__file__))


class PythonTracer:
    """Records Python calls into a Recorder while `active`."""

    def __init__(self, recorder):
        self.recorder = recorder
        self.active = False
        self._local = threading.local()

    def start(self):
        self.active = True
        threading.setprofile(self._hook)
        sys.setprofile(self._hook)

    def stop(self):
        self.active = False
        sys.setprofile(None)
        threading.setprofile(None)

    def _hook(self, frame, event, arg):
        if not self.active:
            sys.setprofile(None)
            return
        if event == "call":
            stack = getattr(self._local, "stack", None)
            if stack is None:
                stack = self._local.stack = []
            stack.append(_clock())
        elif event == "return":
            stack = getattr(self._local, "stack", None)
            if not stack:
                return
            start = stack.pop()
            code = frame.f_code
            if not code.co_filename.startswith(_OWN):
                self.recorder.add("python", f"${code.co_filename}:{code.co_firstlineno} "
                                  f"{code.co_qualname}", "", start, _clock(),
                                  self.recorder.current_step(), None)
