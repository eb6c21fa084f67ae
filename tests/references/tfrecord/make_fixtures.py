"""Writes the TFRecord fixtures of tests/test_tfrecord.py with TensorFlow 2.21 (run it with
TensorFlow's interpreter: /work/tfvenv/bin/python tests/references/tfrecord/make_fixtures.py).

records.tfrecord, records_zlib.tfrecord, records_gzip.tfrecord: the same records (serialized
tf.train.Examples from `examples()`, an empty record, and 10 KiB of bytes) written by
tf.io.TFRecordWriter without compression, with ZLIB and with GZIP. part_a/b/c.tfrecord: small
files for the order of TFRecordDataset(num_parallel_reads=2). expected.json: the records (hex)
and the orders TensorFlow's TFRecordDataset reads them in.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def examples(tf):
    """Examples built the same way with TensorFlow or wengert (`tf` is either)."""
    out = []
    for i in range(6):
        feature = {
            "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i, -i * 1000])),
            "score": tf.train.Feature(float_list=tf.train.FloatList(value=[i / 3, 0.5, -2.0])),
            "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[f"row{i}".encode()])),
            "tokens": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i)))),
        }
        if i % 2:
            feature["odd"] = tf.train.Feature(float_list=tf.train.FloatList(value=[float(i)]))
        out.append(tf.train.Example(features=tf.train.Features(feature=feature)))
    return out


def records(tf):
    serialized = [e.SerializeToString(deterministic=True) for e in examples(tf)]
    return serialized + [b"", bytes(range(256)) * 40]


def main():
    import tensorflow as tf  # noqa: PLC0415 - imported when run, not when the test imports this
    data = records(tf)
    for name, compression in (("records", ""), ("records_zlib", "ZLIB"),
                              ("records_gzip", "GZIP")):
        options = tf.io.TFRecordOptions(compression_type=compression)
        with tf.io.TFRecordWriter(os.path.join(HERE, name + ".tfrecord"), options) as writer:
            for record in data:
                writer.write(record)
    parts = {"part_a": [b"a0", b"a1", b"a2"], "part_b": [b"b0"], "part_c": [b"c0", b"c1",
                                                                           b"c2", b"c3"]}
    for name, items in parts.items():
        with tf.io.TFRecordWriter(os.path.join(HERE, name + ".tfrecord")) as writer:
            for record in items:
                writer.write(record)
    files = [os.path.join(HERE, n + ".tfrecord") for n in parts]
    orders = {str(n): [r.decode() for r in tf.data.TFRecordDataset(
        files, num_parallel_reads=n).as_numpy_iterator()] for n in (1, 2, 3)}
    expected = {"records": [r.hex() for r in data], "interleave": orders,
                "tensorflow": tf.__version__}
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main()
