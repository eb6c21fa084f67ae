"""`wengert.audio`: TensorFlow's `tf.audio`, 16-bit PCM WAV files to and from float samples
(wengert/ops/io/wav.py)."""
from .ops.io.wav import decode_wav, encode_wav

__all__ = ["decode_wav", "encode_wav"]
