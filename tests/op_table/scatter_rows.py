"""Op-table rows for ops/scatter_ops.py and ops/partition_ops.py, and gather_nd with batch
dimensions. Index samples repeat positions (add/sub accumulate; min/max samples keep the values
apart so no tie moves under finite differences; update samples do not repeat, where the last
write would decide)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand

_IDX = np.array([[1], [3], [1]], np.int32)
_IDX2 = np.array([[0, 1], [2, 0]], np.int32)


def _scatter(fn):
    def ref(tensor, indices, updates):
        out = tensor.copy()
        fn(out, tuple(np.moveaxis(indices, -1, 0)), updates)
        return out
    return ref


def _assign(out, key, updates):
    out[key] = updates


def _apart(*shape, offset=0.0):
    values = np.random.default_rng(11).permutation(int(np.prod(shape))) * 0.3 + offset
    return values.reshape(shape)


def _partition(data, partitions, n):
    flat = partitions.reshape(-1)
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return [rows[flat == p] for p in range(n)]


def _stitch(i0, i1, d0, d1):
    rows = max(i0.max(), i1.max()) + 1
    out = np.zeros((rows,) + d0.shape[i0.ndim:])
    out[i0.reshape(-1)] = d0.reshape((i0.size,) + d0.shape[i0.ndim:])
    out[i1.reshape(-1)] = d1.reshape((i1.size,) + d1.shape[i1.ndim:])
    return out


def _gather_nd_batched(params, indices, batch_dims):
    out = [params[b][tuple(np.moveaxis(indices[b], -1, 0))] for b in range(params.shape[0])]
    return np.stack(out)


ROWS = [
    OpInfo("tensor_scatter_nd_update", tf.tensor_scatter_nd_update, _scatter(_assign),
           [Sample((rand(5, 2), np.array([[1], [3]], np.int32), rand(2, 2))),
            Sample((rand(3, 3), _IDX2, rand(2)), name="elements")]),
    OpInfo("tensor_scatter_nd_add", tf.tensor_scatter_nd_add, _scatter(np.add.at),
           [Sample((rand(5, 2), _IDX, rand(3, 2))), Sample((rand(3, 3), _IDX2, rand(2)))]),
    OpInfo("tensor_scatter_nd_sub", tf.tensor_scatter_nd_sub, _scatter(np.subtract.at),
           [Sample((rand(5, 2), _IDX, rand(3, 2)))]),
    OpInfo("tensor_scatter_nd_max", tf.tensor_scatter_nd_max, _scatter(np.maximum.at),
           [Sample((_apart(5, 2), _IDX, _apart(3, 2, offset=0.1)))]),
    OpInfo("tensor_scatter_nd_min", tf.tensor_scatter_nd_min, _scatter(np.minimum.at),
           [Sample((_apart(5, 2), _IDX, _apart(3, 2, offset=0.1)))]),
    OpInfo("dynamic_partition", tf.dynamic_partition, _partition,
           [Sample((rand(5, 2), np.array([1, 0, 1, 2, 1], np.int32), 4), name="empty-part"),
            Sample((rand(2, 3, 2), np.array([[0, 1, 0], [1, 1, 0]], np.int32), 2), name="2d")]),
    OpInfo("dynamic_stitch", lambda i0, i1, d0, d1: tf.dynamic_stitch([i0, i1], [d0, d1]), _stitch,
           [Sample((np.array([0, 2], np.int32), np.array([1, 3, 4], np.int32), rand(2, 2),
                    rand(3, 2))),
            Sample((np.array([[1], [0]], np.int32), np.array([2], np.int32), rand(2, 1, 3),
                    rand(1, 3)), name="2d-indices")]),
    OpInfo("gather_nd_batch_dims", tf.gather_nd, _gather_nd_batched,
           [Sample((rand(2, 3, 4), np.array([[1, 0], [2, 3]], np.int32), 1), name="elements"),
            Sample((rand(2, 3, 4), np.array([[[1], [0]], [[2], [2]]], np.int32), 1),
                   name="slices")]),
]
