"""Keras LSTM and GRU beyond first order: one path, the fused op, whatever records it.

The layers pick the fused sequence op (ops/nn/rnn/) from their configuration alone, never from
how many tapes or accumulators are active, and the fused op's gradient differentiates again.
Checked here in float64: the fused op runs under nested tapes and forward accumulators (by the
op types executed); a gradient penalty (reverse over reverse), a Hessian-vector product
(forward over reverse) and a JVP through the layers agree with the cell loop run step by step
(the composed path, forced by patching `_fusable`) and with central finite differences (the ops
alone: tests/test_fused_rnn_derivatives.py)."""
import contextlib

import numpy as np
import pytest

import wengert as tf
from wengert.framework.context import state

L = tf.keras.layers
RNG = np.random.default_rng(5)
X = RNG.normal(size=(2, 4, 3))
MASK = np.array([[True, True, False, True], [False, True, True, True]])
FUSED = {"LSTM": "LSTMSequence", "GRU": "GRUSequence"}
LAYERS = {"lstm": lambda **kw: L.LSTM(3, dtype="float64", **kw),
          "gru": lambda **kw: L.GRU(3, dtype="float64", **kw),
          "gru_reset_before": lambda **kw: L.GRU(3, dtype="float64", reset_after=False, **kw)}


@contextlib.contextmanager
def _executed_op_types():
    """The types of the eager ops run inside the block (the ops themselves, not the tangent
    ops an accumulator opened earlier adds for them)."""
    types = []

    def hook(op_def, inputs, outputs, attrs, name):
        types.append(op_def.type)
    state.observers = state.observers + (hook,)
    try:
        yield types
    finally:
        state.observers = tuple(h for h in state.observers if h is not hook)


@pytest.fixture
def cell_loop(monkeypatch):
    """A context in which the LSTM and GRU layers run their cells step by step."""
    @contextlib.contextmanager
    def composed():
        with monkeypatch.context() as patch:
            for cls in (L.LSTM, L.GRU):
                patch.setattr(cls, "_fusable", lambda self, training: False)
            yield
    return composed


def _layer(kind, masked=False, **kw):
    layer = LAYERS[kind](return_sequences=True, go_backwards=masked, **kw)
    layer(X)
    return layer


def _call(layer, x, masked):
    return layer(x, mask=tf.constant(MASK) if masked else None)


def _penalty(layer, x, masked, seed):
    """P = |d/dx sum(layer(x) * seed)|^2 and its gradient with respect to the weights."""
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(_call(layer, x, masked) * seed)
        g = inner.gradient(y, x)
        penalty = tf.reduce_sum(g * g)
    return penalty, outer.gradient(penalty, layer.trainable_weights)


def _perturbed(layer, direction, eps, fn):
    """fn() with the layer's weights moved by eps * direction, then restored."""
    weights = layer.get_weights()
    layer.set_weights([w + eps * d for w, d in zip(weights, direction)])
    try:
        return fn()
    finally:
        layer.set_weights(weights)


def _central(layer, direction, fn, eps=1e-6):
    up = _perturbed(layer, direction, eps, fn)
    down = _perturbed(layer, direction, -eps, fn)
    return [(np.asarray(a) - np.asarray(b)) / (2 * eps) for a, b in zip(up, down)]


def _assert_close(got, want, rtol, atol=1e-10):
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


# -- one path ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(LAYERS))
@pytest.mark.parametrize("context", ["nested_tapes", "accumulator_and_tape", "accumulator"])
def test_the_fused_op_runs_whatever_records_it(kind, context, cell_loop):
    layer = _layer(kind)
    fused = FUSED[type(layer).__name__]
    x = tf.constant(X)

    def run():
        with contextlib.ExitStack() as stack:
            if context != "nested_tapes":
                stack.enter_context(tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)))
            tapes = [stack.enter_context(tf.GradientTape()) for _ in range(
                {"nested_tapes": 2, "accumulator_and_tape": 1, "accumulator": 0}[context])]
            for tape in tapes:
                tape.watch(x)
            with _executed_op_types() as types:
                y = tf.reduce_sum(layer(x))
                if tapes:
                    tapes[-1].gradient(y, x)
        return types
    types = run()
    assert types.count(fused) == 1 and "Sigmoid" not in types, types
    assert (fused + "Grad" in types) == (context != "accumulator")
    with cell_loop():  # the counting tells the paths apart
        types = run()
    assert fused not in types and types.count("Sigmoid") >= X.shape[1]


# -- second order -----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", list(LAYERS))
@pytest.mark.parametrize("masked", [False, True])
def test_gradient_penalty_matches_cell_loop_and_finite_differences(kind, masked, cell_loop):
    layer = _layer(kind, masked)
    x, seed = tf.constant(X), RNG.normal(size=(2, 4, 3))
    penalty, grads = _penalty(layer, x, masked, seed)
    with cell_loop():
        want_penalty, want = _penalty(layer, x, masked, seed)
    np.testing.assert_allclose(float(penalty), float(want_penalty), rtol=1e-10)
    _assert_close(grads, want, rtol=1e-8)
    direction = [RNG.normal(size=w.shape) for w in layer.get_weights()]
    numeric = _central(layer, direction, lambda: [_penalty(layer, x, masked, seed)[0]])[0]
    analytic = sum(float(np.sum(np.asarray(g) * d)) for g, d in zip(grads, direction))
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-9)  # FD roundoff floor


def _gradient(layer, x, masked, seed):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(_call(layer, x, masked) * seed)
    return tape.gradient(loss, layer.trainable_weights)


def _hvp(layer, x, masked, seed, direction):
    """Forward over reverse: the Hessian of sum(layer(x) * seed) in the weights, times
    `direction`."""
    weights = layer.trainable_weights
    with tf.autodiff.ForwardAccumulator(weights, [tf.constant(d) for d in direction]) as acc:
        grads = _gradient(layer, x, masked, seed)
    return [acc.jvp(g) for g in grads]


@pytest.mark.parametrize("kind", list(LAYERS))
@pytest.mark.parametrize("masked", [False, True])
def test_hessian_vector_product_matches_cell_loop_and_finite_differences(kind, masked,
                                                                         cell_loop):
    layer = _layer(kind, masked)
    x, seed = tf.constant(X), RNG.normal(size=(2, 4, 3))
    direction = [RNG.normal(size=w.shape) for w in layer.get_weights()]
    hvp = _hvp(layer, x, masked, seed, direction)
    with cell_loop():
        want = _hvp(layer, x, masked, seed, direction)
    _assert_close(hvp, want, rtol=1e-8)
    numeric = _central(layer, direction, lambda: _gradient(layer, x, masked, seed))
    _assert_close(hvp, numeric, rtol=1e-5, atol=1e-7)


# -- forward mode -----------------------------------------------------------------------------
def _jvp(layer, x, masked, u):
    with tf.autodiff.ForwardAccumulator(x, tf.constant(u)) as acc:
        y = _call(layer, x, masked)
    return acc.jvp(y)


@pytest.mark.parametrize("kind", list(LAYERS))
@pytest.mark.parametrize("masked", [False, True])
def test_jvp_matches_cell_loop_and_finite_differences(kind, masked, cell_loop):
    layer = _layer(kind, masked)
    x, u = tf.constant(X), RNG.normal(size=X.shape)
    jvp = _jvp(layer, x, masked, u)
    with cell_loop():
        want = _jvp(layer, x, masked, u)
    np.testing.assert_allclose(np.asarray(jvp), np.asarray(want), rtol=1e-9, atol=1e-12)
    eps = 1e-6
    numeric = (np.asarray(_call(layer, tf.constant(X + eps * u), masked))
               - np.asarray(_call(layer, tf.constant(X - eps * u), masked))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(jvp), numeric, rtol=1e-6, atol=1e-8)
