"""Property tests for the segment reductions: random segmentations with repeated ids, empty
segments (including empty trailing ones) and dropped negative ids, against a loop over segments;
the gradient against its definition (ties share it evenly; zeros in a product); and identities
that must hold for any segmentation."""
import numpy as np
import pytest

import wengert as tf

SEEDS = range(12)
_EMPTY = {"sum": 0.0, "mean": 0.0, "max": 0.0, "min": 0.0, "prod": 1.0}
_NP = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod}


def _segmentation(rng, sorted_ids):
    rows = int(rng.integers(0, 12))
    num = int(rng.integers(1, 8))
    ids = rng.integers(-2 if not sorted_ids else 0, num, rows)
    if sorted_ids:
        ids = np.sort(ids)
    data = rng.integers(-3, 4, (rows, int(rng.integers(1, 4)))).astype(np.float64)  # ties, zeros
    return data, ids.astype(np.int32), num


def _loop(kind, data, ids, num, empty):
    out = np.full((num,) + data.shape[1:], empty)
    for s in range(num):
        rows = data[ids == s]
        if len(rows):
            out[s] = _NP[kind](rows, axis=0)
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["sum", "mean", "max", "min", "prod"])
def test_sorted_segments_match_a_loop(kind, seed):
    data, ids, _ = _segmentation(np.random.default_rng(seed), sorted_ids=True)
    num = int(ids[-1]) + 1 if ids.size else 0
    got = getattr(tf.math, f"segment_{kind}")(data, ids).numpy()
    np.testing.assert_allclose(got, _loop(kind, data, ids, num, _EMPTY[kind]))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["sum", "max", "min", "prod"])
def test_unsorted_segments_match_a_loop(kind, seed):
    data, ids, num = _segmentation(np.random.default_rng(100 + seed), sorted_ids=False)
    empty = {"max": np.finfo(np.float64).min, "min": np.finfo(np.float64).max}.get(
        kind, _EMPTY[kind])
    got = getattr(tf.math, f"unsorted_segment_{kind}")(data, ids, num).numpy()
    np.testing.assert_allclose(got, _loop(kind, data, ids, num, empty))


def _gradient(fn, data, *args):
    x = tf.constant(data)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, *args)
    upstream = np.random.default_rng(5).standard_normal(y.shape)
    return tape.gradient(y, x, output_gradients=tf.constant(upstream)).numpy(), upstream


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["sum", "mean", "max", "min", "prod"])
def test_unsorted_gradient_matches_its_definition(kind, seed):
    data, ids, num = _segmentation(np.random.default_rng(200 + seed), sorted_ids=False)
    fn = getattr(tf.math, f"unsorted_segment_{kind}")
    got, g = _gradient(fn, data, ids, num)
    want = np.zeros_like(data)
    for k, s in enumerate(ids):
        if s < 0:
            continue
        rows = data[ids == s]
        if kind == "sum":
            want[k] = g[s]
        elif kind == "mean":
            want[k] = g[s] / len(rows)
        elif kind in ("max", "min"):
            best = _NP[kind](rows, axis=0)
            want[k] = g[s] * (data[k] == best) / np.sum(rows == best, axis=0)
        else:  # the product of the segment's other rows (empty product: 1)
            others = [m for m in np.flatnonzero(ids == s) if m != k]
            want[k] = g[s] * np.prod(data[others], axis=0)
    np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_sum_identities_hold_for_any_segmentation(seed):
    """Summing all segments gives the sum of the kept rows, and sparse_segment_sum with indices
    0..n-1 is segment_sum."""
    data, ids, num = _segmentation(np.random.default_rng(300 + seed), sorted_ids=False)
    total = tf.reduce_sum(tf.math.unsorted_segment_sum(data, ids, num), axis=0).numpy()
    np.testing.assert_allclose(total, data[ids >= 0].sum(axis=0))
    sorted_ids = np.sort(np.abs(ids))
    sparse = tf.sparse.segment_sum(data, np.arange(len(ids), dtype=np.int32), sorted_ids)
    np.testing.assert_allclose(sparse.numpy(), tf.math.segment_sum(data, sorted_ids).numpy())


def test_empty_input_gives_empty_or_filled_segments():
    data = np.zeros((0, 3))
    assert tf.math.segment_sum(data, np.zeros(0, np.int32)).shape == (0, 3)
    out = tf.math.unsorted_segment_prod(data, np.zeros(0, np.int32), 2).numpy()
    np.testing.assert_array_equal(out, np.ones((2, 3)))


@pytest.mark.parametrize("call,message", [
    (lambda: tf.math.segment_sum([1.0, 2.0], [1, 0]), "not increasing"),
    (lambda: tf.math.segment_sum([1.0, 2.0], [-1, 0]), "out of range"),
    (lambda: tf.math.segment_sum([1.0, 2.0], [0]), "size of data"),
    (lambda: tf.math.unsorted_segment_sum([1.0, 2.0], [0, 3], 2), "out of range"),
    (lambda: tf.sparse.segment_sum([[1.0], [2.0]], [0, 5], [0, 0]), "indices must lie"),
    (lambda: tf.math.segment_sum([1.0, 2.0], [0.0, 1.0]), "int32 or int64")])
def test_bad_segmentations_are_refused_with_the_reason(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


# -- scatter ops ----------------------------------------------------------------------------------
def _scatter_case(rng):
    shape = (int(rng.integers(1, 6)), int(rng.integers(1, 4)))
    count = int(rng.integers(0, 8))
    indices = rng.integers(0, shape[0], (count, 1)).astype(np.int32)   # repeats likely
    tensor = rng.integers(-3, 4, shape).astype(np.float64)
    updates = rng.integers(-3, 4, (count, shape[1])).astype(np.float64)
    return tensor, indices, updates


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind,combine", [("add", np.add), ("sub", np.subtract),
                                          ("max", np.maximum), ("min", np.minimum)])
def test_tensor_scatter_matches_a_loop(kind, combine, seed):
    tensor, indices, updates = _scatter_case(np.random.default_rng(400 + seed))
    want = tensor.copy()
    for (i,), row in zip(indices, updates):
        want[i] = combine(want[i], row)
    got = getattr(tf, f"tensor_scatter_nd_{kind}")(tensor, indices, updates).numpy()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", SEEDS)
def test_scatter_nd_is_an_unsorted_segment_sum(seed):
    tensor, indices, updates = _scatter_case(np.random.default_rng(500 + seed))
    a = tf.scatter_nd(indices, updates, tensor.shape).numpy()
    b = tf.math.unsorted_segment_sum(updates, indices[:, 0], tensor.shape[0]).numpy()
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", SEEDS)
def test_scatter_add_gradients(seed):
    tensor, indices, updates = _scatter_case(np.random.default_rng(600 + seed))
    t, u = tf.constant(tensor), tf.constant(updates)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([t, u])
        out = tf.tensor_scatter_nd_add(t, indices, u)
    g = np.random.default_rng(seed).standard_normal(tensor.shape)
    dt, du = tape.gradient(out, [t, u], output_gradients=tf.constant(g))
    np.testing.assert_array_equal(dt.numpy(), g)
    np.testing.assert_array_equal(du.numpy(), g[indices[:, 0]].reshape(updates.shape))
