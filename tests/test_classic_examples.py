"""The examples from TensorFlow's GradientTape documentation, exactly as written there."""
import numpy as np

import wengert as tf


def test_square():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    dy_dx = g.gradient(y, x)
    assert float(y) == 9.0
    assert float(dy_dx) == 6.0


def test_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    dz_dx = g.gradient(z, x)  # 108.0 (4*x^3 at x = 3)
    dy_dx = g.gradient(y, x)  # 6.0
    del g  # drop the reference to the tape
    assert float(dz_dx) == 108.0
    assert float(dy_dx) == 6.0


def test_reduce_sum_then_square():
    x = tf.ones((2, 2))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(x)
        z = tf.multiply(y, y)
    dz_dy = t.gradient(z, y)
    assert float(dz_dy) == 8.0
    dz_dx = t.gradient(z, x)
    np.testing.assert_array_equal(dz_dx.numpy(), np.full((2, 2), 8.0, np.float32))


def test_second_derivative():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x
        dy_dx = gg.gradient(y, x)  # 6.0
    d2y_dx2 = g.gradient(dy_dx, x)  # 2.0
    assert float(dy_dx) == 6.0
    assert float(d2y_dx2) == 2.0


def test_watch_accessed_variables_false():
    a = tf.Variable(2.0)
    b = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a ** 2  # gradient w.r.t. a is recorded
        z = b ** 3  # b is not watched
    grads = tape.gradient([y, z], [a, b])
    assert float(grads[0]) == 4.0
    assert grads[1] is None


def test_variable_model_step():
    w = tf.Variable([[1.0], [2.0]], name="w")
    b = tf.Variable(0.0, name="b")
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.matmul(x, w) + b
        loss = tf.reduce_sum(y * y)
    dw, db = tape.gradient(loss, [w, b])
    np.testing.assert_allclose(dw.numpy(), [[10.0], [20.0]])
    assert float(db) == 10.0


def test_jacobian_doc_example():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    jacobian = g.jacobian(y, x)
    np.testing.assert_allclose(jacobian.numpy(), [[2.0, 0.0], [0.0, 4.0]])


def test_batch_jacobian_doc_example():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    batch_jacobian = g.batch_jacobian(y, x)
    np.testing.assert_allclose(batch_jacobian.numpy(),
                               [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]])
