"""`tf.compat.v1.summary`: TensorFlow 1's summary ops (v1_summaries.py) and `FileWriter`, its
event file writer, for graphs and summaries.

`FileWriter(logdir, graph)` opens an event file (named as TF 1 names them, without the ".v2"
suffix) and, given a graph, writes it as the file's `graph_def` event, which TensorBoard's graph
dashboard draws. `add_summary` takes a serialized `Summary` (bytes, or any protobuf object with
`SerializeToString`), `add_graph` a wengert Graph, `add_event` a serialized `Event`.
`add_session_log` writes a `SessionLog` (a run's start, stop or checkpoint, which TensorBoard
uses to discard events a restarted run overwrote), `add_run_metadata` one `sess.run`'s
`RunMetadata` under a tag (each tag once per writer, as TensorFlow refuses a repeat) and
`add_meta_graph` a `MetaGraphDef` message. Each event carries the wall time and, given one, the
step, as TensorFlow's `Event` does.
"""
import time

from ..framework.protos.meta_graph import MetaGraphDef
from ..framework.protos.summary import Event, TaggedRunMetadata
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
        self._run_metadata_tags = set()
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

    def _add_message_event(self, global_step, **what):
        event = Event(wall_time=time.time(), **what)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event.SerializeToString())

    def add_session_log(self, session_log, global_step=None):
        """Write a `SessionLog` (status START, STOP or CHECKPOINT) at `global_step`."""
        self._add_message_event(global_step, session_log=session_log)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Write one `sess.run`'s `RunMetadata` under `tag`, which this writer has not used."""
        if tag in self._run_metadata_tags:
            raise ValueError(f"FileWriter.add_run_metadata: the tag {tag!r} was already used "
                             f"for this event type; give each run's metadata its own tag.")
        tagged = TaggedRunMetadata(tag=str(tag), run_metadata=_serialized(run_metadata))
        self._add_message_event(global_step, tagged_run_metadata=tagged)
        self._run_metadata_tags.add(tag)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Write a `MetaGraphDef` message (serialized into the event, as TensorFlow does)."""
        if not isinstance(meta_graph_def, MetaGraphDef):
            raise TypeError(f"FileWriter.add_meta_graph: meta_graph_def must be type "
                            f"MetaGraphDef, saw type: {type(meta_graph_def)}. (wengert's "
                            f"train.export_meta_graph returns its own JSON meta graph; to show "
                            f"the graph in TensorBoard, use add_graph(graph).)")
        self._add_message_event(global_step, meta_graph_def=meta_graph_def.SerializeToString())

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
