"""Attention and normalisation layers (issue 19 item 2): outputs against NumPy, gradients against
finite differences, weights in TensorFlow's order, masks, configs, a small transformer that
learns, and (when TensorFlow is installed) everything against TensorFlow 2.21's Keras."""
import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(5)
Q = RNG.normal(size=(2, 4, 6))
V = RNG.normal(size=(2, 5, 6))
KEY = RNG.normal(size=(2, 5, 6))
Q_MASK = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], bool)
V_MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)
F64 = {"dtype": "float64"}


def softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# -- normalisation ----------------------------------------------------------------------------
def test_layer_normalization_matches_numpy_and_tf_layout():
    for axis in (-1, [1, 2], 1):
        layer = L.LayerNormalization(axis=axis, **F64)
        out = np.asarray(layer(Q))
        axes = tuple(np.atleast_1d(axis) % 3)
        gamma, beta = layer.get_weights()
        shape = [Q.shape[a] if a in axes else 1 for a in range(3)]
        mean, var = Q.mean(axes, keepdims=True), Q.var(axes, keepdims=True)
        want = (Q - mean) / np.sqrt(var + 1e-3) * gamma.reshape(shape) + beta.reshape(shape)
        np.testing.assert_allclose(out, want, rtol=1e-10)
        assert [w.name for w in layer.weights] == ["gamma", "beta"]
    layer = L.LayerNormalization(center=False, **F64)
    layer(Q)
    assert [w.name for w in layer.weights] == ["gamma"]


def test_group_and_unit_normalization_match_numpy():
    x = RNG.normal(size=(2, 3, 4, 6))
    layer = L.GroupNormalization(groups=3, **F64)
    out = np.asarray(layer(x))
    g = x.reshape(2, 3, 4, 3, 2)
    mean, var = g.mean((1, 2, 4), keepdims=True), g.var((1, 2, 4), keepdims=True)
    want = ((g - mean) / np.sqrt(var + 1e-3)).reshape(x.shape)
    np.testing.assert_allclose(out, want, rtol=1e-10)
    assert [tuple(w.shape) for w in layer.weights] == [(6,), (6,)]
    unit = np.asarray(L.UnitNormalization(**F64)(Q))
    np.testing.assert_allclose(unit, Q / np.linalg.norm(Q, axis=-1, keepdims=True), rtol=1e-12)
    with pytest.raises(ValueError, match="multiple"):
        L.GroupNormalization(groups=4)(x)


def test_batch_normalization_accepts_synchronized():
    layer = L.BatchNormalization(synchronized=True, **F64)
    out = np.asarray(layer(Q, training=True))
    want = (Q - Q.mean((0, 1))) / np.sqrt(Q.var((0, 1)) + 1e-3)
    np.testing.assert_allclose(out, want, rtol=1e-9)
    assert layer.get_config()["synchronized"] is True


@pytest.mark.parametrize("make", [
    lambda: L.LayerNormalization(axis=[1, 2], **F64),
    lambda: L.GroupNormalization(groups=2, **F64),
    lambda: L.UnitNormalization(**F64)])
def test_normalization_gradients(make):
    check_layer_gradients(make(), [Q[:, :3, :4]])


# -- dot-product and additive attention -------------------------------------------------------
def _dense_attention(q, v, k, scores, q_mask=None, v_mask=None, causal=False):
    if v_mask is not None:
        scores = scores - 1e9 * (~v_mask[:, None, :])
    if causal:
        t, s = scores.shape[-2:]
        scores = scores - 1e9 * (np.arange(s)[None, :] > np.arange(t)[:, None])
    weights = softmax(scores)
    out = weights @ v
    if q_mask is not None:
        out = out * q_mask[..., None]
    return out, weights


def test_attention_matches_numpy():
    layer = L.Attention(**F64)
    out, weights = layer([Q, V, KEY], mask=[tf.constant(Q_MASK), tf.constant(V_MASK)],
                         return_attention_scores=True)
    want, want_w = _dense_attention(Q, V, KEY, Q @ KEY.transpose(0, 2, 1), Q_MASK, V_MASK)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(weights), want_w, rtol=1e-10, atol=1e-300)
    concat = L.Attention(use_scale=True, score_mode="concat", **F64)
    out = np.asarray(concat([Q, V], use_causal_mask=True))
    scale, weight = concat.get_weights()
    scores = weight * np.tanh(scale * (Q[:, :, None, :] + V[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out, _dense_attention(Q, V, V, scores, causal=True)[0],
                               rtol=1e-10)


def test_additive_attention_matches_numpy():
    layer = L.AdditiveAttention(**F64)
    out = np.asarray(layer([Q, V, KEY]))
    (scale,) = layer.get_weights()
    scores = (scale * np.tanh(Q[:, :, None, :] + KEY[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out, _dense_attention(Q, V, KEY, scores)[0], rtol=1e-10)


@pytest.mark.parametrize("make", [lambda: L.Attention(use_scale=True, **F64),
                                  lambda: L.Attention(score_mode="concat", **F64),
                                  lambda: L.AdditiveAttention(**F64)])
def test_dense_attention_gradients(make):
    check_layer_gradients(make(), [Q[:, :3, :3], V[:, :4, :3]], mode="list")


def test_attention_masks_come_from_the_inputs():
    embed_q, embed_v = L.Embedding(9, 6, mask_zero=True), L.Embedding(9, 6, mask_zero=True)
    q_ids = np.array([[1, 2, 3, 0], [4, 5, 0, 0]])
    v_ids = np.array([[1, 2, 3, 0, 0], [1, 2, 3, 4, 5]])
    q, v = embed_q(q_ids), embed_v(v_ids)
    layer = L.Attention()
    auto = np.asarray(layer([q, v]))
    given = np.asarray(layer([q, v], mask=[tf.constant(q_ids != 0), tf.constant(v_ids != 0)]))
    np.testing.assert_allclose(auto, given)
    mha = L.MultiHeadAttention(2, 3)
    out = mha(q, v)
    np.testing.assert_allclose(np.asarray(out), np.asarray(mha(
        q, v, query_mask=tf.constant(q_ids != 0), value_mask=tf.constant(v_ids != 0))))


# -- multi-head attention ---------------------------------------------------------------------
def _mha_numpy(layer, q, v, k=None, mask=None, softmax_zeroes=False):
    k = v if k is None else k
    qk, qb, kk, kb, vk, vb, ok, ob = layer.get_weights()
    Qp = np.einsum("btd,dnh->btnh", q, qk) + qb
    Kp = np.einsum("bsd,dnh->bsnh", k, kk) + kb
    Vp = np.einsum("bsd,dnh->bsnh", v, vk) + vb
    scores = np.einsum("btnh,bsnh->bnts", Qp, Kp) / np.sqrt(qk.shape[-1])
    if mask is not None:
        scores = np.where(mask[:, None], scores, -1e9)
    weights = softmax(scores)
    if mask is not None and softmax_zeroes:
        weights = np.where(mask[:, None], weights, 0.0)
    heads = np.einsum("bnts,bsnh->btnh", weights, Vp)
    return np.einsum("btnh,nhd->btd", heads, ok) + ob, weights


def test_multi_head_attention_matches_numpy():
    layer = L.MultiHeadAttention(2, 3, value_dim=4, output_shape=5, **F64)
    out = np.asarray(layer(Q, V, KEY))
    np.testing.assert_allclose(out, _mha_numpy(layer, Q, V, KEY)[0], rtol=1e-10)
    assert [tuple(w.shape) for w in layer.weights] == [(6, 2, 3), (2, 3), (6, 2, 3), (2, 3),
                                                       (6, 2, 4), (2, 4), (2, 4, 5), (5,)]
    assert [w.path for w in layer.weights][0].endswith("query/kernel")


def test_multi_head_attention_masks():
    layer = L.MultiHeadAttention(2, 3, **F64)
    attention = RNG.random((2, 4, 5)) > 0.3
    out, scores = layer(Q, V, attention_mask=tf.constant(attention), value_mask=tf.constant(
        V_MASK), return_attention_scores=True)
    mask = attention & V_MASK[:, None, :]
    want, want_w = _mha_numpy(layer, Q, V, mask=mask, softmax_zeroes=True)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(scores), want_w, rtol=1e-10, atol=1e-300)
    causal = np.asarray(layer(Q, Q, use_causal_mask=True))
    tri = np.tril(np.ones((4, 4), bool))[None].repeat(2, 0)
    np.testing.assert_allclose(causal, _mha_numpy(layer, Q, Q, mask=tri)[0], rtol=1e-10)


def test_multi_head_attention_over_two_axes_and_gate():
    x = RNG.normal(size=(2, 3, 4, 6))
    layer = L.MultiHeadAttention(2, 3, attention_axes=(1, 2), **F64)
    out = np.asarray(layer(x, x))
    qk, qb, kk, kb, vk, vb, ok, ob = layer.get_weights()
    Qp, Kp, Vp = (np.einsum("bijd,dnh->bijnh", x, w) + b for w, b in ((qk, qb), (kk, kb),
                                                                       (vk, vb)))
    s = np.einsum("bijnh,bklnh->bnijkl", Qp, Kp) / np.sqrt(3)
    w = softmax(s.reshape(2, 2, 3, 4, 12)).reshape(s.shape)
    heads = np.einsum("bnijkl,bklnh->bijnh", w, Vp)
    np.testing.assert_allclose(out, np.einsum("bijnh,nhd->bijd", heads, ok) + ob, rtol=1e-10)
    gated = L.MultiHeadAttention(2, 3, use_gate=True, **F64)
    gated(Q, V)
    assert len(gated.weights) == 10


@pytest.mark.parametrize("kwargs", [{}, {"use_causal_mask": True}])
def test_multi_head_attention_gradients(kwargs):
    layer = L.MultiHeadAttention(2, 2, **F64)
    check_layer_gradients(layer, [Q[:, :3, :3], Q[:, :3, :3] * 0.5], kwargs=kwargs,
                          mode="positional")


def test_multi_head_attention_in_a_functional_model_and_config():
    query = tf.keras.Input((4, 6))
    value = tf.keras.Input((5, 6))
    mha = L.MultiHeadAttention(2, 3, dropout=0.1)
    out = mha(query, value)
    model = tf.keras.Model([query, value], out)
    assert len(model.trainable_weights) == 8 and mha.built
    got = np.asarray(model([Q.astype("float32"), V.astype("float32")]))
    clone = L.MultiHeadAttention.from_config(mha.get_config())
    clone.build_from_config(mha.get_build_config())
    clone.set_weights(mha.get_weights())
    np.testing.assert_allclose(np.asarray(clone(Q.astype("float32"), V.astype("float32"))),
                               got, rtol=1e-6)
    trained = np.asarray(mha(Q.astype("float32"), V.astype("float32"), training=True))
    assert not np.allclose(trained, got)


def test_einsum_dense_shapes():
    layer = L.EinsumDense("...b,bc->...c", output_shape=4, bias_axes="c", **F64)
    x = RNG.normal(size=(2, 3, 5))
    kernel, bias = (layer(x), layer.get_weights())[1]
    np.testing.assert_allclose(np.asarray(layer(x)), x @ kernel + bias, rtol=1e-12)
    assert layer.compute_output_shape((None, 3, 5)) == tf.TensorShape((None, 3, 4))


# -- a small transformer ----------------------------------------------------------------------
def test_small_transformer_learns():
    """Label: are there more tokens below 10 than at or above? Stated accuracy: > 0.85."""
    tf.keras.utils.set_random_seed(1)
    rng = np.random.default_rng(1)
    n, length = 640, 12
    ids = rng.integers(1, 20, size=(n, length))
    labels = ((ids < 10).sum(1) > length / 2).astype("float32")
    inputs = tf.keras.Input((length,), dtype="int32")
    x = L.Embedding(20, 16)(inputs)
    attended = L.MultiHeadAttention(2, 8)(x, x)
    x = L.LayerNormalization()(L.Add()([x, attended]))
    ffn = L.Dense(16)(L.Dense(32, activation="relu")(x))
    x = L.LayerNormalization()(L.Add()([x, ffn]))
    x = L.Lambda(lambda t: tf.reduce_mean(t, axis=1))(x)
    model = tf.keras.Model(inputs, L.Dense(1, activation="sigmoid")(x))
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(ids[:512], labels[:512], epochs=5, batch_size=32, verbose=0)
    _, accuracy = model.evaluate(ids[512:], labels[512:], verbose=0)
    assert accuracy > 0.85


# -- TensorFlow's Keras -----------------------------------------------------------------------
def _tf_cases():
    x4 = RNG.normal(size=(2, 3, 4, 6))
    am = RNG.random((2, 4, 5)) > 0.3
    return [
        Case("ln", L.LayerNormalization(**F64), [Q]),
        Case("ln-axes", L.LayerNormalization(axis=[1, 2], **F64), [Q]),
        Case("ln-rms", L.LayerNormalization(rms_scaling=True, **F64), [Q]),
        Case("ln-no-center", L.LayerNormalization(axis=1, center=False, **F64), [Q]),
        Case("gn", L.GroupNormalization(groups=3, **F64), [x4]),
        Case("gn-axis1", L.GroupNormalization(groups=2, axis=1, **F64), [Q[:, :, :3]]),
        Case("un", L.UnitNormalization(**F64), [Q]),
        Case("bn-train", L.BatchNormalization(**F64), [Q], training=True),
        Case("bn-inference", L.BatchNormalization(axis=1, **F64), [Q]),
        Case("att", L.Attention(**F64), [Q, V], list_input=True),
        Case("att-scale-concat", L.Attention(use_scale=True, score_mode="concat", **F64),
             [Q, V, KEY], list_input=True),
        Case("att-causal", L.Attention(**F64), [Q, Q], list_input=True,
             kwargs={"use_causal_mask": True}),
        Case("additive", L.AdditiveAttention(**F64), [Q, V, KEY], list_input=True),
        Case("mha", L.MultiHeadAttention(2, 3, **F64), [Q, V]),
        Case("mha-dims", L.MultiHeadAttention(2, 3, value_dim=4, output_shape=5, **F64),
             [Q, V, KEY]),
        Case("mha-causal", L.MultiHeadAttention(2, 3, **F64), [Q, Q],
             kwargs={"use_causal_mask": True}),
        Case("mha-mask", L.MultiHeadAttention(3, 2, **F64), [Q, V],
             tensor_kwargs={"attention_mask": am}),
        Case("mha-scores", L.MultiHeadAttention(2, 3, **F64), [Q, V],
             kwargs={"return_attention_scores": True}),
        Case("mha-axes", L.MultiHeadAttention(2, 3, attention_axes=(1, 2), **F64), [x4, x4]),
        Case("mha-no-bias", L.MultiHeadAttention(2, 3, use_bias=False, **F64), [Q, V]),
        Case("mha-gate", L.MultiHeadAttention(2, 3, use_gate=True, **F64), [Q, V]),
        Case("einsum-dense", L.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3),
                                           bias_axes="de", **F64), [Q]),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        # TensorFlow's own float64 MultiHeadAttention is only ~1e-8 exact (checked against
        # NumPy above, where wengert's is exact to 1e-10)
        tol = 1e-6 if case.name.startswith("mha") else 1e-9
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
