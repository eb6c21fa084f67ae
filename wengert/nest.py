"""`wengert.nest`: TensorFlow's `tf.nest`, for nested structures of lists, tuples, namedtuples
and dicts (dict values in sorted-key order). The code is in util/nest.py."""
from .util.nest import assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as

__all__ = ["flatten", "pack_sequence_as", "is_nested", "map_structure", "assert_same_structure"]
