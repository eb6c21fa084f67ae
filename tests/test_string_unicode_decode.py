"""tf.strings.unicode_decode, unicode_decode_with_offsets, unicode_split and
unicode_split_with_offsets against TensorFlow 2.21, argument by argument: every input encoding
TensorFlow's decoders take (UTF-8, UTF-16-BE, UTF-32-BE, and ICU's other names for them),
errors 'replace' / 'ignore' / 'strict', replacement_char, replace_control_characters, on
scalar, vector, matrix and ragged inputs holding invalid sequences (truncated, overlong,
surrogates, lone halves of UTF-16 pairs, code points past U+10FFFF), compared as the ragged
tensors (values, row splits, dtypes, static shapes) or errors TensorFlow returns
(tf_expressions.py; answers stored in tests/references/)."""
import pytest

import wengert as tf
from tf_expressions import tf_results, wengert_result

INPUTS = {
    "scalar": '"h\\u00e9llo"',
    "vector": '["h\\u00e9llo", "\\u4e2d", ""]',
    "matrix": '[["ab", "c"], ["d", "\\u00e9f"]]',
    "ragged": 'tf.ragged.constant([["ab"], ["c", "d\\u00e9"], []])',
    "ragged3": 'tf.ragged.constant([[["ab", "c"]], [["d"]]])',
    "bad_utf8": '[b"a\\xe4\\xb8b\\xff\\xfe", b"\\xf0\\x9f\\x98\\x80x\\x01\\x1f\\x7f", b"\\xc3",'
                ' b"\\xed\\xa0\\x80z", b"\\xc0\\xafq"]',
    "bad_utf16": '[b"\\x00a\\xd8\\x00\\x00b\\xd8\\x3d\\xde\\x00", b"\\x00", '
                 'b"\\xdc\\x00\\x00\\x01\\x00c"]',
    "bad_utf32": '[b"\\x00\\x00\\x00a\\x00\\x11\\x00\\x00\\x00\\x00\\xd8\\x00\\x00\\x01\\xf6'
                 '\\x00\\x00", b"\\x00\\x00\\x00\\x01\\x00\\x00"]',
    "controls": 'tf.constant([["a\\x01", "b\\x1f\\x7f"]])',
}
ENCODINGS = ["UTF-8", "UTF-16-BE", "UTF-32-BE"]
FUNCTIONS = ["unicode_decode_with_offsets", "unicode_split_with_offsets"]
EXTRAS = ["", ", replacement_char=63", ", replace_control_characters=True",
          ", replacement_char=0x10FFFF, replace_control_characters=True"]


def _cases():
    cases = {}
    for name, text in INPUTS.items():
        for encoding in ENCODINGS:
            for errors in ("replace", "ignore", "strict"):
                call = f"({text}, '{encoding}', errors='{errors}'"
                for fn in FUNCTIONS:
                    cases[f"{fn}-{name}-{encoding}-{errors}"] = f"tf.strings.{fn}{call})"
                for extra in EXTRAS[1:]:
                    cases[f"decode-{name}-{encoding}-{errors}{extra}"] = \
                        f"tf.strings.unicode_decode{call}{extra})"
    plain = {f"{fn}-{name}": f"tf.strings.{fn}({text}, 'UTF-8')" for name, text in
             INPUTS.items() for fn in ("unicode_decode", "unicode_split")}
    return {**cases, **plain, **SPECIAL}


SPECIAL = {
    "alias_utf8": "tf.strings.unicode_decode(['ab\\u00e9'], 'utf8')",
    "alias_utf_16_be": "tf.strings.unicode_decode([b'\\x00a'], 'utf_16_be')",
    "alias_latin1": "tf.strings.unicode_decode([b'a\\xe9'], 'latin1')",
    "iso_8859_1": "tf.strings.unicode_decode([b'a\\xe9'], 'ISO-8859-1')",
    "us_ascii": "tf.strings.unicode_decode([b'a\\xe9'], 'US-ASCII')",
    "utf16_le": "tf.strings.unicode_decode([b'a\\x00\\x3d\\xd8\\x00\\xde'], 'UTF-16-LE')",
    "split_utf16_le": "tf.strings.unicode_split(['ab'], 'UTF-16-LE')",
    "split_lowercase": "tf.strings.unicode_split(['ab'], 'utf-8')",
    "unknown_encoding": "tf.strings.unicode_decode(['a'], 'EBCDIC')",
    "empty_encoding": "tf.strings.unicode_decode(['a'], '')",
    "bad_errors": "tf.strings.unicode_decode(['a'], 'UTF-8', errors='loose')",
    "int_input": "tf.strings.unicode_decode([1], 'UTF-8')",
    "float_input": "tf.strings.unicode_decode([1.0], 'UTF-8')",
    "replacement_too_big": "tf.strings.unicode_decode([b'a\\xff'], 'UTF-8', "
                           "replacement_char=0x110000)",
    "replacement_negative": "tf.strings.unicode_split([b'a\\xff'], 'UTF-8', replacement_char=-5)",
    "replacement_surrogate": "tf.strings.unicode_decode_with_offsets([b'a\\xff'], 'UTF-8', "
                             "replacement_char=0xD800)",
    "split_replacement_surrogate": "tf.strings.unicode_split([b'a\\xff'], 'UTF-8', "
                                   "replacement_char=0xD800)",
    "empty_vector": "tf.strings.unicode_decode_with_offsets(tf.constant([], tf.string), 'UTF-8')",
    "empty_matrix": "tf.strings.unicode_decode(tf.zeros([2, 0], tf.string), 'UTF-8')",
    "empty_split": "tf.strings.unicode_split(tf.constant([], tf.string), 'UTF-8')",
    "rank3": "tf.strings.unicode_split_with_offsets(tf.constant([[['ab']], [['c']]]), 'UTF-8')",
    "uniform_rows": "tf.strings.unicode_decode(tf.RaggedTensor.from_uniform_row_length("
                    "['ab', 'c', 'd', 'e'], 2), 'UTF-8')",
    "int32_splits": "tf.strings.unicode_decode(tf.ragged.constant([['ab'], ['c']], "
                    "row_splits_dtype=tf.int32), 'UTF-8')",
    "raw_decode": "tf.raw_ops.UnicodeDecode(input=['ab', 'c'], input_encoding='UTF-8')",
    "raw_decode_int32": "tf.raw_ops.UnicodeDecode(input=['ab', 'c'], input_encoding='UTF-8', "
                        "Tsplits=tf.int32)",
    "raw_decode_matrix": "tf.raw_ops.UnicodeDecode(input=[['ab'], ['c']], "
                         "input_encoding='UTF-8')",
    "raw_offsets": "tf.raw_ops.UnicodeDecodeWithOffsets(input=[b'a\\x01\\xff'], "
                   "input_encoding='UTF-8', errors='ignore', replace_control_characters=True)",
    "raw_offsets_scalar": "tf.raw_ops.UnicodeDecodeWithOffsets(input='a\\u00e9', "
                          "input_encoding='UTF-8', errors='replace', replacement_char=0)",
}
CASES = _cases()


@pytest.fixture(scope="module")
def theirs():
    return tf_results(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, theirs):
    assert wengert_result(CASES[name]) == theirs[name], CASES[name]


def test_in_a_traced_function():
    @tf.function
    def chars(s):
        points, offsets = tf.strings.unicode_decode_with_offsets(
            s, "UTF-8", errors="ignore", replace_control_characters=True)
        return points.flat_values, offsets.flat_values, points.row_splits

    points, offsets, splits = chars(tf.constant([b"a\x01\xffb", b"\xc3\xa9"]))
    assert points.numpy().tolist() == [97, 98, 233]
    assert offsets.numpy().tolist() == [0, 3, 0]
    assert splits.numpy().tolist() == [0, 2, 3]


def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="index 1.*offset 0"):
        tf.strings.unicode_decode([b"a", b"\xff"], "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="converter.*EBCDIC"):
        tf.strings.unicode_decode(["a"], "EBCDIC")
    with pytest.raises(tf.errors.InvalidArgumentError, match="replacement_char out of unicode"):
        tf.strings.unicode_decode(["a"], "UTF-8", replacement_char=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="string tensor but is a int32"):
        tf.strings.unicode_decode([1], "UTF-8")
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_encoding.*utf-8"):
        tf.strings.unicode_split(["a"], "utf-8")
    with pytest.raises(ValueError, match="with_row_splits_dtype"):
        tf.strings.unicode_split(tf.ragged.constant([["a"]], row_splits_dtype=tf.int32), "UTF-8")
