"""tf.strings' ragged results against TensorFlow 2.21: split and bytes_split of inputs of any
rank, unicode_decode/unicode_split with and without offsets (invalid bytes, 'ignore', control
characters, UTF-16 and UTF-32), unicode_encode of ragged code points and unicode_script.
TensorFlow's answers (strings, so not in an .npz) are written below as it printed them."""
import numpy as np
import pytest

import wengert as tf

TF_ANSWERS = {
    "split2d": [[[b"a", b"b"], [b"c"]], [[b"d", b"e", b"f"], []]],
    "split_ragged": [[[b"a", b"b"]], [[b"c", b"d"], [b"e"]]],
    "split_scalar": [b"a", b"b"],
    "split_sep": [[b"a", b"b", b"", b"c"], [b""]],
    "split_max": [[b"a", b"b c"]],
    "bytes2d": [[[b"a", b"b"], [b"c"]]],
    "bytes_ragged": [[[b"a", b"b"]], [[b"c"], [b"d", b"e"]]],
    "decode": [[104, 233, 108, 108, 111], [20013]],
    "decode_scalar": [104, 233, 108, 108, 111],
    "decode_bad": [[97, 65533, 98]],
    "decode_ignore": [[97, 98]],
    "decode2d": [[[97, 98], [99]], [[100], [101, 102]]],
    "decode_ragged": [[[97, 98]], [[99], [100]]],
    "decode_utf16": [[24930], [65533]],
    "decode_utf32_bad": [[65533]],
    "decode_repl": [[97, 98, 63]],
    "offsets": ([[97, 65533, 98, 65533, 65533], [128512, 120]], [[0, 1, 3, 4, 5], [0, 4]]),
    "offsets_ignore": ([[97, 98]], [[0, 3]]),
    "offsets_ctrl": ([[97, 65533, 98]], [[0, 1, 2]]),
    "offsets_utf16": ([[97, 65533, 98, 128512]], [[0, 2, 4, 6]]),
    "usplit": [[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"\xe4\xb8\xad"]],
    "usplit_bad": [[b"a", b"\xef\xbf\xbd", b"b"]],
    "usplit_utf16": [[b"\x00a", b"\x00b"]],
    "usplit_repl": [[b"a", b"b", b"?"]],
    "usplit_offsets": ([[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"\xe4\xb8\xad"]],
                       [[0, 1, 3, 4, 5], [0]]),
    "encode_ragged": [b"hi", b"j"],
    "encode_ragged3": [[b"hi", b"j"], [b"k"]],
    "script": [25, 25, 17, 22, 0, 0, 2, -1, -1],
    "script_ragged": [[25], [17, 0]],
}

CASES = {
    "split2d": lambda: tf.strings.split([["a b", "c"], ["d e f", ""]]),
    "split_ragged": lambda: tf.strings.split(tf.ragged.constant([["a b"], ["c d", "e"]])),
    "split_scalar": lambda: tf.strings.split("a b"),
    "split_sep": lambda: tf.strings.split(["a,b,,c", ""], sep=","),
    "split_max": lambda: tf.strings.split(["a b c"], maxsplit=1),
    "bytes2d": lambda: tf.strings.bytes_split([["ab", "c"]]),
    "bytes_ragged": lambda: tf.strings.bytes_split(tf.ragged.constant([["ab"], ["c", "de"]])),
    "decode": lambda: tf.strings.unicode_decode(["héllo", "中"], "UTF-8"),
    "decode_scalar": lambda: tf.strings.unicode_decode("héllo", "UTF-8"),
    "decode_bad": lambda: tf.strings.unicode_decode([b"a\xffb"], "UTF-8"),
    "decode_ignore": lambda: tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="ignore"),
    "decode2d": lambda: tf.strings.unicode_decode([["ab", "c"], ["d", "ef"]], "UTF-8"),
    "decode_ragged": lambda: tf.strings.unicode_decode(tf.ragged.constant([["ab"], ["c", "d"]]),
                                                       "UTF-8"),
    "decode_utf16": lambda: tf.strings.unicode_decode(["ab", "c"], "UTF-16-BE"),
    "decode_utf32_bad": lambda: tf.strings.unicode_decode([b"\x00\x11\x00\x00"], "UTF-32-BE"),
    "decode_repl": lambda: tf.strings.unicode_decode([b"ab\xc3"], "UTF-8", replacement_char=63),
    "offsets": lambda: tf.strings.unicode_decode_with_offsets(
        [b"a\xe4\xb8b\xff\xfe", b"\xf0\x9f\x98\x80x"], "UTF-8"),
    "offsets_ignore": lambda: tf.strings.unicode_decode_with_offsets(
        [b"a\xe4\xb8b\xff\xfe"], "UTF-8", errors="ignore"),
    "offsets_ctrl": lambda: tf.strings.unicode_decode_with_offsets(
        [b"a\x01b"], "UTF-8", replace_control_characters=True),
    "offsets_utf16": lambda: tf.strings.unicode_decode_with_offsets(
        [b"\x00a\xd8\x00\x00b\xd8\x3d\xde\x00"], "UTF-16-BE"),
    "usplit": lambda: tf.strings.unicode_split(["héllo", "中"], "UTF-8"),
    "usplit_bad": lambda: tf.strings.unicode_split([b"a\xffb"], "UTF-8"),
    "usplit_utf16": lambda: tf.strings.unicode_split(tf.constant(["\x00a\x00b"]), "UTF-16-BE"),
    "usplit_repl": lambda: tf.strings.unicode_split([b"ab\xc3"], "UTF-8", replacement_char=63),
    "usplit_offsets": lambda: tf.strings.unicode_split_with_offsets(["héllo", "中"], "UTF-8"),
    "encode_ragged": lambda: tf.strings.unicode_encode(tf.ragged.constant([[104, 105], [106]]),
                                                       "UTF-8"),
    "encode_ragged3": lambda: tf.strings.unicode_encode(
        tf.ragged.constant([[[104, 105], [106]], [[107]]]), "UTF-8"),
    "script": lambda: tf.strings.unicode_script(
        [ord(c) for c in "aé中ア1 ﷺ"] + [-1, 0x110000]),
    "script_ragged": lambda: tf.strings.unicode_script(tf.ragged.constant([[97], [20013, 1]])),
}


def _plain(value):
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, tf.RaggedTensor):
        return value.to_list()
    return value.numpy().tolist()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    assert _plain(CASES[name]()) == TF_ANSWERS[name]


def test_ragged_shapes_are_tensorflows():
    words = tf.strings.split([["a b", "c"], ["d e f", ""]])
    assert words.shape.as_list() == [2, 2, None] and words.ragged_rank == 2
    assert int(words.uniform_row_length) == 2
    assert words.values.row_splits.numpy().tolist() == [0, 2, 3, 6, 6]
    points = tf.strings.unicode_decode(tf.ragged.constant([["ab"], ["c", "d"]]), "UTF-8")
    assert points.shape.as_list() == [2, None, None] and points.dtype == tf.int32


def test_in_a_traced_function():
    @tf.function
    def chars(s):
        points, offsets = tf.strings.unicode_decode_with_offsets(s, "UTF-8")
        return points.flat_values, offsets.row_splits, tf.strings.split(s).flat_values

    points, splits, words = chars(tf.constant(["hé y", "中"]))
    assert points.numpy().tolist() == [104, 233, 32, 121, 20013]
    assert splits.numpy().tolist() == [0, 4, 5]
    assert words.numpy().tolist() == [b"h\xc3\xa9", b"y", b"\xe4\xb8\xad"]


def test_raw_ops():
    splits, points = tf.raw_ops.UnicodeDecode(input=["ab", "c"], input_encoding="UTF-8")
    assert splits.numpy().tolist() == [0, 2, 3] and points.numpy().tolist() == [97, 98, 99]
    splits, points, offsets = tf.raw_ops.UnicodeDecodeWithOffsets(input=["aé"],
                                                                  input_encoding="UTF-8")
    assert offsets.numpy().tolist() == [0, 1]
    assert tf.raw_ops.UnicodeScript(input=[97, 20013]).numpy().tolist() == [25, 17]


def test_script_table_covers_every_code_point():
    codes = np.array([0, 0x41, 0x3b1, 0x5d0, 0x627, 0x915, 0xe01, 0xac00, 0x10ffff], np.int32)
    scripts = tf.strings.unicode_script(codes).numpy().tolist()
    assert scripts == [0, 25, 14, 19, 2, 10, 38, 18, 103]


def test_bad_input():
    with pytest.raises(tf.errors.InvalidArgumentError, match="index 0.*offset 1"):
        tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="EBCDIC"):
        tf.strings.unicode_decode(["a"], "EBCDIC")
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        tf.strings.unicode_split(["a"], "UTF-8", errors="loose")
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 code points"):
        tf.strings.unicode_script([1.5])
