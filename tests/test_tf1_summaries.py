"""tf.compat.v1.summary: the summary ops of a TensorFlow 1 graph give the bytes TensorFlow 2.21
gives (its serialized Summary protos are stored below), images the same pixels, and
`FileWriter.add_summary(sess.run(merged), step)` writes events TensorBoard reads."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.framework.protos.summary import Event, Summary

# What TensorFlow 2.21 returned for the summaries built in `_graph` (tests/test_tf1_summaries.py
# builds the same graph in both), fed FEED; the PNG bytes differ (another compressor), so the
# image is compared by its pixels below.
TF_BYTES = {
    "s": "0a110a0a6f757465722f6c6f73731555551540",
    "h": "0aa7010a01682aa10109000000000000f03f110000000000001040190000000000000840210000000000001c40290000000000003540323808996919155aed3f2b14facdbe24f03fdc94cd2e8d75ff3fe011f10c744d014081444bf80ba70e407b32f62ee0db1040ffffffffffffef7f3a380000000000000000000000000000f03f0000000000000000000000000000f03f0000000000000000000000000000f03f0000000000000000",
    "a": "0a580a0a61752f617564696f2f30324a0d0000fa45100118042234524946462c00000057415645666d74201000000001000100401f0000803e00000200100064617461080000000000004000c0ff7f2a09617564696f2f776176",
    "t": "0a1b0a027478420b08071200420568656c6c6f4a080a060a0474657874",
    "ts": "0a1e0a02747342160801120412020803220c0000803f00000040000080404a00",
    "m2": "0a110a0a6f757465722f6c6f737315555515400aa7010a01682aa10109000000000000f03f110000000000001040190000000000000840210000000000001c40290000000000003540323808996919155aed3f2b14facdbe24f03fdc94cd2e8d75ff3fe011f10c744d014081444bf80ba70e407b32f62ee0db1040ffffffffffffef7f3a380000000000000000000000000000f03f0000000000000000000000000000f03f0000000000000000000000000000f03f0000000000000000",
}
TF_IMAGE_TAG_AND_PIXELS = ("im/image", [0, 51, 102, 153, 204, 255])
# TensorFlow's pixels for images with negative values (scaled by 127 / max|x|, offset 128) and
# without (scaled by 255 / max), rng = np.random.default_rng(3), as in test_image_scaling.
TF_SCALED_PIXELS = {
    "x/image/0": [206, 30, 143, 106, 110, 119, 50, 119, 94, 255, 136, 114, 117, 102, 87, 113, 146, 118, 164, 120, 128, 187, 148, 108, 121, 148, 201, 117, 118, 166, 94, 116, 161, 150, 131, 153],
    "x/image/1": [1, 173, 84, 53, 140, 159, 108, 79, 129, 125, 191, 161, 136, 177, 118, 86, 154, 154, 118, 92, 138, 16, 158, 150, 54, 130, 84, 162, 36, 86, 159, 179, 31, 105, 142, 100],
    "x_1/image/0": [97, 22, 51, 56, 226, 33, 78, 130, 224, 255],
}
FEED_X, FEED_AUDIO = [1., 2., 4.], [[0., .5, -.5, 1.]]
FEED_IMAGE = np.linspace(0, 1, 12).reshape(2, 2, 3, 1)


def _graph():
    x = v1.placeholder(tf.float32, [None])
    img = v1.placeholder(tf.float32, [2, 2, 3, 1])
    aud = v1.placeholder(tf.float32, [1, 4])
    with tf.name_scope("outer"):
        s = v1.summary.scalar("loss", tf.reduce_mean(x))
    ops = {"s": s, "h": v1.summary.histogram("h", x),
           "i": v1.summary.image("im", img, max_outputs=1),
           "a": v1.summary.audio("au", aud, 8000), "t": v1.summary.text("tx", tf.constant("hello")),
           "ts": v1.summary.tensor_summary("ts", x)}
    ops["m2"] = v1.summary.merge([ops["s"], ops["h"]])
    return {x: FEED_X, img: FEED_IMAGE, aud: FEED_AUDIO}, ops


def _png_pixels(encoded):
    return tf.io.decode_png(encoded).numpy().reshape(-1).tolist()


def test_summaries_are_tensorflows_bytes():
    graph = tf.Graph()
    with graph.as_default():
        feed, ops = _graph()
        assert [t.name for t in v1.get_collection(v1.GraphKeys.SUMMARIES)] == [
            "outer/loss:0", "h:0", "im:0", "au:0", "tx:0", "ts:0"]
        assert [ops[k].op.type for k in ("s", "h", "i", "a", "t", "m2")] == [
            "ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummaryV2",
            "TensorSummaryV2", "MergeSummary"]
        assert ops["m2"].name == "Merge/MergeSummary:0"
        with v1.Session() as sess:
            got = sess.run(ops, feed)
    for key, expected in TF_BYTES.items():
        assert got[key].hex() == expected, key
    (value,) = Summary.FromString(got["i"]).value
    assert (value.tag, _png_pixels(value.image.encoded_image_string)) == TF_IMAGE_TAG_AND_PIXELS
    assert (value.image.height, value.image.width, value.image.colorspace) == (2, 3, 1)


def test_image_scaling():
    rng = np.random.default_rng(3)
    signed = rng.standard_normal((2, 3, 4, 3)).astype(np.float32)
    positive = rng.uniform(0, 0.7, (1, 2, 5, 1)).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default():
        ops = [v1.summary.image("x", arr, max_outputs=2) for arr in (signed, positive)]
        with v1.Session() as sess:
            values = [v for o in ops for v in Summary.FromString(sess.run(o)).value]
    got = {v.tag: _png_pixels(v.image.encoded_image_string) for v in values}
    assert got == TF_SCALED_PIXELS


def test_eager_summaries_are_tensors_of_the_same_bytes():
    serialized = v1.summary.scalar("loss", tf.constant(2.5))
    assert Summary.FromString(serialized.numpy()).value[0].simple_value == 2.5
    histo = Summary.FromString(v1.summary.histogram("h", FEED_X).numpy()).value[0].histo
    assert (histo.num, histo.sum, histo.sum_squares) == (3., 7., 21.)


def test_file_writer_writes_merged_summaries_each_step(tmp_path):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [])
        v1.summary.scalar("x", x)
        v1.summary.scalar("twice", 2 * x, family="train")
        merged = v1.summary.merge_all()
        writer = v1.summary.FileWriter(str(tmp_path), graph)
        with v1.Session() as sess:
            for step in range(3):
                writer.add_summary(sess.run(merged, {x: float(step)}), step)
        writer.close()
    (path,) = tmp_path.iterdir()
    events = [Event.FromString(r.numpy()) for r in tf.data.TFRecordDataset(str(path))]
    assert events[0].file_version == "brain.Event:2" and events[1].HasField("graph_def")
    written = [(e.step, [(v.tag, v.simple_value) for v in e.summary.value])
               for e in events if e.HasField("summary")]
    assert written == [(s, [("x", float(s)), ("train/train/twice", 2. * s)]) for s in range(3)]


def test_merge_all_of_nothing_is_none_and_bad_input_is_refused():
    graph = tf.Graph()
    with graph.as_default():
        assert v1.summary.merge_all() is None
        with pytest.raises(ValueError, match="must be a scalar"):
            v1.summary.scalar("s", tf.zeros([2]))
        with pytest.raises(ValueError, match="to have dtype string"):
            v1.summary.text("t", tf.zeros([]))
        twice = v1.summary.merge([v1.summary.scalar("a", 1.), v1.summary.scalar("a", 2.)])
        with v1.Session() as sess:
            assert [v.tag for v in Summary.FromString(sess.run(twice)).value] == ["a", "a_1"]
        same = v1.summary.scalar("same", 1.)
        with v1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="Duplicate tag same found"):
            sess.run(v1.summary.merge([same, same]))
        cut = tf.constant(bytes.fromhex("0a110a0a6f757465722f6c6f737315"))  # "s", cut short
        with v1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="Could not parse one of the summary"):
            sess.run(v1.summary.merge([cut]))
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        v1.summary.merge([v1.summary.scalar("a", 1.)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram"):
        v1.summary.histogram("h", [1., np.nan])


def test_non_finite_pixels_are_painted_red():
    image = np.array([[[[0.5, 0.5, 0.5], [np.nan, 0., 1.]]]], np.float32)
    (value,) = Summary.FromString(v1.summary.image("bad", image).numpy()).value
    assert _png_pixels(value.image.encoded_image_string) == [255, 255, 255, 255, 0, 0]  # TF's
    raw = tf.raw_ops.ImageSummary(tag="bad", tensor=image, bad_color=[0, 0, 255, 255])
    (value,) = Summary.FromString(raw.numpy()).value
    assert _png_pixels(value.image.encoded_image_string)[3:] == [0, 0, 255]
