"""SpectralNormalization, ReversibleEmbedding and GroupQueryAttention: outputs against NumPy
(the power iteration, the tied and untied reverse projections, grouped attention written out
head by head), gradients against finite differences in float64, configs and `.keras` files
round-tripped, training under fit, bad arguments refused as Keras refuses them, and each layer
against TensorFlow 2.21's Keras (outputs and gradients)."""
import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from keras_layer_lifecycle import check_config_round_trip, check_fit_and_saved_model
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(41)
F64 = {"dtype": "float64"}
X2 = RNG.normal(size=(4, 5))
X4 = RNG.normal(size=(2, 6, 6, 3))
Q = RNG.normal(size=(2, 5, 8))
V = RNG.normal(size=(2, 4, 8))
KEY = RNG.normal(size=(2, 4, 8))
IDS = np.array([[1, 2, 0, 7], [3, 3, 9, 0]], "int32")


# -- SpectralNormalization --------------------------------------------------------------------
def _power_step(kernel, u):
    w = kernel.reshape(-1, kernel.shape[-1])
    v = u @ w.T
    v = v / np.linalg.norm(v)
    u = v @ w
    u = u / np.linalg.norm(u)
    return u, kernel / (v @ w @ u.T).item()


def test_spectral_normalization_matches_numpy():
    layer = L.SpectralNormalization(L.Dense(3, **F64), power_iterations=1, **F64)
    before = np.asarray(layer(X2))
    kernel, u, bias = layer.get_weights()  # Keras's order
    np.testing.assert_allclose(before, X2 @ kernel + bias, rtol=1e-12)
    out = np.asarray(layer(X2, training=True))
    want_u, want_kernel = _power_step(kernel, u)
    np.testing.assert_allclose(layer.layer.kernel.numpy(), want_kernel, rtol=1e-10)
    np.testing.assert_allclose(layer.vector_u.numpy(), want_u, rtol=1e-10)
    np.testing.assert_allclose(out, X2 @ want_kernel + bias, rtol=1e-10)
    for _ in range(30):
        layer(X2, training=True)
    assert abs(np.linalg.svd(layer.layer.kernel.numpy())[1][0] - 1) < 1e-6
    conv = L.SpectralNormalization(L.Conv2D(2, 3, **F64), power_iterations=3, **F64)
    conv(X4)
    assert conv.vector_u.shape == (1, 2)
    zero = L.SpectralNormalization(L.Dense(2, kernel_initializer="zeros", **F64), **F64)
    zero(X2, training=True)
    np.testing.assert_array_equal(zero.layer.kernel.numpy(), 0)


def test_spectral_normalization_gradients_and_errors():
    check_layer_gradients(L.SpectralNormalization(L.Dense(2, **F64), **F64), [X2[:2, :3]])
    with pytest.raises(ValueError, match="power_iterations"):
        L.SpectralNormalization(L.Dense(2), power_iterations=0)
    with pytest.raises(ValueError, match="no attribute 'kernel' nor 'embeddings'"):
        L.SpectralNormalization(L.Flatten())(X2)
    with pytest.raises(ValueError, match="isn't a supported layer"):
        L.SpectralNormalization("dense")


def test_spectral_normalization_config_and_fit(tmp_path):
    clone = check_config_round_trip(L.SpectralNormalization(L.Dense(4), power_iterations=2))
    assert clone.power_iterations == 2 and isinstance(clone.layer, L.Dense)
    model, _ = check_fit_and_saved_model(lambda: L.SpectralNormalization(L.Dense(4, name="sd")),
                                         X2.astype("float32"), tmp_path, epochs=30)
    kernel = model.layers[1].layer.kernel.numpy()
    assert abs(np.linalg.svd(kernel)[1][0] - 1) < 0.2  # normalized at each training step


# -- ReversibleEmbedding ----------------------------------------------------------------------
def test_reversible_embedding_matches_numpy():
    tied = L.ReversibleEmbedding(10, 4, **F64)
    hidden = np.asarray(tied(IDS))
    table = tied.embeddings.numpy()
    np.testing.assert_array_equal(hidden, table[IDS])
    np.testing.assert_allclose(np.asarray(tied(hidden, reverse=True)), hidden @ table.T,
                               rtol=1e-12)
    untied = L.ReversibleEmbedding(10, 4, tie_weights=False, logit_soft_cap=0.5,
                                   embeddings_initializer="glorot_uniform", **F64)
    h = np.asarray(untied(IDS))
    reverse = untied.reverse_embeddings.numpy()
    assert reverse.shape == (4, 10)
    np.testing.assert_allclose(np.asarray(untied(h, reverse=True)),
                               0.5 * np.tanh(h @ reverse / 0.5), rtol=1e-12)
    masked = L.ReversibleEmbedding(10, 4, mask_zero=True)
    out = masked(IDS)
    np.testing.assert_array_equal(np.asarray(masked.compute_mask(IDS)), IDS != 0)
    assert masked(out, reverse=True).shape == (2, 4, 10)
    assert masked.compute_output_shape((2, 4, 4), reverse=True) == (2, 4, 10)


def test_reversible_embedding_gradients_config_and_fit(tmp_path):
    h = RNG.normal(size=(2, 3, 4))
    check_layer_gradients(L.ReversibleEmbedding(6, 4, tie_weights=False, logit_soft_cap=2.0,
                                                **F64), [h], kwargs={"reverse": True})
    layer = L.ReversibleEmbedding(6, 4, **F64)
    layer(IDS % 6)
    check_layer_gradients(layer, [h], kwargs={"reverse": True})
    clone = check_config_round_trip(L.ReversibleEmbedding(8, 3, tie_weights=False,
                                                          logit_soft_cap=30.0))
    assert clone.logit_soft_cap == 30.0 and not clone.tie_weights
    with pytest.raises(ValueError, match="positive"):
        L.ReversibleEmbedding(0, 3)
    with pytest.raises(ValueError, match="logit_soft_cap"):
        L.ReversibleEmbedding(8, 3, logit_soft_cap=-1.0)
    check_fit_and_saved_model(lambda: L.ReversibleEmbedding(10, 3), IDS, tmp_path)


# -- GroupQueryAttention ----------------------------------------------------------------------
def _softmax(s, mask=None):
    if mask is not None:
        s = np.where(mask, s, -1e9)
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _gqa_numpy(layer, q, v, k, mask=None):
    w = dict(zip(["/".join(x.path.split("/")[-2:]) for x in layer.weights], layer.get_weights()))
    qh = np.einsum("bqm,muh->bquh", q, w["query/kernel"]) + w["query/bias"]
    kh = np.einsum("bkm,mvh->bkvh", k, w["key/kernel"]) + w["key/bias"]
    vh = np.einsum("bkm,mvh->bkvh", v, w["value/kernel"]) + w["value/bias"]
    r = layer.num_query_heads // layer.num_key_value_heads
    kh, vh = np.repeat(kh, r, axis=2), np.repeat(vh, r, axis=2)
    scores = np.einsum("bquh,bkuh->buqk", qh, kh) / np.sqrt(layer.head_dim)
    probs = _softmax(scores, None if mask is None else mask[:, None])
    heads = np.einsum("buqk,bkuh->bquh", probs, vh)
    return np.einsum("bquh,uhm->bqm", heads, w["attention_output/kernel"]) + \
        w["attention_output/bias"], probs


def test_group_query_attention_matches_numpy():
    layer = L.GroupQueryAttention(3, 4, 2, **F64)
    out, scores = layer(Q, V, KEY, return_attention_scores=True)
    want, probs = _gqa_numpy(layer, Q, V, KEY)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(scores), probs, rtol=1e-10)
    assert layer.key_dense.kernel.shape == (8, 2, 3)
    causal = np.asarray(layer(Q, Q, use_causal_mask=True))
    mask = np.tril(np.ones((5, 5), bool))[None].repeat(2, 0)
    np.testing.assert_allclose(causal, _gqa_numpy(layer, Q, Q, Q, mask)[0], rtol=1e-10)


def test_group_query_attention_gradients_errors_config_and_fit(tmp_path):
    check_layer_gradients(L.GroupQueryAttention(2, 2, 1, use_gate=True, **F64),
                          [Q[:1, :3, :4], V[:1, :2, :4]], mode="positional")
    with pytest.raises(ValueError, match="divisible"):
        L.GroupQueryAttention(4, 3, 2)
    with pytest.raises(ValueError, match="sliding_window"):
        L.GroupQueryAttention(4, 4, 2, sliding_window=0)
    with pytest.raises(ValueError, match="batch, length, features"):
        L.GroupQueryAttention(4, 4, 2)(X4, X4)
    clone = check_config_round_trip(L.GroupQueryAttention(4, 6, 3, use_gate=True,
                                                          sliding_window=2, dropout=0.1))
    assert (clone.num_query_heads, clone.num_key_value_heads, clone.head_dim) == (6, 3, 4)
    inputs = tf.keras.Input((5, 8))
    gqa = L.GroupQueryAttention(2, 4, 2, name="gqa")
    out = L.Dense(1)(L.Flatten()(gqa(inputs, inputs)))
    model = tf.keras.Model(inputs, out)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    y = RNG.normal(size=(2, 1)).astype("float32")
    history = model.fit(Q.astype("float32"), y, epochs=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    model.save(tmp_path / "gqa.keras")
    loaded = tf.keras.models.load_model(tmp_path / "gqa.keras")
    np.testing.assert_allclose(loaded.predict(Q.astype("float32"), verbose=0),
                               model.predict(Q.astype("float32"), verbose=0), rtol=1e-6)


# -- TensorFlow -------------------------------------------------------------------------------
class StatefulCase(Case):
    """A case whose training call assigns weights (SpectralNormalization): TensorFlow is sent
    the weights as they were before that call, not after it."""

    def run_wengert(self, rng):
        layer, set_weights = self.layer, self.layer.set_weights

        def record(weights):
            set_weights(weights)
            self.initial = layer.get_weights()
        layer.set_weights = record
        try:
            super().run_wengert(rng)
        finally:
            del layer.set_weights

    def request(self, arrays):
        after = self.layer.get_weights()
        self.layer.set_weights(self.initial)
        try:
            return super().request(arrays)
        finally:
            self.layer.set_weights(after)


def _tf_cases():
    h = RNG.normal(size=(2, 3, 4))
    mask = RNG.uniform(size=(2, 5, 4)) > 0.3
    return [
        Case("spectral-dense-inference", L.SpectralNormalization(
            L.Dense(3, use_bias=False, **F64), **F64), [X2]),
        StatefulCase("spectral-dense-training", L.SpectralNormalization(
            L.Dense(3, use_bias=False, **F64), power_iterations=2, **F64), [X2], training=True),
        StatefulCase("spectral-dense-bias-training", L.SpectralNormalization(
            L.Dense(3, **F64), **F64), [X2], training=True),
        StatefulCase("spectral-conv-training", L.SpectralNormalization(
            L.Conv2D(2, 3, use_bias=False, **F64), **F64), [X4], training=True),
        Case("reversible-forward", L.ReversibleEmbedding(10, 4, **F64), [IDS]),
        Case("reversible-tied", L.ReversibleEmbedding(10, 4, **F64), [h],
             kwargs={"reverse": True}),
        Case("reversible-untied-capped", L.ReversibleEmbedding(
            10, 4, tie_weights=False, logit_soft_cap=0.7, **F64), [h], kwargs={"reverse": True}),
        Case("gqa", L.GroupQueryAttention(3, 4, 2, **F64), [Q, V]),
        Case("gqa-key-scores", L.GroupQueryAttention(3, 4, 2, **F64), [Q, V, KEY],
             kwargs={"return_attention_scores": True}),
        Case("gqa-causal", L.GroupQueryAttention(2, 6, 3, use_bias=False, **F64), [Q, Q],
             kwargs={"use_causal_mask": True}),
        Case("gqa-gate-window", L.GroupQueryAttention(2, 2, 2, use_gate=True, sliding_window=2,
                                                      **F64), [Q, Q]),
        Case("gqa-mask", L.GroupQueryAttention(3, 4, 1, **F64), [Q, V],
             tensor_kwargs={"attention_mask": mask}),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:  # Keras's fused attention applies its 1/sqrt(head_dim) in float32
        tol = 1e-6 if case.name.startswith("gqa") else 1e-9
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
