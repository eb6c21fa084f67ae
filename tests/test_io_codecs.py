"""tf.io's byte codecs and file ops against TensorFlow 2.21 (answers stored in
tests/references/test_io_codecs.npz): decode_raw (endianness, fixed_length), base64 both ways,
decode_compressed, serialize_tensor byte for byte and parse_tensor of TensorFlow's bytes, and
read_file/write_file/matching_files on local files."""
import gzip
import zlib

import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.framework.errors import DataLossError, InvalidArgumentError, NotFoundError

RNG = np.random.default_rng(29)
BLOB = RNG.integers(0, 256, 24, dtype=np.uint8)
TEXT = np.frombuffer(b"hello?>~ wengert\x00\xff", np.uint8)


def _bytes(x):
    return bytes(np.asarray(x).astype(np.uint8))


def _u8(value):
    """A string tensor's bytes joined by '|' (as uint8), then its lengths."""
    a = np.asarray(value, dtype=object).reshape(-1)
    return [tf.constant(np.frombuffer(b"|".join(a.tolist()), np.uint8)),
            tf.constant(np.array([len(v) for v in a], np.int32))]


TF_U8 = ("(lambda t: [tf.io.decode_raw(tf.strings.reduce_join(tf.reshape(t, [-1]), "
         "separator='|'), tf.uint8), tf.strings.length(tf.reshape(t, [-1]))])({})")
SERIALIZE = {
    "float32_matrix": "tf.constant([[1.5, -2.0, 3.25], [0.0, 1e-30, 7.0]])",
    "int32_scalar": "tf.constant(3)",
    "int64_vector": "tf.constant([2**40, -1], tf.int64)",
    "float64": "tf.constant([0.1, -0.2], tf.float64)",
    "bool": "tf.constant([[True, False]])",
    "uint8_empty": "tf.zeros([0, 2], tf.uint8)",
    "strings": "tf.constant([[b'a', b''], [b'xyz', b'\\x00\\xff']])",
    "complex64": "tf.constant([1 + 2j, -3j], tf.complex64)",
}


def _w(src):
    return eval(src, {"tf": tf, "np": np})  # noqa: S307 - the test's own sources


CASES = [
    TFCase("raw_int16_le", "tf.io.decode_raw(tf.constant([x0.numpy().tobytes()[:8], "
           "x0.numpy().tobytes()[8:16]]), tf.int16)",
           lambda x: tf.io.decode_raw([_bytes(x)[:8], _bytes(x)[8:16]], tf.int16), [BLOB]),
    TFCase("raw_float32_be", "tf.io.decode_raw(x0.numpy().tobytes()[:12], tf.float32, "
           "little_endian=False)",
           lambda x: tf.io.decode_raw(_bytes(x)[:12], tf.float32, little_endian=False), [BLOB]),
    TFCase("raw_int64", "tf.io.decode_raw(x0.numpy().tobytes()[:16], tf.int64)",
           lambda x: tf.io.decode_raw(_bytes(x)[:16], tf.int64), [BLOB]),
    TFCase("raw_fixed_length", "tf.io.decode_raw(tf.constant([x0.numpy().tobytes()[:3], "
           "x0.numpy().tobytes()[:9]]), tf.uint16, fixed_length=6)",
           lambda x: tf.io.decode_raw([_bytes(x)[:3], _bytes(x)[:9]], tf.uint16,
                                      fixed_length=6), [BLOB]),
    TFCase("base64", TF_U8.format("tf.io.encode_base64(tf.constant([x0.numpy().tobytes(), "
                                  "x0.numpy().tobytes()[:4], b'']))"),
           lambda x: _u8(tf.io.encode_base64([_bytes(x), _bytes(x)[:4], b""]).numpy()), [TEXT]),
    TFCase("base64_pad", TF_U8.format("tf.io.encode_base64(x0.numpy().tobytes()[:5], pad=True)"),
           lambda x: _u8(tf.io.encode_base64(_bytes(x)[:5], pad=True).numpy()), [TEXT]),
    TFCase("base64_round_trip", TF_U8.format("tf.io.decode_base64(tf.io.encode_base64("
                                             "x0.numpy().tobytes()))"),
           lambda x: _u8(tf.io.decode_base64(tf.io.encode_base64(_bytes(x))).numpy()), [TEXT]),
]
CASES += [TFCase(f"serialize_{name}", TF_U8.format(f"tf.io.serialize_tensor({src})"),
                 lambda src=src: _u8(tf.io.serialize_tensor(_w(src)).numpy()), [])
          for name, src in SERIALIZE.items()]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=0, atol=0)


@pytest.mark.parametrize("name", sorted(SERIALIZE))
def test_parse_tensor_reads_tensorflows_bytes(name, tf_results):
    data = tf_results[f"serialize_{name}"]["outputs"][0].astype(np.uint8).tobytes()
    expected = _w(SERIALIZE[name])
    parsed = tf.io.parse_tensor(data, expected.dtype)
    assert parsed.dtype == expected.dtype and parsed.shape == expected.shape
    np.testing.assert_array_equal(parsed.numpy(), expected.numpy())


def test_decode_errors():
    with pytest.raises(InvalidArgumentError, match="same size"):
        tf.io.decode_raw([b"ab", b"abcd"], tf.int16)
    with pytest.raises(InvalidArgumentError, match="not a multiple of 4"):
        tf.io.decode_raw(b"abcde", tf.float32)
    with pytest.raises(InvalidArgumentError, match="base64"):
        tf.io.decode_base64(b"ab*c")
    with pytest.raises(InvalidArgumentError, match=r"Type mismatch .*\(float32\) and dtype "
                                                   r"\(int32\)"):
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(1.0)), tf.int32)
    with pytest.raises(DataLossError):
        tf.io.parse_tensor(b"\x0a\x05", tf.float32)
    with pytest.raises(DataLossError, match="GZIP"):
        tf.io.decode_compressed(b"not gzip", "GZIP")


def test_decode_compressed():
    data = [b"first" * 20, b""]
    got = tf.io.decode_compressed([gzip.compress(d) for d in data], "GZIP").numpy().tolist()
    assert got == data
    assert tf.io.decode_compressed(zlib.compress(b"z"), "ZLIB").numpy() == b"z"
    assert tf.io.decode_compressed(b"as is").numpy() == b"as is"


def test_files(tmp_path):
    path = str(tmp_path / "sub" / "blob.bin")
    assert tf.io.write_file(path, b"\x00bytes\x00") is None
    assert tf.io.read_file(path).numpy() == b"\x00bytes\x00"
    assert tf.io.matching_files(str(tmp_path / "sub" / "*.bin")).numpy().tolist() == \
        [path.encode()]
    with pytest.raises(NotFoundError, match="No such file"):
        tf.io.read_file(str(tmp_path / "missing"))

    @tf.function
    def round_trip(p, text):
        tf.io.write_file(p, text)
        return tf.strings.length(tf.io.read_file(p))
    assert int(round_trip(tf.constant(str(tmp_path / "t.txt")), tf.constant("four"))) == 4
    ds = tf.data.Dataset.from_tensor_slices([path, path]).map(tf.io.read_file)
    assert [x.numpy() for x in ds] == [b"\x00bytes\x00"] * 2
