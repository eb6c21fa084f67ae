"""`wengert.sets`: TensorFlow's `tf.sets` (wengert/ops/sparse/sets.py)."""
from .ops.sparse.sets import difference, intersection, size, union

__all__ = ["difference", "intersection", "size", "union"]
