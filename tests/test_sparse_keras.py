"""keras.Input(sparse=True) into a Dense layer: the model called on a SparseTensor, predict and
fit cutting a SparseTensor x into batches of rows, and the InputLayer config; expected values
are what TensorFlow 2.21 with Keras 3 gives for the same model (Dense(2) with ones as kernel)."""
import numpy as np

import wengert as tf
from wengert import keras
from wengert.keras.sparse_inputs import SparseRows

ST = tf.sparse.SparseTensor([[0, 1], [1, 3]], [1., 2.], [2, 5])


def _model():
    inp = keras.Input(shape=(5,), sparse=True)
    assert inp.sparse
    return keras.Model(inp, keras.layers.Dense(2, kernel_initializer="ones")(inp))


def test_sparse_input_into_dense():
    model = _model()
    np.testing.assert_allclose(model(ST).numpy(), [[1., 1.], [2., 2.]])
    np.testing.assert_allclose(model.predict(ST, verbose=0), [[1., 1.], [2., 2.]])
    config = model.get_config()["layers"][0]["config"]
    assert config["sparse"] is True and config["batch_shape"] == [None, 5]


def test_fit_on_a_sparse_tensor():
    model = _model()
    model.compile("sgd", "mse")
    history = model.fit(ST, np.zeros((2, 2)), epochs=1, verbose=0, batch_size=1, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [2.4800500869750977], rtol=1e-6)


def test_sparse_rows_slice_like_arrays():
    rows = SparseRows([[0, 1], [2, 0], [2, 3]], [1., 2., 3.], [3, 4])
    assert len(rows) == 3 and rows.shape == (3, 4)
    picked = rows[np.array([2, 0])]
    assert picked.indices.tolist() == [[0, 0], [0, 3], [1, 1]]
    assert picked.values.tolist() == [2., 3., 1.] and picked.dense_shape.tolist() == [2, 4]
    assert rows[1:2].values.tolist() == [] and rows.astype(np.float32).dtype == np.float32
