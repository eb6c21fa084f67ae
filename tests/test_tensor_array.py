"""tf.TensorArray (issue 14 item 6): the list operations, dynamic size, out-of-range errors,
and gradients eagerly, in tf.function and through while_loop as RNN loops use it (values
checked against TensorFlow 2.21)."""
import numpy as np
import pytest

import wengert as tf


def test_operations():
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, 1.0)
    np.testing.assert_array_equal(ta.stack().numpy(), [1.0, 0.0, 0.0])
    assert int(ta.size()) == 3 and ta.element_shape == ()
    grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(2, [1.0, 2.0])
    assert int(grow.size()) == 3 and grow.element_shape == (2,)
    np.testing.assert_array_equal(grow.stack().numpy(), [[0, 0], [0, 0], [1, 2]])
    pairs = tf.TensorArray(tf.float32, size=2, element_shape=[2]).unstack([[1.0, 2], [3, 4]])
    np.testing.assert_array_equal(pairs.concat().numpy(), [1, 2, 3, 4])
    np.testing.assert_array_equal(pairs.gather([1]).numpy(), [[3, 4]])
    split = tf.TensorArray(tf.float32, size=2).split([1.0, 2, 3, 4], [2, 2])
    np.testing.assert_array_equal(split.stack().numpy(), [[1, 2], [3, 4]])
    scattered = tf.TensorArray(tf.int32, size=4).scatter([3, 0], tf.constant([7, 9]))
    assert scattered.stack().numpy().tolist() == [9, 0, 0, 7]
    eager = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
    eager.write(1, 5.0)  # eagerly the array changes in place, as in TensorFlow
    assert float(eager.read(1)) == 5.0


def test_bad_input():
    ta = tf.TensorArray(tf.float32, size=3).write(0, 1.0)
    with pytest.raises(tf.errors.OutOfRangeError, match="read from index 5 but array size is: 3"):
        ta.read(5)
    with pytest.raises(tf.errors.OutOfRangeError, match="not resizeable"):
        ta.write(3, 1.0)
    with pytest.raises(ValueError, match="incompatible shape"):
        ta.write(0, [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="different lengths"):
        tf.TensorArray(tf.float32, size=2).split([1.0, 2, 3], [1, 2])

    with pytest.raises(tf.errors.OutOfRangeError,
                       match=r"Reading from negative indices \(index -1\) is not allowed"):
        ta.read(-1)


def test_traced_reads_out_of_range_are_tensor_list_errors():
    """A traced array is a TensorList: TensorFlow 2.21 raises InvalidArgumentError from
    TensorListGetItem / TensorListGather when the function runs."""
    @tf.function
    def read(i):
        return tf.TensorArray(tf.float32, size=3).write(0, 1.0).read(i)

    @tf.function
    def gather(i):
        return tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0).gather(i)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Trying to access element 5 in a list with 3 elements\."):
        read(tf.constant(5))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Trying to access element -1 in a list with 3 elements\."):
        read(tf.constant(-1))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Trying to gather element 5 in a list with 2 elements\."):
        gather(tf.constant([0, 5]))


def _rnn(x, w, element_shape=None):
    ta = tf.TensorArray(tf.float32, size=x.shape[0], element_shape=element_shape)

    def body(i, h, ta):
        h = tf.tanh(w * h + tf.gather(x, i))
        return i + 1, h, ta.write(i, h)
    _, _, ta = tf.while_loop(lambda i, h, ta: i < x.shape[0], body,
                             [tf.constant(0), tf.constant(0.0), ta])
    return tf.reduce_sum(ta.stack())


def test_rnn_loop_gradients_eagerly_and_traced():
    w, x = tf.Variable(0.5), tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = _rnn(x, w)
    want = (2.742782, 0.029300181)  # TensorFlow 2.21
    np.testing.assert_allclose([float(y), float(tape.gradient(y, w))], want, rtol=1e-5)
    traced = tf.function(lambda v: _rnn(v, w))
    with tf.GradientTape() as tape:
        y = traced(x)
    np.testing.assert_allclose([float(y), float(tape.gradient(y, w))], want, rtol=1e-5)

    @tf.function
    def inside(v):
        with tf.GradientTape() as tape:
            out = _rnn(v, w)
        return out, tape.gradient(out, w)
    np.testing.assert_allclose([float(t) for t in inside(x)], want, rtol=1e-5)


def test_growing_array_in_a_function_loop():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i * i)),
                              [0, ta])
        return ta.stack()
    assert squares(tf.constant(4)).numpy().tolist() == [0, 1, 4, 9]
    assert squares(tf.constant(2)).numpy().tolist() == [0, 1]


def test_gradient_with_respect_to_written_values():
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        ta = tf.TensorArray(tf.float32, size=2)
        ta = ta.write(0, v * 3.0).write(1, v * v)
        loss = tf.reduce_sum(ta.stack() * tf.constant([[1.0, 1.0], [2.0, 2.0]]))
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [3 + 4 * 1, 3 + 4 * 2])
