"""`tf.profiler`: a profiler that records every op run while it is on (eager ops and the kernels
of Session and tf.function plans) with its time, shapes, dtypes and output bytes, grouped by
`Trace` steps, writes a Chrome trace under TensorBoard's profile layout, and prints a table of
the most expensive ops (`summary_table()`). See profiler_session.py."""
from . import experimental
from .profiler_session import last_events, summary_table

__all__ = ["experimental", "last_events", "summary_table"]
