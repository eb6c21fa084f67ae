"""`tf.compat.v1.train.summary_iterator`: the Event protocol buffers of a TensorBoard event file,
in the order they were written.

An event file is a TFRecord file whose records are serialized `tensorflow.Event` messages (the
file's version record first, then summaries, graphs, session logs); each record is read and
checked by the TFRecord reader (its length and data CRCs) and decoded by the Event codec of
framework/protos/summary.py. A damaged file raises DataLossError at the damaged record.
"""
from ..framework.protos.summary import Event
from ..ops.io.tfrecords import tf_record_iterator

__all__ = ["summary_iterator"]


def summary_iterator(path):
    """Yield each Event of the event file at `path`."""
    for record in tf_record_iterator(path):
        yield Event.FromString(record)
