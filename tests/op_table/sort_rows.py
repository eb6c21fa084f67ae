"""Op-table rows for ops/sort_ops.py: top_k, sort, argsort, searchsorted, unique, in_top_k,
approx_max_k / approx_min_k.

Gradient samples hold distinct values spaced apart, so finite differences never reorder them;
ties (equal values keep index order) are checked forward, with integer and NaN inputs."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample


def _spread(*shape, seed=0):
    """Distinct values at least 0.05 apart, in random order."""
    n = int(np.prod(shape))
    values = np.random.default_rng(seed).permutation(n) * 0.05 - 0.4 * n * 0.05
    return values.reshape(shape)


def _descending(x):
    """A key sorting x descending, NaN first, without integer overflow."""
    key = -x.astype(np.float64)
    return np.where(np.isnan(key), -np.inf, key)


def _top_k(x, k=1):
    order = np.argsort(_descending(x), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(np.int32)


def _sort(x, axis=-1, direction="ASCENDING"):
    out = np.sort(x, axis=axis, kind="stable")
    return out if direction == "ASCENDING" else np.flip(out, axis)


def _argsort(x, axis=-1, direction="ASCENDING"):
    if direction == "ASCENDING":
        return np.argsort(x, axis=axis, kind="stable").astype(np.int32)
    return np.argsort(_descending(x), axis=axis, kind="stable").astype(np.int32)


_TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0, -1.0], [0.5, 0.5, 0.5, 0.5, 0.1, 0.9]])
_INT_TIES = np.array([[-128, 5, 0, 5, 127, -128]], np.int8)
_BIG = _spread(4, 200, seed=1)

ROWS = [
    OpInfo("top_k", lambda x, k=1: tf.math.top_k(x, k)[0], lambda x, k=1: _top_k(x, k)[0],
           [Sample((_spread(3, 7),), {"k": 3}, name="3x7"), Sample((_spread(9),), {"k": 1}),
            Sample((_spread(2, 3, 5),), {"k": 5}, name="k=n"),
            Sample((_BIG,), {"k": 4}, name="partition-path")]),
    OpInfo("top_k_indices", lambda x, k=1: tf.nn.top_k(x, k)[1], lambda x, k=1: _top_k(x, k)[1],
           [Sample((_TIES,), {"k": 3}, name="ties"), Sample((_INT_TIES,), {"k": 4}, name="int8"),
            Sample((np.repeat(_TIES, 40, axis=1),), {"k": 7}, name="ties-partition"),
            Sample((np.array([[1.0, np.nan, 3.0, 2.0]]),), {"k": 2}, name="nan-first")],
           grad=False),
    OpInfo("sort", tf.sort, _sort,
           [Sample((_spread(3, 5),), name="3x5"),
            Sample((_spread(4, 3),), {"axis": 0}, name="axis0"),
            Sample((_spread(2, 3, 4),), {"axis": 1, "direction": "DESCENDING"}, name="desc")]),
    OpInfo("sort_ints", tf.sort, _sort,
           [Sample((_INT_TIES,), name="int8-asc"),
            Sample((np.array([3, 0, 255, 7], np.uint8),), name="uint8"),
            Sample((_INT_TIES,), {"direction": "DESCENDING"}, name="int8-desc")], grad=False),
    OpInfo("argsort", tf.argsort, _argsort,
           [Sample((_TIES,), name="ties"), Sample((_TIES,), {"direction": "DESCENDING"}),
            Sample((_INT_TIES,), name="int8"), Sample((_TIES.T.copy(),), {"axis": 0})],
           grad=False),
    OpInfo("searchsorted", tf.searchsorted,
           lambda s, v, side="left": np.stack([np.searchsorted(a, b, side) for a, b in zip(
               s.reshape(-1, s.shape[-1]), v.reshape(-1, v.shape[-1]))]).reshape(
               v.shape).astype(np.int32),
           [Sample((np.array([[1.0, 2.0, 2.0, 5.0], [0.0, 1.0, 2.0, 3.0]]),
                    np.array([[2.0, 6.0], [-1.0, 2.5]]))),
            Sample((np.array([1.0, 2.0, 2.0, 5.0]), np.array([2.0, 0.0])), {"side": "right"})],
           grad=False),
    OpInfo("unique", lambda x: tf.unique(x), lambda x: _unique(x)[:2],
           [Sample((np.array([4, 1, 4, 2, 1], np.int32),)),
            Sample((np.array([2.5, -1.0, 2.5]),))], grad=False),
    OpInfo("unique_with_counts", lambda x: tf.unique_with_counts(x, out_idx=tf.int64),
           lambda x: tuple(a.astype(np.int64) if i else a for i, a in enumerate(_unique(x))),
           [Sample((np.array([4.0, 1.0, 4.0, 2.0, 1.0]),))], grad=False),
    # TensorFlow's InTopKV2 takes float32 predictions only (the table feeds float64)
    OpInfo("in_top_k", lambda t, p, k: tf.math.in_top_k(t, tf.cast(p, tf.float32), k),
           lambda t, p, k: np.array([0 <= tt < p.shape[1] and np.isfinite(row).all()
                                     and (row > row[tt]).sum() < k
                                     for tt, row in zip(t, p)]),
           [Sample((np.array([2, 0, 1, 5]), np.array([[0.1, 0.5, 0.5], [0.3, 0.3, 0.3],
                                                      [np.nan, 1.0, 0.0], [1.0, 2.0, 3.0]]), 1)),
            Sample((np.array([0, 2]), np.array([[0.1, 0.5, 0.3], [0.3, 0.2, 0.1]]), 2))],
           grad=False, float32=False),
    OpInfo("approx_max_k", lambda x: tf.math.approx_max_k(x, 2)[0],
           lambda x: _top_k(x, 2)[0], [Sample((_spread(3, 6),))]),
    OpInfo("approx_min_k", lambda x: tf.math.approx_min_k(x, 2, reduction_dimension=0)[0],
           lambda x: np.sort(x, axis=0)[:2], [Sample((_spread(5, 3),))]),
]


def _unique(x):
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True)
    order = np.argsort(first)
    rank = np.argsort(order)
    return x[np.sort(first)], rank[inverse].astype(np.int32), counts[order].astype(np.int32)
