"""`wengert.strings`: TensorFlow's `tf.strings` (wengert/ops/io/: strings.py, substrings.py,
string_hashing.py, unicode.py; the ragged results in ops/ragged/strings.py)."""
from .ops.io.string_hashing import to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong
from .ops.io.strings import (as_string, format, join, length, lower,  # noqa: A004
                             reduce_join, regex_full_match, regex_replace, strip, to_number,
                             upper)
from .ops.io.substrings import ngrams, substr, unsorted_segment_join
from .ops.io.unicode import unicode_script, unicode_transcode
from .ops.ragged.strings import (bytes_split, split, unicode_decode,
                                 unicode_decode_with_offsets, unicode_encode, unicode_split,
                                 unicode_split_with_offsets)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams",
           "reduce_join", "regex_full_match", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number",
           "unicode_decode", "unicode_decode_with_offsets", "unicode_encode", "unicode_script",
           "unicode_split", "unicode_split_with_offsets", "unicode_transcode",
           "unsorted_segment_join", "upper"]
