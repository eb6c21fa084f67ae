"""TensorFlow 1's summary helpers around its FileWriter: `FileWriterCache` (one FileWriter per
log directory, made on first request with the default graph, shared by everyone asking for the
same directory), `get_summary_description` (the SummaryDescription a TensorSummary node's
"description" attribute holds as JSON), and for TensorFlow 2's summary ops built into a TF 1
graph, `initialize` (their writer needs no initializer here, but a default writer must be set)
and `all_v2_summary_ops` (the graph's collection of them; None when executing eagerly)."""
import json
import threading

from ..framework.context import state
from ..framework.protos.summary import SummaryDescription
from ..graph.graph import get_default_graph
from .v1 import FileWriter
from .writer import summary_state

__all__ = ["FileWriterCache", "get_summary_description", "initialize", "all_v2_summary_ops"]

V2_SUMMARY_OPS = "_SUMMARY_V2"  # the collection of TensorFlow 2 summary ops in a graph


class FileWriterCache:
    """One FileWriter per log directory."""

    _writers = {}
    _lock = threading.Lock()

    @staticmethod
    def get(logdir):
        """The FileWriter of `logdir`, made with the default graph on the first request."""
        with FileWriterCache._lock:
            writer = FileWriterCache._writers.get(logdir)
            if writer is None:
                writer = FileWriter(logdir, graph=get_default_graph())
                FileWriterCache._writers[logdir] = writer
            return writer

    @staticmethod
    def clear():
        """Close every cached FileWriter and forget them."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._writers.values():
                writer.close()
            FileWriterCache._writers = {}


def get_summary_description(node_def):
    """The SummaryDescription of a TensorSummary node (a NodeDef, or anything with `op` and an
    `attr` map whose "description" value holds JSON in `s`)."""
    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    text = node_def.attr["description"].s
    text = text.decode() if isinstance(text, bytes) else str(text)
    fields = json.loads(text) if text else {}
    return SummaryDescription(type_hint=fields.get("typeHint", fields.get("type_hint", "")))


def initialize(graph=None, session=None):
    """Nothing to run eagerly; in a graph, a default summary writer must be set (its file opens
    when made, so there is no initializer op to run)."""
    if state.graph is None and graph is None:
        return
    if summary_state.writer is None:
        raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")
    if session is not None and not hasattr(session, "run"):
        raise TypeError(f"summary.initialize: session must be a Session, got "
                        f"{type(session).__name__}.")


def all_v2_summary_ops():
    """The TensorFlow 2 summary ops of the default graph (None when executing eagerly)."""
    if state.graph is None:
        return None
    return get_default_graph().get_collection(V2_SUMMARY_OPS)
