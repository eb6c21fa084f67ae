"""compat.v1's remaining ops with TensorFlow's op types: bitcast, edit_distance,
extract_volume_patches (and its gradient), random_index_shuffle / index_shuffle, the sparse
serialization ops and decode_json_example, against TensorFlow 2.21 (stored answers; string
outputs as literals taken from TensorFlow) and against NumPy and finite differences."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

v1 = tf.compat.v1
RNG = np.random.default_rng(28)

_H_IDX = np.array([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0], [1, 1, 1]], np.int64)
_H_VAL = np.array([1, 2, 3, 4, 5], np.int64)
_T_IDX = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 1, 0], [1, 2, 0]], np.int64)
_T_VAL = np.array([1, 3, 2, 4, 7], np.int64)
_SP_SHAPE = np.array([2, 3, 3], np.int64)


def _edit(normalize):
    return lambda hi, hv, ti, tv, s: v1.edit_distance(
        tf.SparseTensor(hi, hv, s), tf.SparseTensor(ti, tv, s), normalize=normalize)


def _volume(ks, st, pad):
    return lambda x: tf.extract_volume_patches(x, ks, st, pad)


def _round_trip(i, v, s):
    sp = v1.deserialize_many_sparse(v1.serialize_many_sparse(tf.SparseTensor(i, v, s)),
                                    tf.float64)
    return sp.indices, sp.values, sp.dense_shape


_VOLUMES = [("valid", [1, 2, 2, 3, 1], [1, 1, 2, 2, 1], "VALID"),
            ("same", [1, 3, 2, 2, 1], [1, 2, 2, 3, 1], "SAME"),
            ("same_unit", [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], "SAME")]

CASES = [
    TFCase("bitcast_f32_i32", "tf.bitcast(x0, tf.int32)", lambda x: tf.bitcast(x, tf.int32),
           [RNG.standard_normal(5).astype(np.float32)]),
    TFCase("bitcast_f64_u8", "tf.bitcast(x0, tf.uint8)", lambda x: tf.bitcast(x, tf.uint8),
           [RNG.standard_normal((2, 3))]),
    TFCase("bitcast_u8_i32", "tf.bitcast(x0, tf.int32)", lambda x: tf.bitcast(x, tf.int32),
           [RNG.integers(0, 256, (3, 4)).astype(np.uint8)]),
    TFCase("bitcast_i16_f16", "tf.bitcast(x0, tf.float16)",
           lambda x: tf.bitcast(x, tf.float16), [np.arange(1, 7, dtype=np.int16) * 999]),
    TFCase("edit_distance_norm",
           "tf.compat.v1.edit_distance(tf.SparseTensor(x0, x1, x4), tf.SparseTensor(x2, x3, x4))",
           _edit(True), [_H_IDX, _H_VAL, _T_IDX, _T_VAL, _SP_SHAPE]),
    TFCase("edit_distance_raw",
           "tf.edit_distance(tf.SparseTensor(x0, x1, x4), tf.SparseTensor(x2, x3, x4), "
           "normalize=False)", _edit(False), [_H_IDX, _H_VAL, _T_IDX, _T_VAL, _SP_SHAPE]),
    *[TFCase(f"volume_patches_{n}", f"tf.extract_volume_patches(x0, {ks}, {st}, {pad!r})",
             _volume(ks, st, pad), [RNG.standard_normal((2, 4, 5, 6, 3))], wrt=(0,))
      for n, ks, st, pad in _VOLUMES],
    TFCase("index_shuffle_range", "tf.random.experimental.index_shuffle(x0, x1, 9)",
           lambda i, s: tf.random.experimental.index_shuffle(i, s, 9),
           [np.arange(10, dtype=np.int64), np.array([5, 8], np.int64)]),
    TFCase("random_index_shuffle_rows",
           "tf.compat.v1.random_index_shuffle(x0, x1, x2, rounds=6)",
           lambda i, s, m: v1.random_index_shuffle(i, s, m, rounds=6),
           [np.array([1, 2, 3], np.int64), np.array([[1, 2, 3], [4, 5, 6], [-7, 8, 9]], np.int64),
            np.array(100000, np.int64)]),
    TFCase("random_index_shuffle_wide",
           "tf.random_index_shuffle(x0, x1, x2)",
           lambda i, s, m: tf.random_index_shuffle(i, s, m),
           [np.array([0, 12345678901, 2 ** 40], np.uint64), np.array([3, 1, 4], np.int32),
            np.array(2 ** 40, np.uint64)]),
    TFCase("sparse_round_trip",
           "(lambda sp: (sp.indices, sp.values, sp.dense_shape))(tf.io.deserialize_many_sparse("
           "tf.io.serialize_many_sparse(tf.SparseTensor(x0, x1, x2)), tf.float64))",
           _round_trip, [np.array([[0, 1], [2, 0], [2, 3]], np.int64), RNG.standard_normal(3),
                         np.array([4, 5], np.int64)]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


# TensorFlow 2.21's bytes for the SparseTensor [[0, 1], [2, 0]] -> [1.5, 2.5] of shape [3, 4].
_SERIALIZED = [b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02" \x00\x00\x00\x00\x00\x00\x00\x00'
               b'\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
               b'\x00\x00\x00\x00',
               b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00 @',
               b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00'
               b'\x00\x00\x00\x00\x00']
_SERIALIZED_ROW1 = [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x01\x12\x02\x12\x00',
                    b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00']


def _sparse():
    return tf.SparseTensor([[0, 1], [2, 0]], tf.constant([1.5, 2.5], tf.float32), [3, 4])


def test_serialize_sparse_writes_tensorflows_bytes():
    assert v1.serialize_sparse(_sparse()).numpy().tolist() == _SERIALIZED
    many = tf.io.serialize_many_sparse(_sparse())
    assert many.shape == (3, 3) and many.numpy()[1].tolist() == _SERIALIZED_ROW1
    back = tf.io.deserialize_many_sparse(many, tf.float32, rank=2)
    np.testing.assert_array_equal(tf.sparse.to_dense(back).numpy(),
                                  tf.sparse.to_dense(_sparse()).numpy())


def test_sparse_serialization_errors_and_graph_mode():
    with pytest.raises(TypeError, match="variant"):
        tf.io.serialize_sparse(_sparse(), out_type=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="holds float32 values"):
        tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_sparse()), tf.int64)
    with pytest.raises(ValueError, match="rank=3"):
        tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_sparse()), tf.float32, rank=3)
    g = tf.Graph()
    with g.as_default():
        out = v1.serialize_many_sparse(_sparse())
        assert out.op.type == "SerializeManySparse" and out.dtype == tf.string
        with v1.Session() as sess:
            assert sess.run(out)[1].tolist() == _SERIALIZED_ROW1


_JSON = ('{"features":{"feature":{"z":{"int64List":{"value":["1",2,-3]}},'
         '"a":{"float_list":{"value":[1.5,"NaN","-Infinity"]}},'
         '"c":{"bytesList":{"value":["YWJj","_-8"]}}, "e":{}}}}')
# TensorFlow 2.21's serialized Example for _JSON: features in the JSON's order, values unpacked.
_JSON_BYTES = (b'\nI\n\x16\n\x01z\x12\x11\x1a\x0f\x08\x01\x08\x02\x08\xfd\xff\xff\xff\xff\xff\xff'
               b'\xff\xff\x01\n\x16\n\x01a\x12\x11\x12\x0f\r\x00\x00\xc0?\r\x00\x00\xc0\x7f\r\x00'
               b'\x00\x80\xff\n\x10\n\x01c\x12\x0b\n\t\n\x03abc\n\x02\xff\xef\n\x05\n\x01e\x12\x00')


def test_decode_json_example_matches_tensorflows_bytes():
    out = v1.decode_json_example([[_JSON, "{}", '{"features":{}}']])
    assert out.shape == (1, 3)
    assert out.numpy().tolist() == [[_JSON_BYTES, b"", b"\n\x00"]]
    example = tf.train.Example.FromString(_JSON_BYTES)
    assert list(example.features.feature["z"].int64_list.value) == [1, 2, -3]
    assert list(example.features.feature["c"].bytes_list.value) == [b"abc", b"\xff\xef"]
    parsed = tf.io.parse_single_example(out[0, 0], {"z": tf.io.FixedLenFeature([3], tf.int64)})
    np.testing.assert_array_equal(parsed["z"].numpy(), [1, 2, -3])


@pytest.mark.parametrize("text,message", [
    ('{"feat": 1}', "no such field: 'feat'"),
    ("not json", "invalid JSON"),
    ('{"features":{"feature":{"a":{"int64List":{"value":[1.5]}}}}}', "int64"),
    ('{"features":{"feature":{"a":{"int64List":{"value":[1]},"floatList":{"value":[1]}}}}}',
     "has already been set"),
    ('{"features":{"feature":{"a":{"bytesList":{"value":["@@"]}}}}}', "base64")])
def test_decode_json_example_refuses_what_tensorflow_refuses(text, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.io.decode_json_example(text)


def test_bitcast_round_trips_and_refuses():
    x = tf.constant(RNG.standard_normal((2, 3)))
    back = tf.bitcast(tf.bitcast(x, tf.uint16), tf.float64)
    np.testing.assert_array_equal(back.numpy(), x.numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="last dimension must be 4"):
        tf.bitcast(tf.constant([[1, 2, 3]], tf.uint8), tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="bool"):
        tf.bitcast(tf.constant([True]), tf.uint8)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.bitcast(x, tf.int64)
    assert tape.gradient(tf.cast(y, tf.float64), x) is None  # integers carry no gradient


def test_edit_distance_on_strings_and_in_a_graph():
    h = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1])
    t = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1]], ["a", "b", "c"], [2, 2, 2])
    np.testing.assert_array_equal(tf.edit_distance(h, t).numpy(), [[np.inf, 1.], [.5, 0.]])
    g = tf.Graph()
    with g.as_default():
        hp = v1.sparse_placeholder(tf.string)
        out = v1.edit_distance(hp, t, normalize=False)
        assert out.op.type == "EditDistance" and out.shape.rank == 2
        with v1.Session() as sess:
            value = v1.SparseTensorValue([[0, 0, 0], [1, 0, 0]], [b"a", b"b"], [2, 1, 1])
            np.testing.assert_array_equal(sess.run(out, {hp: value}), [[1., 1.], [1., 0.]])
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.edit_distance(tf.constant([1]), t)


def test_index_shuffle_is_a_permutation():
    out = v1.random_index_shuffle(tf.range(1000, dtype=tf.int64), tf.constant([7, 8, 9],
                                  tf.int64), tf.constant(999, tf.int64))
    assert sorted(out.numpy().tolist()) == list(range(1000))
    assert tf.random_index_shuffle(tf.constant(5), tf.constant([1, 2, 3]), 0).numpy() == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="rounds"):
        tf.random_index_shuffle(1, [1, 2, 3], 5, rounds=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="seed must be"):
        tf.random_index_shuffle(1, tf.constant([[1, 2, 3]] * 2), [5, 6, 7])
    with pytest.raises(tf.errors.InvalidArgumentError, match="index must be"):
        tf.random_index_shuffle(tf.constant([1, 2]), tf.constant([1, 2, 3]), [5, 6, 7])


@pytest.mark.parametrize("pad", ["VALID", "SAME"])
def test_volume_patches_gradients_by_finite_differences(pad):
    x = RNG.standard_normal((1, 3, 4, 3, 2))
    check_grads(lambda v: tf.extract_volume_patches(v, [1, 2, 3, 2, 1], [1, 2, 1, 2, 1], pad),
                [x], order=2, modes=("rev", "fwd"))


def test_volume_patches_in_a_graph_and_raw():
    x = RNG.standard_normal((2, 3, 4, 5, 1))
    want = tf.extract_volume_patches(x, [1, 1, 2, 2, 1], [1, 1, 2, 2, 1], "VALID").numpy()
    raw = tf.raw_ops.ExtractVolumePatches(input=x, ksizes=[1, 1, 2, 2, 1],
                                          strides=[1, 1, 2, 2, 1], padding="VALID")
    np.testing.assert_array_equal(raw.numpy(), want)
    np.testing.assert_array_equal(want[0, 0, 0, 0], x[0, 0, :2, :2, 0].reshape(-1))
    g = tf.Graph()
    with g.as_default():
        p = v1.placeholder(tf.float64, [None, 3, 4, 5, 1])
        y = v1.extract_volume_patches(p, [1, 1, 2, 2, 1], [1, 1, 2, 2, 1], "VALID")
        assert y.shape.as_list() == [None, 3, 2, 2, 4]
        (dx,) = tf.gradients(tf.reduce_sum(y), [p])
        with v1.Session() as sess:
            got, grad = sess.run([y, dx], {p: x})
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(grad[..., :4, 0], np.ones((2, 3, 4, 4)))
    np.testing.assert_array_equal(grad[..., 4, 0], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ksizes"):
        tf.extract_volume_patches(x, [2, 1, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
