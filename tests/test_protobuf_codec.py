"""The protocol-buffer codec (wengert/framework/protos): the wire format's varints, lengths and
packed fields, malformed bytes as DataLossError, and tf.train.Example and its parts built,
serialized and printed byte for byte as TensorFlow 2.21 does (its protobuf answers are stored
in tests/references/test_protobuf_codec.npz)."""
import math

import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import DataLossError
from wengert.framework.protos import wire
from wengert.framework.protos.message import Field, Message

# Each source is evaluated twice: with `tf` TensorFlow (in its interpreter) and with `tf`
# wengert; the messages' bytes (deterministic order, which is key order for maps) must agree.
MESSAGES = {
    "int64_list": "tf.train.Int64List(value=[0, 1, -1, 127, 128, 300, 2**62, -2**63, 2**63-1])",
    "float_list": "tf.train.FloatList(value=[0.0, -0.0, 1.5, 0.1, 1e30, float('inf'), "
                  "-float('inf'), 1e-45, 3.4e38])",
    "bytes_list": "tf.train.BytesList(value=[b'', b'abc', bytes(range(256)), 'é'.encode()])",
    "empty_feature": "tf.train.Feature()",
    "empty_lists": "tf.train.Features(feature={'a': tf.train.Feature(float_list="
                   "tf.train.FloatList()), 'b': tf.train.Feature(int64_list=tf.train.Int64List()),"
                   " '': tf.train.Feature()})",
    "key_order": "tf.train.Features(feature={k: tf.train.Feature() for k in ['a', 'ab', 'b', "
                 "'B', 'é', 'aa', '', 'abc', 'z'*20, '0', '10', '1', '9']})",
    "example": "tf.train.Example(features=tf.train.Features(feature={"
               "'label': tf.train.Feature(int64_list=tf.train.Int64List(value=[3])), "
               "'image': tf.train.Feature(bytes_list=tf.train.BytesList(value=[b'\\x00\\xff'*40])),"
               " 'weights': tf.train.Feature(float_list=tf.train.FloatList(value=[0.25]*200)), "
               "'zeta': tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(-5, 300))))"
               "}))",
    "example_dicts": "tf.train.Example(features={'feature': {'x': {'float_list': {'value': [1, 2]}},"
                     " 'y': {'bytes_list': {'value': [b'q']}}}})",
    "example_empty_features": "tf.train.Example(features=tf.train.Features())",
    "unicode_key": "tf.train.Features(feature={'clé': tf.train.Feature(int64_list="
                   "tf.train.Int64List(value=[1]))})",
    "sequence_example": "tf.train.SequenceExample(context=tf.train.Features(feature={"
                        "'length': tf.train.Feature(int64_list=tf.train.Int64List(value=[2]))}),"
                        " feature_lists=tf.train.FeatureLists(feature_list={"
                        "'tokens': tf.train.FeatureList(feature=[tf.train.Feature("
                        "bytes_list=tf.train.BytesList(value=[b'a', b'b'])), tf.train.Feature("
                        "bytes_list=tf.train.BytesList(value=[b'c']))]), "
                        "'scores': tf.train.FeatureList(feature=[tf.train.Feature(float_list="
                        "tf.train.FloatList(value=[0.5])), tf.train.Feature()])}))",
}
# text format: single-key maps (TensorFlow prints a map in a per-process hash order)
TEXTS = {
    "text_int64": "tf.train.Int64List(value=[-3, 0, 2**40])",
    "text_floats": "tf.train.FloatList(value=[0.1, 1/3, 123456789.0, 1e-7, float('nan'), "
                   "float('inf'), -0.0, 2.5e-45, 1e30, 3.0])",
    "text_bytes": "tf.train.BytesList(value=[b'ab\\x00\\xff\\'\"\\n\\r\\t\\\\', 'é'.encode()])",
    "text_example": "tf.train.Example(features=tf.train.Features(feature={'é\\n': "
                    "tf.train.Feature(float_list=tf.train.FloatList(value=[1, 2.5]))}))",
    "text_sequence": "tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list="
                     "{'s': tf.train.FeatureList(feature=[tf.train.Feature(int64_list="
                     "tf.train.Int64List(value=[1])), tf.train.Feature()])}))",
}


def _wengert(src):
    return eval(src, {"tf": tf, "np": np})  # noqa: S307 - the test's own sources


def _as_uint8(data):
    return tf.constant(np.frombuffer(data, np.uint8))


CASES = [TFCase(name, f"tf.constant(np.frombuffer(({src}).SerializeToString("
                      f"deterministic=True), np.uint8))",
                lambda src=src: _as_uint8(_wengert(src).SerializeToString()), [])
         for name, src in MESSAGES.items()]
CASES += [TFCase(name, f"tf.constant(np.frombuffer(str({src}).encode(), np.uint8))",
                 lambda src=src: _as_uint8(str(_wengert(src)).encode()), [])
          for name, src in TEXTS.items()]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bytes_and_text_match_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=0, atol=0)


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_tensorflow_bytes_parse_back(name, tf_results):
    theirs = tf_results[name]["outputs"][0].astype(np.uint8).tobytes()
    mine = _wengert(MESSAGES[name])
    parsed = type(mine).FromString(theirs)
    assert parsed == mine
    assert parsed.SerializeToString() == theirs
    assert str(parsed) == str(type(mine).FromString(mine.SerializeToString()))


# -- the wire format ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 127, 128, 255, 300, 16383, 16384, 2**31 - 1, 2**32,
                               2**63 - 1, 2**64 - 1, -1, -2**63])
def test_varint_round_trip(n):
    data = wire.varint(n)
    assert len(data) == max(1, math.ceil((n % 2**64).bit_length() / 7))
    value, end = wire.read_varint(data, 0)
    assert end == len(data) and wire.signed64(value) == wire.signed64(n % 2**64)


def test_known_encodings():
    assert wire.varint(300) == b"\xac\x02"
    assert wire.field_varint(1, 150) == b"\x08\x96\x01"
    assert wire.field_bytes(2, "testing") == b"\x12\x07testing"
    assert wire.packed_varints(4, [3, 270, 86942]) == b"\x22\x06\x03\x8e\x02\x9e\xa7\x05"
    assert [wire.zigzag(n) for n in (0, -1, 1, -2, 2**31 - 1)] == [0, 1, 2, 3, 2**32 - 2]
    assert [wire.unzigzag(wire.zigzag(n)) for n in (-5, 5, -2**62)] == [-5, 5, -2**62]


def test_fields_reads_every_wire_type():
    data = (wire.field_varint(1, 7) + wire.field_double(2, 0.5) + wire.field_bytes(3, b"xy")
            + wire.field_float(4, 2.0))
    got = [(n, t, v) for n, t, v, _, _ in wire.fields(data)]
    assert got == [(1, 0, 7), (2, 1, wire.field_double(2, 0.5)[1:]), (3, 2, b"xy"),
                   (4, 5, wire.field_float(4, 2.0)[1:])]
    assert list(wire.unpack_floats(np.array([1, 2], "<f4").tobytes())) == [1.0, 2.0]


@pytest.mark.parametrize("data,problem", [
    (b"\x0a\x05ab", "5 bytes follow"),
    (b"\x08", "past the end"),
    (b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "longer than ten bytes"),
    (b"\x00\x01", "field number is 0"),
    (b"\x0b\x0c", "wire type 3"),
    (b"\x0d\x00\x00", "cut short"),
])
def test_malformed_bytes_are_data_loss(data, problem):
    with pytest.raises(DataLossError, match=problem):
        tf.train.Example.FromString(data)


def test_malformed_nested_and_packed():
    with pytest.raises(DataLossError, match="tensorflow.Features"):
        tf.train.Example.FromString(b"\x0a\x02\x0a\x05")
    with pytest.raises(DataLossError, match="4-byte"):
        tf.train.FloatList.FromString(b"\x0a\x03abc")
    bomb = b""
    for _ in range(120):
        bomb = wire.field_bytes(1, bomb)
    with pytest.raises(DataLossError, match="deeper than"):
        Nested.FromString(bomb)


class Nested(Message):
    """A message that holds itself (the depth limit's test)."""
    FULL_NAME = "test.Nested"
    FIELDS = (Field(1, "child", "message", message=lambda: Nested),
              Field(2, "counts", "uint32", map_key="int32"))


def test_recursive_message_and_scalar_map():
    m = Nested(child={"child": {"counts": {-1: 5, 3: 2**32 - 1}}})
    assert m.child.child.counts[-1] == 5 and dict(m.child.child.counts) == {-1: 5, 3: 2**32 - 1}
    again = Nested.FromString(m.SerializeToString())
    assert again == m and str(again) == str(m)
    assert "key: -1" in str(m) and m.child.child.counts[7] == 0


# -- the message API ----------------------------------------------------------------------------------
def test_construction_checks_values_as_protobuf_does():
    with pytest.raises(TypeError, match="boolean"):
        tf.train.Int64List(value=[True])
    with pytest.raises(TypeError):
        tf.train.Int64List(value=[1.0])
    with pytest.raises(ValueError, match="out of range"):
        tf.train.Int64List(value=[2**63])
    with pytest.raises(TypeError, match="expected bytes"):
        tf.train.BytesList(value=["text"])
    with pytest.raises(ValueError, match='no "foo" field'):
        tf.train.Feature(foo=1)
    assert tf.train.FloatList(value=[0.1]).value[0] == float(np.float32(0.1))
    assert tf.train.Int64List(value=np.arange(3)).value == [0, 1, 2]
    with pytest.raises(AttributeError, match="Assignment not allowed"):
        tf.train.Int64List().value = [1]
    with pytest.raises(ValueError, match="may not be assigned"):
        tf.train.Features().feature["a"] = tf.train.Feature()


def test_oneof_and_presence():
    f = tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))
    assert f.WhichOneof("kind") == "int64_list" and f.HasField("int64_list")
    f.float_list.value.append(2.0)
    assert f.WhichOneof("kind") == "float_list" and not f.HasField("int64_list")
    assert f.int64_list.value == []
    f.ClearField("kind")
    assert f.WhichOneof("kind") is None and f.SerializeToString() == b""
    e = tf.train.Example()
    _ = e.features.feature
    assert e.SerializeToString() == b"" and not e.HasField("features")
    e.features.feature["a"].int64_list.value.extend([4, 5])
    assert e.HasField("features")
    assert tf.train.Example.FromString(e.SerializeToString()) == e


def test_copy_merge_clear_and_unknown_fields():
    a = tf.train.Int64List(value=[1, 2])
    b = tf.train.Int64List(value=[3])
    b.MergeFrom(a)
    assert b.value == [3, 1, 2]
    c = tf.train.Int64List()
    c.CopyFrom(a)
    assert c == a and c is not a
    assert c.ParseFromString(b"\x08\x07") == 2 and c.value == [7]  # unpacked is accepted
    raw = b"\x0a\x00\x10\x05"  # Example with an unknown varint field 2
    e = tf.train.Example.FromString(raw)
    assert e.SerializeToString() == raw and e.ByteSize() == 4
    e.Clear()
    assert e.SerializeToString() == b""
    with pytest.raises(TypeError, match="unhashable"):
        hash(e)


def test_repeated_message_fields():
    fl = tf.train.FeatureList()
    fl.feature.add(int64_list=tf.train.Int64List(value=[1]))
    fl.feature.append(tf.train.Feature(float_list=tf.train.FloatList(value=[2])))
    fl.feature.extend([{"bytes_list": {"value": [b"z"]}}])
    assert [f.WhichOneof("kind") for f in fl.feature] == ["int64_list", "float_list",
                                                          "bytes_list"]
    assert tf.train.FeatureList.FromString(fl.SerializeToString()) == fl
    assert len(fl.feature) == 3 and fl.feature[2].bytes_list.value == [b"z"]
