"""`tf.compat.v1.sets`: tf.sets with TensorFlow 1's set_* names too."""
from ...ops.sparse.sets import difference, intersection, size, union

set_difference, set_intersection, set_size, set_union = difference, intersection, size, union

__all__ = ["difference", "intersection", "set_difference", "set_intersection", "set_size",
           "set_union", "size", "union"]
