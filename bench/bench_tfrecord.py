"""Reading and parsing 100,000 tf.train.Example records from a TFRecord file into batches of 256
(issue 29): wengert's `tf.data` pipeline against TensorFlow 2.21's.

    python bench/bench_tfrecord.py [rounds] [--records N] [--only NAME ...]

Workload: one TFRecord file of N Examples (100,000 by default), written once by this script in
a temporary directory before the contenders start; each Example holds `x` (10 float32), `label`
(one int64) and `name` (one string), values from one seeded NumPy generator. A round is one
pass of

    tf.data.TFRecordDataset(path).batch(256).map(lambda s: tf.io.parse_example(s, spec))

with spec FixedLenFeature([10], float32), FixedLenFeature([], int64), FixedLenFeature([],
string), every batch taken to the Python loop (file reading, both CRC checks per record,
parsing and batching included). Contenders: wengert, $WENGERT_PYTHON (this interpreter), and
tensorflow, $TF_PYTHON (/work/tfvenv). Protocol (bench/README.md, harness.py): each contender
in a fresh process with its framework's default threading; rounds interleave; every round's
figure, per-round ratios and medians are printed. Goal (issue 29): wengert at least as fast as
TensorFlow.
"""
import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

CONTENDERS = [("wengert", "wengert", "setup_wengert", {}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {})]
PAIRS = [("wengert", "tensorflow")]
BATCH = 256


def write_file(path, records):
    """The benchmark's TFRecord file of `records` Examples, written with wengert."""
    import wengert as tf
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((records, 10), dtype=np.float32)
    labels = rng.integers(0, 10, records)
    F = tf.train.Feature
    with tf.io.TFRecordWriter(path) as writer:
        for i in range(records):
            feature = {"x": F(float_list=tf.train.FloatList(value=xs[i].tolist())),
                       "label": F(int64_list=tf.train.Int64List(value=[int(labels[i])])),
                       "name": F(bytes_list=tf.train.BytesList(value=[b"item%d" % i]))}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature))
                         .SerializeToString())


def _workloads(tf, path, records):
    spec = {"x": tf.io.FixedLenFeature([10], tf.float32),
            "label": tf.io.FixedLenFeature([], tf.int64),
            "name": tf.io.FixedLenFeature([], tf.string)}

    def read():
        dataset = tf.data.TFRecordDataset(path).batch(BATCH).map(
            lambda s: tf.io.parse_example(s, spec))
        rows = 0
        for batch in dataset:
            rows += int(batch["x"].shape[0])
        if rows != records:
            raise RuntimeError(f"bench_tfrecord: read {rows} records of {records}")
    read()
    return {"read": read}


def setup_wengert(path, records):
    import wengert as tf
    return _workloads(tf, path, records)


def setup_tensorflow(path, records):
    import tensorflow as tf
    return _workloads(tf, path, records)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_tfrecord: {args.records} Examples in batches of {BATCH}, "
                   f"{args.rounds} interleaved rounds")
    folder = tempfile.mkdtemp(prefix="bench_tfrecord_")
    try:
        path = os.path.join(folder, "examples.tfrecord")
        write_file(path, args.records)
        specs = [(name, framework, setup, {**extra, "path": path, "records": args.records})
                 for name, framework, setup, extra in CONTENDERS]
        workers = harness.start_all("bench_tfrecord", specs, args.only, number=1,
                                    pause_gc=False)
        try:
            result = harness.run_rounds(workers, "read", args.rounds)
        finally:
            harness.close_all(workers)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    harness.report_rounds(f"read and parse {args.records} Examples from a TFRecord file in "
                          f"batches of {BATCH}", result, PAIRS, ["wengert <= 1.0x tensorflow"])


if __name__ == "__main__":
    main()
