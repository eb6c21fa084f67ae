"""Sparse tensors (`SparseTensor`, framework/sparse_tensor.py): conversions to and from dense
tensors, sparse-dense products, sums, reductions, softmax, and the functions that slice, join
and rearrange their entries (tf.sparse)."""
