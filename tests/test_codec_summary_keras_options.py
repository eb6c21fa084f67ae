"""Options of the JPEG decoders, tf.summary and Keras ops read as TensorFlow 2.21 / Keras 3 read
them (each expected value and error below is theirs for the same call), or refused clearly where
wengert's decoder cannot honour them (fancy_upscaling=False; acceptable_fraction for a truncated
image)."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert import keras

pytest.importorskip("PIL")  # optional dependency: the JPEG codec


def _jpeg():
    pixels = np.random.RandomState(0).randint(0, 255, [16, 16, 3]).astype(np.uint8)
    return tf.image.encode_jpeg(tf.constant(pixels), quality=80)


@pytest.mark.parametrize("decode", [
    lambda data, **kw: tf.image.decode_jpeg(data, **kw),
    lambda data, **kw: tf.image.decode_and_crop_jpeg(data, [0, 0, 8, 8], **kw),
])
def test_jpeg_decoding_options(decode):
    data = _jpeg()
    accurate = decode(data, dct_method="INTEGER_ACCURATE").numpy()
    assert (decode(data).numpy() == accurate).all()
    with pytest.raises(tf.errors.InvalidArgumentError, match="dct_method must be one of"):
        decode(data, dct_method="FOO")
    with pytest.raises(tf.errors.UnimplementedError, match="fancy_upscaling=False"):
        decode(data, fancy_upscaling=False)
    with pytest.raises(tf.errors.UnimplementedError, match="acceptable_fraction=0.5"):
        decode(data, try_recover_truncated=True, acceptable_fraction=0.5)
    assert decode(data, acceptable_fraction=0.5).shape[-1] == 3  # read for truncated data only


def test_adjust_jpeg_quality_checks_dct_method():
    image = tf.ones([4, 4, 3]) * 0.5
    assert tf.image.adjust_jpeg_quality(image, 90, dct_method="INTEGER_FAST").shape == [4, 4, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="dct_method must be one of"):
        tf.image.adjust_jpeg_quality(image, 90, dct_method="FOO")


def test_summary_names_and_scopes(tmp_path):
    with pytest.raises(ValueError, match="experimental_mesh=1 is a DTensor mesh"):
        tf.summary.create_file_writer(str(tmp_path), experimental_mesh=1)
    graph = tf.Graph()
    with graph.as_default():
        with tf.summary.create_file_writer(str(tmp_path), name="w",
                                           experimental_trackable=True).as_default():
            assert tf.summary.write("t", 1., step=1, name="foo").name.startswith("foo/")
            tf.summary.flush(name="bar")
        with v1.name_scope("outer"):
            with tf.summary.experimental.summary_scope("nm", "dflt", values=[]) as names:
                assert names == ("outer/nm", "outer/nm/")
    with tf.summary.experimental.summary_scope(None, "dflt") as names:
        assert names == ("dflt", "dflt/")


def test_trace_on_profiler_outdir_is_named_in_the_warning(tmp_path):
    with pytest.warns(UserWarning, match=f"nothing is written to {tmp_path}"):
        tf.summary.trace_on(profiler=True, profiler_outdir=str(tmp_path))
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        assert bool(tf.summary.trace_export("x", step=0, profiler_outdir=str(tmp_path)))


def test_keras_moments_synchronized_uses_the_sums_formula():
    x = np.array([[1., 2., 3.], [4., 5., 7.]], np.float32)
    mean, var = keras.ops.moments(x, [1], keepdims=True, synchronized=True)
    np.testing.assert_allclose(mean.numpy(), [[2.], [5.333333]], rtol=1e-6)
    np.testing.assert_allclose(var.numpy(), [[0.6666665], [1.5555534]], rtol=1e-6)
    big = np.array([1e4 + 0.1, 1e4 + 0.2, 1e4 + 0.3], np.float32)
    assert float(keras.ops.moments(big, [0], synchronized=True)[1]) == 0.  # Keras's too
    assert float(keras.ops.moments(big, [0])[1]) == pytest.approx(0.00667985, rel=1e-5)


def test_keras_convert_to_tensor_densifies_only_when_asked():
    sp = tf.sparse.SparseTensor([[0, 1]], [1.], [2, 2])
    assert isinstance(keras.ops.convert_to_tensor(sp), tf.SparseTensor)
    assert keras.ops.convert_to_tensor(sp, sparse=False).numpy().tolist() == [[0, 1], [0, 0]]
    rg = tf.ragged.constant([[1., 2.], [3.]])
    assert isinstance(keras.ops.convert_to_tensor(rg, ragged=True), tf.RaggedTensor)
    assert keras.ops.convert_to_tensor(rg, ragged=False).numpy().tolist() == [[1, 2], [3, 0]]


def test_multi_head_attention_flash_attention_is_refused_as_keras_does():
    q = np.ones([1, 3, 8], np.float32)
    with pytest.raises(ValueError, match="Flash attention is not supported in tensorflow "
                                         "backend"):
        keras.layers.MultiHeadAttention(2, 4, flash_attention=True)(q, q)
    with pytest.raises(ValueError, match="Returning attention scores is not supported"):
        keras.layers.MultiHeadAttention(2, 4, flash_attention=True)(
            q, q, return_attention_scores=True)
    assert keras.layers.MultiHeadAttention(2, 4, flash_attention=False)(q, q).shape == [1, 3, 8]
