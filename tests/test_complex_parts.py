"""tf.math.real/imag/conj/angle on real tensors, as TensorFlow defines them (complex tensors:
test_complex.py), and tf.math.l2_normalize."""
import numpy as np
import pytest

import wengert as tf


def test_parts_of_real_numbers_and_their_gradients():
    x = tf.constant([-2.0, 0.0, 3.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        parts = [tf.math.real(x), tf.math.imag(x), tf.math.conj(x), tf.math.angle(x)]
        totals = [tf.reduce_sum(p * x) for p in parts]
    np.testing.assert_array_equal(parts[0].numpy(), [-2, 0, 3])
    np.testing.assert_array_equal(parts[1].numpy(), [0, 0, 0])
    np.testing.assert_array_equal(parts[2].numpy(), [-2, 0, 3])
    np.testing.assert_allclose(parts[3].numpy(), [np.pi, 0, 0])
    grads = [tape.gradient(t, x).numpy() for t in totals]
    np.testing.assert_allclose(grads[0], 2 * x.numpy())          # d sum(x * x)
    np.testing.assert_allclose(grads[1], [0, 0, 0])
    np.testing.assert_allclose(grads[3], [np.pi, 0, 0])          # angle is piecewise constant
    with pytest.raises(tf.errors.InvalidArgumentError, match="bool"):
        tf.math.real(tf.constant([True]))


def test_l2_normalize_is_in_tf_math():
    np.testing.assert_allclose(tf.math.l2_normalize(tf.constant([3.0, 4.0])).numpy(),
                               [0.6, 0.8], rtol=1e-6)
