"""Remote profiling, `tf.profiler.experimental.server.start` and `client.trace`/`monitor`:
TensorFlow serves profiles over gRPC to TensorBoard's capture button; wengert has no such
server. `server.start(port)` checks the port and warns that remote profiling is not available
(a program that starts a server for later captures goes on running); the client calls raise
TensorFlow's UnavailableError, as TensorFlow's do when no server answers."""
from ..framework.errors import UnavailableError
from ..util.tf_logging import get_logger

__all__ = ["start_server", "client_trace", "client_monitor"]

_LOCAL = "profile locally with tf.profiler.experimental.start(logdir) and stop()"


def start_server(port):
    """Check `port`; warn that no profiler server is started."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ValueError(f"server.start: port must be an int in 1..65535, got {port!r}.")
    get_logger().warning("tf.profiler.experimental.server.start(%d): remote profiling is not "
                         "available in wengert; %s.", port, _LOCAL)


def client_trace(service_addr, logdir, duration_ms, worker_list="", num_tracing_attempts=3,
                 options=None):
    """`client.trace`: no profiler server can be reached (see the module docstring)."""
    raise UnavailableError(
        None, None, f"client.trace(service_addr={service_addr!r}, logdir={logdir!r}, "
        f"duration_ms={duration_ms}, worker_list={worker_list!r}, num_tracing_attempts="
        f"{num_tracing_attempts}, options={options}): remote profiling is not available in "
        f"wengert; {_LOCAL}.")


def client_monitor(service_addr, duration_ms, level=1):
    """`client.monitor`: no profiler server can be reached (see the module docstring)."""
    raise UnavailableError(
        None, None, f"client.monitor(service_addr={service_addr!r}, duration_ms={duration_ms}, "
        f"level={level}): remote profiling is not available in wengert; {_LOCAL}.")
