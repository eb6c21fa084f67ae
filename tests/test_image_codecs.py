"""tf.image's codecs: exact PNG round trips, TensorFlow 2.21 reading wengert's bytes and wengert
reading TensorFlow's (when TensorFlow is installed), Pillow's formats (when Pillow is), and
the errors for corrupt bytes and for a missing Pillow."""
import io
import sys

import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, run_tf_or_skip
from wengert.ops.image import png

RNG = np.random.default_rng(18)


def pixels(*shape, dtype=np.uint8):
    return RNG.integers(0, np.iinfo(dtype).max + 1, shape).astype(dtype)


def smooth(h, w, c):
    """A smooth image, which JPEG keeps well."""
    y, x = np.meshgrid(np.linspace(0, 1, h), np.linspace(0, 1, w), indexing="ij")
    planes = [np.sin(3 * y + k) * np.cos(2 * x - k) for k in range(c)]
    return np.clip(np.stack(planes, -1) * 110 + 128, 0, 255).astype(np.uint8)


def as_bytes_array(data):
    return np.frombuffer(data, np.uint8)


try:
    import PIL  # noqa: F401
    HAVE_PIL = True
except ImportError:
    HAVE_PIL = False
pillow = pytest.mark.skipif(not HAVE_PIL, reason="Pillow is not installed")

IMAGES8 = {c: pixels(5, 7, c) for c in (1, 2, 3, 4)}
IMAGES16 = {c: pixels(4, 6, c, dtype=np.uint16) for c in (1, 2, 3, 4)}
SMOOTH = smooth(24, 32, 3)


@pytest.mark.parametrize("c", [1, 2, 3, 4])
@pytest.mark.parametrize("depth", [8, 16])
def test_png_round_trips_exactly(c, depth):
    x = (IMAGES8 if depth == 8 else IMAGES16)[c]
    data = png.encode(x)
    decoded, bits = png.decode(data)
    assert bits == depth and decoded.dtype == x.dtype
    np.testing.assert_array_equal(decoded, x)
    full = tf.image.decode_image(data, dtype=tf.float32).numpy()
    np.testing.assert_allclose(full, x / np.iinfo(x.dtype).max, rtol=1e-6)
    if depth == 8:
        encoded = tf.image.encode_png(x, compression=9)
        assert encoded.dtype == tf.string and encoded.shape == ()
        np.testing.assert_array_equal(tf.image.decode_png(encoded).numpy(), x)
        np.testing.assert_array_equal(tf.image.decode_image(encoded).numpy(), x)
    else:
        np.testing.assert_array_equal(tf.image.decode_png(data).numpy(), x >> 8)


def test_png_filters_are_undone():
    rows = np.arange(4 * 9, dtype=np.uint8).reshape(4, 9) * 7
    for kind in range(5):  # filter every scanline with `kind`, then decode
        h, stride, bpp = 4, 9, 3
        filtered = np.zeros((h, stride + 1), np.uint8)
        prev = np.zeros(stride, np.int32)
        for y in range(h):
            row = rows[y].astype(np.int32)
            left = np.concatenate([np.zeros(bpp, np.int32), row[:-bpp]])
            upleft = np.concatenate([np.zeros(bpp, np.int32), prev[:-bpp]])
            pred = [0 * row, left, prev, (left + prev) // 2,
                    png._paeth(left, prev, upleft)][kind]
            filtered[y] = np.concatenate([[kind], (row - pred) & 255])
            prev = row
        import struct
        import zlib
        header = struct.pack(">IIBBBBB", 3, 4, 8, 2, 0, 0, 0)
        data = (png.SIGNATURE + png._chunk(b"IHDR", header)
                + png._chunk(b"IDAT", zlib.compress(filtered.tobytes())) + png._chunk(b"IEND",
                                                                                 b""))
        np.testing.assert_array_equal(png.decode(data)[0], rows.reshape(4, 3, 3))


def test_png_channel_conversions():
    rgba = IMAGES8[4]
    data = tf.image.encode_png(rgba)
    np.testing.assert_array_equal(tf.image.decode_png(data, channels=3).numpy(), rgba[..., :3])
    gray = tf.image.decode_png(tf.image.encode_png(IMAGES8[1]), channels=4).numpy()
    np.testing.assert_array_equal(gray[..., :3], np.repeat(IMAGES8[1], 3, -1))
    assert np.all(gray[..., 3] == 255)
    one = tf.image.decode_png(data, channels=1).numpy()
    expected = (rgba[..., :3].astype(np.int64) @ np.array([9797, 19234, 3737])) >> 15
    np.testing.assert_array_equal(one[..., 0], expected)


@pillow
def test_jpeg_encode_decode_shape_and_signature():
    data = tf.image.encode_jpeg(SMOOTH, quality=90)
    assert bool(tf.image.is_jpeg(data)) and not bool(tf.image.is_jpeg(tf.image.encode_png(
        SMOOTH)))
    assert tf.image.extract_jpeg_shape(data).numpy().tolist() == [24, 32, 3]
    assert tf.image.extract_jpeg_shape(data, tf.int64).dtype == tf.int64
    out = tf.image.decode_jpeg(data).numpy()
    assert out.shape == SMOOTH.shape and np.abs(out.astype(int) - SMOOTH).mean() < 3
    assert tf.image.decode_jpeg(data, channels=1).shape == (24, 32, 1)
    assert tf.image.decode_jpeg(data, ratio=2).shape == (12, 16, 3)
    crop = tf.image.decode_and_crop_jpeg(data, [2, 3, 10, 12]).numpy()
    np.testing.assert_array_equal(crop, out[2:12, 3:15])
    gray = tf.image.encode_jpeg(SMOOTH[..., :1], format="grayscale")
    assert tf.image.decode_image(gray).shape == (24, 32, 1)
    floats = tf.image.decode_image(data, dtype=tf.float32).numpy()
    np.testing.assert_allclose(floats, out / 255.0, rtol=1e-6)


@pillow
def test_gif_and_bmp_through_pillow():
    from PIL import Image
    frames = [smooth(6, 8, 3), smooth(6, 8, 3)[::-1].copy()]
    buffer = io.BytesIO()
    images = [Image.fromarray(f).quantize(colors=256, dither=0).convert("RGB") for f in frames]
    images[0].save(buffer, "GIF", save_all=True, append_images=images[1:])
    gif = buffer.getvalue()
    out = tf.image.decode_gif(gif).numpy()
    assert out.shape == (2, 6, 8, 3) and out.dtype == np.uint8
    assert tf.image.decode_image(gif).shape == (2, 6, 8, 3)
    assert tf.image.decode_image(gif, expand_animations=False).shape == (6, 8, 3)
    buffer = io.BytesIO()
    Image.fromarray(IMAGES8[3]).save(buffer, "BMP")
    np.testing.assert_array_equal(tf.image.decode_bmp(buffer.getvalue()).numpy(), IMAGES8[3])
    np.testing.assert_array_equal(tf.image.decode_image(buffer.getvalue()).numpy(), IMAGES8[3])


def _webp(frames, **options):
    from PIL import Image
    buffer = io.BytesIO()
    images = [Image.fromarray(f) for f in frames]
    images[0].save(buffer, "WEBP", save_all=len(images) > 1, append_images=images[1:],
                   lossless=True, **options)
    return buffer.getvalue()


@pillow
def test_webp_still_and_animated():
    still, rgba = _webp([IMAGES8[3]]), _webp([IMAGES8[4]])
    out = tf.image.decode_webp(still)
    assert out.shape == (1, 5, 7, 3)
    np.testing.assert_array_equal(out.numpy()[0], IMAGES8[3])
    np.testing.assert_array_equal(tf.image.decode_webp(rgba).numpy()[0], IMAGES8[4])
    assert tf.image.decode_image(still, expand_animations=False).shape == (5, 7, 3)
    moving = _webp([IMAGES8[3], IMAGES8[3][::-1].copy()])
    frames = tf.image.decode_webp(moving).numpy()  # Pillow reads animations as RGBA
    np.testing.assert_array_equal(frames[..., :3], np.stack([IMAGES8[3], IMAGES8[3][::-1]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels requested"):
        tf.image.decode_webp(still, channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="decode_webp"):
        tf.image.decode_webp(b"RIFF\x10\x00\x00\x00WEBPVP8 broken\x00\x00")


@pillow
def test_jpeg_quality_augmentations():
    x = SMOOTH.astype(np.float32) / 255
    out = tf.image.adjust_jpeg_quality(x, 75)
    assert out.dtype == tf.float32 and out.shape == x.shape
    assert np.abs(out.numpy() - x).mean() < 0.02
    a = tf.image.stateless_random_jpeg_quality(np.stack([x, x]), 40, 90, [3, 4]).numpy()
    np.testing.assert_array_equal(a, tf.image.stateless_random_jpeg_quality(
        np.stack([x, x]), 40, 90, [3, 4]).numpy())
    assert tf.image.random_jpeg_quality(SMOOTH, 50, 60).dtype == tf.uint8
    with pytest.raises(ValueError, match="between 0 and 100"):
        tf.image.random_jpeg_quality(x, 50, 101)
    with pytest.raises(ValueError, match="must be less than"):
        tf.image.stateless_random_jpeg_quality(x, 60, 60, [1, 2])


def test_codecs_work_inside_a_traced_function():
    @tf.function
    def round_trip(image):
        return tf.image.decode_png(tf.image.encode_png(image), channels=3)
    np.testing.assert_array_equal(round_trip(IMAGES8[3]).numpy(), IMAGES8[3])


@pytest.mark.parametrize("call,match", [
    (lambda: tf.image.decode_png(b"\x89PNG\r\n\x1a\n" + b"\x00" * 30), "decode_png"),
    (lambda: tf.image.decode_png(b"not a png"), "decode_png: the contents are not a PNG"),
    (lambda: tf.image.decode_png(png.encode(IMAGES8[3])[:-30]), "decode_png"),
    (lambda: tf.image.decode_image(b"garbage bytes"), "decode_image: unknown image file"),
    (lambda: tf.image.decode_jpeg(b"GIF89a..."), "decode_jpeg: the contents are not a JPEG"),
    (lambda: tf.image.extract_jpeg_shape(b"\xff\xd8\xff\xd9"), "extract_jpeg_shape"),
    (lambda: tf.image.encode_png(IMAGES8[3].astype(np.int32)), "encode_png: image must be"),
    (lambda: tf.image.encode_png(IMAGES8[3][0]), "encode_png: image must be"),
    (lambda: tf.image.encode_png(IMAGES8[3], compression=12), "compression"),
    (lambda: tf.image.decode_png(png.encode(IMAGES8[3]), channels=5), "channels must be"),
])
def test_corrupt_bytes_and_bad_arguments_name_the_function(call, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        call()


@pillow
@pytest.mark.parametrize("call,match", [
    (lambda: tf.image.decode_jpeg(b"\xff\xd8\xff\xe0garbage"), "decode_jpeg: the contents are"),
    (lambda: tf.image.decode_gif(b"GIF89a" + b"\x00" * 10), "decode_gif"),
    (lambda: tf.image.encode_jpeg(IMAGES8[4]), "encode_jpeg: image must be"),
    (lambda: tf.image.encode_jpeg(IMAGES8[3], format="grayscale"), "format 'grayscale'"),
])
def test_corrupt_pillow_formats_name_the_function(call, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        call()


def test_without_pillow_png_still_works_and_the_rest_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    data = png.encode(IMAGES8[3])
    np.testing.assert_array_equal(tf.image.decode_png(data).numpy(), IMAGES8[3])
    with pytest.raises(ImportError, match=r'pip install "wengert\[image\]"'):
        tf.image.decode_jpeg(b"\xff\xd8\xff\xe0" + b"\x00" * 20)
    with pytest.raises(ImportError, match="Pillow"):
        tf.image.encode_jpeg(SMOOTH)


# -- against TensorFlow ------------------------------------------------------------------------
_MINE_PNG = {c: png.encode(IMAGES8[c]) for c in (1, 2, 3, 4)}
TF_CASES = [TFCase(f"tf_reads_png_{c}", "tf.image.decode_png(x0.numpy().tobytes())", None,
                   [as_bytes_array(_MINE_PNG[c])]) for c in (1, 2, 3, 4)] + [
    TFCase("tf_reads_png16", "tf.image.decode_png(x0.numpy().tobytes(), dtype=tf.uint16)",
           None, [as_bytes_array(png.encode(IMAGES16[3]))]),
    TFCase("tf_png_bytes", "tf.io.decode_raw(tf.image.encode_png(x0), tf.uint8)", None,
           [IMAGES8[3]]),
    TFCase("tf_png16_bytes", "tf.io.decode_raw(tf.image.encode_png(tf.cast(x0, tf.uint16)), "
           "tf.uint8)", None, [IMAGES16[4].astype(np.int32)]),
    TFCase("tf_gray", "tf.image.decode_png(tf.image.encode_png(x0), channels=1)", None,
           [pixels(40, 50, 3)]),
    TFCase("tf_gray16", "tf.cast(tf.image.decode_png(tf.image.encode_png(tf.cast(x0, "
           "tf.uint16)), channels=1, dtype=tf.uint16), tf.int32)", None,
           [pixels(30, 40, 3, dtype=np.uint16).astype(np.int32)]),
    TFCase("tf_jpeg_bytes", "tf.io.decode_raw(tf.image.encode_jpeg(x0, quality=85), "
           "tf.uint8)", None, [SMOOTH]),
    TFCase("tf_jpeg_decoded", "[tf.image.decode_jpeg(tf.image.encode_jpeg(x0, quality=85), "
           "channels=c, dct_method='INTEGER_ACCURATE') for c in (0, 1, 3)]", None, [SMOOTH]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(TF_CASES)


def _out(results, name, k=0):
    result = results[name]
    assert "error" not in result, result.get("error")
    return result["outputs"][k]


@pytest.mark.parametrize("c", [1, 2, 3, 4])
def test_tensorflow_reads_wengerts_png(c, tf_results):
    np.testing.assert_array_equal(_out(tf_results, f"tf_reads_png_{c}"), IMAGES8[c])


def test_tensorflow_reads_wengerts_16_bit_png(tf_results):
    np.testing.assert_array_equal(_out(tf_results, "tf_reads_png16"), IMAGES16[3])


def test_wengert_reads_tensorflows_png(tf_results):
    data = _out(tf_results, "tf_png_bytes").tobytes()
    np.testing.assert_array_equal(tf.image.decode_png(data).numpy(), IMAGES8[3])
    data16 = _out(tf_results, "tf_png16_bytes").tobytes()
    np.testing.assert_array_equal(png.decode(data16)[0], IMAGES16[4])
    np.testing.assert_array_equal(tf.image.decode_png(data16).numpy(), IMAGES16[4] >> 8)
    np.testing.assert_allclose(tf.image.decode_image(data16, dtype=tf.float32).numpy(),
                               IMAGES16[4] / 65535.0, rtol=1e-6)


def test_grey_conversion_matches_tensorflow(tf_results):
    rgb = TF_CASES[7].inputs[0]
    mine = tf.image.decode_png(tf.image.encode_png(rgb), channels=1).numpy()
    np.testing.assert_array_equal(mine, _out(tf_results, "tf_gray"))
    mine16 = png.decode(png.encode(TF_CASES[8].inputs[0].astype(np.uint16)))[0]
    from wengert.ops.image.codecs import _to_channels
    np.testing.assert_array_equal(_to_channels(mine16, 1, "t"), _out(tf_results, "tf_gray16"))


@pillow
def test_tensorflow_reads_pillows_webp_as_wengert_does():
    from tf_ops_reference import run_tf
    from tf_reference import tf_python
    data = {c: _webp([IMAGES8[c]]) for c in (3, 4)}
    cases = [TFCase(f"webp{c}", "tf.image.decode_webp(x0.numpy().tobytes())", None,
                    [as_bytes_array(data[c])]) for c in (3, 4)]
    results = run_tf(cases, tf_python())
    for c in (3, 4):
        np.testing.assert_array_equal(tf.image.decode_webp(data[c]).numpy(),
                                      _out(results, f"webp{c}"))


@pillow
def test_wengert_reads_tensorflows_jpeg_as_tensorflow_does(tf_results):
    """Pillow's libjpeg decodes with the accurate integer DCT: TensorFlow's INTEGER_ACCURATE."""
    data = _out(tf_results, "tf_jpeg_bytes").tobytes()
    assert tf.image.extract_jpeg_shape(data).numpy().tolist() == [24, 32, 3]
    for k, channels in enumerate((0, 1, 3)):
        mine = tf.image.decode_jpeg(data, channels=channels).numpy().astype(int)
        theirs = _out(tf_results, "tf_jpeg_decoded", k).astype(int)
        np.testing.assert_array_equal(mine, theirs, err_msg=f"channels={channels}")


def test_decoders_and_augmentations_compose_in_a_tf_data_pipeline():
    images = [IMAGES8[3], IMAGES8[3][::-1].copy()]
    ds = tf.data.Dataset.from_tensor_slices([png.encode(x) for x in images]).map(
        lambda b: tf.image.random_crop(tf.image.random_flip_left_right(
            tf.image.decode_png(b, channels=3)), [3, 4, 3]))
    out = [t.numpy() for t in ds]
    assert [o.shape for o in out] == [(3, 4, 3)] * 2

    @tf.function
    def shapes(data):
        decoded = tf.image.decode_png(data, channels=4)
        begin, size, boxes = tf.image.stateless_sample_distorted_bounding_box(
            [5, 7, 3], [[[0.0, 0.0, 1.0, 1.0]]], [1, 2])
        assert decoded.shape.as_list() == [None, None, 4]
        assert begin.shape.as_list() == [3] and boxes.shape.as_list() == [1, 1, 4]
        return decoded, begin
    decoded, begin = shapes(tf.image.encode_png(IMAGES8[3]))
    assert decoded.shape == (5, 7, 4) and begin.shape == (3,)
