"""TensorFlow 1's summary ops: each evaluates to a serialized `Summary` protocol buffer (a
string tensor) that `FileWriter.add_summary` writes and TensorBoard reads.

    ScalarSummary     Value{tag, simple_value}
    HistogramSummary  Value{tag, histo}: TensorFlow's fixed buckets, limits +-1e-12 * 1.1^k up
                      to 1e20 and 0 (k = 0, 1, ...; the outermost are +-DBL_MAX), a value x
                      counted in the first bucket whose limit exceeds it; a run of empty
                      buckets is written as one (v1_histogram.py)
    ImageSummary      Value{tag/image[/i], image{PNG}} for the first max_outputs images; float
                      images are scaled per image, by 255 / max when no value is negative, else
                      by 127 / max|x| with 128 added, then truncated to uint8 (a pixel with a
                      NaN or infinite channel is painted bad_color, opaque red)
    AudioSummaryV2    Value{tag/audio/i, audio{WAV}} for the first max_outputs clips
    TensorSummaryV2   Value{tag, metadata, tensor}: the text plugin's strings, or any tensor
    MergeSummary      the values of several serialized summaries in one (tags must differ)

The Python functions (`scalar`, `histogram`, `image`, `audio`, `text`, `tensor_summary`) name
the op and tag it under the current name scope, and add it to `collections`
(GraphKeys.SUMMARIES by default); `merge_all` merges a collection.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import executing_eagerly
from ..framework.errors import DataLossError, InvalidArgumentError
from ..framework.execute import execute
from ..framework.protos import tensor as tensor_proto, wire
from ..framework.protos.summary import Summary, SummaryMetadata
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor, string_array
from ..framework.tensor_shape import TensorShape
from ..graph.collections import GraphKeys, add_to_collections, get_collection
from ..graph.graph import name_scope
from . import encoders
from .v1_histogram import histogram_bytes

__all__ = ["audio", "histogram", "image", "merge", "merge_all", "scalar", "tensor_summary",
           "text"]


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def _serialized(values):
    return string_array(np.array(Summary(value=values).SerializeToString(), dtype=object))


def _value_bytes(tag, number, payload, wire_type=wire.LEN):
    """A serialized Summary.Value: its tag (left out when empty) and field `number` holding
    `payload` (a message's bytes, or a fixed-size value's with `wire_type`)."""
    head = wire.field_bytes(1, tag) if tag else b""
    if wire_type == wire.LEN:
        return head + wire.field_bytes(number, payload)
    return head + wire.key(number, wire_type) + payload


def _summary_bytes(values):
    """The Summary of serialized values, as a string scalar."""
    return string_array(np.array(b"".join([wire.field_bytes(1, v) for v in values]),
                                 dtype=object))


def _scalar_shape(*inputs, **attrs):
    return TensorShape([]), dtypes.string


# -- scalars and histograms ----------------------------------------------------------------------
def _scalar_kernel(tags, values):
    tags, values = np.asarray(tags), np.asarray(values)
    if tags.shape != values.shape:
        raise InvalidArgumentError(f"ScalarSummary: tags and values are not the same shape: "
                                   f"{list(tags.shape)} != {list(values.shape)}")
    with np.errstate(over="ignore"):
        floats = values.reshape(-1).astype("<f4")
    return _summary_bytes([_value_bytes(_text(t), 2, floats[k].tobytes(), wire.I32)
                           for k, t in enumerate(tags.reshape(-1))])


def _histogram_kernel(tag, values):
    return _summary_bytes([_value_bytes(_text(np.asarray(tag).item()), 5,
                                        histogram_bytes(values))])


# -- images and audio ----------------------------------------------------------------------------
BAD_COLOR = (255, 0, 0, 255)  # red, opaque: TensorFlow's colour for NaN and infinite pixels


def _uint8(image, bad_color=BAD_COLOR):
    if image.dtype == np.uint8:
        return image
    image = image.astype(np.float32)
    bad = ~np.all(np.isfinite(image), axis=-1)
    finite = image[~bad]
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
    if low < 0:
        top = max(abs(low), abs(high))
        scale, offset = (0.0 if top < 1e-6 else 127.0 / top), 128.0
    else:
        scale, offset = (0.0 if high < 1e-6 else 255.0 / high), 0.0
    with np.errstate(invalid="ignore"):
        out = (np.where(bad[..., None], 0, image) * np.float32(scale)
               + np.float32(offset)).astype(np.uint8)
    out[bad] = np.asarray(bad_color, np.uint8)[:image.shape[-1]]
    return out


def _image_kernel(tag, tensor, *, max_images, bad_color=BAD_COLOR):
    tensor = np.asarray(tensor)
    if tensor.ndim != 4 or tensor.shape[-1] not in (1, 3, 4):
        raise InvalidArgumentError(f"ImageSummary: tensor must be 4-D [batch, height, width, "
                                   f"channels] with 1, 3 or 4 channels, got shape "
                                   f"{list(tensor.shape)}")
    tag, count = _text(np.asarray(tag).item()), min(max_images, tensor.shape[0])
    values = []
    for i in range(count):
        image = _uint8(tensor[i], bad_color)
        name = f"{tag}/image" if max_images == 1 else f"{tag}/image/{i}"
        values.append(Summary.Value(tag=name, image=Summary.Image(
            height=image.shape[0], width=image.shape[1], colorspace=image.shape[2],
            encoded_image_string=encoders.encode_png(image))))
    return _serialized(values)


def _audio_kernel(tag, tensor, sample_rate, *, max_outputs):
    tensor = np.asarray(tensor, dtype=np.float32)
    if tensor.ndim == 2:
        tensor = tensor[:, :, None]
    if tensor.ndim != 3:
        raise InvalidArgumentError(f"AudioSummaryV2: tensor must be 2-D [batch, frames] or "
                                   f"3-D [batch, frames, channels], got shape "
                                   f"{list(tensor.shape)}")
    tag, rate = _text(np.asarray(tag).item()), float(np.asarray(sample_rate))
    values = []
    for i in range(min(max_outputs, tensor.shape[0])):
        clip = tensor[i]
        values.append(Summary.Value(tag=f"{tag}/audio/{i}", audio=Summary.Audio(
            sample_rate=rate, num_channels=clip.shape[1], length_frames=clip.shape[0],
            encoded_audio_string=encoders.encode_wav(clip, rate), content_type="audio/wav")))
    return _serialized(values)


# -- tensors and merging -------------------------------------------------------------------------
def _tensor_kernel(tag, tensor, serialized_summary_metadata):
    array = np.asarray(tensor)
    dtype = dtypes.string if array.dtype == object else dtypes.as_dtype(array.dtype)
    metadata = SummaryMetadata.FromString(np.asarray(serialized_summary_metadata).item())
    proto = tensor_proto.to_proto(array, dtype)
    return _serialized([Summary.Value(tag=_text(np.asarray(tag).item()), metadata=metadata,
                                      tensor=proto)])


def _tags(serialized):
    """The tags of a serialized Summary's values, read without decoding or copying the rest."""
    tags, pos, end = [], 0, len(serialized)
    while pos < end:
        number, wire_type, start, pos = _field(serialized, pos, end, "Summary")
        if number != 1:
            continue
        while start < pos:  # the fields of the Summary.Value
            inner, _, tag, start = _field(serialized, start, pos, "Summary.Value")
            if inner == 1:
                tags.append(serialized[tag:start].decode("utf-8", "replace"))
    return tags


def _field(data, pos, end, what):
    """(number, wire type, start of its value, end) of the field at data[pos] (below end)."""
    first = pos
    key, pos = wire.read_varint(data, pos, what)
    number, wire_type = key >> 3, key & 7
    if number == 0:
        raise wire.corrupt(what, first, "a field number is 0")
    if wire_type == wire.LEN:
        size, pos = wire.read_varint(data, pos, what)
    elif wire_type == wire.VARINT:
        size = wire.read_varint(data, pos, what)[1] - pos
    else:
        size = {wire.I64: 8, wire.I32: 4}.get(wire_type)
        if size is None:
            raise wire.corrupt(what, first, f"field {number} has wire type {wire_type}, which "
                                            f"no message here uses")
    if pos + size > end:
        raise wire.corrupt(what, first, f"field {number} says {size} bytes follow, but only "
                                        f"{end - pos} do")
    return number, wire_type, pos, pos + size


def _merge_kernel(*inputs):
    """The inputs' bytes joined: a Summary is one repeated field, so the concatenation of
    serialized summaries is the serialized merge (after checking that no tag repeats)."""
    pieces, seen = [], set()
    for serialized in inputs:
        serialized = np.asarray(serialized).item()
        try:
            tags = _tags(serialized)
        except DataLossError as err:
            raise InvalidArgumentError(f"MergeSummary: Could not parse one of the summary "
                                       f"inputs: {err}") from None
        for tag in tags:
            if tag in seen:
                raise InvalidArgumentError(f"MergeSummary: Duplicate tag {tag} found in "
                                           f"summary inputs")
            seen.add(tag)
        pieces.append(serialized)
    return string_array(np.array(b"".join(pieces), dtype=object))


def _raw_image(tag, tensor, max_images=3, bad_color=list(BAD_COLOR), name=None):
    color = tuple(int(c) for c in np.asarray(bad_color, np.uint8).reshape(-1))
    return execute(IMAGE_SUMMARY, (convert_to_tensor(tag), convert_to_tensor(tensor)),
                   {"max_images": int(max_images), "bad_color": color}, name)


def _raw_audio(tag, tensor, sample_rate, max_outputs=3, name=None):
    inputs = (convert_to_tensor(tag), convert_to_tensor(tensor),
              convert_to_tensor(sample_rate, dtype=dtypes.float32))
    return execute(AUDIO_SUMMARY, inputs, {"max_outputs": int(max_outputs)}, name)


def _raw_scalar(tags, values, name=None):
    return execute(SCALAR_SUMMARY, (convert_to_tensor(tags), convert_to_tensor(values)), {},
                   name)


def _raw_histogram(tag, values, name=None):
    return execute(HISTOGRAM_SUMMARY, (convert_to_tensor(tag), convert_to_tensor(values)), {},
                   name)


def _raw_tensor(tag, tensor, serialized_summary_metadata, name=None):
    inputs = (tag, tensor, serialized_summary_metadata)
    return execute(TENSOR_SUMMARY, tuple(convert_to_tensor(t) for t in inputs), {}, name)


def _raw_merge(inputs, name=None):
    return execute(MERGE_SUMMARY, tuple(convert_to_tensor(t) for t in inputs), {}, name)


SCALAR_SUMMARY = defop("ScalarSummary", _scalar_kernel, grad=None, shape=_scalar_shape,
                       raw=_raw_scalar)
HISTOGRAM_SUMMARY = defop("HistogramSummary", _histogram_kernel, grad=None, shape=_scalar_shape,
                          raw=_raw_histogram, concurrent=True)
IMAGE_SUMMARY = defop("ImageSummary", _image_kernel, grad=None, shape=_scalar_shape,
                      raw=_raw_image)
AUDIO_SUMMARY = defop("AudioSummaryV2", _audio_kernel, grad=None, shape=_scalar_shape,
                      raw=_raw_audio)
TENSOR_SUMMARY = defop("TensorSummaryV2", _tensor_kernel, grad=None, shape=_scalar_shape,
                       raw=_raw_tensor)
MERGE_SUMMARY = defop("MergeSummary", _merge_kernel, grad=None, shape=_scalar_shape,
                      raw=_raw_merge)


# -- the TensorFlow 1 functions ------------------------------------------------------------------
class _SummaryScope:
    """`with _SummaryScope(name, family, values) as (tag, scope)`: a name scope for the op,
    and its tag (the scope without its slash, prefixed by `family` when given)."""

    def __init__(self, name, family, values):
        base = name if family is None else f"{family}/{name}"
        self._family, self._scope = family, name_scope(base, None, values)

    def __enter__(self):
        scope = self._scope.__enter__()
        tag = scope.rstrip("/")
        return (tag if self._family is None else f"{self._family}/{tag}"), scope

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


def _finish(summary, collections):
    add_to_collections([GraphKeys.SUMMARIES] if collections is None else collections, summary)
    return summary


def _build(op_def, name, family, tensors, collections, attrs=None):
    with _SummaryScope(name, family, tensors) as (tag, scope):
        inputs = (convert_to_tensor(tag),) + tuple(convert_to_tensor(t) for t in tensors)
        return _finish(execute(op_def, inputs, attrs or {}, scope), collections)


def scalar(name, tensor, collections=None, family=None):
    """A summary of one scalar value, tagged `name` under the current name scope."""
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"tf.compat.v1.summary.scalar({name!r}): the tensor must be a "
                         f"scalar, got shape {tensor.shape}.")
    return _build(SCALAR_SUMMARY, name, family, (tensor,), collections)


def histogram(name, values, collections=None, family=None):
    """A histogram of `values` (any shape), in TensorFlow's fixed buckets."""
    return _build(HISTOGRAM_SUMMARY, name, family, (values,), collections)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """PNG images of the first `max_outputs` of a [batch, height, width, channels] tensor."""
    return _build(IMAGE_SUMMARY, name, family, (tensor,), collections,
                  {"max_images": int(max_outputs)})


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """WAV clips of the first `max_outputs` of a [batch, frames(, channels)] tensor."""
    rate = convert_to_tensor(sample_rate, dtype=dtypes.float32)
    return _build(AUDIO_SUMMARY, name, family, (tensor, rate), collections,
                  {"max_outputs": int(max_outputs)})


def text(name, tensor, collections=None):
    """Strings shown by TensorBoard's text dashboard."""
    tensor = convert_to_tensor(tensor)
    if tensor.dtype is not dtypes.string:
        raise ValueError(f"Expected tensor {name} to have dtype string, got {tensor.dtype.name}")
    metadata = SummaryMetadata(plugin_data={"plugin_name": "text"}).SerializeToString()
    return _build(TENSOR_SUMMARY, name, None, (tensor, metadata), collections)


def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
    """Any tensor, serialized whole, with optional metadata."""
    metadata = SummaryMetadata() if summary_metadata is None else summary_metadata
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    return _build(TENSOR_SUMMARY, name, family, (tensor, metadata.SerializeToString()),
                  collections)


def merge(inputs, collections=None, name=None):
    """One summary holding the values of all `inputs` (serialized summaries); in graphs only,
    as in TensorFlow."""
    if executing_eagerly():
        raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                           "Use tf.summary (TensorFlow 2's) with a writer instead.")
    with name_scope(name, "Merge", inputs):
        merged = _raw_merge(inputs, "MergeSummary")
    if collections:
        add_to_collections(collections, merged)
    return merged


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """The merge of the default graph's collection `key` (None when it is empty)."""
    summaries = get_collection(key, scope=scope)
    return merge(summaries, name=name) if summaries else None


