"""Keras models on ragged inputs as Keras 3 on TensorFlow 2.21 runs them: keras.Input(ragged=True)
under Embedding, a Lambda reducing or padding the rows (then an LSTM), fit from a RaggedTensor,
from a tf.data pipeline of ragged batches (`batch` and `ragged_batch`), evaluate and predict;
the preprocessing layers on ragged input (TextVectorization(ragged=True), StringLookup and
Hashing token by token, multi_hot / count rows of StringLookup, Hashing and CategoryEncoding).
The same script runs in TensorFlow (answers stored in tests/references/) and in wengert."""
import numpy as np
import pytest

import wengert
from keras_tf_eval import tf_eval

SCRIPT = '''
keras.utils.set_random_seed(0)
const = keras.initializers.Constant
xs = tf.ragged.constant([[1, 2], [3], [4, 5, 6], [7], [8, 9], [2]])
ys = np.array([[1.], [0.], [1.], [0.], [1.], [0.]], np.float32)


def parts(rt, key):
    out[key + "_values"] = rt.flat_values.numpy()
    out[key + "_splits"] = rt.row_splits.numpy()


def model(reduce_rows, lstm=False):
    inp = keras.Input(shape=(None,), ragged=True, dtype="int32")
    x = keras.layers.Embedding(10, 4, embeddings_initializer=const(
        np.linspace(-1, 1, 40).reshape(10, 4)))(inp)
    x = keras.layers.Lambda(reduce_rows, output_shape=(None, 4) if lstm else (4,))(x)
    if lstm:
        x = keras.layers.LSTM(3, kernel_initializer=const(0.1),
                              recurrent_initializer=const(0.05))(x)
    m = keras.Model(inp, keras.layers.Dense(1, kernel_initializer=const(0.3))(x))
    m.compile(keras.optimizers.SGD(0.2), "mse")
    return m


m = model(lambda t: tf.reduce_sum(t, axis=1))
out["sum_loss"] = np.array(m.fit(xs, ys, batch_size=4, epochs=3, verbose=0,
                                 shuffle=False).history["loss"])
out["sum_predict"] = m.predict(xs, batch_size=4, verbose=0)
m = model(lambda t: t.to_tensor(), lstm=True)
out["lstm_loss"] = np.array(m.fit(xs, ys, batch_size=3, epochs=2, verbose=0,
                                  shuffle=False).history["loss"])
out["lstm_predict"] = m.predict(xs, verbose=0)
batched = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4)
m = model(lambda t: tf.reduce_mean(t, axis=1))
out["batch_loss"] = np.array(m.fit(batched, epochs=3, verbose=0).history["loss"])
out["batch_evaluate"] = np.array(m.evaluate(batched, verbose=0))
out["batch_predict"] = m.predict(batched, verbose=0)
rbatched = tf.data.Dataset.from_tensor_slices((xs, ys)).ragged_batch(4)
m = model(lambda t: tf.reduce_max(t, axis=1))
out["ragged_batch_loss"] = np.array(m.fit(rbatched, epochs=3, verbose=0).history["loss"])
out["ragged_batch_predict"] = m.predict(rbatched, verbose=0)

tv = keras.layers.TextVectorization(ragged=True, vocabulary=["a", "b", "c", "d"])
parts(tv(["a b x", "", "d c b a", "c"]), "tv")
words = tf.ragged.constant([["a", "z"], [], ["b", "c", "a"]])
lookup = keras.layers.StringLookup(vocabulary=["a", "b", "c"])
parts(lookup(words), "lookup")
out["lookup_multi_hot"] = keras.layers.StringLookup(
    vocabulary=["a", "b", "c"], output_mode="multi_hot")(words).numpy()
out["lookup_count"] = keras.layers.StringLookup(
    vocabulary=["a", "b", "c"], output_mode="count")(words).numpy()
parts(keras.layers.Hashing(5)(words), "hashing")
out["hashing_count"] = keras.layers.Hashing(5, output_mode="count")(words).numpy()
ints = tf.ragged.constant([[1, 2, 2], [3], []])
out["category_multi_hot"] = keras.layers.CategoryEncoding(5, output_mode="multi_hot")(ints).numpy()
out["category_count"] = keras.layers.CategoryEncoding(5, output_mode="count")(ints).numpy()

inp = keras.Input(shape=(None,), ragged=True, dtype="string")
ids = keras.layers.StringLookup(vocabulary=["a", "b", "c"])(inp)
vec = keras.layers.Embedding(4, 2, embeddings_initializer=const([[0., 1.], [1., 2.], [2., 3.],
                                                                [3., 5.]]))(ids)
text_model = keras.Model(inp, keras.layers.Lambda(lambda t: tf.reduce_mean(t, axis=1),
                                                  output_shape=(2,))(vec))
out["string_model"] = text_model.predict(words, verbose=0)
'''


@pytest.fixture(scope="module")
def theirs():
    return tf_eval(SCRIPT)


@pytest.fixture(scope="module")
def mine():
    out = {}
    exec(SCRIPT, {"tf": wengert, "keras": wengert.keras, "np": np, "out": out})  # noqa: S102
    return {k: np.asarray(v) for k, v in out.items()}


def test_every_answer_is_there(mine, theirs):
    assert sorted(mine) == sorted(theirs)


@pytest.mark.parametrize("key", ["sum_loss", "sum_predict", "lstm_loss", "lstm_predict",
                                 "batch_loss", "batch_evaluate", "batch_predict",
                                 "ragged_batch_loss", "ragged_batch_predict", "string_model"])
def test_models_match_tensorflow(key, mine, theirs):
    np.testing.assert_allclose(mine[key], theirs[key], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("key", ["tv_values", "tv_splits", "lookup_values", "lookup_splits",
                                 "lookup_multi_hot", "lookup_count", "hashing_values",
                                 "hashing_splits", "hashing_count", "category_multi_hot",
                                 "category_count"])
def test_preprocessing_matches_tensorflow(key, mine, theirs):
    assert mine[key].dtype == theirs[key].dtype, key
    np.testing.assert_array_equal(mine[key], theirs[key])


def test_ragged_text_vectorization_refuses_what_keras_refuses():
    with pytest.raises(ValueError, match="only supported with `output_mode='int'`"):
        wengert.keras.layers.TextVectorization(ragged=True, output_mode="count")
    with pytest.raises(ValueError, match="output_sequence_length"):
        wengert.keras.layers.TextVectorization(ragged=True, output_sequence_length=3)
    layer = wengert.keras.layers.TextVectorization(ragged=True, vocabulary=["a"])
    assert layer.get_config()["ragged"] is True


def test_ragged_preprocessing_in_a_traced_function(mine):
    keras, tf = wengert.keras, wengert
    lookup = keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot")
    hashing = keras.layers.Hashing(5, output_mode="count")
    vectorize = keras.layers.TextVectorization(ragged=True, vocabulary=["a", "b", "c", "d"])

    @tf.function
    def encode(words, text):
        ids = vectorize(text)
        return lookup(words), hashing(words), ids.flat_values, ids.row_splits

    words = tf.ragged.constant([["a", "z"], [], ["b", "c", "a"]])
    multi_hot, counts, values, splits = encode(words, tf.constant(["a b x", "", "d c b a", "c"]))
    np.testing.assert_array_equal(multi_hot.numpy(), mine["lookup_multi_hot"])
    np.testing.assert_array_equal(counts.numpy(), mine["hashing_count"])
    np.testing.assert_array_equal(values.numpy(), mine["tv_values"])
    np.testing.assert_array_equal(splits.numpy(), mine["tv_splits"])
