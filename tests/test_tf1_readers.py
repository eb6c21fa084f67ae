"""TensorFlow 1's readers (TextLineReader, TFRecordReader, WholeFileReader,
FixedLengthRecordReader, IdentityReader) reading files named in a queue, compared with
TensorFlow 2.21's `tf.compat.v1` running the same programs (tf1_scenarios.py): op types and
names, the keys and values read, the counts, reset, the end of the input, and a whole
string_input_producer + reader + decode_csv + batch pipeline under a Coordinator."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

FILES = '''
import os, tempfile
folder = tempfile.mkdtemp()
def path(name):
    return os.path.join(folder, name)
with open(path("a.csv"), "w") as f:
    f.write("h1,h2\\n1,2\\r\\n\\n3,4\\n5,6")
with open(path("b.csv"), "w") as f:
    f.write("7,8\\n")
with open(path("c.csv"), "w") as f:
    f.write("x,y\\n1,2\\n3,4\\n5,6\\n")
with tf.io.TFRecordWriter(path("r.tfr")) as w:
    for record in (b"abc", b"", b"hello"):
        w.write(record)
with open(path("f.bin"), "wb") as f:
    f.write(bytes(range(20)))

def records(reader, files, up_to=None, limit=8):
    """What `reader` reads from a closed queue of `files`, with the counts and a reset."""
    queue = tf.FIFOQueue(10, tf.string, shapes=[[]])
    key, value = reader.read_up_to(queue, up_to) if up_to else reader.read(queue)
    got = [reader.reader_ref.op.type, reader.reader_ref.op.name, str(reader.supports_serialize),
           key.op.type, str(key.shape)]
    with tf.Session() as sess:
        sess.run(queue.enqueue_many([[path(f) for f in files]]))
        sess.run(queue.close())
        try:
            for _ in range(limit):
                k, v = sess.run([key, value])
                got.append(repr((k, v)).replace(repr(folder)[1:-1], "D"))
        except tf.errors.OutOfRangeError:
            got.append("OutOfRangeError")
        got.append(str(sess.run([reader.num_records_produced(),
                                 reader.num_work_units_completed()])))
        sess.run(reader.reset())
        got.append(str(sess.run(reader.num_records_produced())))
    return got
'''

SCENARIOS = {name: FILES + body for name, body in {
    "text_lines": '''
out["header"] = records(tf.TextLineReader(skip_header_lines=1), ["a.csv", "b.csv"])
out["up_to"] = records(tf.TextLineReader(name="lines"), ["a.csv", "b.csv"], up_to=3)
''',
    "tfrecords_whole_files": '''
out["tfrecords"] = records(tf.TFRecordReader(), ["r.tfr"])
out["whole"] = records(tf.WholeFileReader(), ["b.csv", "f.bin"])
out["identity"] = records(tf.IdentityReader(), ["x", "y"])
''',
    "fixed_length": '''
out["header_footer"] = records(tf.FixedLengthRecordReader(6, header_bytes=2, footer_bytes=1),
                               ["f.bin"])
out["hops"] = records(tf.FixedLengthRecordReader(4, hop_bytes=3), ["f.bin"])
out["up_to"] = records(tf.FixedLengthRecordReader(5), ["f.bin"], up_to=3)
''',
    "csv_pipeline": '''
files = tf.train.string_input_producer([path("c.csv"), path("c.csv")], num_epochs=2,
                                       shuffle=False)
key, line = tf.TextLineReader(skip_header_lines=1).read(files)
first, second = tf.decode_csv(line, record_defaults=[[0.0], [-1.0]])
batch = tf.train.batch([first, second], batch_size=3, allow_smaller_final_batch=True)
rows = []
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    try:
        while True:
            rows.append(sess.run(batch, options=tf.RunOptions(timeout_in_ms=5000)))
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
        coord.join(threads)
out["firsts"] = [r[0].tolist() for r in rows]
out["seconds"] = [r[1].tolist() for r in rows]
''',
}.items()}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_reader_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_readers_refuse_eager_execution_and_serializing():
    with pytest.raises(RuntimeError, match="not supported when eager execution"):
        v1.TextLineReader()
    v1.disable_eager_execution()
    try:
        with tf.Graph().as_default():
            reader = v1.WholeFileReader()
            with pytest.raises(tf.errors.UnimplementedError, match="serialize"):
                reader.serialize_state()
            with pytest.raises(TypeError, match="must be a queue"):
                reader.read("files.txt")
            with pytest.raises(ValueError, match="encoding"):
                v1.FixedLengthRecordReader(4, encoding="BZ2")
    finally:
        v1.enable_eager_execution()
