"""PNG in NumPy and zlib, for what Pillow cannot hold: 16-bit colour images (Pillow reads 16-bit
RGB as 8-bit), and 8-bit images when Pillow is not installed.

A PNG is the 8-byte signature, then chunks (4-byte big-endian length, 4-byte type, data, CRC-32
of type and data): IHDR (width, height, bit depth, colour type, compression, filter, interlace),
IDAT (the zlib stream of the scanlines, concatenated over chunks), IEND. Each scanline is a
filter byte followed by width * channels * depth / 8 bytes, big-endian for 16-bit samples;
colour types 0, 4, 2, 6 hold 1, 2, 3, 4 channels (grey, grey + alpha, RGB, RGBA). With bpp the
bytes per pixel, a the byte bpp to the left, b the byte above and c above-left, filters 0-4
reconstruct x as x, x + a, x + b, x + floor((a + b) / 2), x + paeth(a, b, c), all mod 256.
encode() writes every scanline with filter 0; decode() reads non-interlaced files of depth 8 or
16 in colour types 0, 2, 4 and 6 and returns None for the rest (palette, low bit depths,
Adam7 interlacing), which Pillow reads.
"""
import struct
import zlib

import numpy as np

__all__ = ["encode", "decode", "SIGNATURE", "PngError"]

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOR_TYPE = {1: 0, 2: 4, 3: 2, 4: 6}
_CHANNELS = {0: 1, 4: 2, 2: 3, 6: 4}


class PngError(ValueError):
    """The bytes are not a valid PNG stream."""


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def encode(array, level=-1):
    """PNG bytes of a uint8 or uint16 array [height, width, channels] (1-4 channels)."""
    h, w, c = array.shape
    depth = 16 if array.dtype == np.uint16 else 8
    samples = array.astype(">u2" if depth == 16 else np.uint8).reshape(h, w * c)
    rows = np.concatenate([np.zeros((h, 1), np.uint8), samples.view(np.uint8).reshape(h, -1)],
                          axis=1)
    header = struct.pack(">IIBBBBB", w, h, depth, _COLOR_TYPE[c], 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + _chunk(b"IEND", b""))


def _chunks(data):
    if not data.startswith(SIGNATURE):
        raise PngError("the PNG signature is missing")
    pos = len(SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        end = pos + 8 + length
        if end + 4 > len(data):
            raise PngError(f"chunk {kind!r} runs past the end of the data")
        body = data[pos + 4:end]
        if struct.unpack(">I", data[end:end + 4])[0] != zlib.crc32(body):
            raise PngError(f"chunk {kind!r} fails its CRC check")
        yield kind, body[4:]
        if kind == b"IEND":
            return
        pos = end + 4
    raise PngError("the data ends before the IEND chunk")


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _unfilter_row(kind, row, prev, bpp):
    if kind == 0:
        return row
    if kind == 1:
        return np.cumsum(row.reshape(-1, bpp), axis=0, dtype=np.uint8).reshape(-1)
    if kind == 2:
        return row + prev
    if kind not in (3, 4):
        raise PngError(f"unknown scanline filter {kind}")
    out = row.astype(np.int32)
    up = prev.astype(np.int32)
    left = np.zeros(bpp, np.int32)
    for x in range(0, len(out), bpp):
        b = up[x:x + bpp]
        if kind == 3:
            out[x:x + bpp] = (out[x:x + bpp] + (left + b) // 2) & 255
        else:
            upleft = up[x - bpp:x] if x else np.zeros(bpp, np.int32)
            out[x:x + bpp] = (out[x:x + bpp] + _paeth(left, b, upleft)) & 255
        left = out[x:x + bpp]
    return out.astype(np.uint8)


def decode(data):
    """(array [height, width, channels] uint8 or uint16, bit depth), or None when this reader
    does not handle the file's format (see the module docstring). Raises PngError on bad data."""
    header, idat = None, []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body[:13]) if len(body) == 13 else None
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise PngError("the IHDR chunk is missing or malformed")
    w, h, depth, color_type, _, _, interlace = header
    if interlace or depth not in (8, 16) or color_type not in _CHANNELS:
        return None
    c = _CHANNELS[color_type]
    bpp, stride = c * depth // 8, w * c * depth // 8
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8)
    except zlib.error as e:
        raise PngError(f"the image data does not inflate ({e})") from None
    if raw.size < h * (stride + 1):
        raise PngError(f"the image data holds {raw.size} bytes, {h * (stride + 1)} needed")
    rows = raw[:h * (stride + 1)].reshape(h, stride + 1)
    out, prev = np.empty((h, stride), np.uint8), np.zeros(stride, np.uint8)
    for y in range(h):
        prev = out[y] = _unfilter_row(int(rows[y, 0]), rows[y, 1:], prev, bpp)
    if depth == 16:
        return out.view(">u2").astype(np.uint16).reshape(h, w, c), 16
    return out.reshape(h, w, c), 8
