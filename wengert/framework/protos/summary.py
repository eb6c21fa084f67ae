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
    SummaryDescription  type_hint (1): what a TensorSummary op's tensor holds
    Event            wall_time (1): double, step (2): int64, and one of file_version (3),
                     graph_def (4): GraphDef bytes, summary (5), log_message (6),
                     session_log (7), tagged_run_metadata (8), meta_graph_def (9): bytes
                     (tensorflow/core/util/event.proto): one record of an event file
    LogMessage       level (1): UNKNOWN 0, DEBUGGING 10, INFO 20, WARN 30, ERROR 40, FATAL 50;
                     message (2)
    SessionLog       status (1): STATUS_UNSPECIFIED 0, START 1, STOP 2, CHECKPOINT 3;
                     checkpoint_path (2), msg (3): a session's start, stop or checkpoint
    TaggedRunMetadata  tag (1), run_metadata (2): a serialized RunMetadata
"""
from .message import Field, Message
from .tensor import TensorProto

__all__ = ["Event", "HistogramProto", "LogMessage", "SessionLog", "Summary",
           "SummaryDescription", "SummaryMetadata", "TaggedRunMetadata"]


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


class SummaryDescription(Message):
    """`tf.compat.v1.summary.SummaryDescription`: the type hint of a TensorSummary."""
    FULL_NAME = "tensorflow.SummaryDescription"
    FIELDS = (Field(1, "type_hint", "string"),)


class LogMessage(Message):
    """`tf.compat.v1.LogMessage`: a logged line in an event file."""
    FULL_NAME = "tensorflow.LogMessage"
    FIELDS = (Field(1, "level", "enum"), Field(2, "message", "string"))
    UNKNOWN, DEBUGGING, INFO, WARN, ERROR, FATAL = 0, 10, 20, 30, 40, 50


class SessionLog(Message):
    """`tf.compat.v1.SessionLog`: a session started, stopped or checkpointed."""
    FULL_NAME = "tensorflow.SessionLog"
    FIELDS = (Field(1, "status", "enum"), Field(2, "checkpoint_path", "string"),
              Field(3, "msg", "string"))
    STATUS_UNSPECIFIED, START, STOP, CHECKPOINT = 0, 1, 2, 3


class TaggedRunMetadata(Message):
    """`tf.compat.v1.summary.TaggedRunMetadata`: a step's RunMetadata under a tag."""
    FULL_NAME = "tensorflow.TaggedRunMetadata"
    FIELDS = (Field(1, "tag", "string"), Field(2, "run_metadata", "bytes"))


class Event(Message):
    """`tf.compat.v1.Event`: one record of a TensorBoard event file."""
    FULL_NAME = "tensorflow.Event"
    FIELDS = (Field(1, "wall_time", "double"), Field(2, "step", "int64"),
              Field(3, "file_version", "string", oneof="what"),
              Field(4, "graph_def", "bytes", oneof="what"),
              Field(5, "summary", "message", message=Summary, oneof="what"),
              Field(6, "log_message", "message", message=LogMessage, oneof="what"),
              Field(7, "session_log", "message", message=SessionLog, oneof="what"),
              Field(8, "tagged_run_metadata", "message", message=TaggedRunMetadata,
                    oneof="what"),
              Field(9, "meta_graph_def", "bytes", oneof="what"))
