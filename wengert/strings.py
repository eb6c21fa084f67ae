"""`wengert.strings`: TensorFlow's `tf.strings` basics (see wengert/ops/io/strings.py)."""
from .ops.io.strings import (as_string, bytes_split, format, join, length,  # noqa: A004
                             lower, reduce_join, regex_full_match, regex_replace, split, strip,
                             to_number, upper)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "reduce_join",
           "regex_full_match", "regex_replace", "split", "strip", "to_number", "upper"]
