"""`wengert.compat.v1.sparse`: TensorFlow 1's `tf.compat.v1.sparse`, which is `tf.sparse` with
the older argument names (thresh, reduction_axes, keep_dims, concat_dim, split_dim) and the
sparse-output reductions reduce_sum_sparse / reduce_max_sparse, the segment reductions with
`name` before `num_segments`, and sparse placeholders."""
from ...sparse import *  # noqa: F403
from ...sparse import __all__ as _sparse_names
from ...graph.sparse_placeholder import sparse_placeholder as placeholder
from ...ops.sparse.addition import add_v1 as add
from ...ops.sparse.matmul import sparse_dense_matmul as matmul
from ...ops.sparse.slicing import concat_v1 as concat, split_v1 as split
from ...tf1.accumulators import SparseConditionalAccumulator
from ...tf1.sparse_functions import (sparse_merge as merge, sparse_segment_mean as segment_mean,
                                     sparse_segment_sqrt_n as segment_sqrt_n,
                                     sparse_segment_sum as segment_sum)
from ...ops.sparse.reductions import (reduce_max_sparse, reduce_max_v1 as reduce_max,
                                      reduce_sum_sparse, reduce_sum_v1 as reduce_sum)

__all__ = sorted({*_sparse_names, SparseConditionalAccumulator.__name__, "add", "concat", "matmul", "merge", "placeholder", "reduce_max", "reduce_max_sparse",
                  "reduce_sum", "reduce_sum_sparse", "segment_mean",
                  "segment_sqrt_n", "segment_sum", "split"})
