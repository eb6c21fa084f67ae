"""`tf.profiler.experimental.client`: capturing from a profiler server (not available)."""
from ..remote import client_monitor as monitor
from ..remote import client_trace as trace

__all__ = ["monitor", "trace"]
