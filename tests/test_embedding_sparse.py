"""tf.nn.embedding_lookup_sparse and tf.nn.safe_embedding_lookup_sparse: against a NumPy loop
over the bags, gradients w.r.t. params and weights by finite differences (float64), training a
Variable, graph mode, errors, and TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

RNG = np.random.default_rng(4)
INDICES = [[0, 0], [0, 1], [0, 2], [2, 0], [3, 0], [3, 1]]
IDS = [1, 3, 1, 5, 0, 2]
WEIGHTS = [1.0, 2.0, 0.5, 3.0, -1.0, 1.5]


def _st(values, indices=INDICES, shape=(5, 3)):
    return tf.sparse.SparseTensor(indices, values, list(shape))


def ref_bags(params, indices, ids, weights, combiner, rows, max_norm=None):
    out = np.zeros((rows,) + params.shape[1:])
    for r in range(rows):
        picked = [j for j, (row, _) in enumerate(indices) if row == r]
        if not picked:
            continue
        vecs = params[[ids[j] for j in picked]]
        if max_norm is not None:
            norms = np.sqrt((vecs ** 2).sum(-1, keepdims=True))
            vecs = vecs * np.minimum(1.0, max_norm / norms)
        w = np.ones(len(picked)) if weights is None else np.array([weights[j] for j in picked])
        total = (w[:, None] * vecs).sum(0)
        scale = {"sum": 1.0, "mean": w.sum(), "sqrtn": np.sqrt((w ** 2).sum())}[combiner]
        out[r] = total / scale if scale != 0 else 0.0
    return out


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
@pytest.mark.parametrize("weighted", [False, True])
def test_bags_match_numpy(combiner, weighted):
    params = RNG.normal(size=(6, 4))
    weights = _st(WEIGHTS) if weighted else None
    got = tf.nn.embedding_lookup_sparse(params, _st(IDS), weights, combiner=combiner).numpy()
    want = ref_bags(params, INDICES, IDS, WEIGHTS if weighted else None, combiner, 4)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)   # 4 rows: trailing row absent


def test_max_norm_and_sharded_params():
    params = RNG.normal(size=(6, 4)) * 3
    got = tf.nn.embedding_lookup_sparse([params[:4], params[4:]], _st(IDS), None,
                                        combiner="mean", max_norm=1.5).numpy()
    np.testing.assert_allclose(got, ref_bags(params, INDICES, IDS, None, "mean", 4, 1.5),
                               rtol=1e-12)


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_gradients_match_finite_differences(combiner):
    params = RNG.normal(size=(6, 3))
    ids = _st(IDS)
    check_grads(lambda p: tf.nn.embedding_lookup_sparse(p, ids, None, combiner=combiner),
                [params], order=2)
    check_grads(lambda p, w: tf.nn.embedding_lookup_sparse(p, ids, _st(w), combiner=combiner),
                [params, np.abs(np.array(WEIGHTS)) + 0.5], order=2)
    check_grads(lambda p: tf.nn.safe_embedding_lookup_sparse(p, _st([1, -1, 2, 5, 0, 2]),
                                                             combiner=combiner, max_norm=1.0),
                [params], order=1)


def test_safe_drops_invalid_ids_and_weights_and_fills_empty_rows():
    params = RNG.normal(size=(6, 2))
    ids = [1, -1, 3, 5, 0, 2]
    weights = [1.0, 2.0, -0.5, 3.0, 0.0, 1.5]
    got = tf.nn.safe_embedding_lookup_sparse(params, _st(ids), _st(weights)).numpy()
    kept = [j for j in range(6) if ids[j] >= 0 and weights[j] > 0]
    want = ref_bags(params, [INDICES[j] for j in kept], [ids[j] for j in kept],
                    [weights[j] for j in kept], "mean", 5)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert got.shape == (5, 2)   # every row, empty ones zero
    with_default = tf.nn.safe_embedding_lookup_sparse(params, _st(ids), _st(weights),
                                                      default_id=4).numpy()
    np.testing.assert_allclose(with_default[[1, 4]], params[[4, 4]], rtol=1e-12)
    summed = tf.nn.safe_embedding_lookup_sparse(params, _st(ids), _st(weights), combiner="sum")
    np.testing.assert_allclose(summed.numpy()[3], -params[0] * 0 + 1.5 * params[2], rtol=1e-12)


def test_safe_flattens_higher_rank_ids():
    params = RNG.normal(size=(6, 2))
    indices = [[0, 0, 0], [0, 0, 1], [1, 1, 0], [1, 2, 1]]
    ids = [1, 2, 4, 5]
    got = tf.nn.safe_embedding_lookup_sparse(params, _st(ids, indices, (2, 3, 2)),
                                             combiner="sum").numpy()
    want = np.zeros((2, 3, 2))
    want[0, 0] = params[1] + params[2]
    want[1, 1], want[1, 2] = params[4], params[5]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_variable_trains_through_the_lookup():
    table = tf.Variable(np.random.default_rng(98).normal(size=(6, 2)))  # not the module's RNG:
    opt = tf.keras.optimizers.SGD(0.5)                                  # its draws depend on order
    target = tf.constant(np.ones((4, 2)))
    losses = []
    for _ in range(20):
        with tf.GradientTape() as tape:
            out = tf.nn.embedding_lookup_sparse(table, _st(IDS), _st(WEIGHTS), combiner="sum")
            loss = tf.reduce_mean((out - target) ** 2)
        opt.apply_gradients([(tape.gradient(loss, table), table)])
        losses.append(float(loss))
    # one output row has no ids, so it stays 0 against a target of 1: the loss's floor is 2/8
    assert losses[0] > 1.0 and losses[-1] == pytest.approx(0.25, abs=1e-6)


def test_graph_mode():
    g = tf.Graph()
    with g.as_default():
        params = tf.compat.v1.placeholder(tf.float64, [None, 3])
        out = tf.nn.embedding_lookup_sparse(params, _st(IDS), _st(WEIGHTS), combiner="sqrtn")
        safe = tf.nn.safe_embedding_lookup_sparse(params, _st([1, -1, 2, 5, 0, 2]))
        grad = tf.gradients(tf.reduce_sum(out) + tf.reduce_sum(safe), params)[0]
    data = RNG.normal(size=(6, 3))
    with tf.compat.v1.Session(graph=g) as sess:
        got, got_safe, _ = sess.run([out, safe, grad], {params: data})
    np.testing.assert_allclose(got, ref_bags(data, INDICES, IDS, WEIGHTS, "sqrtn", 4))
    assert got_safe.shape == (5, 3)


def test_errors():
    params = np.zeros((6, 2))
    with pytest.raises(ValueError, match="combiner must be one of"):
        tf.nn.embedding_lookup_sparse(params, _st(IDS), None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids: expected a SparseTensor"):
        tf.nn.embedding_lookup_sparse(params, [[1, 2]], None)
    with pytest.raises(ValueError, match="missing embedding_weights"):
        tf.nn.safe_embedding_lookup_sparse([], _st(IDS))


_SP = "tf.sparse.SparseTensor({}, {}, [5, 3])"
CASES = [
    TFCase(f"lookup_{c}_{w}",
           f"tf.nn.embedding_lookup_sparse(x0, {_SP.format(INDICES, IDS)}, "
           + (_SP.format(INDICES, "x1") if w else "None") + f", combiner='{c}')",
           (lambda p, wt, c=c: tf.nn.embedding_lookup_sparse(p, _st(IDS), _st(wt), combiner=c))
           if w else (lambda p, c=c: tf.nn.embedding_lookup_sparse(p, _st(IDS), None,
                                                                    combiner=c)),
           [RNG.normal(size=(6, 3))] + ([np.array(WEIGHTS)] if w else []),
           wrt=(0, 1) if w else (0,))
    for c in ("sum", "mean", "sqrtn") for w in (False, True)] + [
    TFCase("safe_default", f"tf.nn.safe_embedding_lookup_sparse(x0, "
                           f"{_SP.format(INDICES, [1, -1, 3, 5, 0, 2])}, "
                           f"{_SP.format(INDICES, 'x1')}, default_id=2, max_norm=1.0)",
           lambda p, wt: tf.nn.safe_embedding_lookup_sparse(p, _st([1, -1, 3, 5, 0, 2]), _st(wt),
                                                            default_id=2, max_norm=1.0),
           [RNG.normal(size=(6, 3)), np.array([1.0, 2.0, -0.5, 3.0, 0.0, 1.5])], wrt=(0, 1)),
    TFCase("safe_rank3", "tf.nn.safe_embedding_lookup_sparse(x0, tf.sparse.SparseTensor("
                         "[[0, 0, 0], [0, 0, 1], [1, 2, 1]], [1, -2, 4], [2, 3, 2]), "
                         "combiner='sqrtn')",
           lambda p: tf.nn.safe_embedding_lookup_sparse(
               p, tf.sparse.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 2, 1]], [1, -2, 4],
                                         [2, 3, 2]), combiner="sqrtn"),
           [RNG.normal(size=(6, 3))], wrt=(0,)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
