"""tf.compat.v1.summary.FileWriter's add_session_log, add_run_metadata and add_meta_graph write
the Event records TensorFlow 2.21 writes: the expected bytes below are TensorFlow's
`event_pb2.Event(...).SerializeToString()` for the same fields at wall time 1.25."""
import glob

import pytest

import wengert.compat.v1 as tf
from wengert.framework.protos.meta_graph import MetaGraphDef
from wengert.summary import v1 as summary_v1
from wengert.ops.io.tfrecords import tf_record_iterator

TF_SESSION_LOG = "09000000000000f43f10073a110803120d2f746d702f6d2e636b70742d37"
TF_RUN_METADATA = "09000000000000f43f100342070a057374657033"
TF_META_GRAPH = "09000000000000f43f4a090a0722057365727665"


@pytest.fixture
def writer(tmp_path, monkeypatch):
    monkeypatch.setattr(summary_v1.time, "time", lambda: 1.25)
    w = tf.summary.FileWriter(str(tmp_path))
    yield w
    w.close()


def _records(logdir):
    (path,) = glob.glob(f"{logdir}/events.out.tfevents.*")
    return list(tf_record_iterator(path))[1:]  # after the file_version record


def test_session_log_run_metadata_and_meta_graph_are_tensorflows_events(writer):
    log = tf.SessionLog(status=tf.SessionLog.CHECKPOINT, checkpoint_path="/tmp/m.ckpt-7")
    writer.add_session_log(log, global_step=7)
    writer.add_run_metadata(tf.RunMetadata(), "step3", global_step=3)
    meta = MetaGraphDef()
    meta.meta_info_def.tags.append("serve")
    writer.add_meta_graph(meta)
    writer.flush()
    assert [r.hex() for r in _records(writer.get_logdir())] == [
        TF_SESSION_LOG, TF_RUN_METADATA, TF_META_GRAPH]


def test_a_run_metadata_tag_is_written_once(writer):
    writer.add_run_metadata(tf.RunMetadata(), "a")
    with pytest.raises(ValueError, match="already used for this event type"):
        writer.add_run_metadata(tf.RunMetadata(), "a")
    writer.flush()
    assert len(_records(writer.get_logdir())) == 1


def test_add_meta_graph_refuses_what_is_not_a_meta_graph_def(writer):
    with pytest.raises(TypeError, match="meta_graph_def must be type MetaGraphDef, saw type"):
        writer.add_meta_graph({})
    writer.flush()
    assert _records(writer.get_logdir()) == []
