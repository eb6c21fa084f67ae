"""`wengert.sparse`: TensorFlow's `tf.sparse` namespace, minimal: the `SparseTensor` container
(framework/sparse_tensor.py) with its conversions to_dense / from_dense / reorder
(ops/sparse/conversions.py), and the segment reductions (rows of a dense tensor picked by indices, then
reduced by segment)."""
from .framework.sparse_tensor import SparseTensor  # noqa: F401
from .ops.segment_ops import (sparse_segment_mean as segment_mean,  # noqa: F401
                              sparse_segment_sqrt_n as segment_sqrt_n,
                              sparse_segment_sum as segment_sum)
from .ops.sparse.conversions import from_dense, reorder, to_dense  # noqa: F401
