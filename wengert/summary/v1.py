"""`tf.compat.v1.summary`: TensorFlow 1's summary ops (v1_summaries.py) and `FileWriter`, its
event file writer, for graphs and summaries.

`FileWriter(logdir, graph)` opens an event file (named as TF 1 names them, without the ".v2"
suffix) and, given a graph, writes it as the file's `graph_def` event, which TensorBoard's graph
dashboard draws. `add_summary` takes a serialized `Summary` (bytes, or any protobuf object with
`SerializeToString`), `add_graph` a wengert Graph, `add_event` a serialized `Event`.
"""
import time

from . import protobuf
from .graph_proto import graph_def_bytes
from .records import EventFileWriter
from .v1_summaries import (audio, histogram, image, merge, merge_all, scalar,  # noqa: F401
                           tensor_summary, text)

__all__ = ["FileWriter", "audio", "histogram", "image", "merge", "merge_all", "scalar",
           "tensor_summary", "text"]


def _serialized(message):
    return message if isinstance(message, bytes) else message.SerializeToString()


class FileWriter:
    """Writes events to a new event file in `logdir`."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        del session  # TensorFlow then writes through summary ops run in that Session; the
        # events land in the same files of logdir, which this writer writes directly
        self._logdir = str(logdir)
        self._max_queue, self._flush_millis = max_queue, flush_secs * 1000
        self._suffix = filename_suffix or ""
        self._file = EventFileWriter(self._logdir, max_queue, self._flush_millis, self._suffix)
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self):
        return self._logdir

    def add_event(self, event):
        """Queue a serialized Event (bytes or a protobuf object)."""
        self._file.add(_serialized(event))

    def add_summary(self, summary, global_step=None):
        """Queue a Summary (serialized bytes or a protobuf object) at `global_step`."""
        step = None if global_step is None else int(global_step)
        self.add_event(protobuf.event(time.time(), step, summary=_serialized(summary)))

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Write `graph` (a wengert Graph), or `graph_def` (serialized GraphDef bytes)."""
        data = _serialized(graph_def) if graph_def is not None else graph_def_bytes(graph)
        step = None if global_step is None else int(global_step)
        self.add_event(protobuf.event(time.time(), step, graph_def=data))

    def flush(self):
        self._file.flush()

    def close(self):
        self._file.close()

    def reopen(self):
        """After close: open a new event file in the same directory."""
        if self._file.closed:
            self._file = EventFileWriter(self._logdir, self._max_queue, self._flush_millis,
                                         self._suffix)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
