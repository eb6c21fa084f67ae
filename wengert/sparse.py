"""`wengert.sparse`: the segment reductions of TensorFlow's `tf.sparse` namespace (rows of a
dense tensor picked by indices, then reduced by segment)."""
from .ops.segment_ops import (sparse_segment_mean as segment_mean,  # noqa: F401
                              sparse_segment_sqrt_n as segment_sqrt_n,
                              sparse_segment_sum as segment_sum)
