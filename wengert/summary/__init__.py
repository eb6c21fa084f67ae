"""`tf.summary`: TensorBoard event files (writers, scalars, histograms, images, text, audio,
graphs); `wengert.summary.v1` holds TF 1's summary ops (v1_summaries.py) and FileWriter."""
from . import experimental, v1_summaries  # noqa: F401 (v1_summaries declares TF 1's ops)
from .summary_ops import audio, histogram, image, scalar, text, write
from .tracing import graph, trace_export, trace_off, trace_on
from .writer import (SummaryWriter, create_file_writer, create_noop_writer, flush, record_if,
                     should_record_summaries)

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "flush", "record_if",
           "should_record_summaries", "scalar", "histogram", "image", "text", "audio", "write",
           "graph", "trace_on", "trace_off", "trace_export", "experimental"]
