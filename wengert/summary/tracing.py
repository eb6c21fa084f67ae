"""Graphs for TensorBoard's graph dashboard: `trace_on` / `trace_export` and `graph`.

`trace_on(graph=True)` starts noting every traced `function` that runs (each distinct trace once,
in the order first called); `trace_export(name, step)` writes their graphs as one summary and
stops tracing. As TensorFlow 2 writes it, the summary's tensor is a string scalar holding a
serialized `RunMetadata` whose `function_graphs` hold each trace's `GraphDef`
(pre_optimization_graph), under the plugin "graph_run_metadata_graph"; TensorBoard draws it and
lists it under its tag. `graph(graph)` writes a GraphDef directly as the `graph_def` of an
event, as Keras's TensorBoard callback and TF 1's `FileWriter.add_graph` do.
"""
import time
import warnings

import numpy as np

from ..tracing.function import CALL_OBSERVERS
from . import protobuf
from .graph_proto import function_graph_bytes, graph_def_bytes
from .summary_ops import write
from .writer import summary_state

__all__ = ["trace_on", "trace_off", "trace_export", "graph"]

_RUN_METADATA_GRAPH = protobuf.summary_metadata("graph_run_metadata_graph", b"1")


class _Trace:
    def __init__(self):
        self.functions = {}  # id(concrete) -> concrete, in order of first call

    def __call__(self, concrete):
        self.functions.setdefault(id(concrete), concrete)


_ACTIVE = []


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start recording the graphs of the traced functions that run from now on."""
    if profiler:
        where = "" if profiler_outdir is None else f" (nothing is written to {profiler_outdir})"
        warnings.warn(f"tf.summary.trace_on: wengert has no profiler; only graphs are "
                      f"recorded{where}.", stacklevel=2)
    trace_off()
    if graph:
        trace = _Trace()
        _ACTIVE.append(trace)
        CALL_OBSERVERS.append(trace)


def trace_off():
    """Stop recording without writing anything."""
    while _ACTIVE:
        CALL_OBSERVERS.remove(_ACTIVE.pop())


def trace_export(name, step=None, profiler_outdir=None):
    """Write the graphs recorded since `trace_on` to the default writer, then stop tracing.
    profiler_outdir is where TensorFlow's profiler, when trace_on started it, writes: there is
    no profiler here (trace_on warned), so nothing is written there."""
    del profiler_outdir
    if not _ACTIVE:
        warnings.warn("tf.summary.trace_export: no trace is active; call "
                      "tf.summary.trace_on() first.", stacklevel=2)
        return False
    functions = list(_ACTIVE[0].functions.values())
    trace_off()
    run_metadata = protobuf.run_metadata_with_graphs(function_graph_bytes(f) for f in functions)
    return write(name, lambda: np.array(run_metadata, dtype=object), step=step,
                 metadata=_RUN_METADATA_GRAPH)


def graph(graph_data):
    """Write a graph (a wengert Graph, a traced function's ConcreteFunction, or serialized
    GraphDef bytes) as the `graph_def` of an event; False when there is no default writer."""
    writer = summary_state.writer
    if writer is None:
        return False
    if isinstance(graph_data, bytes):
        data = graph_data
    elif hasattr(graph_data, "graph") and hasattr(graph_data, "outputs"):  # ConcreteFunction
        data = function_graph_bytes(graph_data)
    else:
        data = graph_def_bytes(graph_data)
    writer.add_event(protobuf.event(time.time(), graph_def=data))
    return True
