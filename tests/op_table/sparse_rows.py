"""Op-table rows for ops/sparse/: the sparse operand is built inside each row from fixed
indices (kwargs) and differentiated values, so the rows check the values' gradients (and the
dense operand's) against finite differences. References densify with NumPy."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

_IDX = np.array([[0, 1], [1, 0], [1, 2], [2, 2]], np.int64)      # row 3 empty
_IDX_B = np.array([[0, 0], [1, 2], [3, 1]], np.int64)             # shares [1, 2]
_IDX3 = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 2], [1, 1, 1]], np.int64)


def _dense(values, indices, shape):
    out = np.zeros(shape, values.dtype)
    np.add.at(out, tuple(indices.T), values)
    return out


def _st(values, indices, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


def matmul_fn(values, b, indices, shape, **kw):
    return tf.sparse.sparse_dense_matmul(_st(values, indices, shape), b, **kw)


def matmul_ref(values, b, indices, shape, adjoint_a=False, adjoint_b=False):
    a = _dense(values, indices, shape)
    return (a.T if adjoint_a else a) @ (b.T if adjoint_b else b)


def add_fn(a, b, indices_a, indices_b, shape, **kw):
    return tf.sparse.add(_st(a, indices_a, shape), _st(b, indices_b, shape), **kw).values


def add_ref(a, b, indices_a, indices_b, shape, threshold=0.0):
    total = _dense(a, indices_a, shape) + _dense(b, indices_b, shape)
    held = np.unique(np.concatenate([indices_a, indices_b]), axis=0)
    both = [i for i in map(tuple, held) if i in set(map(tuple, indices_a))
            and i in set(map(tuple, indices_b))]
    keep = [i for i in map(tuple, held) if i not in both or abs(total[i]) >= threshold]
    return np.array([total[i] for i in keep])


def dense_add_fn(values, b, indices, shape):
    return tf.sparse.add(_st(values, indices, shape), b)


def dense_add_ref(values, b, indices, shape):
    return _dense(values, indices, shape) + b


def reduce_fn(kind, sparse_out=False):
    def fn(values, indices, shape, **kw):
        out = getattr(tf.sparse, kind)(_st(values, indices, shape), output_is_sparse=sparse_out,
                                       **kw)
        return out.values if sparse_out else out
    return fn


def reduce_ref(kind, sparse_out=False):
    def ref(values, indices, shape, axis=None, keepdims=None):
        dense = _dense(values, indices, shape)
        held = _dense(np.ones_like(values), indices, shape) > 0
        axis = tuple(axis) if isinstance(axis, list) else axis
        if kind == "reduce_sum":
            out = np.sum(dense, axis=axis, keepdims=bool(keepdims))
        else:
            out = np.max(np.where(held, dense, -np.inf), axis=axis, keepdims=bool(keepdims))
        counts = np.sum(held, axis=axis, keepdims=bool(keepdims))
        out = np.where(counts > 0, out, 0.0)
        return out[counts > 0] if sparse_out else out
    return ref


def softmax_fn(values, indices, shape):
    return tf.sparse.softmax(_st(values, indices, shape)).values


def softmax_ref(values, indices, shape):
    rows = [tuple(i[:-1]) for i in indices]
    out = np.empty_like(values)
    for r in set(rows):
        sel = np.array([x == r for x in rows])
        e = np.exp(values[sel] - values[sel].max())
        out[sel] = e / e.sum()
    return out


_MM = dict(indices=_IDX, shape=[4, 3])
_ADD = dict(indices_a=_IDX, indices_b=_IDX_B, shape=[4, 3])
_R3 = dict(indices=_IDX3, shape=[2, 2, 3])
ROWS = [
    OpInfo("sparse.sparse_dense_matmul", matmul_fn, matmul_ref, [
        Sample((rand(4), rand(3, 2)), _MM),
        Sample((rand(4), rand(4, 2)), dict(_MM, adjoint_a=True), name="adjoint_a"),
        Sample((rand(4), rand(2, 3)), dict(_MM, adjoint_b=True), name="adjoint_b"),
        Sample((rand(4), rand(2, 4)), dict(_MM, adjoint_a=True, adjoint_b=True), name="both"),
    ]),
    OpInfo("sparse.add", add_fn, add_ref, [
        Sample((rand(4), rand(3)), _ADD),
        Sample((rand(4), rand(3)), dict(_ADD, threshold=0.01), name="threshold"),
    ]),
    OpInfo("sparse.add(dense)", dense_add_fn, dense_add_ref, [
        Sample((rand(4), rand(4, 3)), _MM),
    ]),
    OpInfo("sparse.reduce_sum", reduce_fn("reduce_sum"), reduce_ref("reduce_sum"), [
        Sample((rand(5),), _R3),
        Sample((rand(5),), dict(_R3, axis=1), name="axis1"),
        Sample((rand(5),), dict(_R3, axis=[0, -1], keepdims=True), name="keepdims"),
    ]),
    OpInfo("sparse.reduce_sum(sparse)", reduce_fn("reduce_sum", True),
           reduce_ref("reduce_sum", True), [
        Sample((rand(5),), dict(_R3, axis=1)),
        Sample((rand(5),), dict(_R3, axis=2, keepdims=True), name="keepdims"),
    ], grad=False, notes="TensorFlow registers no gradient for SparseReduceSumSparse"),
    OpInfo("sparse.reduce_max", reduce_fn("reduce_max"), reduce_ref("reduce_max"), [
        Sample((rand(5),), dict(_R3, axis=2)),
        Sample((rand(5),), _R3, name="all"),
    ], grad=False, notes="TensorFlow registers no gradient for SparseReduceMax"),
    OpInfo("sparse.reduce_max(sparse)", reduce_fn("reduce_max", True),
           reduce_ref("reduce_max", True), [
        Sample((rand(5),), dict(_R3, axis=0)),
    ], grad=False, notes="TensorFlow registers no gradient for SparseReduceMaxSparse"),
    OpInfo("sparse.softmax", softmax_fn, softmax_ref, [
        Sample((rand(5),), _R3),
        Sample((rand(4),), _MM, name="matrix"),
    ]),
]
