"""tf.image's codecs: PNG, JPEG, GIF, BMP and WebP bytes to and from images.

PNG is written by png.py (zlib, every scanline unfiltered, `compression` the zlib level) and read
by Pillow, or by png.py for 16-bit colour (which Pillow cannot hold) and whenever Pillow is
absent; JPEG, GIF, BMP and WebP need Pillow, the optional extra `pip install "wengert[image]"`,
and raise an ImportError saying so without it. Decoded images are [height, width, channels]
(GIF and WebP: [frames, height, width, channels]); `channels` converts as TensorFlow's decoders
do: grey to RGB repeats the grey, an added alpha is opaque, RGB to grey is libpng's
(9797 R + 19234 G + 3737 B) / 2^15 for PNG (measured on TensorFlow 2.21) and libjpeg's luma for
JPEG; a 16-bit PNG read as uint8 keeps each sample's high byte, an 8-bit one read as uint16 is
scaled by 257. JPEG is decoded by Pillow's libjpeg with the accurate integer DCT: the pixels
equal TensorFlow's with dct_method="INTEGER_ACCURATE" (TensorFlow's default, INTEGER_FAST, can
differ from them by a few levels); fancy_upscaling and dct_method are not honoured. PNGs are
read and written in 8 or 16 bits (dtype uint8 or uint16). Each function runs as
a `numpy_function`, so it works in graphs and tf.data too; none is differentiable, as in
TensorFlow. Corrupt bytes raise InvalidArgumentError naming the function.
"""
import io

import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError, UnimplementedError
from ...framework.tensor import convert_to_tensor
from ..io.script import numpy_function
from . import png

__all__ = ["encode_png", "decode_png", "encode_jpeg", "decode_jpeg", "decode_and_crop_jpeg",
           "decode_image", "decode_bmp", "decode_gif", "decode_webp", "is_jpeg",
           "extract_jpeg_shape"]

_JPEG, _GIF, _BMP = b"\xff\xd8\xff", (b"GIF87a", b"GIF89a"), b"BM"
_PNG_DTYPES = (dtypes.uint8, dtypes.uint16)


def _pillow(what, kind):
    try:
        from PIL import Image  # optional dependency
    except ImportError:
        raise ImportError(f"tf.image.{what} needs Pillow to read and write {kind} images; "
                          f'install it with: pip install "wengert[image]"') from None
    return Image


def _contents(contents):
    """Python bytes as a string tensor kept whole: wengert's tensor conversion goes through a
    NumPy bytes array, which drops trailing NUL bytes (a WebP file's padding, say), so bytes are
    handed over as an object array."""
    if isinstance(contents, (bytes, bytearray)):
        holder = np.empty((), dtype=object)
        holder[()] = bytes(contents)
        return convert_to_tensor(holder)
    return contents


def _shaped(tensor, shape):
    """`tensor` with its static shape set where it is symbolic (a graph or tf.data traces the
    numpy_function without knowing what it returns); eager tensors know theirs."""
    if hasattr(tensor, "set_shape"):
        tensor.set_shape(shape)
    return tensor


def _image_shape(channels, frames=False):
    return ([None] if frames else []) + [None, None, channels or None]


def _bytes(array, what):
    value = np.asarray(array)
    if value.shape != ():
        raise InvalidArgumentError(f"{what}: contents must be a scalar string, got shape "
                                   f"{value.shape}.")
    value = value.item()
    return value.encode() if isinstance(value, str) else bytes(value)


def _open(data, what, kind):
    image_module = _pillow(what, kind)
    try:
        image = image_module.open(io.BytesIO(data))
        image.load()
    except Exception as e:  # Pillow raises OSError, SyntaxError, ValueError... on bad data
        raise InvalidArgumentError(f"{what}: the contents are not a valid {kind} image "
                                   f"({type(e).__name__}: {e}).") from None
    return image


def _gray(rgb):
    """libpng's fixed-point luma, as TensorFlow's PNG decoder returns it (measured): weights
    9797, 19234, 3737 (/ 2^15 = 0.299, 0.587, 0.114), truncated for 8-bit samples and rounded
    for 16-bit ones."""
    rounding = 16384 if rgb.dtype == np.uint16 else 0
    total = rgb.astype(np.int64) @ np.array([9797, 19234, 3737], np.int64) + rounding
    return (total >> 15)[..., None].astype(rgb.dtype)


def _to_channels(array, channels, what, gray=_gray):
    c = array.shape[-1]
    if channels in (0, c):
        return array
    if channels not in (1, 2, 3, 4):
        raise InvalidArgumentError(f"{what}: channels must be 0, 1, 2, 3 or 4, got {channels}.")
    opaque = np.full(array.shape[:-1] + (1,), np.iinfo(array.dtype).max, array.dtype)
    alpha = array[..., -1:] if c in (2, 4) else opaque
    grey = array[..., :1] if c < 3 else gray(array[..., :3])
    color = array[..., :3] if c >= 3 else np.repeat(grey, 3, axis=-1)
    return {1: grey, 2: np.concatenate([grey, alpha], -1), 3: color,
            4: np.concatenate([color, alpha], -1)}[channels]


def _to_depth(array, dtype):
    if dtype == np.uint8 and array.dtype == np.uint16:
        return (array >> 8).astype(np.uint8)
    if dtype == np.uint16 and array.dtype == np.uint8:
        return array.astype(np.uint16) * 257
    return array


def _image_dtype(dtype, what, allowed=_PNG_DTYPES):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        raise InvalidArgumentError(f"{what}: dtype must be one of "
                                   f"{[d.name for d in allowed]}, got {dtype.name}.")
    return dtype


# -- PNG -----------------------------------------------------------------------------------------
def _pillow_png(image):
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        return np.asarray(image).astype(np.uint16)[..., None]
    if image.mode not in ("L", "LA", "RGB", "RGBA"):
        transparent = "transparency" in image.info or image.mode in ("PA", "RGBa")
        image = image.convert("RGBA" if transparent else ("L" if image.mode == "1" else "RGB"))
    array = np.asarray(image)
    return array[..., None] if array.ndim == 2 else array


def _read_png(data, what):
    if not data.startswith(png.SIGNATURE):
        raise InvalidArgumentError(f"{what}: the contents are not a PNG image (no PNG "
                                   f"signature).")
    sixteen_bit_colour = len(data) > 25 and data[24] == 16
    try:
        from PIL import Image  # noqa: F401  optional dependency: the fast reader, when installed
        have_pillow = True
    except ImportError:
        have_pillow = False
    if sixteen_bit_colour or not have_pillow:
        try:
            decoded = png.decode(data)
        except png.PngError as e:
            raise InvalidArgumentError(f"{what}: the contents are not a valid PNG image "
                                       f"({e}).") from None
        if decoded is not None:
            return decoded[0]
    return _pillow_png(_open(data, what, "PNG"))


def _decode_png_np(contents, channels, dtype, what):
    array = _read_png(_bytes(contents, what), what)
    return _to_depth(_to_channels(array, channels, what), dtype)


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """[height, width, channels] uint8 (or uint16) pixels of the PNG bytes `contents`."""
    dtype = _image_dtype(dtype, "decode_png")
    return _shaped(numpy_function(lambda c: _decode_png_np(c, channels, dtype._np, "decode_png"),
                                  [_contents(contents)], dtype, name=name),
                   _image_shape(channels))


def _image_array(image, what, allowed, channels=(1, 2, 3, 4)):
    array = np.asarray(convert_to_tensor(image).numpy()) if not isinstance(
        image, np.ndarray) else image
    if array.ndim != 3 or array.shape[-1] not in channels or array.dtype not in allowed:
        raise InvalidArgumentError(
            f"{what}: image must be a [height, width, channels] tensor with channels in "
            f"{list(channels)} and dtype in {[np.dtype(a).name for a in allowed]}, got shape "
            f"{array.shape} and dtype {array.dtype}.")
    return array


def encode_png(image, compression=-1, name=None):
    """PNG bytes (a scalar string tensor) of a uint8 or uint16 image [height, width, 1-4]."""
    if not -1 <= int(compression) <= 9:
        raise InvalidArgumentError(f"encode_png: compression must be in [-1, 9], got "
                                   f"{compression}.")

    def run(array):
        array = _image_array(array, "encode_png", (np.uint8, np.uint16))
        return np.array(png.encode(array, int(compression)), dtype=object)
    return _shaped(numpy_function(run, [image], dtypes.string, name=name), [])


# -- JPEG ----------------------------------------------------------------------------------------
def _decode_jpeg_np(contents, channels, ratio, what, crop=None, truncated=False):
    data = _bytes(contents, what)
    if not data.startswith(_JPEG):
        raise InvalidArgumentError(f"{what}: the contents are not a JPEG image.")
    image_module = _pillow(what, "JPEG")
    from PIL import ImageFile  # optional dependency
    saved, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, bool(truncated)
    try:
        image = image_module.open(io.BytesIO(data))
        w, h = image.size
        if channels == 1 or ratio > 1:  # libjpeg's own grey (luma) output and DCT scaling
            image.draft("L" if channels == 1 else image.mode, (-(-w // ratio), -(-h // ratio)))
        image.load()
    except Exception as e:
        raise InvalidArgumentError(f"{what}: the contents are not a valid JPEG image "
                                   f"({type(e).__name__}: {e}).") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = saved
    if image.mode not in ("L", "RGB", "CMYK"):
        image = image.convert("RGB")
    array = np.asarray(image)
    array = array[..., None] if array.ndim == 2 else array
    if channels == 3 and array.shape[-1] == 1:
        array = np.repeat(array, 3, axis=-1)
    if crop is not None:
        y, x, ch, cw = (int(v) for v in crop)
        if y < 0 or x < 0 or ch <= 0 or cw <= 0 or y + ch > array.shape[0] \
                or x + cw > array.shape[1]:
            raise InvalidArgumentError(f"{what}: crop_window {[y, x, ch, cw]} must lie inside "
                                       f"the {array.shape[0]} x {array.shape[1]} image.")
        array = array[y:y + ch, x:x + cw]
    return np.ascontiguousarray(array)


def check_jpeg_decoding(what, dct_method, fancy_upscaling=True, acceptable_fraction=1,
                        truncated=False):
    """TensorFlow's decoding options, checked before anything runs. Pillow's libjpeg decodes
    with the accurate integer DCT and fancy upsampling: dct_method "INTEGER_ACCURATE" is that;
    "" and "INTEGER_FAST" (TensorFlow's default) read as the same accurate decoding, which may
    differ from TensorFlow's fast one by a level or two per pixel; any other name is
    TensorFlow's InvalidArgumentError. fancy_upscaling=False and, for a truncated image, an
    acceptable_fraction below 1 cannot be honoured and are refused (UnimplementedError)."""
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
        raise InvalidArgumentError(f"{what}: dct_method must be one of {{'', 'INTEGER_FAST', "
                                   f"'INTEGER_ACCURATE'}}, got {dct_method!r}.")
    if not fancy_upscaling:
        raise UnimplementedError(f"{what}: fancy_upscaling=False is not supported: Pillow's "
                                 "decoder always upsamples chroma smoothly; leave it True.")
    if truncated and acceptable_fraction != 1:
        raise UnimplementedError(f"{what}: acceptable_fraction={acceptable_fraction} is not "
                                 "supported: a truncated image is decoded whatever fraction of "
                                 "its lines it holds; leave it 1.")


def _check_jpeg_channels(channels, what):
    if channels not in (0, 1, 3):
        raise InvalidArgumentError(f"{what}: channels must be 0, 1 or 3, got {channels}.")


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """[height, width, channels] uint8 pixels of the JPEG bytes `contents` (ratio 2, 4, 8
    downscale while decoding); the options as check_jpeg_decoding says."""
    _check_jpeg_channels(channels, "decode_jpeg")
    check_jpeg_decoding("decode_jpeg", dct_method, fancy_upscaling, acceptable_fraction,
                        try_recover_truncated)
    if ratio not in (1, 2, 4, 8):
        raise InvalidArgumentError(f"decode_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}.")
    out = numpy_function(lambda c: _decode_jpeg_np(c, channels, ratio, "decode_jpeg",
                                                   truncated=try_recover_truncated),
                         [_contents(contents)], dtypes.uint8, name=name)
    return _shaped(out, _image_shape(channels))


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """decode_jpeg, then the window crop_window = [y, x, height, width] of the image."""
    _check_jpeg_channels(channels, "decode_and_crop_jpeg")
    check_jpeg_decoding("decode_and_crop_jpeg", dct_method, fancy_upscaling,
                        acceptable_fraction, try_recover_truncated)
    out = numpy_function(lambda c, w: _decode_jpeg_np(c, channels, ratio,
                                                      "decode_and_crop_jpeg", crop=w,
                                                      truncated=try_recover_truncated),
                         [_contents(contents), crop_window], dtypes.uint8, name=name)
    return _shaped(out, _image_shape(channels))


def _encode_jpeg_np(array, fmt, quality, progressive, optimize_size, chroma_downsampling,
                    density_unit, x_density, y_density, xmp_metadata):
    what = "encode_jpeg"
    array = _image_array(array, what, (np.uint8,), channels=(1, 3))
    expected = {"": array.shape[-1], "grayscale": 1, "rgb": 3}[fmt]
    if array.shape[-1] != expected:
        raise InvalidArgumentError(f"{what}: format {fmt!r} needs {expected} channel(s), the "
                                   f"image has {array.shape[-1]}.")
    image_module = _pillow(what, "JPEG")
    image = image_module.fromarray(array[..., 0] if expected == 1 else array,
                                   "L" if expected == 1 else "RGB")
    scale = 2.54 if density_unit == "cm" else 1.0
    options = {"quality": int(quality), "progressive": bool(progressive),
               "optimize": bool(optimize_size), "subsampling": 2 if chroma_downsampling else 0,
               "dpi": (x_density * scale, y_density * scale)}
    if xmp_metadata:
        options["xmp"] = xmp_metadata.encode() if isinstance(xmp_metadata, str) else xmp_metadata
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return np.array(buffer.getvalue(), dtype=object)


def encode_jpeg(image, format="", quality=95, progressive=False,  # noqa: A002
                optimize_size=False, chroma_downsampling=True, density_unit="in",
                x_density=300, y_density=300, xmp_metadata="", name=None):
    """JPEG bytes (a scalar string tensor) of a uint8 image [height, width, 1 or 3]."""
    if format not in ("", "grayscale", "rgb"):
        raise InvalidArgumentError(f"encode_jpeg: format must be '', 'grayscale' or 'rgb', got "
                                   f"{format!r}.")
    if not 0 <= int(quality) <= 100:
        raise InvalidArgumentError(f"encode_jpeg: quality must be in [0, 100], got {quality}.")
    if density_unit not in ("in", "cm"):
        raise InvalidArgumentError(f"encode_jpeg: density_unit must be 'in' or 'cm', got "
                                   f"{density_unit!r}.")
    return _shaped(numpy_function(
        lambda a: _encode_jpeg_np(a, format, quality, progressive, optimize_size,
                                  chroma_downsampling, density_unit, x_density, y_density,
                                  xmp_metadata), [image], dtypes.string, name=name), [])


def _jpeg_shape_np(contents, out):
    data, what = _bytes(contents, "extract_jpeg_shape"), "extract_jpeg_shape"
    if not data.startswith(_JPEG):
        raise InvalidArgumentError(f"{what}: the contents are not a JPEG image.")
    pos = 2
    while pos + 4 <= len(data):  # markers: 0xFF, kind, 2-byte length (which counts itself)
        if data[pos] != 0xFF:
            break
        kind, length = data[pos + 1], int.from_bytes(data[pos + 2:pos + 4], "big")
        if kind == 0xFF:
            pos += 1
            continue
        if 0xC0 <= kind <= 0xCF and kind not in (0xC4, 0xC8, 0xCC) and pos + 10 <= len(data):
            h, w = (int.from_bytes(data[pos + i:pos + i + 2], "big") for i in (5, 7))
            return np.array([h, w, data[pos + 9]], out)
        pos += 2 + length
    raise InvalidArgumentError(f"{what}: no frame header (SOF marker) found in the JPEG data.")


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of the JPEG bytes `contents`, read from its frame header."""
    out = _image_dtype(output_type, "extract_jpeg_shape", (dtypes.int32, dtypes.int64))
    return _shaped(numpy_function(lambda c: _jpeg_shape_np(c, out._np), [_contents(contents)],
                                  out, name=name), [3])


def is_jpeg(contents, name=None):
    """Whether the bytes start with JPEG's signature FF D8 FF (a bool scalar)."""
    return _shaped(numpy_function(lambda c: np.array(_bytes(c, "is_jpeg").startswith(_JPEG)),
                                  [_contents(contents)], dtypes.bool, name=name), [])


# -- GIF, BMP and any of them --------------------------------------------------------------------
def _decode_gif_np(contents, what="decode_gif"):
    data = _bytes(contents, what)
    if not data.startswith(_GIF):
        raise InvalidArgumentError(f"{what}: the contents are not a GIF image.")
    image = _open(data, what, "GIF")
    frames = []
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        frames.append(np.asarray(image.convert("RGB")))
    return np.stack(frames)


def decode_gif(contents, name=None):
    """[frames, height, width, 3] uint8 pixels of the (possibly animated) GIF `contents`."""
    return _shaped(numpy_function(_decode_gif_np, [_contents(contents)], dtypes.uint8,
                                  name=name), _image_shape(3, frames=True))


def _decode_bmp_np(contents, channels, what="decode_bmp"):
    data = _bytes(contents, what)
    if not data.startswith(_BMP):
        raise InvalidArgumentError(f"{what}: the contents are not a BMP image.")
    image = _open(data, what, "BMP")
    if image.mode not in ("L", "RGB", "RGBA"):
        image = image.convert("RGB")
    array = np.asarray(image)
    return _to_channels(array[..., None] if array.ndim == 2 else array, channels, what)


def decode_bmp(contents, channels=0, name=None):
    """[height, width, channels] uint8 pixels of the BMP bytes `contents`."""
    return _shaped(numpy_function(lambda c: _decode_bmp_np(c, channels), [_contents(contents)],
                                  dtypes.uint8, name=name), _image_shape(channels))


def _is_webp(data):
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def _decode_webp_np(contents, channels, what="decode_webp"):
    data = _bytes(contents, what)
    if not _is_webp(data):
        raise InvalidArgumentError(f"{what}: the contents are not a WebP image.")
    image = _open(data, what, "WebP")
    mode = "RGBA" if "A" in image.mode or "transparency" in image.info else "RGB"
    if channels not in (0, len(mode)):
        raise InvalidArgumentError(f"{what}: the number of channels requested ({channels}) does"
                                   f" not match the image's ({len(mode)}).")
    frames = []
    for k in range(getattr(image, "n_frames", 1)):
        image.seek(k)
        frames.append(np.asarray(image.convert(mode)))
    return np.stack(frames)


def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    """[frames, height, width, 3 or 4] uint8 pixels of the WebP bytes `contents` (a still
    image is one frame, as in TensorFlow)."""
    _image_dtype(dtype, "decode_webp", (dtypes.uint8,))
    return _shaped(numpy_function(lambda c: _decode_webp_np(c, channels),
                                  [_contents(contents)], dtypes.uint8, name=name),
                   _image_shape(channels, frames=True))


def _decode_any_np(contents, channels, dtype, expand_animations):
    """The decoded pixels in `dtype`: uint8 (or uint16) scaled as the decoders do, floats as
    convert_image_dtype makes them (cast, then times 1 / max of the integer type)."""
    wide = dtype != np.uint8
    out = _decode_any_format(contents, channels, wide, expand_animations)
    if dtype == np.uint16:
        return _to_depth(out, np.uint16)
    if wide:
        return out.astype(dtype) * dtype.type(1.0 / np.iinfo(out.dtype).max)
    return out


def _decode_any_format(contents, channels, sixteen, expand_animations):
    what = "decode_image"
    data = _bytes(contents, what)
    if data.startswith(_JPEG):
        return _decode_jpeg_np(contents, channels, 1, what)
    if data.startswith(png.SIGNATURE):
        return _decode_png_np(contents, channels, np.uint16 if sixteen else np.uint8, what)
    if data.startswith(_GIF):
        if channels not in (0, 3):
            raise InvalidArgumentError(f"{what}: channels must be 0 or 3 for GIF images, got "
                                       f"{channels}.")
        frames = _decode_gif_np(contents, what)
        return frames if expand_animations else frames[0]
    if data.startswith(_BMP):
        return _decode_bmp_np(contents, channels, what)
    if _is_webp(data):
        frames = _decode_webp_np(contents, channels, what)
        return frames if expand_animations else frames[0]
    raise InvalidArgumentError(f"{what}: unknown image file format; one of JPEG, PNG, GIF, BMP, "
                               f"WebP required.")


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """Any of JPEG, PNG, GIF, BMP or WebP bytes decoded by their signature, then converted to
    `dtype` as convert_image_dtype does (floats read 16-bit PNGs at full depth)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _PNG_DTYPES and not dtype.is_floating:
        raise InvalidArgumentError(f"decode_image: dtype must be uint8 or floating, got "
                                   f"{dtype.name}.")
    channels = channels or 0
    if channels not in (0, 1, 3, 4):
        raise InvalidArgumentError(f"decode_image: channels must be 0, 1, 3 or 4, got "
                                   f"{channels}.")
    out = numpy_function(lambda c: _decode_any_np(c, channels, np.dtype(dtype._np),
                                                   expand_animations),
                         [_contents(contents)], dtype, name=name)
    return out if expand_animations else _shaped(out, _image_shape(channels))
