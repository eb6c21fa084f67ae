"""A tape inside a tf.function watching a tensor the function captured from outside (a
physics-informed network's collocation grid) differentiates with respect to it exactly as it
does eagerly: first and second derivatives, captures in nested functions and in cond branches,
and None for a capture nobody watched. Expected values are TensorFlow 2.21's."""
import numpy as np

import wengert as tf

GRID = tf.constant([0.5, 1.0, 2.0])


def test_nested_tapes_watch_a_captured_tensor():
    @tf.function
    def derivatives():
        with tf.GradientTape() as t2:
            t2.watch(GRID)
            with tf.GradientTape() as t1:
                t1.watch(GRID)
                y = GRID ** 3
            dy = t1.gradient(y, GRID)
        return y, dy, t2.gradient(dy, GRID)

    y, dy, d2y = derivatives()
    np.testing.assert_allclose(y, [0.125, 1.0, 8.0])
    np.testing.assert_allclose(dy, [0.75, 3.0, 12.0])
    np.testing.assert_allclose(d2y, [3.0, 6.0, 12.0])


def test_an_unwatched_capture_has_no_gradient():
    @tf.function
    def unwatched():
        with tf.GradientTape() as tape:
            y = GRID * GRID
        return tape.gradient(y, GRID)

    assert unwatched() is None


def test_captures_of_nested_functions_and_cond_branches():
    c = tf.constant(3.0)

    @tf.function
    def outer():
        @tf.function
        def inner():
            with tf.GradientTape() as tape:
                tape.watch(c)
                y = tf.sin(c) * c
            return tape.gradient(y, c)
        return inner()

    np.testing.assert_allclose(outer(), -2.8288574, rtol=1e-6)

    @tf.function
    def in_cond(flag):
        with tf.GradientTape() as tape:
            tape.watch(GRID)
            y = tf.cond(flag, lambda: tf.reduce_sum(GRID * GRID), lambda: tf.reduce_sum(GRID))
        return tape.gradient(y, GRID)

    np.testing.assert_allclose(in_cond(tf.constant(True)), [1.0, 2.0, 4.0])
    np.testing.assert_allclose(in_cond(tf.constant(False)), [1.0, 1.0, 1.0])


def test_eager_watching_is_unchanged():
    with tf.GradientTape() as tape:
        tape.watch(GRID)
        y = tf.reduce_sum(GRID ** 2)
    np.testing.assert_allclose(tape.gradient(y, GRID), [1.0, 2.0, 4.0])
