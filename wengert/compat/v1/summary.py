"""`wengert.compat.v1.summary`: TensorFlow 1's summary ops and FileWriter
(wengert/summary/v1.py), the event-file messages (Event, Summary, SessionLog,
TaggedRunMetadata, SummaryDescription) and the helpers of wengert/summary/v1_helpers.py."""
from ...framework.protos.summary import (Event, SessionLog, Summary, SummaryDescription,
                                         TaggedRunMetadata)
from ...summary.v1 import (FileWriter, audio, histogram, image, merge, merge_all, scalar,
                           tensor_summary, text)
from ...summary.v1_helpers import (FileWriterCache, all_v2_summary_ops, get_summary_description,
                                   initialize)

__all__ = ["Event", "FileWriter", "FileWriterCache", "SessionLog", "Summary",
           "SummaryDescription", "TaggedRunMetadata", "all_v2_summary_ops", "audio",
           "get_summary_description", "histogram", "image", "initialize", "merge", "merge_all",
           "scalar", "tensor_summary", "text"]
