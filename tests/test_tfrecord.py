"""TFRecord files: CRC32C (the optional library and the pure-Python fallback agree), files
TensorFlow 2.21 wrote (tests/references/tfrecord/, made by make_fixtures.py there) read back,
the same records written here equal to TensorFlow's bytes without compression and with ZLIB
and GZIP, TFRecordDataset's file order with num_parallel_reads as TensorFlow's, and damaged
files as DataLossError naming the file and offset."""
import json
import os
import pathlib
import shutil
import sys
import zlib

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from wengert.util import crc32c as crc

HERE = pathlib.Path(__file__).parent / "references" / "tfrecord"
EXPECTED = json.loads((HERE / "expected.json").read_text())
RECORDS = [bytes.fromhex(r) for r in EXPECTED["records"]]
FILES = {"": "records.tfrecord", "ZLIB": "records_zlib.tfrecord", "GZIP": "records_gzip.tfrecord"}
sys.path.insert(0, str(HERE))
from make_fixtures import records as fixture_records  # noqa: E402


# -- CRC32C --------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 9, 255, 16383, 16384, 16385, 70001])
def test_python_crc32c_matches_the_table_and_library(n):
    data = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8).tobytes()
    table = crc._update(0xFFFFFFFF, data) ^ 0xFFFFFFFF
    assert crc.python_crc32c(data) == table == crc.crc32c(data)
    assert crc.unmask(crc.mask(table)) == table


def test_crc32c_known_values():
    assert crc.python_crc32c(b"123456789") == 0xE3069283
    assert crc.crc32c(b"") == 0 and crc.python_crc32c(b"\0" * 32) == 0x8A9136AA
    assert crc.masked_crc32c(b"\0" * 8) == crc.mask(crc.crc32c(b"\0" * 8))


# -- reading TensorFlow's files, writing TensorFlow's bytes ----------------------------------------
def test_the_fixture_records_are_wengert_examples():
    assert fixture_records(tf) == RECORDS


@pytest.mark.parametrize("compression", ["", "ZLIB", "GZIP"])
def test_reads_tensorflows_files(compression):
    path = str(HERE / FILES[compression])
    ds = tf.data.TFRecordDataset(path, compression_type=compression)
    assert list(ds.as_numpy_iterator()) == RECORDS
    assert list(tf.compat.v1.io.tf_record_iterator(path, tf.io.TFRecordOptions(compression)))\
        == RECORDS
    parsed = tf.train.Example.FromString(RECORDS[3])
    assert parsed.features.feature["name"].bytes_list.value == [b"row3"]


@pytest.mark.parametrize("compression", ["", "ZLIB", "GZIP"])
def test_writes_tensorflows_bytes(compression, tmp_path):
    path = tmp_path / "out.tfrecord"
    with tf.io.TFRecordWriter(str(path), tf.io.TFRecordOptions(compression_type=compression)) as w:
        for i, record in enumerate(RECORDS):
            w.write(record if i % 2 else tf.constant(record))
            w.flush()
    assert path.read_bytes() == (HERE / FILES[compression]).read_bytes()


@pytest.mark.parametrize("cycle", ["1", "2", "3"])
def test_interleaved_files_in_tensorflows_order(cycle):
    files = [str(HERE / f"part_{c}.tfrecord") for c in "abc"]
    ds = tf.data.TFRecordDataset(files, num_parallel_reads=int(cycle))
    assert [r.decode() for r in ds.as_numpy_iterator()] == EXPECTED["interleave"][cycle]
    names = tf.data.Dataset.from_tensor_slices(files)
    again = tf.data.TFRecordDataset(names, num_parallel_reads=int(cycle), buffer_size=16)
    assert [r.decode() for r in again.as_numpy_iterator()] == EXPECTED["interleave"][cycle]


def test_dataset_spec_and_pipeline():
    ds = tf.data.TFRecordDataset([str(HERE / FILES[""])])
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    lengths = ds.map(lambda r: tf.strings.length(r)).batch(4)
    assert [list(b.numpy()) for b in lengths] == [[len(r) for r in RECORDS[:4]],
                                                 [len(r) for r in RECORDS[4:]]]


# -- options and errors ----------------------------------------------------------------------------
def test_options_and_writer_errors(tmp_path):
    assert tf.io.TFRecordOptions.get_compression_type_string("gzip") == "GZIP"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert tf.io.TFRecordOptions(tf.compat.v1.io.TFRecordCompressionType.ZLIB)\
        .compression_type == "ZLIB"
    with pytest.raises(InvalidArgumentError, match="compression_type"):
        tf.io.TFRecordOptions("BZIP2")
    with pytest.raises(NotFoundError, match="directory"):
        tf.io.TFRecordWriter(str(tmp_path / "no" / "x.tfrecord"))
    writer = tf.io.TFRecordWriter(str(tmp_path / "x.tfrecord"), "ZLIB")
    writer.write("text")
    with pytest.raises(TypeError, match="byte string"):
        writer.write(3)
    writer.close()
    with pytest.raises(ValueError, match="closed"):
        writer.write(b"late")
    assert list(tf.data.TFRecordDataset(str(tmp_path / "x.tfrecord"), "ZLIB")
                .as_numpy_iterator()) == [b"text"]
    with pytest.raises(NotFoundError, match="no such file"):
        list(tf.data.TFRecordDataset(str(tmp_path / "missing.tfrecord")))


def test_sync_flush_and_compression_settings(tmp_path):
    path = tmp_path / "s.tfrecord"
    options = tf.io.TFRecordOptions("GZIP", flush_mode=zlib.Z_SYNC_FLUSH, compression_level=9,
                                    mem_level=8, window_bits=12, input_buffer_size=64,
                                    output_buffer_size=64, compression_strategy=0)
    with tf.io.TFRecordWriter(str(path), options) as w:
        w.write(b"x" * 1000)
        w.flush()
        assert len(zlib.decompressobj(31).decompress(path.read_bytes())) == 1016
        w.write(b"y")
    assert list(tf.compat.v1.io.tf_record_iterator(str(path), options)) == [b"x" * 1000, b"y"]


def _damaged(tmp_path, edit):
    data = bytearray((HERE / FILES[""]).read_bytes())
    edit(data)
    path = tmp_path / "damaged.tfrecord"
    path.write_bytes(bytes(data))
    return str(path)


def test_corrupted_data_names_file_and_offset(tmp_path):
    first = 16 + len(RECORDS[0])
    path = _damaged(tmp_path, lambda d: d.__setitem__(first + 20, d[first + 20] ^ 1))
    it = iter(tf.data.TFRecordDataset(path))
    assert next(it).numpy() == RECORDS[0]
    with pytest.raises(DataLossError, match=f"corrupted record at {first} in '.*damaged"):
        next(it)


def test_corrupted_length_and_truncation(tmp_path):
    path = _damaged(tmp_path, lambda d: d.__setitem__(2, 7))
    with pytest.raises(DataLossError, match="corrupted record at 0.*checksum of its length"):
        list(tf.compat.v1.io.tf_record_iterator(path))
    size = len((HERE / FILES[""]).read_bytes())
    for cut in (size - 3, size - 4 - len(RECORDS[-1]) - 10, 5):
        path = _damaged(tmp_path, lambda d, cut=cut: d.__delitem__(slice(cut, None)))
        with pytest.raises(DataLossError, match="truncated record"):
            list(tf.data.TFRecordDataset(path).as_numpy_iterator())


def test_compressed_file_read_as_another_compression(tmp_path):
    path = str(tmp_path / "g.tfrecord")
    shutil.copy(HERE / FILES["GZIP"], path)
    with pytest.raises(DataLossError, match="compression_type"):
        list(tf.data.TFRecordDataset(path, compression_type="ZLIB"))
    with pytest.raises(DataLossError):
        list(tf.data.TFRecordDataset(path))
    assert os.path.exists(path)


@pytest.mark.parametrize("compression", ["GZIP", "ZLIB"])
def test_concatenated_compressed_files_read_whole(compression, tmp_path):
    """`cat a.gz b.gz`: TensorFlow reads every stream's records (checked with TF 2.21); the
    reader used to stop silently at the end of the first."""
    options = tf.io.TFRecordOptions(compression_type=compression)
    parts = []
    for name, records in (("a", [b"a1", b"a2"]), ("b", [b"b1"])):
        path = str(tmp_path / name)
        with tf.io.TFRecordWriter(path, options) as writer:
            for record in records:
                writer.write(record)
        parts.append(pathlib.Path(path).read_bytes())
    joined = tmp_path / "joined"
    joined.write_bytes(b"".join(parts))
    got = [r.numpy() for r in tf.data.TFRecordDataset(str(joined), compression_type=compression)]
    assert got == [b"a1", b"a2", b"b1"]
    joined.write_bytes(b"".join(parts) + b"junk")
    with pytest.raises(DataLossError, match="not a valid compressed TFRecord file"):
        list(tf.data.TFRecordDataset(str(joined), compression_type=compression))
