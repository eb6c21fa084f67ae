"""`tf.profiler.experimental`: start/stop a profiling session, `Profile`, `Trace` regions and
`ProfilerOptions`; `server` and `client` for remote profiling (not available)."""
from . import client, server
from ..profiler_session import Profile, ProfilerOptions, Trace, start, stop

__all__ = ["Profile", "ProfilerOptions", "Trace", "client", "server", "start", "stop"]
