"""tf.data.experimental's other sources and sinks: SqlDataset over sqlite, TFRecordWriter
(byte-equal to the file TensorFlow 2.21 wrote for the same dataset, kept here as a fixture),
DatasetInitializer, prefetch_to_device and copy_to_device."""
import sqlite3

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError, OpError

# tf.data.experimental.TFRecordWriter(path).write(Dataset.from_tensor_slices(["a", "bc"])),
# TensorFlow 2.21
TF_RECORDS = bytes.fromhex("01000000000000000175de4161786ee428020000000000000078270b3462633433"
                           "dba7")


@pytest.fixture
def people(tmp_path):
    path = str(tmp_path / "p.db")
    with sqlite3.connect(path) as db:
        db.execute("create table people (name text, age integer, h real)")
        db.executemany("insert into people values (?,?,?)", [("ann", 31, 1.5), ("bob", 42, 1.75)])
    return path


def test_sql_dataset(people):
    ds = tf.data.experimental.SqlDataset("sqlite", people, "SELECT name, age, h FROM people",
                                         (tf.string, tf.int32, tf.float64))
    assert ds.element_spec == (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32),
                               tf.TensorSpec([], tf.float64))
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert list(ds.as_numpy_iterator()) == [(b"ann", 31, 1.5), (b"bob", 42, 1.75)]
    ages = tf.data.experimental.SqlDataset("sqlite", people, "SELECT age FROM people", tf.int64)
    assert ages.element_spec == tf.TensorSpec([], tf.int64)
    assert list(ages.as_numpy_iterator()) == [31, 42]


def test_sql_dataset_errors(people):
    with pytest.raises(InvalidArgumentError, match="The database type, mysql, is not supported"):
        tf.data.experimental.SqlDataset("mysql", people, "SELECT age FROM people", tf.int64)
    wrong = tf.data.experimental.SqlDataset("sqlite", people, "SELECT age, name FROM people",
                                            (tf.int64,))
    with pytest.raises(InvalidArgumentError, match=r"number of columns in query \(2\) must "
                       r"match the number of elements in output_types \(1\)"):
        next(iter(wrong))
    bad = tf.data.experimental.SqlDataset("sqlite", people, "SELECT nope FROM people", tf.int64)
    with pytest.raises(OpError, match="no such column: nope"):
        next(iter(bad))


def test_tfrecord_writer_matches_tensorflow(tmp_path):
    path = str(tmp_path / "w.tfrecord")
    writer = tf.data.experimental.TFRecordWriter(path)
    assert writer.write(tf.data.Dataset.from_tensor_slices(["a", "bc"])) is None
    with open(path, "rb") as f:
        assert f.read() == TF_RECORDS
    zipped = str(tmp_path / "w.gz")
    tf.data.experimental.TFRecordWriter(zipped, "GZIP").write(
        tf.data.Dataset.from_tensor_slices(["x", "yz"]))
    back = tf.data.TFRecordDataset(zipped, compression_type="GZIP")
    assert list(back.as_numpy_iterator()) == [b"x", b"yz"]
    with pytest.raises(TypeError, match="scalar tf.string"):
        writer.write(tf.data.Dataset.range(3))


def test_dataset_initializer_and_device_moves():
    pairs = tf.data.Dataset.from_tensor_slices((["a", "b"], np.array([3, 4], np.int64)))
    table = tf.lookup.StaticHashTable(tf.data.experimental.DatasetInitializer(pairs),
                                      np.int64(-1))
    assert table.lookup(tf.constant(["b", "q"])).numpy().tolist() == [4, -1]
    exp = tf.data.experimental
    ds = tf.data.Dataset.range(3).apply(exp.prefetch_to_device("/gpu:0", 2))
    assert list(ds.as_numpy_iterator()) == [0, 1, 2]
    assert list(tf.data.Dataset.range(2).apply(exp.copy_to_device("/cpu:0"))
                .as_numpy_iterator()) == [0, 1]
    with pytest.raises(TypeError, match="device name"):
        exp.copy_to_device(3)
    assert exp.enable_debug_mode() is None


def test_get_next_as_optional_with_experimental_optional():
    it = iter(tf.data.Dataset.range(5, 6))
    first = it.get_next_as_optional()
    assert isinstance(first, tf.experimental.Optional)
    assert bool(first.has_value()) and int(first.get_value()) == 5
    assert first.element_spec == tf.TensorSpec([], tf.int64)
    empty = it.get_next_as_optional()
    assert not bool(empty.has_value())
    with pytest.raises(InvalidArgumentError, match="no value"):
        empty.get_value()
    assert int(tf.experimental.Optional.from_value(3).get_value()) == 3
    assert not bool(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).has_value())
