"""`weights`, `trainable_weights`, `non_trainable_weights` and `get_weights()` in the order
TensorFlow 2.21's Keras 3 lists them: layer by layer (a layer's trainable weights, then its
other weights, then its sublayers'), so BatchNormalization's four weights stay together, for
Sequential, functional and nested models, recurrent layers and cells, wrappers, attention, and
frozen layers. The listings are compared with TensorFlow's (stored answers without it)."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

keras = tf.keras
L = keras.layers

_MODELS = '''
def models():
    L = keras.layers
    yield "seq", keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(2, 3),
                                   L.BatchNormalization(), L.Flatten(), L.Dense(3)])
    i = keras.Input((5,))
    a = L.Dense(4)(i)
    b = L.BatchNormalization()(a)
    yield "func", keras.Model(i, L.Dense(2)(L.Concatenate()([a, b])))
    inner = keras.Sequential([keras.Input((5,)), L.Dense(3), L.BatchNormalization()])
    yield "nested", keras.Sequential([keras.Input((5,)), L.Dense(5), inner, L.Dense(1)])
    yield "rnn", keras.Sequential([keras.Input((4, 3)), L.LSTM(2, return_sequences=True),
                                   L.BatchNormalization(), L.GRU(2)])
    yield "bidirectional", keras.Sequential([keras.Input((4, 3)), L.Bidirectional(L.LSTM(2)),
                                             L.Dense(1)])
    yield "time_distributed", keras.Sequential([
        keras.Input((4, 3)), L.TimeDistributed(L.Dense(2)),
        L.TimeDistributed(L.BatchNormalization())])
    yield "stacked_cells", keras.Sequential([keras.Input((4, 3)),
                                             L.RNN([L.LSTMCell(2), L.GRUCell(3)])])
    i = keras.Input((4, 6))
    yield "attention", keras.Model(i, L.MultiHeadAttention(2, 3)(i, i))
    frozen = keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(2, 3), L.BatchNormalization(),
                               L.Flatten(), L.Dense(3)])
    frozen.layers[1].trainable = False
    yield "frozen", frozen
'''

_LISTS = ("weights", "trainable_weights", "non_trainable_weights")


def _listing(variables):
    """'kernel:3x4;bias:4;...': each weight's own name and shape, in order."""
    return ";".join(f"{v.name.split('/')[-1].split(':')[0]}:"
                    f"{'x'.join(str(d) for d in v.shape)}" for v in variables)


def _encode(text):
    return np.frombuffer(text.encode(), np.uint8)


@pytest.fixture(scope="module")
def tf_listings():
    script = _MODELS + '''
def listing(vs):
    return ";".join(f"{v.name}:{'x'.join(str(d) for d in v.shape)}" for v in vs)
for name, m in models():
    for which in ("weights", "trainable_weights", "non_trainable_weights"):
        out[f"{name}-{which}"] = np.frombuffer(listing(getattr(m, which)).encode(), np.uint8)
'''
    return tf_eval(script)


def _wengert_models():
    scope = {"keras": keras}
    exec(_MODELS, scope)  # the same model-building code TensorFlow's side ran
    return list(scope["models"]())


@pytest.mark.parametrize("index", range(9))
def test_weights_listed_as_tensorflow_lists_them(tf_listings, index):
    name, model = _wengert_models()[index]
    for which in _LISTS:
        got = _listing(getattr(model, which))
        want = bytes(tf_listings[f"{name}-{which}"]).decode()
        assert got == want, (name, which)


def test_batch_normalization_weights_stay_together_in_get_weights():
    model = keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(2, 3), L.BatchNormalization(),
                              L.Flatten(), L.Dense(3)])
    shapes = [w.shape for w in model.get_weights()]
    assert shapes == [(3, 3, 1, 2), (2,), (2,), (2,), (2,), (2,), (72, 3), (3,)]
    bn = model.layers[1]
    assert [id(v) for v in model.weights[2:6]] == [id(v) for v in bn.weights]
    values = [np.full(s, i, np.float32) for i, s in enumerate(shapes)]
    model.set_weights(values)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), np.full(2, 4.0))
    assert [int(w.ravel()[0]) for w in model.get_weights()] == list(range(8))


def test_freezing_moves_weights_without_reordering():
    model = keras.Sequential([keras.Input((3,)), L.Dense(2), L.BatchNormalization(), L.Dense(1)])
    order = [id(v) for v in model.weights]
    model.layers[0].trainable = False
    assert [id(v) for v in model.weights] == order
    assert [v.shape for v in model.trainable_weights] == [(2,), (2,), (2, 1), (1,)]
    assert [v.shape for v in model.non_trainable_weights] == [(3, 2), (2,), (2,), (2,)]
    model.trainable = False
    assert model.trainable_weights == [] and len(model.non_trainable_weights) == 8
