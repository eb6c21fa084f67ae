"""What the summary plugins store, computed with NumPy and zlib: histogram buckets, 8-bit images
as PNG, and audio as WAV.

Histograms (TensorBoard's `histogram` summary): the data, flattened and cast to float64, is split
into `buckets` equal-width buckets between its minimum and maximum; a value falls in bucket
floor((x - min) / width), the maximum in the last one. The result is a [k, 3] float64 array of
rows (left edge, right edge, count), the last right edge exactly the maximum. Data with a single
distinct value gives k buckets of zero width at that value with every count in the last; empty
data gives k rows of zeros; k = 0 gives an empty [0, 3] array.

Images: uint8 data is kept; floating point data is scaled by 255.5, clipped to [0, 255] and
truncated (TensorFlow's `convert_image_dtype(..., uint8, saturate=True)`); other integer types
are rescaled by a power of two to the 8-bit range, then written as PNG by tf.image's encoder
(ops/image/png.py).

Audio: float samples in [-1, 1] become 16-bit PCM by rounding x * 32768 (half away from zero) and
clipping to the int16 range, in a RIFF/WAVE file with one `fmt ` chunk (PCM, channels, sample
rate, byte rate, block align, 16 bits) and one `data` chunk, as `tf.audio.encode_wav` writes it.
"""
import struct

import numpy as np

from ..ops.image import png

__all__ = ["histogram_buckets", "to_uint8_images", "encode_png", "encode_wav"]


def histogram_buckets(data, buckets=30):
    """[k, 3] float64 rows (left, right, count) of `data` (see the module docstring)."""
    k = max(int(buckets), 0)
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    if data.size == 0 or k == 0:
        return np.zeros((k, 3), np.float64)
    low, high = data.min(), data.max()
    if low == high:
        counts = np.zeros(k, np.float64)
        counts[-1] = data.size
        edges = np.full(k, high)
        return np.stack([edges, edges, counts], axis=1)
    width = (high - low) / k
    index = np.minimum(np.floor((data - low) / width).astype(np.int64), k - 1)
    counts = np.bincount(index, minlength=k).astype(np.float64)
    edges = np.linspace(low, high, k + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def to_uint8_images(data):
    """Image data of any numeric dtype as uint8 (see the module docstring)."""
    data = np.asarray(data)
    if data.dtype == np.uint8:
        return data
    if data.dtype.kind == "f":
        return np.clip(data.astype(np.float64) * 255.5, 0.0, 255.0).astype(np.uint8)
    if data.dtype.kind == "b":
        return data.astype(np.uint8) * np.uint8(255)
    if data.dtype.kind not in "iu":
        raise TypeError(f"image data must be numeric, got dtype {data.dtype}.")
    top = int(np.iinfo(data.dtype).max) + 1
    wide = data.astype(np.int64)
    wide = wide // (top // 256) if top > 256 else wide * (256 // top)
    return np.clip(wide, 0, 255).astype(np.uint8)


def encode_png(image):
    """PNG bytes of one [height, width, channels] uint8 image (1 to 4 channels), written by
    tf.image's encoder (ops/image/png.py)."""
    channels = image.shape[-1]
    if channels not in (1, 2, 3, 4):
        raise ValueError(f"A PNG image has 1, 2, 3 or 4 channels; got {channels}.")
    return png.encode(np.asarray(image, dtype=np.uint8))


def encode_wav(samples, sample_rate):
    """WAV bytes of [frames, channels] float samples in [-1, 1] (16-bit PCM)."""
    samples = np.asarray(samples, dtype=np.float64)
    frames, channels = samples.shape
    scaled = samples * 32768.0
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    data = pcm.tobytes()
    block = 2 * channels
    fmt = struct.pack("<HHIIHH", 1, channels, int(sample_rate), int(sample_rate) * block, block,
                      16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack(
        "<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body
