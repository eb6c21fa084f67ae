"""TensorFlow's "Working with sparse tensors" guide: SparseTensor construction, to_dense,
sparse.add, sparse_dense_matmul, reduce_sum, reorder, sparse.from_dense, a sparse-dense product
differentiated with respect to the dense operand, and SparseTensor in tf.data."""
import numpy as np
import tensorflow as tf

st = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
print("dense:", tf.sparse.to_dense(st).numpy().tolist())
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
st_c = tf.sparse.SparseTensor(indices=[[0, 2], [3, 1]], values=[1, -1], dense_shape=[4, 10])
total = tf.sparse.add(st_b, st_c)
print("sum indices:", total.indices.numpy().tolist(), "values:", total.values.numpy().tolist())

a = tf.sparse.SparseTensor(indices=[[0, 1], [1, 0], [1, 1]], values=[13.0, 15.0, 17.0],
                           dense_shape=[2, 2])
b = tf.Variable([[3.0], [4.0]])
with tf.GradientTape() as tape:
    product = tf.sparse.sparse_dense_matmul(a, b)
    loss = tf.reduce_sum(product)
print("product:", product.numpy().tolist(), "grad:", tape.gradient(loss, b).numpy().tolist())
print("reduce_sum axis 1:", tf.sparse.reduce_sum(a, axis=1).numpy().tolist())
unordered = tf.sparse.SparseTensor(indices=[[1, 0], [0, 1]], values=[2.0, 1.0], dense_shape=[2, 2])
print("reordered:", tf.sparse.reorder(unordered).indices.numpy().tolist())
from_dense = tf.sparse.from_dense(tf.constant([[0, 7], [0, 0], [3, 0]]))
print("from_dense:", from_dense.indices.numpy().tolist(), from_dense.values.numpy().tolist())
print("retain:", tf.sparse.retain(a, tf.constant([True, False, True])).values.numpy().tolist())
ds = tf.data.Dataset.from_tensor_slices(st_b)
print("rows with entries:", [int(tf.size(row.values)) for row in ds])
