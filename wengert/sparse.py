"""`wengert.sparse`: TensorFlow's `tf.sparse` namespace: the `SparseTensor` container
(framework/sparse_tensor.py), its conversions (ops/sparse/conversions.py), its arithmetic
(sparse_dense_matmul, add, reductions, softmax, crosses, counts: ops/sparse/), and the segment reductions (rows
of a dense tensor picked by indices, then reduced by segment)."""
from .framework.sparse_tensor import SparseTensor  # noqa: F401
from .ops.segment_ops import (sparse_segment_mean as segment_mean,  # noqa: F401
                              sparse_segment_sqrt_n as segment_sqrt_n,
                              sparse_segment_sum as segment_sum)
from .ops.sparse.addition import add  # noqa: F401
from .ops.sparse.counting import bincount  # noqa: F401
from .ops.sparse.crossing import cross, cross_hashed  # noqa: F401
from .ops.sparse import cwise as _cwise  # noqa: F401 (installs sp * dense and sp / dense)
from .ops.sparse.empty_rows import fill_empty_rows  # noqa: F401
from .ops.sparse.extrema import maximum, minimum  # noqa: F401
from .ops.sparse.conversions import from_dense, reorder, to_dense  # noqa: F401
from .ops.sparse.matmul import sampled_addmm, sparse_dense_matmul  # noqa: F401
from .ops.sparse.reductions import reduce_max, reduce_sum  # noqa: F401
from .ops.sparse.reshaping import reshape  # noqa: F401
from .ops.sparse.slicing import concat, slice, split  # noqa: F401, A004
from .ops.sparse.softmax import softmax  # noqa: F401
from .ops.sparse.structure import (expand_dims, eye, map_values, mask, reset_shape,  # noqa: F401
                                   retain, to_indicator, transpose)

__all__ = ["SparseTensor", "add", "bincount", "concat", "cross", "cross_hashed", "expand_dims",
           "eye", "fill_empty_rows", "from_dense", "map_values", "mask", "maximum", "minimum",
           "reduce_max", "reduce_sum", "reorder", "reset_shape", "reshape", "retain",
           "sampled_addmm", "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
           "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"]
