"""The tf.strings ops on RaggedTensors and the ones whose results are ragged, against TensorFlow
2.21: split (whitespace or a separator, with maxsplit), bytes_split, unicode_split and ngrams
of ragged inputs of ragged rank 1 and 2, uniform rows and int32 row splits; the elementwise
string ops (length, upper, lower, strip, substr, regex_replace, regex_full_match, join,
as_string, to_number, the hash buckets, unicode_transcode) on ragged inputs, which act on the
flat values; reduce_join of ragged inputs along each axis, with keepdims. Compared as the ragged
tensors (values, row splits, dtypes, static shapes) or error classes TensorFlow returns
(tf_expressions.py; answers stored in tests/references/)."""
import pytest

import wengert as tf
from tf_expressions import tf_results, wengert_result

INPUTS = {
    "r2": "tf.ragged.constant([['a b', 'c d e'], [], ['f']])",
    "r3": "tf.ragged.constant([[['a b'], ['c d e', 'x']], [], [['f']]])",
    "int32": "tf.ragged.constant([['a b', 'c'], ['d']], row_splits_dtype=tf.int32)",
    "uniform": "tf.RaggedTensor.from_uniform_row_length(['a b', 'c', 'd e', 'f'], 2)",
}
OPS = {
    "split": "tf.strings.split({x})",
    "split_maxsplit": "tf.strings.split({x}, maxsplit=1)",
    "split_sep_maxsplit": "tf.strings.split({x}, sep=' ', maxsplit=1)",
    "bytes_split": "tf.strings.bytes_split({x})",
    "unicode_split": "tf.strings.unicode_split({x}, 'UTF-8')",
    "length": "tf.strings.length({x})",
    "length_chars": "tf.strings.length({x}, unit='UTF8_CHAR')",
    "upper": "tf.strings.upper({x})",
    "lower": "tf.strings.lower({x})",
    "strip": "tf.strings.strip({x})",
    "substr": "tf.strings.substr({x}, 1, 2)",
    "substr_chars": "tf.strings.substr({x}, 1, 2, unit='UTF8_CHAR')",
    "regex_replace": "tf.strings.regex_replace({x}, ' ', '_')",
    "regex_full_match": "tf.strings.regex_full_match({x}, '.*b')",
    "join": "tf.strings.join([{x}, {x}], separator='+')",
    "join_scalar": "tf.strings.join([{x}, '!'])",
    "as_string": "tf.strings.as_string(tf.strings.length({x}))",
    "to_number": "tf.strings.to_number(tf.strings.as_string(tf.strings.length({x})))",
    "hash_bucket": "tf.strings.to_hash_bucket({x}, 10)",
    "hash_bucket_fast": "tf.strings.to_hash_bucket_fast({x}, 10)",
    "hash_bucket_strong": "tf.strings.to_hash_bucket_strong({x}, 10, [1, 2])",
    "transcode": "tf.strings.unicode_transcode({x}, 'UTF-8', 'UTF-16-BE')",
    "decode_encode": "tf.strings.unicode_encode(tf.strings.unicode_decode({x}, 'UTF-8'), "
                     "'UTF-8')",
    "script": "tf.strings.unicode_script(tf.strings.unicode_decode({x}, 'UTF-8'))",
    "reduce_join_last": "tf.strings.reduce_join({x}, axis=-1, separator='|')",
    "reduce_join_0": "tf.strings.reduce_join({x}, axis=0, separator='|')",
    "reduce_join_1": "tf.strings.reduce_join({x}, axis=1)",
    "reduce_join_keepdims": "tf.strings.reduce_join({x}, axis=-1, keepdims=True)",
    "ngrams": "tf.strings.ngrams({x}, 2)",
    "ngrams_of_words": "tf.strings.ngrams(tf.strings.split({x}), 2, separator='_')",
    "ngrams_padded": "tf.strings.ngrams(tf.strings.split({x}), (1, 3), pad_values=('<', '>'), "
                     "padding_width=1)",
    "ngrams_short": "tf.strings.ngrams(tf.strings.split({x}), 3, pad_values='#', "
                    "preserve_short_sequences=True)",
    "words_replaced": "tf.strings.regex_replace(tf.strings.split({x}), '[aeiou]', '*')",
    "word_lengths": "tf.strings.length(tf.strings.split({x}))",
    "words_padded": "tf.strings.split({x}).to_tensor(default_value='PAD')",
    "equal": "tf.equal({x}, 'f')",
}
SPECIAL = {
    "split_whitespace_maxsplit": "tf.strings.split(['a b c d', 'e', '  f  g ', 'h i '], "
                                 "maxsplit=2)",
    "split_sep_maxsplit": "tf.strings.split(['a,b,c,d', 'e', ',f,,g,'], sep=',', maxsplit=2)",
    "split_multichar_sep": "tf.strings.split(['a<>b<>c', '<><>'], sep='<>')",
    "split_maxsplit_0": "tf.strings.split(['a b c', '  d ', ''], maxsplit=0)",
    "split_scalar_maxsplit": "tf.strings.split('a b c', maxsplit=1)",
    "split_matrix_maxsplit": "tf.strings.split([['a b c'], ['d e']], sep=' ', maxsplit=1)",
    "split_empty_sep": "tf.strings.split(['a bc'], sep='')",
    "bytes_split_scalar": "tf.strings.bytes_split('abc')",
    "bytes_split_empty": "tf.strings.bytes_split(['', 'ab'])",
    "ngrams_matrix": "tf.strings.ngrams([['a', 'b', 'c'], ['d', 'e', 'f']], 2)",
    "ngrams_vector": "tf.strings.ngrams(['a', 'b', 'c'], (2, 3))",
    "ngrams_int32_splits": "tf.strings.ngrams(tf.ragged.constant([['a', 'b', 'c'], ['d']], "
                           "row_splits_dtype=tf.int32), 2)",
    "ngrams_bad_padding_width": "tf.strings.ngrams(tf.ragged.constant([['a']]), 3, "
                                "pad_values='#', padding_width=-1)",
    "ngrams_padding_width_alone": "tf.strings.ngrams(['a', 'b'], 2, padding_width=1)",
    "ngrams_bad_width": "tf.strings.ngrams(['a', 'b'], 0)",
    "ngrams_default_padding": "tf.strings.ngrams(tf.ragged.constant([['a', 'b', 'c'], ['d']]),"
                              " 3, pad_values='#')",
    "reduce_join_split": "tf.strings.reduce_join(tf.strings.split(['ab cd', 'ef', '']), "
                         "axis=1, separator=' ')",
    "reduce_join_split_matrix": "tf.strings.reduce_join(tf.strings.split([['ab cd', 'ef'], "
                                "['', 'x']]), axis=-1, separator=' ')",
    "reduce_join_split_middle": "tf.strings.reduce_join(tf.strings.split([['ab cd', 'ef'], "
                                "['', 'x']]), axis=1, separator=' ')",
}
CASES = {**{f"{op}-{name}": text.format(x=x) for op, text in OPS.items()
            for name, x in INPUTS.items()}, **SPECIAL}


@pytest.fixture(scope="module")
def theirs():
    return tf_results(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, theirs):
    assert wengert_result(CASES[name]) == theirs[name], CASES[name]


def test_reduce_join_of_every_string():
    words = tf.ragged.constant([["a", "b"], [], ["c"]])
    assert tf.strings.reduce_join(words, separator=",").numpy() == b"a,b,c"


def test_string_ops_on_ragged_in_a_traced_function():
    @tf.function
    def clean(lines):
        words = tf.strings.split(tf.strings.lower(lines))
        return tf.strings.reduce_join(tf.strings.regex_replace(words, "[^a-z]", ""), axis=1,
                                      separator=" ")

    assert clean(tf.constant(["Hello, World!", "A-B c"])).numpy().tolist() == [
        b"hello world", b"ab c"]
