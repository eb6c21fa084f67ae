"""tf.summary without TensorBoard installed: record framing, encoders, the writer's state rules
(default writer, step, record_if, closing), and summaries in traced functions. Files are read back
here with a small reader; tests/test_summary_tensorboard.py reads them with TensorBoard's own."""
import io
import struct
import time
import wave
import zlib

import numpy as np
import pytest

import wengert as tf
from wengert.summary import encoders, records


def read_records(path):
    """The payloads of a TFRecord file, checking both masked CRCs of every record."""
    data = open(path, "rb").read()
    out, at = [], 0
    while at < len(data):
        header = data[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[at + 8:at + 12])[0] == records.masked_crc32c(header)
        payload = data[at + 12:at + 12 + length]
        assert struct.unpack("<I", data[at + 12 + length:at + 16 + length])[0] == \
            records.masked_crc32c(payload)
        out.append(payload)
        at += 16 + length
    return out


def event_files(logdir):
    return sorted(p for p in logdir.iterdir() if p.name.startswith("events.out.tfevents."))


def test_crc32c_known_values():
    # RFC 3720 (iSCSI) test vectors for CRC32C
    assert records.crc32c(b"") == 0
    assert records.crc32c(b"123456789") == 0xE3069283
    assert records.crc32c(bytes(32)) == 0x8A9136AA
    assert records.crc32c(bytes([0xFF]) * 32) == 0x62A8AB43


def test_file_starts_with_the_version_event(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    writer.close()
    (path,) = event_files(tmp_path)
    assert path.name.endswith(".v2")
    first = read_records(path)[0]
    assert b"brain.Event:2" in first


def test_scalars_are_written_in_order_with_steps(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=3):
        assert bool(tf.summary.scalar("loss", 0.5))
        assert bool(tf.summary.scalar("loss", tf.constant(0.25, tf.float64), step=4))
    payloads = read_records(event_files(tmp_path)[0])
    assert len(payloads) == 3
    assert b"loss" in payloads[1] and b"scalars" in payloads[1]
    assert struct.pack("<f", 0.5) in payloads[1] and struct.pack("<f", 0.25) in payloads[2]


def test_no_writer_writes_nothing_and_says_false():
    assert not bool(tf.summary.scalar("x", 1.0, step=1))
    assert not bool(tf.summary.should_record_summaries())


def test_record_if_and_should_record(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    calls = []
    with writer.as_default(step=0):
        assert bool(tf.summary.should_record_summaries())
        with tf.summary.record_if(False):
            assert not bool(tf.summary.scalar("a", 1.0))
            assert not bool(tf.summary.should_record_summaries())
        with tf.summary.record_if(lambda: calls.append(1) or len(calls) % 2 == 0):
            results = [bool(tf.summary.scalar("b", float(i), step=i)) for i in range(4)]
        with tf.summary.record_if(tf.constant(True)), tf.summary.record_if(True):
            assert bool(tf.summary.scalar("c", 1.0))
    assert results == [False, True, False, True]
    writer.close()
    assert len(read_records(event_files(tmp_path)[0])) == 1 + 2 + 1


def test_missing_step_and_closed_writer_raise(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("a", 1.0)
        tf.summary.experimental.set_step(7)
        assert tf.summary.experimental.get_step() == 7
        assert bool(tf.summary.scalar("a", 1.0))
        tf.summary.experimental.set_step(None)
        with pytest.raises(ValueError, match="expected scalar shape"):
            tf.summary.scalar("a", [1.0, 2.0], step=1)
        with pytest.raises(ValueError, match="rank 4"):
            tf.summary.image("i", np.zeros((2, 2, 3)), step=1)
    writer.close()
    with pytest.raises(RuntimeError, match="already closed"):
        with writer.as_default():
            pass


def test_step_may_be_a_variable(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(5, dtype=tf.int64)
    with writer.as_default(step=step):
        tf.summary.scalar("a", 1.0)
        step.assign_add(1)
        tf.summary.scalar("a", 2.0)
    writer.close()
    payloads = read_records(event_files(tmp_path)[0])
    assert b"\x10\x05" in payloads[1] and b"\x10\x06" in payloads[2]  # Event.step field


def test_background_thread_writes_without_flush(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), flush_millis=50)
    with tf.summary.record_if(True):
        writer.set_as_default(step=1)
        try:
            tf.summary.scalar("a", 1.0)
        finally:
            tf.summary.create_noop_writer().set_as_default()
    path = event_files(tmp_path)[0]
    deadline = time.time() + 10
    while len(read_records(path)) < 2 and time.time() < deadline:
        time.sleep(0.02)
    assert len(read_records(path)) == 2
    writer.close()


def test_encoding_errors_surface_on_the_callers_thread(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    writer.add_event(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        writer.flush()
    writer.close()


# -- encoders ---------------------------------------------------------------------------------------
def test_histogram_buckets_follow_tensorboard():
    rows = encoders.histogram_buckets(np.arange(10.0), 30)
    assert rows.shape == (30, 3) and rows[:, 2].sum() == 10
    assert rows[0, 0] == 0.0 and rows[-1, 1] == 9.0
    np.testing.assert_allclose(rows[:, 1] - rows[:, 0], 0.3)
    assert list(np.nonzero(rows[:, 2])[0]) == [0, 3, 6, 10, 13, 16, 20, 23, 26, 29]
    single = encoders.histogram_buckets(np.full(4, 2.5), 3)
    np.testing.assert_array_equal(single, [[2.5, 2.5, 0], [2.5, 2.5, 0], [2.5, 2.5, 4]])
    np.testing.assert_array_equal(encoders.histogram_buckets(np.zeros(0), 2), np.zeros((2, 3)))
    assert encoders.histogram_buckets(np.ones(3), 0).shape == (0, 3)


def test_images_convert_as_tensorflow():
    floats = np.array([0.0, 0.5, 1.0, 1.2, -0.1, 0.998, 0.999], np.float32)
    np.testing.assert_array_equal(encoders.to_uint8_images(floats),
                                  [0, 127, 255, 255, 0, 254, 255])  # TF 2.21's values
    np.testing.assert_array_equal(encoders.to_uint8_images(np.array([0, 1, 255], np.int32)),
                                  [0, 0, 0])
    np.testing.assert_array_equal(encoders.to_uint8_images(np.array([7], np.uint8)), [7])


def _decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body)
        chunks[kind] = body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    channels = {0: 1, 4: 2, 2: 3, 6: 4}[colour]
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, -1)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, channels)


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_png_round_trips(channels):
    image = np.random.default_rng(channels).integers(0, 256, (5, 7, channels), dtype=np.uint8)
    np.testing.assert_array_equal(_decode_png(encoders.encode_png(image)), image)


def test_png_opens_in_pillow():
    image_module = pytest.importorskip("PIL.Image")
    image = np.random.default_rng(0).integers(0, 256, (4, 6, 3), dtype=np.uint8)
    opened = image_module.open(io.BytesIO(encoders.encode_png(image)))
    np.testing.assert_array_equal(np.asarray(opened), image)


def test_wav_matches_tensorflow_samples():
    samples = np.array([[-1.2], [-1.0], [-0.5], [0.00002], [0.49999], [0.5], [1.0], [1.5], [0.3]])
    data = encoders.encode_wav(samples, 8000)
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 8000)
        pcm = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    np.testing.assert_array_equal(  # tf.audio.encode_wav's values (TF 2.21)
        pcm, [-32768, -32768, -16384, 1, 16384, 16384, 32767, 32767, 9830])


# -- in traced functions and TF 1 graphs ----------------------------------------------------------
def test_summaries_inside_a_traced_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    v = tf.Variable(2.0)
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def f(x):
        y = x * v
        tf.summary.scalar("y", y, step=step)
        step.assign_add(1)
        return y

    with writer.as_default():
        for i in range(3):
            f(tf.constant(float(i)))
        with tf.GradientTape() as tape:  # replayed op by op: the summary is still written
            out = f(tf.constant(5.0))
    assert float(tape.gradient(out, v)) == 5.0
    assert f.experimental_get_tracing_count() == 1
    writer.close()
    payloads = read_records(event_files(tmp_path)[0])[1:]
    assert [struct.pack("<f", value) in p for p, value in zip(payloads, [0, 2, 4, 10])] == \
        [True] * 4


def test_summary_in_a_graph_records_under_a_tensor_condition(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [])
        with writer.as_default(step=1), tf.summary.record_if(x > 0.0):
            op = tf.summary.scalar("x", x)
        with tf.compat.v1.Session() as sess:
            got = [bool(sess.run(op, {x: value})) for value in (1.0, -1.0, 2.0)]
    assert got == [True, False, True]
    writer.close()
    assert len(read_records(event_files(tmp_path)[0])) == 3


def test_file_writer_writes_a_tf1_graph(tmp_path):
    with tf.Graph().as_default() as graph:
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.ones((3, 2), np.float32), name="w")
        tf.nn.relu(tf.matmul(x, w), name="out")
    with tf.compat.v1.summary.FileWriter(str(tmp_path), graph) as fw:
        fw.add_summary(b"", global_step=2)
    payloads = read_records(event_files(tmp_path)[0])
    assert len(payloads) == 3
    assert b"MatMul" in payloads[1] and b"VarHandleOp" in payloads[1]


def test_the_demo_mlp_example_logs_its_run(tmp_path):
    from wengert import demo
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (80, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, 80)
    split = ((images[:64], labels[:64]), (images[64:], labels[64:]))
    demo.load_example("mnist_mlp_keras").main(split=split, epochs=2, verbose=False,
                                              log_dir=str(tmp_path))
    train = b"".join(read_records(event_files(tmp_path / "train")[0]))
    validation = b"".join(read_records(event_files(tmp_path / "validation")[0]))
    for tag in (b"epoch_loss", b"epoch_accuracy"):
        assert tag in train and tag in validation
    assert b"/histogram" in train
