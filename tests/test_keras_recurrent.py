"""Recurrent layers (issue 19 item 1): SimpleRNN, LSTM, GRU, their cells, RNN, StackedRNNCells,
Bidirectional, TimeDistributed, masking, dropout, stateful layers, graphs, configs.

Outputs are checked against NumPy loops of the layers' math, gradients against central finite
differences of those loops (float64), traced functions against eager runs, and, when TensorFlow
is installed, everything against TensorFlow 2.21's Keras (tests/tf_reference.py)."""
import numpy as np
import pytest
from scipy.special import expit

import wengert as tf
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(3)
X = RNG.normal(size=(3, 5, 4))
IDS = np.array([[1, 2, 0, 0, 0], [3, 1, 4, 2, 0], [0, 0, 1, 2, 3]])
MASK = IDS != 0


# -- NumPy references -------------------------------------------------------------------------
def _loop(step, x, states, mask=None, go_backwards=False, zero_output=False):
    order = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    outs, prev = [], np.zeros((x.shape[0], states[0].shape[1]))
    for t in order:
        out, new = step(x[:, t], states)
        if mask is not None:
            m = mask[:, t][:, None]
            out = np.where(m, out, 0 * out if zero_output else prev)
            new = [np.where(m, n, s) for n, s in zip(new, states)]
        outs.append(out)
        prev, states = out, new
    return np.stack(outs, 1), states


def simple_rnn_step(w):
    kernel, recurrent, bias = w

    def step(x, states):
        h = np.tanh(x @ kernel + bias + states[0] @ recurrent)
        return h, [h]
    return step


def lstm_step(w):
    kernel, recurrent, bias = w
    u = recurrent.shape[0]

    def step(x, states):
        h, c = states
        z = x @ kernel + h @ recurrent + bias
        i, f, g, o = expit(z[:, :u]), expit(z[:, u:2 * u]), np.tanh(z[:, 2 * u:3 * u]), \
            expit(z[:, 3 * u:])
        c = f * c + i * g
        h = o * np.tanh(c)
        return h, [h, c]
    return step


def gru_step(w, reset_after=True):
    kernel, recurrent, bias = w
    u = recurrent.shape[0]

    def step(x, states):
        h = states[0]
        if reset_after:
            xw, inner = x @ kernel + bias[0], h @ recurrent + bias[1]
            z, r = expit(xw[:, :u] + inner[:, :u]), expit(xw[:, u:2 * u] + inner[:, u:2 * u])
            n = np.tanh(xw[:, 2 * u:] + r * inner[:, 2 * u:])
        else:
            xw = x @ kernel + bias
            z = expit(xw[:, :u] + h @ recurrent[:, :u])
            r = expit(xw[:, u:2 * u] + h @ recurrent[:, u:2 * u])
            n = np.tanh(xw[:, 2 * u:] + (r * h) @ recurrent[:, 2 * u:])
        h = z * h + (1 - z) * n
        return h, [h]
    return step


REFS = {"SimpleRNN": simple_rnn_step, "LSTM": lstm_step, "GRU": gru_step}


def _reference(layer, x, mask=None, initial=None):
    name = type(layer).__name__
    step = REFS[name](layer.get_weights()) if name != "GRU" else gru_step(
        layer.get_weights(), layer.cell.reset_after)
    n_states = 2 if name == "LSTM" else 1
    states = initial or [np.zeros((x.shape[0], layer.cell.units))] * n_states
    return _loop(step, x, list(states), mask, layer.go_backwards, layer.zero_output_for_mask)


def _f64(cls, units=3, **kw):
    return cls(units, dtype="float64", **kw)


# -- outputs ----------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [L.SimpleRNN, L.LSTM, L.GRU])
@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("masked", [False, True])
def test_outputs_match_numpy(cls, go_backwards, masked):
    layer = _f64(cls, return_sequences=True, return_state=True, go_backwards=go_backwards)
    mask = MASK if masked else None
    out = layer(X, mask=None if mask is None else tf.constant(mask))
    seq, states = _reference(layer, X, mask)
    np.testing.assert_allclose(np.asarray(out[0]), seq, rtol=1e-10)
    for got, want in zip(out[1:], states):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10)


def test_gru_reset_before_and_last_output():
    layer = _f64(L.GRU, reset_after=False)
    np.testing.assert_allclose(np.asarray(layer(X)), _reference(layer, X)[0][:, -1],
                               rtol=1e-10)
    assert layer.cell.bias.shape == (9,)


def test_initial_state_and_list_input():
    layer = _f64(L.LSTM, return_sequences=True)
    h0, c0 = RNG.normal(size=(3, 3)), RNG.normal(size=(3, 3))
    out = layer(X, initial_state=[tf.constant(h0), tf.constant(c0)])
    np.testing.assert_allclose(np.asarray(out), _reference(layer, X, initial=[h0, c0])[0],
                               rtol=1e-10)
    np.testing.assert_allclose(np.asarray(layer([X, h0, c0])), np.asarray(out), rtol=1e-12)


def test_zero_output_for_mask():
    layer = _f64(L.SimpleRNN, return_sequences=True, zero_output_for_mask=True)
    out = np.asarray(layer(X, mask=tf.constant(MASK)))
    assert np.all(out[~MASK] == 0)
    np.testing.assert_allclose(out, _reference(layer, X, MASK)[0], rtol=1e-10)


# -- gradients --------------------------------------------------------------------------------
def _numeric_grad(f, value, eps=1e-6):
    grad = np.zeros_like(value)
    flat, g = value.reshape(-1), grad.reshape(-1)
    for k in range(flat.size):
        old = flat[k]
        flat[k] = old + eps
        up = f()
        flat[k] = old - eps
        down = f()
        flat[k] = old
        g[k] = (up - down) / (2 * eps)
    return grad


@pytest.mark.parametrize("cls", [L.SimpleRNN, L.LSTM, L.GRU])
@pytest.mark.parametrize("masked", [False, True])
def test_gradients_match_finite_differences(cls, masked):
    layer = _f64(cls, return_sequences=True, go_backwards=masked)
    x = X[:2, :4].copy()
    mask = MASK[:2, :4] if masked else None
    layer(x)
    weights = layer.get_weights()
    seed = RNG.normal(size=(2, 4, 3))
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(layer(xt, mask=None if mask is None else tf.constant(mask)) * seed)
    grads = tape.gradient(loss, [xt] + layer.trainable_weights)

    def ref_loss():
        layer.set_weights(weights)
        return float(np.sum(_reference(layer, x, mask)[0] * seed))
    for got, value in zip(grads, [x] + weights):
        want = _numeric_grad(ref_loss, value)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("cls", [L.LSTM, L.GRU])
def test_fused_op_and_cell_loop_agree_to_second_order(cls):
    layer = _f64(cls)
    x = tf.constant(X)
    layer(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:  # two tapes: the fused op, differentiated twice
            inner.watch(x)
            y = tf.reduce_sum(layer(x) ** 2)
        g = inner.gradient(y, x)
        gg = tf.reduce_sum(g * g)
    second = outer.gradient(gg, layer.trainable_weights[1])
    with tf.GradientTape() as tape:  # one tape: the fused op, once
        tape.watch(x)
        y1 = tf.reduce_sum(layer(x) ** 2)
    np.testing.assert_allclose(np.asarray(tape.gradient(y1, x)), np.asarray(g), rtol=1e-10)
    assert second is not None and np.all(np.isfinite(np.asarray(second)))


# -- traced functions -------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: L.SimpleRNN(3, return_sequences=True),
    lambda: L.LSTM(3, return_sequences=True, go_backwards=True),
    lambda: L.GRU(3, return_sequences=True),
    lambda: L.RNN([L.LSTMCell(3), L.SimpleRNNCell(2)], return_sequences=True),
    lambda: L.SimpleRNN(3, return_sequences=True, unroll=True)])
def test_traced_function_equals_eager(make):
    layer = make()
    x = tf.constant(X.astype("float32"))
    mask = tf.constant(MASK)

    def run(x, mask):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = layer(x, mask=mask)
            loss = tf.reduce_sum(out * out)
        return [out] + tape.gradient(loss, [x] + layer.trainable_weights)
    eager = run(x, mask)
    traced = tf.function(run)(x, mask)
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def test_traced_cell_loop_is_one_while_op():
    layer = L.SimpleRNN(3)
    fn = tf.function(lambda x: layer(x))
    graph = fn.get_concrete_function(tf.TensorSpec([None, None, 4], tf.float32)).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count("While") == 1
    out = fn(tf.constant(X.astype("float32")))
    assert tuple(out.shape) == (3, 3)


# -- weights, configs -------------------------------------------------------------------------
def test_weight_order_and_shapes():
    expected = {L.SimpleRNN: [(4, 3), (3, 3), (3,)], L.LSTM: [(4, 12), (3, 12), (12,)],
                L.GRU: [(4, 9), (3, 9), (2, 9)]}
    for cls, shapes in expected.items():
        layer = cls(3)
        layer(X)
        assert [tuple(w.shape) for w in layer.weights] == shapes
        assert [w.name for w in layer.weights] == ["kernel", "recurrent_kernel", "bias"]
    lstm = L.LSTM(2)
    lstm(X)
    np.testing.assert_array_equal(lstm.get_weights()[2], [0, 0, 1, 1, 0, 0, 0, 0])
    bidi = L.Bidirectional(L.GRU(2))
    bidi(X)
    assert [tuple(w.shape) for w in bidi.weights] == [(4, 6), (2, 6), (2, 6)] * 2
    stacked = L.RNN([L.LSTMCell(3), L.GRUCell(2)])
    stacked(X)
    assert [tuple(w.shape) for w in stacked.weights] == [(4, 12), (3, 12), (12,), (3, 6),
                                                         (2, 6), (2, 6)]


@pytest.mark.parametrize("make", [
    lambda: L.LSTM(3, return_sequences=True, go_backwards=True, dropout=0.1),
    lambda: L.GRU(3, reset_after=False, return_state=True),
    lambda: L.SimpleRNN(3, activation="relu"),
    lambda: L.Bidirectional(L.LSTM(3, return_sequences=True), merge_mode="ave"),
    lambda: L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_sequences=True),
    lambda: L.TimeDistributed(L.Dense(2))])
def test_config_round_trip(make):
    layer = make()
    x = X.astype("float32")
    out = layer(x)
    config = layer.get_config()
    clone = type(layer).from_config(config)
    clone(x)
    clone.set_weights(layer.get_weights())
    for a, b in zip(out if isinstance(out, list) else [out],
                    clone(x) if isinstance(out, list) else [clone(x)]):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    assert clone.get_config() == config


# -- masks ------------------------------------------------------------------------------------
def test_embedding_mask_reaches_the_rnn():
    embed = L.Embedding(6, 4, mask_zero=True)
    lstm = L.LSTM(3, return_sequences=True)
    e = embed(IDS)
    np.testing.assert_array_equal(np.asarray(embed.compute_mask(IDS)), MASK)
    out = lstm(e)
    explicit = lstm(e, mask=tf.constant(MASK))
    np.testing.assert_allclose(np.asarray(out), np.asarray(explicit))
    unmasked = L.LSTM(3, return_sequences=True)
    unmasked(np.asarray(e))
    unmasked.set_weights(lstm.get_weights())
    assert not np.allclose(np.asarray(unmasked(np.asarray(e))), np.asarray(out))
    assert lstm.supports_masking and not L.Flatten().supports_masking


def test_masking_layer_in_a_model():
    x = X.copy()
    x[0, 3:] = 0.0
    model = tf.keras.Sequential([L.Masking(0.0, input_shape=(5, 4)), L.SimpleRNN(3)])
    masking, rnn = model.layers
    out = model(x)
    np.testing.assert_array_equal(np.asarray(masking.compute_mask(tf.constant(x))),
                                  np.any(x != 0, axis=-1))
    want = _reference(rnn, x.astype("float32"), np.any(x != 0, axis=-1))[0][:, -1]
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-5, atol=1e-6)


def test_functional_model_carries_masks():
    inputs = tf.keras.Input((5,), dtype="int32")
    h = L.Embedding(6, 4, mask_zero=True)(inputs)
    h = L.Bidirectional(L.GRU(3, return_sequences=True))(h)
    out = L.LSTM(2)(h)
    model = tf.keras.Model(inputs, out)
    out = np.asarray(model(IDS))
    embed, bidi, lstm = model.layers[1:]
    manual = lstm(bidi(embed(IDS), mask=tf.constant(MASK)), mask=tf.constant(MASK))
    np.testing.assert_allclose(out, np.asarray(manual), rtol=1e-6)


# -- dropout, stateful ------------------------------------------------------------------------
def test_dropout_only_while_training():
    layer = L.LSTM(4, dropout=0.5, recurrent_dropout=0.5, seed=1)
    x = X.astype("float32")
    inference = np.asarray(layer(x))
    np.testing.assert_allclose(np.asarray(layer(x, training=False)), inference)
    trained = np.asarray(layer(x, training=True))
    assert not np.allclose(trained, inference)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x, training=True))
    assert all(g is not None for g in tape.gradient(loss, layer.trainable_weights))
    gru = L.GRU(4, dropout=0.5, seed=2)  # input dropout only: the fused op
    assert not np.allclose(np.asarray(gru(x, training=True)), np.asarray(gru(x)))


def test_stateful_layer_carries_states_and_resets():
    layer = L.SimpleRNN(3, stateful=True, dtype="float64")
    first = np.asarray(layer(X))
    second = np.asarray(layer(X))
    assert not np.allclose(first, second)
    _, states = _reference(layer, X)
    np.testing.assert_allclose(second, _reference(layer, X, initial=states)[0][:, -1],
                               rtol=1e-10)
    layer.reset_states()
    np.testing.assert_allclose(np.asarray(layer(X)), first, rtol=1e-12)
    with pytest.raises(ValueError, match="batch size"):
        layer(X[:2])


def test_time_distributed_applies_per_step():
    dense = L.Dense(2, dtype="float64")
    layer = L.TimeDistributed(dense, dtype="float64")
    out = np.asarray(layer(X))
    kernel, bias = dense.get_weights()
    np.testing.assert_allclose(out, X @ kernel + bias, rtol=1e-12)
    assert layer.compute_output_shape((None, 5, 4)) == tf.TensorShape((None, 5, 2))


def test_bidirectional_merge_modes_and_states():
    x = X
    for mode in ("concat", "sum", "mul", "ave", None):
        layer = L.Bidirectional(_f64(L.SimpleRNN, return_sequences=True), merge_mode=mode,
                                dtype="float64")
        out = layer(x)
        fwd = _reference(layer.forward_layer, x)[0]
        bwd = _reference(layer.backward_layer, x)[0][:, ::-1]
        want = {"concat": np.concatenate([fwd, bwd], -1), "sum": fwd + bwd, "mul": fwd * bwd,
                "ave": (fwd + bwd) / 2, None: [fwd, bwd]}[mode]
        if mode is None:
            for a, b in zip(out, want):
                np.testing.assert_allclose(np.asarray(a), b, rtol=1e-10)
        else:
            np.testing.assert_allclose(np.asarray(out), want, rtol=1e-10)
    layer = L.Bidirectional(L.LSTM(2, return_state=True))
    out = layer(X.astype("float32"))
    assert len(out) == 5 and tuple(out[0].shape) == (3, 4)
    assert layer.forward_layer.name.startswith("forward_")
    assert layer.backward_layer.go_backwards


# -- training ---------------------------------------------------------------------------------
def test_lstm_text_classifier_learns():
    """Label: does token 1 occur in the (zero-padded) sequence? Stated accuracy: > 0.9."""
    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    n, length = 600, 12
    ids = rng.integers(2, 20, size=(n, length))
    lengths = rng.integers(4, length + 1, size=n)
    labels = rng.integers(0, 2, size=n)
    for k in range(n):
        if labels[k]:
            ids[k, rng.integers(0, lengths[k])] = 1
        ids[k, lengths[k]:] = 0
    model = tf.keras.Sequential([L.Embedding(20, 16, mask_zero=True), L.LSTM(16),
                                 L.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(ids[:500], labels[:500], epochs=6, batch_size=32, verbose=0)
    _, accuracy = model.evaluate(ids[500:], labels[500:], verbose=0)
    assert accuracy > 0.9


# -- TensorFlow's Keras -----------------------------------------------------------------------
def _tf_cases():
    cases = []
    for cls in (L.LSTM, L.GRU, L.SimpleRNN):
        for rs in (False, True):
            for gb in (False, True):
                cases.append(Case(f"{cls.__name__}-{rs}-{gb}", _f64(
                    cls, return_sequences=rs, return_state=True, go_backwards=gb), [X]))
                cases.append(Case(f"{cls.__name__}-{rs}-{gb}-mask", _f64(
                    cls, return_sequences=rs, go_backwards=gb), [X], mask=MASK))
    cases += [
        Case("gru-reset-before", _f64(L.GRU, reset_after=False, return_sequences=True), [X],
             mask=MASK),
        Case("lstm-no-bias", _f64(L.LSTM, use_bias=False, unit_forget_bias=False), [X]),
        Case("bidirectional", L.Bidirectional(_f64(L.LSTM, return_sequences=True),
                                              dtype="float64"), [X], mask=MASK),
        Case("bidirectional-sum-states", L.Bidirectional(
            _f64(L.GRU, 2, return_state=True), merge_mode="sum", dtype="float64"), [X]),
        Case("stacked", L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_sequences=True,
                              return_state=True), [X.astype("float32")]),
        Case("time-distributed", L.TimeDistributed(L.Dense(2, dtype="float64"),
                                                   dtype="float64"), [X])]
    return cases


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        tol = 1e-5 if case.name == "stacked" else 1e-9
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
