"""tf.nn.gelu's exact form is TensorFlow's 0.5 x erfc(-x / sqrt(2)): values and gradients match
TensorFlow 2.21's float32 results (recorded by hand from /work/tfvenv), including the far negative
side where 1 + erf(x / sqrt(2)) would cancel to 0."""
import numpy as np

import wengert as tf

X = np.array([-10, -6, -3, -1, -0.5, 0, 0.5, 1, 3, 6], np.float32)
TF_VALUES = [-7.619853608132182e-23, -5.9195350843310734e-09, -0.004049696493893862,
             -0.15865525603294373, -0.1542687714099884, 0.0, 0.3457312285900116,
             0.8413447141647339, 2.995950222015381, 6.0]
TF_GRADIENTS = [-7.618400084582658e-22, -3.546877991311703e-08, -0.011945651844143867,
                -0.08331549167633057, 0.1325048804283142, 0.5, 0.8674951195716858,
                1.0833154916763306, 1.0119456052780151, 1.0]


def test_exact_gelu_values_match_tensorflow():
    got = tf.nn.gelu(X).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, TF_VALUES, rtol=2e-6, atol=0)


def test_exact_gelu_gradient_matches_tensorflow():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.gelu(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), TF_GRADIENTS, rtol=2e-6, atol=0)


def test_exact_gelu_traced_and_keras_activation_agree():
    traced = tf.function(lambda v: tf.nn.gelu(v))(X).numpy()
    keras = tf.keras.activations.gelu(tf.constant(X)).numpy()
    np.testing.assert_allclose(traced, TF_VALUES, rtol=2e-6, atol=0)
    np.testing.assert_allclose(keras, TF_VALUES, rtol=2e-6, atol=0)


def test_float64_gelu_far_negative_keeps_relative_accuracy():
    x = np.array([-20.0, -12.0], np.float64)
    from math import erfc, sqrt
    want = [0.5 * v * erfc(-v / sqrt(2.0)) for v in x]
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), want, rtol=1e-13, atol=0)
