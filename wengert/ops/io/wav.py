"""`tf.audio`: 16-bit PCM WAV files to and from float samples, TensorFlow's EncodeWav and
DecodeWav.

EncodeWav(audio [frames, channels] float32, sample_rate) writes a RIFF/WAVE file: a 16-byte
"fmt " chunk (PCM, the channel count, the rate, bytes per second, block size 2 * channels,
16 bits) and a "data" chunk of the samples interleaved by frame, each clipped to [-1, 1] after
scaling, as round-half-away-from-zero(x * 32768) in [-32768, 32767], little-endian.
DecodeWav(contents; desired_channels, desired_samples) reads such a file (other chunks before
"data" are skipped): samples int16 / 32768 as float32 [samples, channels] and the sample rate
(int32). desired_samples (-1: all) cuts or pads with zeros; desired_channels (-1: the file's)
keeps the first channels, and a missing channel repeats the file's last one. A file that is not
16-bit PCM WAV is an InvalidArgumentError naming what differed. Neither op is differentiable.
"""
import struct

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_input_dtypes, fixed_operand
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape

__all__ = ["decode_wav", "encode_wav"]


def _encode_kernel(audio, sample_rate):
    if audio.ndim != 2:
        raise InvalidArgumentError(f"EncodeWav: audio must be 2-D [frames, channels], got shape "
                                   f"{list(audio.shape)}.")
    scaled = audio.astype(np.float64) * 32768.0
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    data, channels, rate = pcm.tobytes(), audio.shape[1], int(sample_rate)
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * 2 * channels, 2 * channels, 16)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data"
            + struct.pack("<I", len(data)) + data)
    return np.array(b"RIFF" + struct.pack("<I", len(body)) + body, dtype=object)


def _chunks(wav):
    """{chunk id: payload} of a RIFF/WAVE file, up to and including its data chunk."""
    if len(wav) < 12 or wav[:4] != b"RIFF":
        raise InvalidArgumentError(f"DecodeWav: Header mismatch: Expected RIFF but found "
                                   f"{wav[:4].decode('latin-1')}")
    if wav[8:12] != b"WAVE":
        raise InvalidArgumentError(f"DecodeWav: Header mismatch: Expected WAVE but found "
                                   f"{wav[8:12].decode('latin-1')}")
    found, at = {}, 12
    while at + 8 <= len(wav) and b"data" not in found:
        name, size = wav[at:at + 4], struct.unpack("<I", wav[at + 4:at + 8])[0]
        found[name] = wav[at + 8:at + 8 + size]
        at += 8 + size + (size % 2 if name != b"data" else 0)
    for need in (b"fmt ", b"data"):
        if need not in found:
            raise InvalidArgumentError(f"DecodeWav: the file has no '{need.decode()}' chunk; "
                                       "it is not a complete WAV file.")
    return found


def _decode_kernel(contents, *, desired_channels, desired_samples):
    wav = np.asarray(contents, dtype=object)
    if wav.shape:
        raise InvalidArgumentError(f"DecodeWav: contents must be scalar, got shape "
                                   f"{list(wav.shape)}.")
    chunks = _chunks(bytes(wav.item()))
    fmt = chunks[b"fmt "]
    if len(fmt) < 16:
        raise InvalidArgumentError("DecodeWav: the 'fmt ' chunk is shorter than 16 bytes.")
    kind, channels, rate, _, _, bits = struct.unpack("<HHIIHH", fmt[:16])
    if kind != 1:
        raise InvalidArgumentError(f"DecodeWav: Bad audio format {kind}. Expected 1 (PCM)")
    if bits != 16:
        raise InvalidArgumentError(f"DecodeWav: Can only read 16-bit WAV files, but received "
                                   f"{bits}")
    data = chunks[b"data"]
    count = len(data) // (2 * channels) if channels else 0
    decoded = (np.frombuffer(data[:count * 2 * channels], "<i2").astype(np.float32)
               / np.float32(32768.0)).reshape(count, channels)
    n = count if desired_samples == -1 else desired_samples
    c = channels if desired_channels == -1 else desired_channels
    out = np.zeros((n, c), np.float32)
    if c and channels:
        source = np.minimum(np.arange(c), channels - 1)
        out[:min(n, count)] = decoded[:n][:, source]
    return out, np.array(rate, np.int32)


ENCODE_WAV = defop("EncodeWav", _encode_kernel, grad=None,
                   shape=lambda audio, sample_rate: (TensorShape([]), dtypes.string),
                   raw=lambda audio, sample_rate, name=None: encode_wav(audio, sample_rate, name))


def _decode_rule(contents, *, desired_channels, desired_samples):
    n = None if desired_samples == -1 else desired_samples
    c = None if desired_channels == -1 else desired_channels
    return [(TensorShape([n, c]), dtypes.float32), (TensorShape([]), dtypes.int32)]


DECODE_WAV = defop("DecodeWav", _decode_kernel, shape=_decode_rule, grad=None, num_outputs=2,
                   raw=lambda contents, desired_channels=-1, desired_samples=-1, name=None:
                   decode_wav(contents, desired_channels, desired_samples, name))


def encode_wav(audio, sample_rate, name=None):
    """The WAV file (a scalar string) of float32 `audio` [frames, channels] at `sample_rate`."""
    audio = fixed_operand(audio, dtypes.float32)  # EncodeWav's fixed dtypes: TensorFlow's error
    sample_rate = fixed_operand(sample_rate, dtypes.int32)
    check_input_dtypes(ENCODE_WAV, (audio, sample_rate), graph=state.graph is not None)
    if audio.shape.rank not in (None, 2):
        raise InvalidArgumentError(f"encode_wav: audio must be 2-D [frames, channels], got "
                                   f"shape {audio.shape}.")
    return execute(ENCODE_WAV, (audio, sample_rate), name=name)


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio float32 [samples, channels], sample_rate int32) of a 16-bit PCM WAV file."""
    for arg, value in (("desired_channels", desired_channels),
                       ("desired_samples", desired_samples)):
        if int(value) < -1:
            raise InvalidArgumentError(f"decode_wav: {arg} must be >= -1, got {value}.")
    contents = convert_to_tensor(contents, dtype=dtypes.string)
    return execute(DECODE_WAV, (contents,), {"desired_channels": int(desired_channels),
                                             "desired_samples": int(desired_samples)}, name)
