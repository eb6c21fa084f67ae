"""tf.audio (and compat.v1.audio): encode_wav writes TensorFlow 2.21's bytes (the literal below)
and decode_wav reads samples, rates, desired channels and samples as TensorFlow does (stored
answers)."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

_AUDIO = np.array([[0.5, 0.1], [-1.0, 0.2], [1.0, -0.7], [0.30001, 2.0]], np.float32)
# TensorFlow 2.21's tf.audio.encode_wav(_AUDIO, 16000)
_WAV = (b"RIFF4\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00\x80>\x00\x00\x00\xfa\x00\x00"
        b"\x04\x00\x10\x00data\x10\x00\x00\x00\x00@\xcd\x0c\x00\x80\x9a\x19\xff\x7ff\xa6g&\xff\x7f")


def _round_trip(channels, samples):
    return lambda a: tf.audio.decode_wav(tf.audio.encode_wav(a, 8000), channels, samples)


CASES = [TFCase(f"wav_{c}_{s}_{a.shape[1]}",
                f"tf.audio.decode_wav(tf.audio.encode_wav(x0, 8000), {c}, {s})",
                _round_trip(c, s), [a])
         for a in (_AUDIO, _AUDIO[:, :1], np.random.default_rng(5).uniform(-1, 1, (9, 3))
                   .astype(np.float32))
         for c, s in ((-1, -1), (1, 6), (3, 2), (2, 0))]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


def test_encode_wav_writes_tensorflows_bytes():
    assert tf.audio.encode_wav(_AUDIO, 16000).numpy() == _WAV
    audio, rate = tf.compat.v1.audio.decode_wav(_WAV)
    assert int(rate) == 16000 and audio.shape == (4, 2)
    np.testing.assert_array_equal(audio.numpy()[:, 0], [0.5, -1.0, 32767 / 32768, 9831 / 32768])


def test_decode_wav_refuses_what_is_not_16_bit_pcm():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected RIFF but found junk"):
        tf.audio.decode_wav(b"junk")
    eight_bit = _WAV.replace(b"\x10\x00data", b"\x08\x00data")
    with pytest.raises(tf.errors.InvalidArgumentError, match="16-bit"):
        tf.audio.decode_wav(eight_bit)
    with pytest.raises(tf.errors.InvalidArgumentError, match="desired_samples must be >= -1"):
        tf.audio.decode_wav(_WAV, desired_samples=-2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="2-D"):
        tf.audio.encode_wav(np.zeros(3, np.float32), 100)


def test_wav_ops_in_a_graph():
    with tf.Graph().as_default():
        contents = tf.compat.v1.placeholder(tf.string, [])
        audio, rate = tf.audio.decode_wav(contents, desired_channels=1)
        assert audio.shape.as_list() == [None, 1] and audio.op.type == "DecodeWav"
        with tf.compat.v1.Session() as sess:
            got, r = sess.run([audio, rate], {contents: _WAV})
    assert r == 16000 and got.shape == (4, 1)
