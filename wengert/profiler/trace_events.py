"""Writing a profile as a Chrome trace (the trace-event JSON that Perfetto, chrome://tracing
and TensorBoard's trace viewer open).

The file is one JSON object: `traceEvents` holds metadata events (`"ph": "M"`) naming the
process ("/host:CPU") and each thread, then one complete event (`"ph": "X"`) per recorded op,
kernel or `Trace` region, with `ts` and `dur` in microseconds from the start of the session,
`pid` and `tid`, a category (`cat`: "Op" for eager ops, "Kernel" for the steps of a Session or
tf.function plan, "TraceContext" for regions, "Python" for Python calls) and `args`: the op's type, its step number and,
for ops and kernels, the input and output shapes and dtypes and the bytes of the outputs.
`displayTimeUnit` is "ns". It is written gzip-compressed where TensorBoard's profile plugin
looks for runs: `<logdir>/plugins/profile/<run>/<host>.trace.json.gz`, `<run>` being the stop
time as TensorFlow names it (year_month_day_hour_minute_second).
"""
import gzip
import json
import os
import socket
import time

__all__ = ["trace_document", "write_trace"]

_CATEGORY = {"op": "Op", "kernel": "Kernel", "region": "TraceContext", "python": "Python"}
_PID = 1


def _shape_text(sig):
    return ";".join("(" + ",".join(str(d) for d in shape) + ")" for shape, _ in sig)


def _args(op_type, step, details):
    args = {"op_type": op_type} if op_type else {}
    if step is not None:
        args["step_num"] = step
    if details is None:
        return args
    if isinstance(details, dict):
        args.update({k: str(v) for k, v in details.items()})
        return args
    ins, outs, size = details
    args.update(input_shapes=_shape_text(ins), input_dtypes=",".join(str(d) for _, d in ins),
                output_shapes=_shape_text(outs), output_dtypes=",".join(str(d) for _, d in outs),
                output_bytes=size)
    return args


def trace_document(events, origin):
    """The trace-event JSON object of `events` (Recorder tuples), times from `origin` (ns)."""
    threads = {}
    out = [{"ph": "M", "pid": _PID, "name": "process_name", "args": {"name": "/host:CPU"}}]
    for kind, name, op_type, thread, start, end, step, details in events:
        tid = threads.setdefault(thread, len(threads) + 1)
        out.append({"ph": "X", "cat": _CATEGORY[kind], "name": name, "pid": _PID, "tid": tid,
                    "ts": (start - origin) / 1000.0, "dur": (end - start) / 1000.0,
                    "args": _args(op_type, step, details)})
    for thread, tid in threads.items():
        out.append({"ph": "M", "pid": _PID, "tid": tid, "name": "thread_name",
                    "args": {"name": f"thread {thread}"}})
    return {"displayTimeUnit": "ns", "traceEvents": out,
            "metadata": {"producer": "wengert.profiler", "host": socket.gethostname()}}


def write_trace(logdir, events, origin):
    """Write the gzip trace under `logdir` as TensorBoard lays runs out; returns its path."""
    run = time.strftime("%Y_%m_%d_%H_%M_%S")
    folder = os.path.join(os.fspath(logdir), "plugins", "profile", run)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{socket.gethostname()}.trace.json.gz")
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(trace_document(events, origin), f)
    return path
