"""The fast paths of reading TFRecords of tf.train.Examples give what the generic paths give:
the Example reader for the usual layout (framework/protos/example_wire.py) and the batch read as
columns (example_layout.py) against the generic protobuf decoder (example_parsing.FAST off) on
records in the usual layout and in every other layout protobuf allows (unpacked numbers, lists split over fields, entries in another order,
long lengths, negative int64s, repeated keys), values checked against NumPy; the NumPy varint
decoder against wire.py's; and the TFRecord framing checks with the optional CRC32C library and
with the pure-Python fallback forced."""
import pathlib

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, InvalidArgumentError
from wengert.framework.protos import example_layout, example_wire, wire
from wengert.ops.io import example_parsing
from wengert.util import crc32c as crc

FIXTURE = pathlib.Path(__file__).parent / "references" / "tfrecord" / "records.tfrecord"


def _example(**features):
    """A serialized Example: a list is bytes, an int64 array int64s, another array floats."""
    feature = {}
    for key, value in features.items():
        if value is None:
            feature[key] = tf.train.Feature()
        elif isinstance(value, list):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=value))
        elif isinstance(value, np.ndarray) and value.dtype == np.int64:
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=value.tolist()))
        else:
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=list(value)))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


def _len(number, payload):
    return wire.field_bytes(number, payload)


def _entry(key, feature):
    return _len(1, _len(1, key) + _len(2, feature))


def _unusual():
    """Records in layouts the fast reader leaves to the generic decoder, with their values."""
    floats = np.array([1.5, -2.0, 0.25], np.float32)
    unpacked = b"".join(b"\x0d" + np.float32(v).tobytes() for v in floats)
    split = _len(1, floats[:1].tobytes()) + _len(1, floats[1:].tobytes())
    ints = b"\x08\x07\x08" + wire.varint(2 ** 64 - 5)
    value_first = _len(1, _len(2, _len(2, _len(1, floats.tobytes()))) + _len(1, b"f"))
    records = [
        _len(1, _entry(b"f", _len(2, unpacked)) + _entry(b"i", _len(3, ints))),
        _len(1, _entry(b"f", _len(2, split))) + _len(1, _entry(b"i", _len(3, ints))),
        _len(1, value_first + _entry(b"i", _len(3, ints))),
        _len(1, _entry(b"f", _len(2, b"")) + _entry(b"f", _len(2, _len(1, floats.tobytes())))
             + _entry(b"i", _len(3, _len(1, b"\x07" + wire.varint(2 ** 64 - 5))))),
    ]
    return records, floats, np.array([7, -5], np.int64)


def _parse_both(records, features):
    out = []
    for fast in (True, False):
        example_parsing.FAST = fast
        try:
            out.append(tf.io.parse_example(tf.constant(records, dtype=tf.string), features))
        finally:
            example_parsing.FAST = True
    return out


def _assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], tf.SparseTensor):
            for part in ("indices", "values", "dense_shape"):
                np.testing.assert_array_equal(getattr(a[key], part).numpy(),
                                              getattr(b[key], part).numpy())
        else:
            assert a[key].dtype == b[key].dtype
            np.testing.assert_array_equal(a[key].numpy(), b[key].numpy())


def _records(n, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        out.append(_example(x=rng.standard_normal(40).astype(np.float32),
                            label=np.array([rng.integers(-2 ** 63, 2 ** 63)], np.int64),
                            small=np.array([i % 100], np.int64),
                            name=[("n" * int(rng.integers(0, 300))).encode()],
                            tags=[b"a", b"bc"][:i % 3]))
    return out


FEATURES = {"x": tf.io.FixedLenFeature([4, 10], tf.float32),
            "label": tf.io.FixedLenFeature([], tf.int64),
            "small": tf.io.FixedLenFeature([1], tf.int64),
            "name": tf.io.FixedLenFeature([], tf.string),
            "tags": tf.io.VarLenFeature(tf.string),
            "missing": tf.io.FixedLenFeature([2], tf.float32, default_value=[3.0, 4.0])}


def test_usual_layout_parses_the_same_on_both_paths_and_as_numpy():
    records = _records(40, 0)
    fast, generic = _parse_both(records, FEATURES)
    _assert_same(fast, generic)
    rng = np.random.default_rng(0)
    for i in range(3):
        x = rng.standard_normal(40).astype(np.float32)
        label = rng.integers(-2 ** 63, 2 ** 63)
        name = b"n" * int(rng.integers(0, 300))
        np.testing.assert_array_equal(fast["x"].numpy()[i], x.reshape(4, 10))
        assert fast["label"].numpy()[i] == label and fast["name"].numpy()[i] == name
    np.testing.assert_array_equal(fast["small"].numpy()[:, 0], np.arange(40) % 100)
    np.testing.assert_array_equal(fast["missing"].numpy(), np.tile([3.0, 4.0], (40, 1)))


def test_the_reader_takes_the_usual_layout_and_leaves_the_others():
    for record in _records(5, 1):
        walked = example_wire.walk_example(record)
        assert walked is not None and set(walked) == {b"x", b"label", b"small", b"name", b"tags"}
    records, _, _ = _unusual()
    assert [example_wire.walk_example(r) is None for r in records] == [True, True, True, False]
    assert example_wire.walk_example(records[0][:-3]) is None
    assert example_wire.walk_example(b"") == {}


def test_unusual_layouts_parse_the_same_on_both_paths():
    records, floats, ints = _unusual()
    features = {"f": tf.io.FixedLenFeature([3], tf.float32),
                "i": tf.io.FixedLenFeature([2], tf.int64)}
    fast, generic = _parse_both(records, features)
    _assert_same(fast, generic)
    np.testing.assert_array_equal(fast["f"].numpy(), np.tile(floats, (4, 1)))
    np.testing.assert_array_equal(fast["i"].numpy(), np.tile(ints, (4, 1)))
    mixed = records + _records(3, 2)
    features = {"f": tf.io.VarLenFeature(tf.float32), "i": tf.io.VarLenFeature(tf.int64),
                "name": tf.io.FixedLenFeature([], tf.string, default_value=b"?")}
    _assert_same(*_parse_both(mixed, features))


def test_empty_features_and_sequences_on_both_paths():
    records = [_example(f=None, s=[b"x", b"y"]), _example(f=np.arange(1.0, 5.0), s=[]),
               _example(s=[b"z" * 200])]
    features = {"f": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                "s": tf.io.VarLenFeature(tf.string)}
    fast, generic = _parse_both(records, features)
    _assert_same(fast, generic)
    assert fast["f"].numpy().shape == (3, 2, 2)


@pytest.mark.parametrize("features,match", [
    ({"label": tf.io.FixedLenFeature([], tf.float32)}, "Data types don't match"),
    ({"x": tf.io.FixedLenFeature([39], tf.float32)}, "Number of float values != expected"),
    ({"nope": tf.io.FixedLenFeature([], tf.int64)}, "is required but could not be found"),
])
def test_errors_are_the_same_on_both_paths(features, match):
    records = _records(4, 3)
    messages = []
    for fast in (True, False):
        example_parsing.FAST = fast
        try:
            with pytest.raises(InvalidArgumentError, match=match) as err:
                tf.io.parse_example(tf.constant(records, dtype=tf.string), features)
        finally:
            example_parsing.FAST = True
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_malformed_record_is_data_loss():
    record = _records(1, 4)[0][:-5]
    with pytest.raises(DataLossError):
        tf.io.parse_example(tf.constant([record]), {"x": tf.io.VarLenFeature(tf.float32)})


def test_numpy_varints_match_wire():
    rng = np.random.default_rng(5)
    values = np.concatenate([rng.integers(-2 ** 63, 2 ** 63, 200), [0, 1, 127, 128, -1,
                                                                   2 ** 63 - 1, -2 ** 63]])
    payloads = [b"".join(wire.varint(int(v) & (2 ** 64 - 1)) for v in values[i:i + 3])
                for i in range(0, len(values), 3)]
    decoded, counts = example_wire.packed_varints(payloads)
    expected = [wire.signed64(v) for p in payloads for v in wire.unpack_varints(p)]
    np.testing.assert_array_equal(decoded, np.array(expected, np.int64))
    np.testing.assert_array_equal(decoded, values)
    assert counts.tolist() == [len(values[i:i + 3]) for i in range(0, len(values), 3)]
    assert example_wire.packed_varints([b"\x80"]) is None
    assert example_wire.packed_varints([b"\x01", b""]) is None
    assert example_wire.packed_varints([b"\xff" * 10 + b"\x01"]) is None


@pytest.mark.parametrize("library", [True, False])
def test_framing_checked_with_and_without_the_crc_library(library, tmp_path, monkeypatch):
    if not library:
        monkeypatch.setattr(crc, "_library_crc32c", None)
    elif crc.LIBRARY is None:
        pytest.skip("no CRC32C library installed")
    records = list(tf.data.TFRecordDataset(str(FIXTURE)).as_numpy_iterator())
    assert records and all(isinstance(r, bytes) for r in records)
    data = bytearray(FIXTURE.read_bytes())
    data[14] ^= 1
    (tmp_path / "bad.tfrecord").write_bytes(bytes(data))
    with pytest.raises(DataLossError, match="checksum of its data"):
        list(tf.data.TFRecordDataset(str(tmp_path / "bad.tfrecord")))
    data = bytearray(FIXTURE.read_bytes())
    data[2] ^= 1
    (tmp_path / "bad_length.tfrecord").write_bytes(bytes(data))
    with pytest.raises(DataLossError, match="checksum of its length"):
        list(tf.data.TFRecordDataset(str(tmp_path / "bad_length.tfrecord")))


def test_batch_columns_of_records_sharing_a_layout():
    rng = np.random.default_rng(6)
    records = [_example(x=rng.standard_normal(10).astype(np.float32),
                        label=np.array([i * 7, -i], np.int64), name=[b"item%d" % i],
                        long=[b"z" * 150, b"%03d" % i], empty=None) for i in range(300)]
    layout = example_layout.batch_columns(records)
    assert layout is not None and len(layout) == 5
    assert sum(len(indices) for _, indices, _ in layout[b"x"]) == 300
    features = {"x": tf.io.FixedLenFeature([10], tf.float32),
                "label": tf.io.FixedLenFeature([2], tf.int64),
                "name": tf.io.FixedLenFeature([], tf.string),
                "long": tf.io.FixedLenFeature([2], tf.string),
                "empty": tf.io.FixedLenFeature([], tf.int64, default_value=5)}
    fast, generic = _parse_both(records, features)
    _assert_same(fast, generic)
    np.testing.assert_array_equal(fast["label"].numpy(),
                                  np.stack([np.arange(300) * 7, -np.arange(300)], 1))
    assert fast["name"].numpy()[123] == b"item123" and fast["long"].numpy()[7, 1] == b"007"
    np.testing.assert_array_equal(fast["empty"].numpy(), np.full(300, 5))


def test_batch_columns_refuse_records_differing_outside_their_values():
    records = [_example(ab=[b"v"]), _example(cd=[b"v"])]
    assert example_layout.batch_columns(records) is None
    features = {"ab": tf.io.FixedLenFeature([], tf.string, default_value=b"-"),
                "cd": tf.io.FixedLenFeature([], tf.string, default_value=b"-")}
    fast, generic = _parse_both(records, features)
    _assert_same(fast, generic)
    assert fast["ab"].numpy().tolist() == [b"v", b"-"]
    records = [_example(n=np.array([1], np.int64)), _example(n=np.array([1, 2], np.int64))]
    layout = example_layout.batch_columns(records)
    assert layout is not None and len(layout[b"n"]) == 2
    with pytest.raises(InvalidArgumentError, match="Number of int64 values != expected"):
        tf.io.parse_example(tf.constant(records), {"n": tf.io.FixedLenFeature([], tf.int64)})
