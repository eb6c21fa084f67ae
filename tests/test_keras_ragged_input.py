"""keras.Input(ragged=True) against Keras 3 on TensorFlow 2.21: a model over rows of token ids
of different lengths (an Embedding on the ragged ids, a mean over each row, a Dense layer) is
built, fit in batches of rows, evaluated and used to predict, with TensorFlow's figures below
(the same program run by TensorFlow, initial weights fixed)."""
import numpy as np
import pytest

import wengert as tf
from wengert import keras

TF_LOSSES = [0.421031, 0.310475, 0.212853]
TF_EVALUATE = 0.305298
TF_PREDICT = [0.9463689923286438, 0.7991759777069092, 0.9354730248451233, 0.7585970163345337]


def _model():
    inp = keras.Input(shape=(None,), ragged=True, dtype="int32")
    table = keras.initializers.Constant(np.arange(40.).reshape(10, 4) / 40)
    x = keras.layers.Embedding(10, 4, embeddings_initializer=table)(inp)
    x = keras.layers.Lambda(lambda t: tf.reduce_mean(t, axis=1))(x)
    out = keras.layers.Dense(1, kernel_initializer=keras.initializers.Constant(
        [[0.1], [-0.2], [0.3], [0.05]]))(x)
    return inp, keras.Model(inp, out)


def test_fit_evaluate_predict_match_tensorflow():
    inp, model = _model()
    model.compile(keras.optimizers.SGD(0.5), "mse")
    xs = tf.ragged.constant([[1, 2], [3], [4, 5, 6], [7]])
    ys = np.array([[1.], [0.], [1.], [0.]])
    history = model.fit(xs, ys, batch_size=2, epochs=3, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], TF_LOSSES, atol=1e-6)
    np.testing.assert_allclose(model.evaluate(xs, ys, verbose=0), TF_EVALUATE, atol=1e-6)
    np.testing.assert_allclose(model.predict(xs, batch_size=3, verbose=0).ravel(), TF_PREDICT,
                               atol=1e-5)


def test_the_input_says_it_is_ragged():
    inp, model = _model()
    assert inp.ragged and inp.shape.as_list() == [None, None]
    config = model.get_config()["layers"][0]["config"]
    assert config["ragged"] is True and config["sparse"] is False
    rebuilt = keras.layers.InputLayer.from_config(config)
    assert rebuilt.output.ragged


def test_embedding_of_ragged_ids_is_ragged():
    layer = keras.layers.Embedding(5, 2, embeddings_initializer="ones", mask_zero=True)
    ids = tf.ragged.constant([[1, 0], [3]])
    out = layer(ids)
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0]]]
    assert layer.compute_mask(ids).to_list() == [[True, False], [True]]


def test_sparse_and_ragged_together_is_refused():
    with pytest.raises(ValueError, match="both `sparse=True` and `ragged=True`"):
        keras.Input(shape=(None,), sparse=True, ragged=True)
