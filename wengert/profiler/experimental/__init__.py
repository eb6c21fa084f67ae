"""`tf.profiler.experimental`: start/stop a profiling session, `Profile`, `Trace` regions and
`ProfilerOptions`; `server.start` for remote profiling (not available)."""
from . import server
from ..profiler_session import Profile, ProfilerOptions, Trace, start, stop

__all__ = ["Profile", "ProfilerOptions", "Trace", "server", "start", "stop"]
