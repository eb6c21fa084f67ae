"""TensorFlow's top-level graph utilities: no_op, group, tuple, get_current_name_scope,
inside_function, is_symbolic_tensor; and the top-level aliases of linalg/signal/strings names."""
import numpy as np

import wengert as tf

v1 = tf.compat.v1


def test_eagerly_they_do_nothing_or_pass_through():
    assert tf.no_op() is None and tf.group(tf.constant(1.0)) is None
    t = tf.constant([1.0])
    assert tf.tuple([t, None]) == [t, None]
    assert tf.inside_function() is False and not tf.is_symbolic_tensor(t)
    assert tf.get_current_name_scope() == ""


def test_group_runs_every_input_and_tuple_is_a_barrier():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        with tf.name_scope("outer"):
            assert tf.get_current_name_scope() == "outer" and tf.inside_function()
            step = tf.group(v.assign_add(1.0), [v.assign_add(2.0)])
            assert step.name == "outer/group_deps" and step.type == "NoOp"
            gated = tf.tuple([tf.constant(3.0), None], control_inputs=[tf.no_op()])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run(step) is None
            assert sess.run(v) == 4.0
            assert sess.run(gated[0]) == 3.0 and gated[1] is None


def test_inside_a_function():
    @tf.function
    def probe(x):
        return tf.cast(tf.inside_function(), tf.int32) + tf.cast(tf.is_symbolic_tensor(x),
                                                                  tf.int32)
    assert probe(tf.constant(1.0)).numpy() == 2


def test_top_level_aliases():
    assert tf.eig is tf.linalg.eig and tf.eigvals is tf.linalg.eigvals
    assert tf.matrix_square_root is tf.linalg.sqrtm
    assert tf.fftnd is tf.signal.fftnd and tf.irfftnd is tf.signal.irfftnd
    assert tf.as_string(tf.constant(7)).numpy() == b"7"
    np.testing.assert_allclose(tf.rfftnd(tf.constant([1.0, 0.0])).numpy(), [1, 1])
