"""`tf.profiler.experimental.server`: the profiler server (remote profiling is not available)."""
from ..remote import start_server as start

__all__ = ["start"]
