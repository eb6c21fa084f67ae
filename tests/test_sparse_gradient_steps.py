"""Keras optimizers on IndexedSlices gradients whose rows repeat (an embedding row looked up
twice in a batch), as Keras 3 steps them: the pieces of a row add up in the first moment, their
squares add up in the squared slots (Keras squares an IndexedSlices gradient's values before the
rows are summed). Expected values are TensorFlow 2.21's Keras 3.15.1, eager steps; the same
steps traced (tf.function, fit's compiled step) keep the gradient sparse, as TensorFlow does, and
give the same values. A TensorFlow 1 Session fetches a sparse gradient as an IndexedSlicesValue."""
import numpy as np
import pytest

import wengert as tf

# Variable rows after three steps on gather(v, idx) ** 2 weighted by [1, 2, 3].
KERAS = {
    "Adam": [0.70645, 0.73433, 0.77827, 1.0],
    "RMSprop": [0.57574, 0.54206, 0.33812, 1.0],
    "Adagrad": [0.86617, 0.84466, 0.771, 1.0],
    "SGD": [-0.626, -0.734, -0.9, 1.0],  # momentum=0.9
}
STEPS = ([0, 0, 1], [1, 2, 2], [1, 2, 2])


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "traced"])
@pytest.mark.parametrize("name", sorted(KERAS))
def test_repeated_rows_step_as_keras(name, traced):
    v = tf.Variable(np.ones((4, 2), np.float32))
    optimizer = getattr(tf.keras.optimizers, name)(0.1, **({"momentum": 0.9} if name == "SGD"
                                                          else {}))
    kinds = []

    def step(idx):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(v, idx) ** 2 * [[1.0], [2.0], [3.0]])
        grad = tape.gradient(loss, v)
        kinds.append(type(grad).__name__)
        optimizer.apply_gradients([(grad, v)])

    run = tf.function(step, autograph=False) if traced else step
    for idx in STEPS:
        run(tf.constant(idx))
    assert set(kinds) == {"IndexedSlices"}
    np.testing.assert_allclose(v.numpy()[:, 0], KERAS[name], atol=2e-5)


def test_the_squared_slot_takes_the_pieces_squares():
    v = tf.Variable(np.ones((4, 2), np.float32))
    optimizer = tf.keras.optimizers.Adam(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [0, 0, 1]) ** 2 * [[1.0], [2.0], [3.0]])
    optimizer.apply_gradients([(tape.gradient(loss, v), v)])
    m, second = (s.numpy()[:, 0] for s in optimizer.variables[2:4])
    np.testing.assert_allclose(m, [0.6, 0.6, 0.0, 0.0], rtol=1e-6)   # 0.1 * (2 + 4), 0.1 * 6
    np.testing.assert_allclose(second, [0.02, 0.036, 0.0, 0.0], rtol=1e-5)  # 0.001 * (4 + 16)


def test_a_session_fetches_a_sparse_gradient_as_tensorflow_1_does():
    graph = tf.Graph()
    with graph.as_default():
        v = tf.compat.v1.Variable(np.arange(8, dtype=np.float32).reshape(4, 2))
        loss = tf.reduce_sum(tf.gather(v, [0, 0, 3]) * [[1.0], [2.0], [3.0]])
        (grad,) = tf.gradients(loss, [v])
        assert type(grad).__name__ == "IndexedSlices"
        sparse = tf.sparse.SparseTensor([[0, 1], [2, 0]], [5.0, 6.0], [3, 2])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            got, (st, plain) = sess.run([grad, (sparse, loss)])
    assert type(got).__name__ == "IndexedSlicesValue"
    np.testing.assert_array_equal(got.indices, [0, 0, 3])
    np.testing.assert_array_equal(got.values, [[1, 1], [2, 2], [3, 3]])
    np.testing.assert_array_equal(got.dense_shape, [4, 2])
    assert type(st).__name__ == "SparseTensorValue"
    np.testing.assert_array_equal(st.indices, [[0, 1], [2, 0]])
    np.testing.assert_array_equal(st.values, [5.0, 6.0])
    np.testing.assert_array_equal(st.dense_shape, [3, 2])
    assert plain == 0 * 1 + 1 * 1 + 0 * 2 + 1 * 2 + 6 * 3 + 7 * 3
