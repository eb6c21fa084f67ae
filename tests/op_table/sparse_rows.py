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


def fill_fn(values, default, indices, shape):
    out, empty = tf.sparse.fill_empty_rows(_st(values, indices, shape), default)
    return [out.indices, out.values, tf.cast(empty, tf.int64)]


def fill_ref(values, default, indices, shape):
    rows = []
    for r in range(shape[0]):
        held = [(tuple(i), v) for i, v in zip(indices, values) if i[0] == r]
        rows += held or [((r,) + (0,) * (len(shape) - 1), default)]
    return [np.array([i for i, _ in rows]), np.array([v for _, v in rows]),
            np.array([int(not any(i[0] == r for i in indices)) for r in range(shape[0])])]


def reshape_fn(values, indices, shape, new_shape):
    out = tf.sparse.reshape(_st(values, indices, shape), new_shape)
    return [out.indices, out.values, out.dense_shape]


def reshape_ref(values, indices, shape, new_shape):
    new = np.asarray(new_shape)
    new[new == -1] = np.prod(shape) // -np.prod(new)
    flat = np.ravel_multi_index(tuple(indices.T), shape)
    return [np.stack(np.unravel_index(flat, new), 1), values, new]


def extremum_fn(kind):
    def fn(a, b, indices_a, indices_b, shape):
        out = getattr(tf.sparse, kind)(_st(a, indices_a, shape), _st(b, indices_b, shape))
        return [out.indices, out.values]
    return fn


def extremum_ref(kind):
    def ref(a, b, indices_a, indices_b, shape):
        held = np.unique(np.concatenate([indices_a, indices_b]), axis=0)
        pick = getattr(np, kind)(_dense(a, indices_a, shape), _dense(b, indices_b, shape))
        return [held, pick[tuple(held.T)]]
    return ref


def bincount_fn(values, **kw):
    out = tf.sparse.bincount(values, **kw)
    return [out.indices, out.values, out.dense_shape]


def bincount_ref(values, weights=None, axis=0, minlength=None, maxlength=None,
                 binary_output=False):
    rows = values.reshape(1, -1) if axis == 0 else values
    w = None if weights is None else np.asarray(weights).reshape(rows.shape)
    bins = max(int(rows.max()) + 1, minlength or 0) if maxlength is None else maxlength
    counts = np.stack([np.bincount(r[r < bins], None if w is None else w[i][r < bins],
                                   minlength=bins) for i, r in enumerate(rows)])
    counts = np.minimum(counts, 1) if binary_output else counts
    held = np.argwhere(counts != 0)
    held = held[:, 1:] if axis == 0 else held
    return [held, counts[counts != 0], np.array(([] if axis == 0 else [len(rows)]) + [bins])]


def sparse_bincount_fn(values, indices, shape, **kw):
    out = tf.sparse.bincount(_st(values, indices, shape), **kw)
    return [out.indices, out.values, out.dense_shape]


def sparse_bincount_ref(values, indices, shape, **kw):
    per_row = [[v for i, v in zip(indices, values) if i[0] == r] for r in range(shape[0])]
    bins = int(values.max()) + 1
    held = [(r, v) for r in range(shape[0]) for v in sorted(set(per_row[r]))]
    return [np.array(held), np.array([per_row[r].count(v) for r, v in held]),
            np.array([shape[0], bins])]


def cross_fn(batch_ids, words, ids, **kw):
    words = tf.sparse.SparseTensor(np.stack([batch_ids, [0, 1, 0]], 1), words, [2, 2])
    out = tf.sparse.cross([words, ids], **kw)
    return [out.indices, out.values, out.dense_shape]


def cross_ref(batch_ids, words, ids, separator="_X_"):
    rows = [[(w, i) for w, b in zip(words, batch_ids) if b == r for i in ids[r]] for r in (0, 1)]
    held = [(r, j) for r in (0, 1) for j in range(len(rows[r]))]
    return [np.array(held), np.array([f"{w}{separator}{i}".encode() for row in rows
                                      for w, i in row], object),
            np.array([2, max(len(r) for r in rows)])]


def cross_hashed_fn(batch_ids, words, ids, **kw):
    words = tf.sparse.SparseTensor(np.stack([batch_ids, [0, 1, 0]], 1), words, [2, 2])
    out = tf.sparse.cross_hashed([words, ids], **kw)
    return [out.indices, out.values]


def cross_hashed_ref(batch_ids, words, ids, num_buckets=0, hash_key=None):
    """TensorFlow 2.21's hashes of these crosses, recorded (tests/test_sparse_tf.py checks
    them live)."""
    return [np.array([[0, 0], [0, 1], [1, 0]]), np.array([40, 8, 57])]


def cwise_fn(kind):
    def fn(values, dense, indices, shape):
        sp = _st(values, indices, shape)
        return (sp * dense if kind == "mul" else sp / dense).values
    return fn


def cwise_ref(kind):
    def ref(values, dense, indices, shape):
        picked = np.broadcast_to(dense, shape)[tuple(indices.T)]
        return values * picked if kind == "mul" else values / picked
    return ref


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
    OpInfo("sparse.fill_empty_rows", fill_fn, fill_ref, [
        Sample((rand(4), rand()), _MM),
        Sample((rand(5), rand()), _R3, name="rank3"),
    ]),
    OpInfo("sparse.reshape", reshape_fn, reshape_ref, [
        Sample((rand(4),), dict(_MM, new_shape=[2, 6])),
        Sample((rand(5),), dict(_R3, new_shape=[-1, 2]), name="inferred"),
    ], notes="SparseReshape moves indices only; the values pass through"),
    OpInfo("sparse.maximum", extremum_fn("maximum"), extremum_ref("maximum"), [
        Sample((rand(4), rand(3)), _ADD)], grad=False,
        notes="TensorFlow's gradient rule raises NotImplementedError"),
    OpInfo("sparse.minimum", extremum_fn("minimum"), extremum_ref("minimum"), [
        Sample((rand(4), rand(3)), _ADD)], grad=False,
        notes="TensorFlow's gradient rule raises NotImplementedError"),
    OpInfo("sparse.bincount", bincount_fn, bincount_ref, [
        Sample((np.array([1, 1, 3, 7], np.int32),)),
        Sample((np.array([[1, 1, 3], [2, 0, 2]], np.int64),), dict(axis=-1), name="rows"),
        Sample((np.array([1, 1, 3, 7], np.int32),), dict(weights=np.array([.5, 1., 2., 3.])),
               name="weights"),
        Sample((np.array([1, 1, 3, 7], np.int32),), dict(binary_output=True, minlength=9),
               name="binary"),
        Sample((np.array([1, 1, 3, 7], np.int32),), dict(maxlength=3), name="maxlength"),
    ], grad=False, float32=False, notes="counts: not differentiable"),
    OpInfo("sparse.bincount(sparse)", sparse_bincount_fn, sparse_bincount_ref, [
        Sample((np.array([4, 4, 2], np.int64),),
               dict(indices=np.array([[0, 1], [0, 2], [1, 0]]), shape=[2, 3], axis=-1)),
    ], grad=False, float32=False, notes="counts: not differentiable"),
    OpInfo("sparse.cross", cross_fn, cross_ref, [
        Sample((), dict(batch_ids=np.array([0, 0, 1]), words=np.array(["a", "b", "c"]),
                        ids=np.array([[7], [8]]))),
        Sample((), dict(batch_ids=np.array([0, 1, 1]), words=np.array(["a", "b", "c"]),
                        ids=np.array([[7, 2], [8, 1]]), separator="-"), name="separator"),
    ], grad=False, float32=False, notes="strings: not differentiable"),
    OpInfo("sparse.cross_hashed", cross_hashed_fn, cross_hashed_ref, [
        Sample((), dict(batch_ids=np.array([0, 0, 1]), words=np.array(["a", "b", "c"]),
                        ids=np.array([[7], [8]]), num_buckets=64)),
    ], grad=False, float32=False, notes="hashes: not differentiable"),
    OpInfo("SparseTensor.__mul__", cwise_fn("mul"), cwise_ref("mul"), [
        Sample((rand(4), rand(4, 3)), _MM),
        Sample((rand(5), rand(2, 1)), _R3, name="broadcast"),
    ]),
    OpInfo("SparseTensor.__truediv__", cwise_fn("div"), cwise_ref("div"), [
        Sample((rand(4), rand(4, 3, low=0.5, high=2.0)), _MM),
        Sample((rand(5), rand(3, low=0.5, high=2.0)), _R3, name="broadcast"),
    ]),
    OpInfo("sparse.softmax", softmax_fn, softmax_ref, [
        Sample((rand(5),), _R3),
        Sample((rand(4),), _MM, name="matrix"),
    ]),
]
