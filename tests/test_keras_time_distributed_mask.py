"""TimeDistributed with a mask, and InputLayer(input_tensor=) / Input(tensor=), against
TensorFlow 2.21's Keras 3: a [batch, time, ...] mask reaches the wrapped layer step by step
when its call takes one (GlobalAveragePooling1D, LSTM, a masked Softmax), outputs and gradients;
Keras's mask checks; an existing KerasTensor as a model's input."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(2777)
X4 = RNG.normal(size=(2, 3, 5, 4))
M3 = RNG.uniform(size=(2, 3, 5)) > 0.35
M3[:, :, 0] = True
M4 = RNG.uniform(size=X4.shape) > 0.3
M4[..., 0] = True
X3 = RNG.normal(size=(2, 3, 4))
M2 = np.array([[True, False, True], [True, True, False]])
F64 = {"dtype": "float64"}


def _cases():
    return [
        Case("td-pool-mask", L.TimeDistributed(L.GlobalAveragePooling1D(**F64), **F64), [X4],
             mask=M3),
        Case("td-lstm-mask", L.TimeDistributed(L.LSTM(3, **F64), **F64), [X4], mask=M3),
        Case("td-softmax-mask", L.TimeDistributed(L.Softmax(**F64), **F64), [X4], mask=M4),
        Case("td-dense-mask", L.TimeDistributed(L.Dense(2, **F64), **F64), [X3], mask=M2),
    ]


def test_matches_tensorflow_keras():
    cases = _cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        assert_matches(case, results[case.name], rtol=1e-9, atol=1e-9)


def test_mask_reaches_the_wrapped_layer_per_step():
    out = L.TimeDistributed(L.GlobalAveragePooling1D(**F64), **F64)(X4, mask=M3).numpy()
    want = (X4 * M3[..., None]).sum(2) / M3.sum(2)[..., None]
    np.testing.assert_allclose(out, want, rtol=1e-12)
    layer = L.TimeDistributed(L.Dense(2))
    assert np.array_equal(layer.compute_mask(X3, tf.constant(M2)).numpy(), M2)


def test_mask_in_a_functional_model_comes_from_masking():
    inp = tf.keras.Input((3, 5, 4))
    masked = L.Masking(0.0)(inp)
    out = L.TimeDistributed(L.GlobalAveragePooling1D())(masked)
    model = tf.keras.Model(inp, out)
    x = X4.astype("float32") * M3[..., None]
    want = x.sum(2) / M3.sum(2)[..., None]
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-6)


def test_mask_shapes_are_checked():
    layer = L.TimeDistributed(L.GlobalAveragePooling1D())
    with pytest.raises(ValueError, match="at least 2D"):
        layer(X4, mask=tf.constant(M3[:, 0, 0]))
    with pytest.raises(ValueError, match="incompatible with the input shape"):
        layer(X4, mask=tf.constant(M3[:, :2]))


_INPUT_TENSOR = """
x = keras.Input((3,), name="source")
layer = keras.layers.InputLayer(input_tensor=x, name="given")
y = keras.layers.Dense(2, name="dense")(x)
model = keras.Model(x, y)
out["layers"] = np.array([type(l).__name__ + ":" + l.name for l in model.layers])
out["same"] = np.array(layer.output is x)
z = keras.Input(tensor=keras.Input((4,), dtype="int32"))
out["z"] = np.array([str(tuple(z.shape)), str(z.dtype)])
errors = []
for kwargs in ({"shape": (4,)}, {"batch_size": 2}, {"dtype": "int32"}):
    try:
        keras.layers.InputLayer(input_tensor=keras.Input((3,)), **kwargs)
        errors.append("ok")
    except ValueError:
        errors.append("ValueError")
out["errors"] = np.array(errors)
"""


def test_input_tensor_matches_keras():
    want = tf_eval(_INPUT_TENSOR)
    x = tf.keras.Input((3,), name="source")
    layer = L.InputLayer(input_tensor=x, name="given")
    model = tf.keras.Model(x, L.Dense(2, name="dense")(x))
    assert [f"{type(l).__name__}:{l.name}" for l in model.layers] == list(want["layers"])
    assert (layer.output is x) == bool(want["same"])
    z = tf.keras.Input(tensor=tf.keras.Input((4,), dtype="int32"))
    assert [str(tuple(z.shape)), z.dtype.name] == list(want["z"])
    errors = []
    for kwargs in ({"shape": (4,)}, {"batch_size": 2}, {"dtype": "int32"}):
        try:
            L.InputLayer(input_tensor=tf.keras.Input((3,)), **kwargs)
            errors.append("ok")
        except ValueError:
            errors.append("ValueError")
    assert errors == list(want["errors"])
    np.testing.assert_allclose(model(np.ones((2, 3), "float32")).shape, (2, 2))


def test_input_tensor_must_be_symbolic():
    with pytest.raises(ValueError, match="must be a KerasTensor"):
        L.InputLayer(input_tensor=tf.ones((2, 3)))
