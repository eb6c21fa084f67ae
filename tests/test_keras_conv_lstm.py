"""ConvLSTM1D/2D/3D: the recurrence against a NumPy loop of convolutions, gradients against finite
differences in float64 (eager steps and the traced while_loop), configs and `.keras` files
round-tripped, training under fit, Keras's argument errors, and every layer against TensorFlow
2.21's Keras (outputs, states and gradients)."""
import itertools

import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from keras_layer_lifecycle import check_config_round_trip, check_fit_and_saved_model
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(61)
F64 = {"dtype": "float64"}
SEQ1 = RNG.normal(size=(2, 4, 7, 3))
SEQ2 = RNG.normal(size=(2, 3, 6, 5, 2))
SEQ3 = RNG.normal(size=(1, 2, 4, 4, 3, 2))


def _conv(x, k, stride=1, same=False):
    """N-d convolution of channels_last x [batch, *spatial, c] with k [*window, c, o]."""
    window = k.shape[:-2]
    if same:
        pads = []
        for n, w in zip(x.shape[1:-1], window):
            out = -(-n // stride)
            total = max((out - 1) * stride + w - n, 0)
            pads.append((total // 2, total - total // 2))
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    sizes = [(n - w) // stride + 1 for n, w in zip(x.shape[1:-1], window)]
    out = np.zeros((x.shape[0], *sizes, k.shape[-1]))
    for offset in itertools.product(*[range(w) for w in window]):
        box = tuple(slice(o, o + stride * (s - 1) + 1, stride) for o, s in zip(offset, sizes))
        out += x[(slice(None),) + box] @ k[offset]
    return out


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _conv_lstm_numpy(layer, seq, stride=1, same=False):
    kernel, recurrent, bias = layer.get_weights()
    h = c = None
    outputs = []
    for t in range(seq.shape[1]):
        x = seq[:, t]
        zx = _conv(x, kernel, stride, same) + bias
        if h is None:
            h = c = np.zeros(zx.shape[:-1] + (zx.shape[-1] // 4,))
        z = zx + _conv(h, recurrent, 1, True)
        zi, zf, zc, zo = np.split(z, 4, axis=-1)
        c = _sigmoid(zf) * c + _sigmoid(zi) * np.tanh(zc)
        h = _sigmoid(zo) * np.tanh(c)
        outputs.append(h)
    return np.stack(outputs, 1), h, c


def test_matches_numpy():
    layer = L.ConvLSTM2D(3, (3, 2), return_sequences=True, return_state=True, **F64)
    out, h, c = layer(SEQ2)
    want, want_h, want_c = _conv_lstm_numpy(layer, SEQ2)
    for got, ref in ((out, want), (h, want_h), (c, want_c)):
        np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-10, atol=1e-12)
    strided = L.ConvLSTM1D(4, 3, strides=2, padding="same", **F64)
    last = np.asarray(strided(SEQ1))
    np.testing.assert_allclose(last, _conv_lstm_numpy(strided, SEQ1, 2, True)[1], rtol=1e-10,
                               atol=1e-12)
    assert tuple(strided.compute_output_shape((None,) + SEQ1.shape[1:])) == (None, 4, 4)
    backwards = L.ConvLSTM1D(2, 2, go_backwards=True, **F64)
    back = np.asarray(backwards(SEQ1))
    np.testing.assert_allclose(back, _conv_lstm_numpy(backwards, SEQ1[:, ::-1])[1],
                               rtol=1e-10, atol=1e-12)
    assert layer.kernel.shape == (3, 2, 2, 12) and layer.recurrent_kernel.shape == (3, 2, 3, 12)
    np.testing.assert_array_equal(L.ConvLSTM3D(2, 2)(SEQ3.astype("float32")).shape,
                                  (1, 3, 3, 2, 2))


def test_masked_steps_keep_the_states():
    """A masked step repeats the previous output and states (eagerly and traced)."""
    mask = np.array([[True, True, False, True], [True, False, False, False]])
    layer = L.ConvLSTM1D(2, 3, padding="same", return_sequences=True, return_state=True, **F64)
    out, h, c = (np.asarray(t) for t in layer(SEQ1, mask=tf.constant(mask)))
    kept = SEQ1[:, [0, 1, 3]]
    _, want_h, want_c = _conv_lstm_numpy(layer, kept[:1], 1, True)
    np.testing.assert_allclose(h[:1], want_h, rtol=1e-10)
    np.testing.assert_allclose(c[:1], want_c, rtol=1e-10)
    np.testing.assert_array_equal(out[1, 1:], np.repeat(out[1, :1], 3, 0))
    np.testing.assert_array_equal(out[0, 2], out[0, 1])
    traced = tf.function(lambda x, m: layer(x, mask=m))(tf.constant(SEQ1), tf.constant(mask))
    np.testing.assert_allclose(np.asarray(traced[0]), out, rtol=1e-12)


def test_traced_loop_equals_eager_steps():
    layer = L.ConvLSTM1D(2, 3, padding="same", return_sequences=True, **F64)
    eager = np.asarray(layer(SEQ1))
    traced = tf.function(lambda x: layer(x))(tf.constant(SEQ1))
    np.testing.assert_allclose(np.asarray(traced), eager, rtol=1e-12)


def test_gradients():
    check_layer_gradients(L.ConvLSTM1D(2, 2, return_sequences=True, **F64), [SEQ1[:1, :3, :4, :2]])
    check_layer_gradients(L.ConvLSTM2D(1, 2, padding="same", recurrent_initializer="glorot_uniform",
                                       **F64), [SEQ2[:1, :2, :3, :3, :1]])


def test_config_fit_and_saved_model(tmp_path):
    clone = check_config_round_trip(L.ConvLSTM2D(
        4, 3, strides=2, padding="same", dropout=0.1, recurrent_dropout=0.2,
        unit_forget_bias=False, return_sequences=True, kernel_regularizer="l2"))
    assert clone.filters == 4 and clone.kernel_size == (3, 3) and clone.recurrent_dropout == 0.2
    check_fit_and_saved_model(lambda: L.ConvLSTM2D(3, 2, dropout=0.2, recurrent_dropout=0.1),
                              SEQ2.astype("float32"), tmp_path)


def test_bad_arguments():
    with pytest.raises(ValueError, match="strides > 1"):
        L.ConvLSTM2D(2, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="kernel_size"):
        L.ConvLSTM2D(2, (3, 3, 3))
    with pytest.raises(ValueError, match="padding"):
        L.ConvLSTM1D(2, 3, padding="causal")
    with pytest.raises(ValueError, match="expected ndim=5"):
        L.ConvLSTM2D(2, 3)(SEQ1)


def _tf_cases():
    return [
        Case("conv-lstm1d", L.ConvLSTM1D(3, 3, **F64), [SEQ1]),
        Case("conv-lstm1d-same-stride-states", L.ConvLSTM1D(
            2, 3, strides=2, padding="same", return_sequences=True, return_state=True, **F64),
            [SEQ1]),
        Case("conv-lstm1d-dilated-backwards", L.ConvLSTM1D(
            2, 2, dilation_rate=2, go_backwards=True, unit_forget_bias=False,
            activation="relu", recurrent_activation="relu6", **F64), [SEQ1]),
        Case("conv-lstm2d", L.ConvLSTM2D(3, (3, 2), return_sequences=True, **F64), [SEQ2]),
        Case("conv-lstm2d-same-no-bias", L.ConvLSTM2D(2, 3, padding="same", use_bias=False,
                                                      **F64), [SEQ2]),
        Case("conv-lstm3d", L.ConvLSTM3D(2, 2, return_sequences=True, **F64), [SEQ3]),
        Case("conv-lstm1d-masked", L.ConvLSTM1D(2, 3, padding="same", return_sequences=True,
                                                **F64), [SEQ1],
             mask=np.array([[True, True, False, True], [True, False, False, False]])),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        assert_matches(case, results[case.name], rtol=1e-9, atol=1e-10)
