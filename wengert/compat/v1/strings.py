"""`wengert.compat.v1.strings`: TensorFlow 1's `tf.strings`, which is `tf.strings` with TensorFlow
1's signatures: split giving a SparseTensor and taking `source` and `result_type`
(tf1/strings_v1.py), reduce_join with `keep_dims` and `reduction_indices`, to_number and
to_hash_bucket taking `input`, and substr and length with `name` before `unit` (tf1/text.py)."""
from ...strings import *  # noqa: F403
from ...strings import __all__ as _strings_names
from ...tf1.strings_v1 import length, split
from ...tf1.text import (reduce_join, string_to_hash_bucket as to_hash_bucket,
                         string_to_number as to_number, substr)

__all__ = sorted({*_strings_names, length.__name__, split.__name__, reduce_join.__name__,
                  "to_hash_bucket", "to_number", substr.__name__})
