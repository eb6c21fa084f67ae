"""`tf.summary.scalar`, `histogram`, `image`, `text`, `audio` and `write`: one `Summary` per call,
in the form TensorBoard's plugins read (TensorFlow 2's tensor summaries):

    scalar     a float32 scalar tensor, plugin "scalars"
    histogram  a [k, 3] float64 tensor of (left, right, count) rows, plugin "histograms"
    image      a string vector [width, height, png, png, ...], plugin "images"
    text       a string tensor of the data's shape, plugin "text"
    audio      a [k, 2] string tensor of (wav, label) rows, plugin "audio" (content: WAV)

Each call checks its data and resolves the step on the caller's thread, copies the data, and
queues a function that encodes the event (buckets, PNG, WAV, protobuf); the writer's background
thread runs it (see records.py). Called while a graph is built (inside a traced `function`, or a
TF 1 graph), a summary is one stateful `WriteSummary` op holding the writer, which writes each
time the graph runs, with the step and the `record_if` condition as its inputs.
"""
import functools
import time

import numpy as np

from ..framework import dtypes
from ..framework.context import op_scope, state
from ..framework.op_dtype_constraints import fixed_operand
from ..framework.registry import defop
from ..framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.math_ops import logical_and
from . import encoders, protobuf
from .writer import _FALSE, _TRUE, _holds, resolve_step, summary_state

__all__ = ["scalar", "histogram", "image", "text", "audio", "write", "WRITE_SUMMARY"]

_METADATA = {name: protobuf.summary_metadata(name)
             for name in ("scalars", "histograms", "images", "text")}
_AUDIO_WAV = protobuf.field_varint(2, 11)  # AudioPluginData{encoding: WAV}


def _metadata(plugin, description=None, content=b""):
    if description is None and not content and plugin in _METADATA:
        return _METADATA[plugin]
    return protobuf.summary_metadata(plugin, content, description=description)


def _encode_event(wall_time, step, tag, metadata, make_tensor, data):
    value = protobuf.summary_value(tag, protobuf.tensor_proto(make_tensor(data)), metadata)
    return protobuf.event(wall_time, step, summary=protobuf.summary([value]))


def _array(data):
    if is_eager_tensor(data):
        return array_of(data)
    return np.asarray(data)


# -- the tensor each plugin stores --------------------------------------------------------------
def _scalar_tensor(data):
    return np.float32(data)


def _histogram_tensor(data_and_buckets):
    data, buckets = data_and_buckets
    return encoders.histogram_buckets(data, buckets)


def _image_tensor(images):
    height, width = images.shape[1:3]
    pngs = [encoders.encode_png(im) for im in encoders.to_uint8_images(images)]
    return np.array([str(width).encode(), str(height).encode()] + pngs, dtype=object)


def _audio_tensor(clips_and_rate):
    clips, rate = clips_and_rate
    rows = [(encoders.encode_wav(clip, rate), b"") for clip in clips]
    return np.array(rows, dtype=object).reshape(len(rows), 2)


def _identity_tensor(data):
    return data


# -- checking the data on the caller's thread -----------------------------------------------------
def _check_scalar(name, data):
    if data.shape != ():
        raise ValueError(f"tf.summary.scalar({name!r}): expected scalar shape, saw shape: "
                         f"{data.shape}.")
    if data.dtype.kind not in "biuf":
        raise TypeError(f"tf.summary.scalar({name!r}): data must be a real number, got dtype "
                        f"{data.dtype}.")
    return data.copy()


def _check_images(name, data, max_outputs):
    if data.ndim != 4:
        raise ValueError(f"tf.summary.image({name!r}): images must have rank 4 [k, h, w, c]. "
                         f"Received rank {data.ndim}, shape {data.shape}.")
    if data.shape[-1] not in (1, 2, 3, 4):
        raise ValueError(f"tf.summary.image({name!r}): the last dimension is channels and must "
                         f"be 1, 2, 3 or 4; got shape {data.shape}.")
    if int(max_outputs) < 0:
        raise ValueError(f"tf.summary.image({name!r}): max_outputs must be >= 0.")
    return data[:int(max_outputs)].copy()


def _check_audio(name, data, sample_rate, max_outputs):
    if data.ndim != 3:
        raise ValueError(f"tf.summary.audio({name!r}): audio must have rank 3 [k, t, c]. "
                         f"Received rank {data.ndim}, shape {data.shape}.")
    if data.dtype.kind != "f":
        raise TypeError(f"tf.summary.audio({name!r}): audio must be float in [-1, 1], got "
                        f"dtype {data.dtype}.")
    return data[:int(max_outputs)].copy(), int(np.asarray(sample_rate))


# -- writing --------------------------------------------------------------------------------------
def _write(tag, step, metadata, make_tensor, data):
    """Queue one summary on the default writer (the caller has checked it records)."""
    summary_state.writer.add_event(functools.partial(
        _encode_event, time.time(), resolve_step(step), tag, metadata, make_tensor, data))
    return _TRUE


def _recording_writer():
    """The default writer if summaries are recorded here, else None."""
    st = summary_state
    writer = st.writer
    if writer is None:
        return None
    for condition in st.conditions:
        if not _holds(condition):
            return None
    return writer


def _summary(name, data, step, metadata, make_tensor, check):
    """The shared body of the summary calls: in a graph, a WriteSummary op; eagerly, queue it."""
    if state.graph is not None:
        return _graph_summary(name, data, step, metadata, make_tensor, check)
    if _recording_writer() is None:
        return _FALSE
    return _write(name, step, metadata, make_tensor, check(_array(data)))


def scalar(name, data, step=None, description=None):
    """Write a scalar (cast to float32): TensorBoard's scalars dashboard plots it over steps."""
    metadata = _metadata("scalars", description)
    if state.graph is not None:
        return _graph_summary(name, data, step, metadata, _scalar_tensor,
                              functools.partial(_check_scalar, name))
    if _recording_writer() is None:
        return _FALSE
    return _write(name, step, metadata, _scalar_tensor, _check_scalar(name, _array(data)))


def histogram(name, data, step=None, buckets=None, description=None):
    """Write the distribution of `data`'s values in `buckets` (default 30) equal-width buckets."""
    k = 30 if buckets is None else int(buckets)
    return _summary(name, data, step, _metadata("histograms", description), _histogram_tensor,
                    lambda a: (a.copy(), k))


def image(name, data, step=None, max_outputs=3, description=None):
    """Write up to `max_outputs` images from [k, h, w, c] data (uint8, or float in [0, 1]),
    PNG-encoded."""
    return _summary(name, data, step, _metadata("images", description), _image_tensor,
                    lambda a: _check_images(name, a, max_outputs))


def text(name, data, step=None, description=None):
    """Write a string (or an array of strings); TensorBoard renders it as Markdown."""
    if state.graph is not None and not isinstance(data, (str, bytes, np.ndarray, list)):
        raise TypeError(f"tf.summary.text({name!r}) in a graph needs a Python string: wengert "
                        "has no string tensors.")
    if isinstance(data, Tensor):
        raise TypeError(f"tf.summary.text({name!r}) needs a string, got a numeric tensor.")
    value = np.asarray(data, dtype=object)
    return _summary(name, None, step, _metadata("text", description), _identity_tensor,
                    lambda _: value)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Write up to `max_outputs` clips from [k, t, c] float data in [-1, 1] as WAV files."""
    if encoding not in (None, "wav"):
        raise ValueError(f"tf.summary.audio: unknown encoding {encoding!r}; only 'wav'.")
    return _summary(name, data, step, _metadata("audio", description, _AUDIO_WAV),
                    _audio_tensor, lambda a: _check_audio(name, a, sample_rate, max_outputs))


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` (or the result of calling it) under `tag` with `metadata` (a
    SummaryMetadata protobuf, its serialized bytes, or None)."""
    if metadata is None:
        metadata = b""
    elif not isinstance(metadata, bytes):
        metadata = metadata.SerializeToString()
    if state.graph is not None:
        with op_scope(name, "write_summary"):
            if callable(tensor):
                tensor = tensor()
            return _graph_summary(tag, tensor, step, metadata, _identity_tensor, np.copy)
    if _recording_writer() is None:
        return _FALSE
    if callable(tensor):
        tensor = tensor()
    return _write(tag, step, metadata, _identity_tensor, np.array(_array(tensor)))


# -- in graphs: the WriteSummary op ---------------------------------------------------------------
def _write_summary_kernel(store, step, data, record, *, writer, tag, metadata, make_tensor,
                          check):
    if not record or writer.closed:
        return np.bool_(False)
    writer.add_event(functools.partial(_encode_event, time.time(), int(step), tag, metadata,
                                       make_tensor, check(np.asarray(data))))
    return np.bool_(True)


def _raw_write(writer, step, tensor, tag, summary_metadata, name=None):
    """tf.raw_ops.WriteSummary: `writer` a summary writer (TensorFlow's handle to one)."""
    tag, metadata = (array_of(convert_to_tensor(v)).item() for v in (tag, summary_metadata))
    with writer.as_default():
        return write(tag.decode() if isinstance(tag, bytes) else tag, tensor, step,
                     metadata if isinstance(metadata, bytes) else metadata.encode(), name)


WRITE_SUMMARY = defop(
    "WriteSummary", _write_summary_kernel, grad=None, stateful=True,
    shape=lambda step, data, record, **attrs: (TensorShape([]), dtypes.bool), raw=_raw_write)


def _graph_summary(name, data, step, metadata, make_tensor, check):
    graph = state.graph
    writer = summary_state.writer
    if writer is None:
        return convert_to_tensor(False)
    if step is None:
        step = summary_state.step
        if step is None:
            raise ValueError("No step set. Please specify one either through the `step` "
                             "argument or through tf.summary.experimental.set_step()")
    record = True
    for condition in summary_state.conditions:
        value = condition() if callable(condition) else condition
        record = value if record is True else logical_and(record, value)
    step_t = fixed_operand(step, dtypes.int64)  # TensorFlow's WriteSummary: an int64 step
    data_t = convert_to_tensor(0.0 if data is None else data)
    record_t = convert_to_tensor(record, dtype=dtypes.bool)
    return graph.create_op(WRITE_SUMMARY, (step_t, data_t, record_t),
                           {"writer": writer, "tag": name, "metadata": metadata,
                            "make_tensor": make_tensor, "check": check}, "write_summary")
