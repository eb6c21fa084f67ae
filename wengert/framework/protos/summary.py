"""TensorFlow's summary messages (tensorflow/core/framework/summary.proto), as TensorFlow 1's
summary ops write them and TensorBoard reads them:

    Summary          value (1): repeated Value
    Summary.Value    tag (1), node_name (7), metadata (9): SummaryMetadata, and one of
                     simple_value (2): float, obsolete_old_style_histogram (3), image (4),
                     histo (5): HistogramProto, audio (6), tensor (8): TensorProto
    Summary.Image    height (1), width (2), colorspace (3), encoded_image_string (4): PNG bytes
    Summary.Audio    sample_rate (1): float, num_channels (2), length_frames (3),
                     encoded_audio_string (4): WAV bytes, content_type (5)
    HistogramProto   min (1), max (2), num (3), sum (4), sum_squares (5),
                     bucket_limit (6), bucket (7): doubles; bucket i counts the values in
                     (bucket_limit[i - 1], bucket_limit[i]]
    SummaryMetadata  plugin_data (1): PluginData{plugin_name (1), content (2)},
                     display_name (2), summary_description (3), data_class (4)
    Event            wall_time (1): double, step (2): int64, and one of file_version (3),
                     graph_def (4): GraphDef bytes, summary (5), ... (tensorflow/core/util/
                     event.proto): one record of an event file
"""
from .message import Field, Message
from .tensor import TensorProto

__all__ = ["Event", "HistogramProto", "Summary", "SummaryMetadata"]


class HistogramProto(Message):
    """A histogram: its statistics and the counts between consecutive bucket limits."""
    FULL_NAME = "tensorflow.HistogramProto"
    FIELDS = (Field(1, "min", "double"), Field(2, "max", "double"), Field(3, "num", "double"),
              Field(4, "sum", "double"), Field(5, "sum_squares", "double"),
              Field(6, "bucket_limit", "double", repeated=True),
              Field(7, "bucket", "double", repeated=True))


class _PluginData(Message):
    FULL_NAME = "tensorflow.SummaryMetadata.PluginData"
    FIELDS = (Field(1, "plugin_name", "string"), Field(2, "content", "bytes"))


class SummaryMetadata(Message):
    """Which TensorBoard plugin shows a summary, and how."""
    FULL_NAME = "tensorflow.SummaryMetadata"
    FIELDS = (Field(1, "plugin_data", "message", message=_PluginData),
              Field(2, "display_name", "string"), Field(3, "summary_description", "string"),
              Field(4, "data_class", "enum"))
    PluginData = _PluginData


class _Image(Message):
    FULL_NAME = "tensorflow.Summary.Image"
    FIELDS = (Field(1, "height", "int32"), Field(2, "width", "int32"),
              Field(3, "colorspace", "int32"), Field(4, "encoded_image_string", "bytes"))


class _Audio(Message):
    FULL_NAME = "tensorflow.Summary.Audio"
    FIELDS = (Field(1, "sample_rate", "float"), Field(2, "num_channels", "int64"),
              Field(3, "length_frames", "int64"), Field(4, "encoded_audio_string", "bytes"),
              Field(5, "content_type", "string"))


class _Value(Message):
    FULL_NAME = "tensorflow.Summary.Value"
    FIELDS = (Field(1, "tag", "string"), Field(7, "node_name", "string"),
              Field(9, "metadata", "message", message=SummaryMetadata),
              Field(2, "simple_value", "float", oneof="value"),
              Field(3, "obsolete_old_style_histogram", "bytes", oneof="value"),
              Field(4, "image", "message", message=_Image, oneof="value"),
              Field(5, "histo", "message", message=HistogramProto, oneof="value"),
              Field(6, "audio", "message", message=_Audio, oneof="value"),
              Field(8, "tensor", "message", message=TensorProto, oneof="value"))


class Summary(Message):
    """`tf.compat.v1.Summary`: tagged values for TensorBoard."""
    FULL_NAME = "tensorflow.Summary"
    FIELDS = (Field(1, "value", "message", repeated=True, message=_Value),)
    Value, Image, Audio = _Value, _Image, _Audio


class Event(Message):
    """`tf.compat.v1.Event`: one record of a TensorBoard event file."""
    FULL_NAME = "tensorflow.Event"
    FIELDS = (Field(1, "wall_time", "double"), Field(2, "step", "int64"),
              Field(3, "file_version", "string", oneof="what"),
              Field(4, "graph_def", "bytes", oneof="what"),
              Field(5, "summary", "message", message=Summary, oneof="what"))
