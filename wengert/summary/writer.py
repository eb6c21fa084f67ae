"""Summary writers and the per-thread summary state: which writer is the default, the default
step, and whether summaries are recorded (`record_if`), as TensorFlow 2's `tf.summary` keeps them.

`create_file_writer(logdir)` opens an event file in `logdir` (see records.py). Summary calls
(`scalar`, `histogram`, ...) write to the default writer of the calling thread, set by
`with writer.as_default(step=...):` or `writer.set_as_default()`; without one they write nothing
and return False. The step is the `step=` argument, else the default step (`as_default(step)`,
`experimental.set_step`), which may be an int, a tensor or a variable (read when the summary is
written, so `optimizer.iterations` works). `record_if(condition)` nests: summaries are recorded
only when every enclosing condition holds, where a condition is a bool, a bool tensor or a
function returning one (called at each summary, as Keras's `update_freq` uses it).
"""
import contextlib
import threading

import numpy as np

from ..framework.tensor import array_of, constant, is_eager_tensor
from .records import EventFileWriter

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "flush",
           "record_if", "should_record_summaries", "get_step", "set_step", "summary_state",
           "resolve_step", "recording"]


class _SummaryState(threading.local):
    writer = None
    step = None
    conditions = ()


summary_state = _SummaryState()
_TRUE, _FALSE = constant(True), constant(False)


@contextlib.contextmanager
def _default_writer(writer, step):
    """`writer` (and `step`, when given) the thread's defaults inside the block; the previous
    ones come back after it."""
    st = summary_state
    saved = st.writer, st.step
    st.writer = writer
    if step is not None:
        st.step = step
    try:
        yield
    finally:
        st.writer = saved[0]
        if step is not None:
            st.step = saved[1]


class SummaryWriter:
    """Writes summaries to one event file (`tf.summary.SummaryWriter`)."""

    def __init__(self, logdir, max_queue=10, flush_millis=120000, filename_suffix=".v2"):
        self.logdir = str(logdir)
        self._file = EventFileWriter(self.logdir, max_queue, flush_millis, filename_suffix)

    @property
    def closed(self):
        return self._file.closed

    def _check_open(self):
        if self._file.closed:
            raise RuntimeError(f"SummaryWriter for {self.logdir!r} is already closed; create a "
                               "new one with tf.summary.create_file_writer.")

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Make this the default writer of this thread inside the block (and `step`, if
        given, the default step); the previous ones come back after it, and this one is
        flushed."""
        self._check_open()
        try:
            with _default_writer(self, step):
                yield self
        finally:
            if not self._file.closed:
                self.flush()

    def set_as_default(self, step=None):
        """Make this the default writer of this thread from now on."""
        self._check_open()
        summary_state.writer = self
        if step is not None:
            summary_state.step = step

    def init(self):
        """Nothing to do: the file is open from the start (TensorFlow's API has it)."""

    def add_event(self, event_bytes):
        """Queue one serialized Event (bytes, or a function returning them)."""
        self._check_open()
        self._file.add(event_bytes)

    def flush(self):
        """Write everything queued and flush the file."""
        self._file.flush()

    def close(self):
        """Flush and close; the writer cannot be used afterwards."""
        self._file.close()

    def __repr__(self):
        return f"<wengert.summary.SummaryWriter {self.logdir!r}>"


class _NoopWriter:
    """A writer that writes nothing (`create_noop_writer`)."""

    closed = False

    @contextlib.contextmanager
    def as_default(self, step=None):
        with _default_writer(None, step):
            yield self

    def set_as_default(self, step=None):
        summary_state.writer = None

    def init(self):
        pass

    flush = close = init


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter writing an event file in `logdir` (created if needed). Events wait in a
    queue of up to `max_queue` (default 10) and are written at least every `flush_millis`
    (default 120000) by a background thread; the file name ends with `filename_suffix`
    (default ".v2"). `name` would name the op creating TensorFlow's writer resource, which
    is built by no op here; experimental_trackable has TensorFlow track the writer's resource
    for checkpoints, and this writer holds no resource to track; experimental_mesh (DTensor) is
    refused."""
    del name, experimental_trackable
    if experimental_mesh is not None:
        raise ValueError(f"create_file_writer: experimental_mesh={experimental_mesh!r} is a "
                         "DTensor mesh, and wengert has no DTensor; leave it None.")
    if logdir is None:
        raise ValueError("create_file_writer: logdir must be a directory path, got None.")
    return SummaryWriter(logdir, 10 if max_queue is None else max_queue,
                         120000 if flush_millis is None else flush_millis,
                         ".v2" if filename_suffix is None else filename_suffix)


def create_noop_writer():
    return _NoopWriter()


def flush(writer=None, name=None):
    """Flush `writer` (default: this thread's default writer) at once; `name` would name
    TensorFlow's flush op, which is not built here."""
    del name
    writer = writer if writer is not None else summary_state.writer
    if writer is not None:
        writer.flush()


# -- record_if and the step -----------------------------------------------------------------------
@contextlib.contextmanager
def record_if(condition):
    """Record summaries in this block only when `condition` holds (bool, bool tensor, or a
    function returning one); nests with the enclosing conditions."""
    st = summary_state
    saved = st.conditions
    st.conditions = saved + (condition,)
    try:
        yield
    finally:
        st.conditions = saved


def _holds(condition):
    if callable(condition):
        condition = condition()
    return bool(np.asarray(condition))


def recording():
    """Python bool: a default writer exists and every record_if condition holds."""
    st = summary_state
    if st.writer is None:
        return False
    for condition in st.conditions:
        if not _holds(condition):
            return False
    return True


def should_record_summaries():
    """A bool tensor: whether summary calls here would write."""
    return _TRUE if recording() else _FALSE


def get_step():
    """The default step of this thread (None if unset)."""
    return summary_state.step


def set_step(step):
    """Set the default step of this thread (an int, a tensor or a variable)."""
    summary_state.step = step


def resolve_step(step):
    """The int64 step of a summary written now: `step`, else the default step."""
    if step is None:
        step = summary_state.step
        if step is None:
            raise ValueError("No step set. Please specify one either through the `step` "
                             "argument or through tf.summary.experimental.set_step()")
    if type(step) is int:
        return step
    value = array_of(step) if is_eager_tensor(step) else np.asarray(step)
    if value.shape != ():
        raise ValueError(f"A summary step must be a scalar, got shape {value.shape}.")
    return int(value)
