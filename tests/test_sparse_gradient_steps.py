"""Keras optimizers on IndexedSlices gradients whose rows repeat (an embedding row looked up
twice in a batch), as Keras 3 steps them: the pieces of a row add up in the first moment, their
squares add up in the squared slots (Keras squares an IndexedSlices gradient's values before the
rows are summed). Expected values are TensorFlow 2.21's Keras 3.15.1, eager steps."""
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


@pytest.mark.parametrize("name", sorted(KERAS))
def test_repeated_rows_step_as_keras(name):
    v = tf.Variable(np.ones((4, 2), np.float32))
    optimizer = getattr(tf.keras.optimizers, name)(0.1, **({"momentum": 0.9} if name == "SGD"
                                                          else {}))
    for idx in STEPS:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(v, idx) ** 2 * [[1.0], [2.0], [3.0]])
        grad = tape.gradient(loss, v)
        assert type(grad).__name__ == "IndexedSlices"
        optimizer.apply_gradients([(grad, v)])
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
