"""String ops with ragged results inside tf.data pipelines and traced functions, against
TensorFlow 2.21: split / unicode_split / unicode_decode_with_offsets / bytes_split / ngrams in
Dataset.map (where a string's length is known only when the pipeline runs), batched before or
after (batch, ragged_batch, padded_batch), reduce_join, slicing with a step and upper on the
ragged words of a batch; the same in tf.function. Compared as the tensors TensorFlow returns
(tf_expressions.py; answers stored in tests/references/)."""
import pytest

from tf_expressions import tf_results, wengert_result

D = "tf.data.Dataset.from_tensor_slices(['h\\u00e9llo w\\u00f6rld', 'a b c', ''])"
CASES = {
    "map_split": f"list({D}.map(lambda s: tf.strings.split(s)))",
    "map_unicode_split": f"list({D}.map(lambda s: tf.strings.unicode_split(s, 'UTF-8')))",
    "map_decode_offsets": f"list({D}.map(lambda s: tf.strings.unicode_decode_with_offsets("
                          "s, 'UTF-8')))",
    "batch_then_split": f"list({D}.batch(2).map(lambda s: tf.strings.split(s)))",
    "split_ragged_batch": f"list({D}.map(lambda s: tf.strings.split(s)).ragged_batch(2))",
    "split_batch": f"list({D}.map(lambda s: tf.strings.split(s)).batch(2))",
    "split_padded_batch": f"list({D}.map(lambda s: tf.strings.split(s)).padded_batch(2))",
    "bytes_split_map": f"list({D}.map(tf.strings.bytes_split))",
    "ngrams_map": f"list({D}.map(lambda s: tf.strings.ngrams(tf.strings.split(s), 2)))",
    "unicode_encode_map": f"list({D}.map(lambda s: tf.strings.unicode_encode("
                          "tf.expand_dims(tf.strings.unicode_decode(s, 'UTF-8'), 0), "
                          "'UTF-16-BE')))",
    "batched_ngrams": f"list({D}.batch(3).map(lambda s: tf.strings.ngrams("
                      "tf.strings.split(s), 2)))",
    "batched_reduce_join": f"list({D}.batch(3).map(lambda s: tf.strings.reduce_join("
                           "tf.strings.split(s), axis=1, separator='-')))",
    "batched_step": f"list({D}.batch(3).map(lambda s: tf.strings.split(s)[:, ::-1]))",
    "batched_upper": f"list({D}.batch(3).map(lambda s: tf.strings.upper(tf.strings.split(s))))",
    "fn_step": "tf.function(lambda rt: rt[:, ::-2])(tf.ragged.constant([[1, 2, 3], [4]]))",
    "fn_split_maxsplit": "tf.function(lambda s: tf.strings.split(s, maxsplit=1))("
                         "tf.constant(['a b c', 'd']))",
    "fn_ngrams": "tf.function(lambda s: tf.strings.ngrams(tf.strings.split(s), 2))("
                 "tf.constant(['a b c', 'd']))",
    "fn_decode_ignore_controls": "tf.function(lambda s: tf.strings.unicode_decode(s, 'UTF-8', "
                                 "errors='ignore', replace_control_characters=True))("
                                 "tf.constant([b'a\\x01b']))",
    "fn_script": "tf.function(lambda s: tf.strings.unicode_script(tf.strings.unicode_decode("
                 "s, 'UTF-8')))(tf.constant(['a\\u4e2d']))",
}


@pytest.fixture(scope="module")
def theirs():
    return tf_results(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.filterwarnings("ignore:AutoGraph could not transform")
def test_matches_tensorflow(name, theirs):
    assert wengert_result(CASES[name]) == theirs[name], CASES[name]
