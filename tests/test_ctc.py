"""tf.nn.ctc_loss and tf.compat.v1.nn.ctc_loss: against enumeration of every alignment path on
tiny cases, the forward-backward identity, gradients by finite differences (float64), the
vectorized Jacobian, graph mode, errors, a small sequence task that learns; the greedy and beam
search decoders on hand-worked cases; all against TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from op_table.ctc_rows import brute_force_nll, collapse
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.ops.nn.ctc.loss import ctc_alpha_beta
from wengert.testing import check_grads

RNG = np.random.default_rng(18)


def _sparse(labels):
    idx = [[b, t] for b, seq in enumerate(labels) for t in range(len(seq))]
    return tf.sparse.SparseTensor(np.array(idx, np.int64).reshape(-1, 2),
                                  np.array([labels[b][t] for b, t in idx], np.int32),
                                  [len(labels), max(len(s) for s in labels)])


@pytest.mark.parametrize("label", [[], [0], [1, 1], [0, 1], [1, 0, 1], [2, 2, 2]])
def test_loss_is_the_sum_over_alignments(label):
    x = RNG.normal(size=(5, 1, 4))
    padded = np.array([label + [0] * (3 - len(label))]) + 1   # blank 0: labels 1..3
    got = tf.nn.ctc_loss(padded, x, [len(label)], [5]).numpy()
    np.testing.assert_allclose(got, [brute_force_nll(x[:, 0], np.array(label) + 1, 0)],
                               rtol=1e-10)


@pytest.mark.parametrize("merge", [True, False])
def test_v1_options_match_enumeration(merge):
    x = RNG.normal(size=(4, 2, 3))
    labels = [[0, 0], [1]]
    got = tf.compat.v1.nn.ctc_loss(_sparse(labels), x, [4, 3], ctc_merge_repeated=merge).numpy()
    want = [brute_force_nll(x[:4, 0], labels[0], 2, merge), brute_force_nll(x[:3, 1], [1], 2, merge)]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    collapsed = tf.compat.v1.nn.ctc_loss(_sparse(labels), x, [4, 3],
                                         preprocess_collapse_repeated=True).numpy()
    np.testing.assert_allclose(collapsed[0], brute_force_nll(x[:, 0], collapse([0, 0], -1), 2))


def test_forward_backward_identity_holds_at_every_frame():
    logp = np.log(RNG.dirichlet(np.ones(5), size=7))
    _, alpha, beta = ctc_alpha_beta(logp, np.array([1, 3, 3]), 0)
    totals = np.logaddexp.reduce(alpha + beta, axis=1)
    np.testing.assert_allclose(totals, totals[0], rtol=1e-12)


def test_gradient_matches_finite_differences():
    labels, lengths, frames = np.array([[1, 2, 2], [3, 0, 0]]), [3, 1], [6, 4]
    check_grads(lambda x: tf.nn.ctc_loss(labels, x, lengths, frames), [RNG.normal(size=(6, 2, 4))],
                order=1)
    check_grads(lambda x: tf.nn.ctc_loss(labels - 1, x, lengths, frames, logits_time_major=False,
                                         blank_index=3),
                [RNG.normal(size=(2, 6, 4))], order=1)
    check_grads(lambda x: tf.compat.v1.nn.ctc_loss(_sparse([[0, 0], [1]]), x, [5, 3],
                                                   ctc_merge_repeated=False) ** 2,
                [RNG.normal(size=(5, 2, 3))], order=1)


def test_gradient_is_zero_after_each_sequence_end():
    x = tf.constant(RNG.normal(size=(6, 2, 4)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.ctc_loss([[1, 2], [3, 3]], x, [2, 2], [4, 6]))
    g = tape.gradient(loss, x).numpy()
    assert not g[4:, 0].any() and g[4:, 1].any()
    np.testing.assert_allclose(g.sum(-1), 0, atol=1e-12)   # softmax minus occupancy: rows sum to 0


def test_second_derivative_raises_as_in_tensorflow():
    x = tf.constant(RNG.normal(size=(4, 1, 3)))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.nn.ctc_loss([[1]], x, [1], [4])
        g = inner.gradient(loss, x)
        total = tf.reduce_sum(g * g)
    with pytest.raises(LookupError, match="second derivative"):
        outer.gradient(total, x)


def test_vectorized_jacobian_matches_rows():
    x = tf.constant(RNG.normal(size=(5, 3, 4)))
    labels, lengths, frames = [[1, 2], [2, 0], [3, 3]], [2, 1, 2], [5, 3, 5]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        loss = tf.nn.ctc_loss(labels, x, lengths, frames)
        rows = [loss[b] for b in range(3)]
    jac = tape.jacobian(loss, x).numpy()
    for b in range(3):
        np.testing.assert_allclose(jac[b], tape.gradient(rows[b], x).numpy(), atol=1e-12)


def test_graph_mode_with_unknown_batch():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [5, None, 4])
        loss = tf.nn.ctc_loss([[1, 2], [3, 0]], x, [2, 1], [5, 4])
        grad = tf.gradients(tf.reduce_sum(loss), x)[0]
        assert loss.shape.as_list() == [None]
    data = RNG.normal(size=(5, 2, 4)).astype(np.float32)
    with tf.compat.v1.Session(graph=g) as sess:
        got, got_grad = sess.run([loss, grad], {x: data})
    want = tf.nn.ctc_loss([[1, 2], [3, 0]], data, [2, 1], [5, 4]).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got_grad.shape == (5, 2, 4) and got.dtype == np.float32


def test_errors_name_the_problem():
    x = RNG.normal(size=(3, 1, 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not enough time"):
        tf.nn.ctc_loss([[1, 2, 3, 1]], x, [4], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="blank"):
        tf.nn.ctc_loss([[4]], x, [1], [3])   # class 4 (blank 0 moved last) does not exist
    with pytest.raises(tf.errors.InvalidArgumentError, match="sequence lengths"):
        tf.nn.ctc_loss([[1]], x, [1], [7])
    with pytest.raises(ValueError, match="blank_index must be provided"):
        tf.nn.ctc_loss(_sparse([[1]]), x, None, [3])
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.compat.v1.nn.ctc_loss([[1]], x, [3])
    ignored = tf.compat.v1.nn.ctc_loss(_sparse([[0, 1, 2, 0]]), x, [3],
                                       ignore_longer_outputs_than_inputs=True)
    np.testing.assert_array_equal(ignored.numpy(), [0.0])


def test_a_small_sequence_task_learns():
    """Frames carry a noisy one-hot of their class (0 = blank); the model's per-frame linear map
    must learn to read them. The CTC loss falls by more than half with plain Adam."""
    rng = np.random.default_rng(0)
    batch, frames, classes = 16, 8, 4
    paths = rng.integers(0, classes, size=(batch, frames))
    feats = np.eye(classes)[paths] + 0.3 * rng.normal(size=(batch, frames, classes))
    labels = [collapse(p, 0) for p in paths]
    width = max(1, max(len(s) for s in labels))
    dense = np.array([s + [0] * (width - len(s)) for s in labels])
    lengths = np.array([len(s) for s in labels])
    w = tf.Variable(rng.normal(scale=0.1, size=(classes, classes)).astype(np.float32))
    opt = tf.keras.optimizers.Adam(0.1)
    x = tf.constant(feats.astype(np.float32))
    losses = []
    for _ in range(40):
        with tf.GradientTape() as tape:
            logits = tf.einsum("btf,fc->btc", x, w)
            loss = tf.reduce_mean(tf.nn.ctc_loss(dense, logits, lengths, [frames] * batch,
                                                 logits_time_major=False))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0], losses


def _dense(sp):
    out = np.full(sp.dense_shape.numpy(), -1)
    for (b, i), v in zip(sp.indices.numpy(), sp.values.numpy()):
        out[b, i] = v
    return out.tolist()


def test_greedy_decoder_tensorflow_docstring_case():
    inf = float("inf")
    logits = np.array([[[0., -inf, -inf], [-2.3, -inf, -0.1]],
                       [[-inf, -0.5, -inf], [-inf, -inf, -0.1]],
                       [[-inf, -inf, -inf], [-0.1, -inf, -2.3]]])
    (decoded,), scores = tf.nn.ctc_greedy_decoder(logits, [2, 3], blank_index=1)
    assert _dense(decoded) == [[0, -1], [2, 0]]
    assert decoded.values.dtype == tf.int64 and decoded.dense_shape.numpy().tolist() == [2, 2]
    np.testing.assert_allclose(scores.numpy(), [[0.5], [0.3]])


def test_greedy_merge_repeated_as_documented():
    a, b, blank = 0, 1, 2   # A B B * B * B
    path = [a, b, b, blank, b, blank, b]
    x = np.full((7, 1, 3), -5.0)
    x[np.arange(7), 0, path] = 1.0
    merged = tf.nn.ctc_greedy_decoder(x, [7])[0][0]
    unmerged = tf.nn.ctc_greedy_decoder(x, [7], merge_repeated=False)[0][0]
    assert _dense(merged) == [[a, b, b, b]]
    assert _dense(unmerged) == [[a, b, b, b, b]]


def test_beam_search_prefers_the_label_with_more_paths():
    """Frames (0.4, 0.0, 0.6): best path is blank-blank (empty label, p = .36), but label 'a'
    collects .16 + .24 + .24 = .64 over its three paths; beam search finds it, greedy does not."""
    x = np.log(np.array([[[0.4, 0.0001, 0.6]], [[0.4, 0.0001, 0.6]]]))
    (beam,), logp = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=4)
    assert _dense(beam) == [[0]]
    np.testing.assert_allclose(np.exp(logp.numpy()), [[0.64]], rtol=1e-3)
    (greedy,), _ = tf.nn.ctc_greedy_decoder(x, [2])
    assert greedy.dense_shape.numpy().tolist() == [1, 0]
    top, logp = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=4, top_paths=2)
    assert _dense(top[1]) == [[]] or top[1].dense_shape.numpy()[1] == 0
    np.testing.assert_allclose(np.exp(logp.numpy()), [[0.64, 0.36]], rtol=1e-3)


def test_v1_beam_search_merges_repeats_in_the_output():
    x = np.log(np.array([[0.05, 0.9, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9],
                         [0.05, 0.9, 0.05]]))[:, None]
    (v2,), _ = tf.nn.ctc_beam_search_decoder(x, [4], beam_width=3)
    (v1,), _ = tf.compat.v1.nn.ctc_beam_search_decoder(x, [4], beam_width=3)
    assert _dense(v2) == [[1, 1]] and _dense(v1) == [[1]]


def test_decoders_in_graph_mode_and_errors():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4, None, 3])
        (greedy,), _ = tf.nn.ctc_greedy_decoder(x, [4, 2])
        (beam,), logp = tf.nn.ctc_beam_search_decoder(x, [4, 2], beam_width=5)
        assert logp.shape.as_list() == [None, 1] and greedy.values.dtype == tf.int64
    data = RNG.normal(size=(4, 2, 3)).astype(np.float32)
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run([greedy.values, beam.values, logp], {x: data})
    eager = tf.nn.ctc_beam_search_decoder(data, [4, 2], beam_width=5)
    np.testing.assert_array_equal(got[1], eager[0][0].values.numpy())
    with pytest.raises(ValueError, match="top_paths"):
        tf.nn.ctc_beam_search_decoder(data, [4, 2], beam_width=2, top_paths=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="sequence lengths"):
        tf.nn.ctc_greedy_decoder(data, [5, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="fewer leaves"):
        tf.nn.ctc_beam_search_decoder(data, [0, 2], top_paths=2)


def _decoded(d):
    decoded, scores = d
    return [t for s in decoded for t in (s.indices, s.values, s.dense_shape)] + [scores]


_DEC = "(lambda d: [t for s in d[0] for t in (s.indices, s.values, s.dense_shape)] + [d[1]])"
CASES = [
    TFCase("dense_blank0", "tf.nn.ctc_loss(x1, x0, x2, x3)",
           lambda x, lab, ll, fl: tf.nn.ctc_loss(lab, x, ll, fl),
           [RNG.normal(size=(7, 3, 5)).astype(np.float32), np.array([[1, 2, 2], [4, 0, 0],
                                                                      [3, 1, 0]]),
            np.array([3, 1, 0]), np.array([7, 5, 6])], wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("dense_batch_major_blank_last",
           "tf.nn.ctc_loss(x1, x0, x2, x3, logits_time_major=False, blank_index=-1)",
           lambda x, lab, ll, fl: tf.nn.ctc_loss(lab, x, ll, fl, logits_time_major=False,
                                                 blank_index=-1),
           [RNG.normal(size=(2, 6, 4)).astype(np.float32), np.array([[0, 2, 2], [1, 0, 0]]),
            np.array([3, 2]), np.array([6, 4])], wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("sparse_blank2",
           "tf.nn.ctc_loss(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], x1, [2, 2]), x0, "
           "None, [5, 5], blank_index=2)",
           lambda x, v: tf.nn.ctc_loss(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], v,
                                                              [2, 2]), x, None, [5, 5],
                                       blank_index=2),
           [RNG.normal(size=(5, 2, 4)).astype(np.float32), np.array([3, 1, 0], np.int32)],
           wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("v1_options",
           "[tf.compat.v1.nn.ctc_loss(tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], "
           "x1, [2, 2]), x0, [5, 5], preprocess_collapse_repeated=p, ctc_merge_repeated=m) "
           "for p, m in ((False, True), (True, True), (False, False))]",
           lambda x, v: [tf.compat.v1.nn.ctc_loss(
               tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], v, [2, 2]), x, [5, 5],
               preprocess_collapse_repeated=p, ctc_merge_repeated=m)
               for p, m in ((False, True), (True, True), (False, False))],
           [RNG.normal(size=(5, 2, 4)).astype(np.float32), np.array([1, 1, 0, 2], np.int32)],
           wrt=(0,), rtol=1e-4, atol=1e-5),
] + [
    TFCase(f"greedy_{i}", f"{_DEC}(tf.nn.ctc_greedy_decoder(x0, x1, merge_repeated={m}, "
                          f"blank_index={bi}))",
           lambda x, n, m=m, bi=bi: _decoded(tf.nn.ctc_greedy_decoder(x, n, m, bi)),
           [RNG.normal(size=(6, 3, 4)).astype(np.float32), np.array([6, 0, 4], np.int32)],
           rtol=1e-5)
    for i, (m, bi) in enumerate([(True, None), (False, 0), (True, -2)])
] + [
    TFCase(f"beam_{w}_{k}", f"{_DEC}(tf.nn.ctc_beam_search_decoder(x0, x1, {w}, {k}))",
           lambda x, n, w=w, k=k: _decoded(tf.nn.ctc_beam_search_decoder(x, n, w, k)),
           [(RNG.normal(size=(7, 4, 5)) * 2).astype(np.float32), np.array([7, 3, 5, 1], np.int32)],
           rtol=1e-4, atol=1e-5)
    for w, k in [(1, 1), (3, 2), (16, 4), (100, 1)]
] + [
    TFCase("beam_v1_merge", f"{_DEC}(tf.compat.v1.nn.ctc_beam_search_decoder(x0, x1, 4, 2))",
           lambda x, n: _decoded(tf.compat.v1.nn.ctc_beam_search_decoder(x, n, 4, 2)),
           [(RNG.normal(size=(8, 3, 3)) * 2).astype(np.float32), np.array([8, 6, 2], np.int32)],
           rtol=1e-4, atol=1e-5),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
