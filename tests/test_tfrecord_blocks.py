"""TFRecord framing read in blocks (ops/io/tfrecords.py `read_record_blocks`) and batches taken
as whole columns (data/tfrecords.py `take_column`): the same records, in the same order, as the
record-at-a-time reading, across buffer boundaries and records longer than the buffer; a damaged
record deep inside a block ends the batches where TensorFlow 2.21 ends them (285 batches of 7
before record 2000, then DataLossError, then the end)."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError
from wengert.ops.io.tfrecords import read_record_blocks, read_records


def _records(seed=1, count=3000, longest=300):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, int(rng.integers(0, longest))).astype(np.uint8).tobytes()
            for _ in range(count)]


def _write(path, records):
    with tf.io.TFRecordWriter(str(path)) as writer:
        for record in records:
            writer.write(record)


def _offset(data, index):
    at = 0
    for _ in range(index):
        at += 16 + int.from_bytes(data[at:at + 8], "little")
    return at


@pytest.mark.parametrize("buffer_size", [None, 100, 4096])
def test_blocks_hold_every_record_in_order(tmp_path, buffer_size):
    records = _records() + [bytes(range(256)) * 3000] + _records(2, 50)
    path = tmp_path / "r.tfrecord"
    _write(path, records)
    blocks = list(read_record_blocks(path, buffer_size=buffer_size))
    assert sum(blocks, []) == records
    assert list(read_records(path, buffer_size=buffer_size)) == records


def test_batches_as_columns_equal_element_batches(tmp_path):
    records = _records(3, 1000)
    path = tmp_path / "r.tfrecord"
    _write(path, records)
    batches = list(tf.data.TFRecordDataset(str(path)).batch(64).as_numpy_iterator())
    assert [len(b) for b in batches] == [64] * 15 + [40]
    assert [r for b in batches for r in b] == records
    assert batches[0].dtype == object
    dropped = list(tf.data.TFRecordDataset(str(path)).batch(64, drop_remainder=True))
    assert len(dropped) == 15 and dropped[0].shape.as_list() == [64]
    two = list(tf.data.TFRecordDataset([str(path)] * 2).batch(600).as_numpy_iterator())
    assert [len(b) for b in two] == [600, 600, 600, 200]
    assert list(np.concatenate(two)) == records * 2


def test_damaged_record_inside_a_block_ends_batches_as_tensorflow(tmp_path):
    path = tmp_path / "r.tfrecord"
    _write(path, _records())
    data = bytearray(path.read_bytes())
    at = _offset(data, 2000)
    data[at + 14] ^= 0xFF
    path.write_bytes(bytes(data))
    iterator = iter(tf.data.TFRecordDataset(str(path)).batch(7))
    batches = 0
    with pytest.raises(DataLossError, match=f"corrupted record at {at} .*checksum of its data"):
        for _ in iterator:
            batches += 1
    assert batches == 285
    with pytest.raises(StopIteration):
        next(iterator)
    good = []
    with pytest.raises(DataLossError):
        for record in read_records(path):
            good.append(record)
    assert len(good) == 2000


def test_damaged_length_inside_a_block(tmp_path):
    path = tmp_path / "r.tfrecord"
    _write(path, _records(4, 500))
    data = bytearray(path.read_bytes())
    at = _offset(data, 321)
    data[at + 9] ^= 0x01
    path.write_bytes(bytes(data))
    seen = []
    with pytest.raises(DataLossError, match=f"corrupted record at {at} .*checksum of its length"):
        for record in tf.data.TFRecordDataset(str(path)).as_numpy_iterator():
            seen.append(record)
    assert len(seen) == 321
