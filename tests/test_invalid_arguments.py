"""Bad arguments raise TensorFlow's error, naming the op, before anything changes (issue 22
items 2, 8-11), and the gradient conventions found on the way (where(x >= 0, sqrt(x), 0))."""
import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1


def test_graph_assignments_check_the_run_time_shape_and_change_nothing():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable([1.0, 2.0, 3.0])
        p = v1.placeholder(tf.float32, None)
        add, sub = v.assign_add(p), v.assign_sub(p)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for op in (add, sub):
                with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \(2, 3\)"):
                    sess.run(op, {p: np.ones((2, 3), np.float32)})
            np.testing.assert_allclose(sess.run(v), [1.0, 2.0, 3.0])
            np.testing.assert_allclose(sess.run(add, {p: np.ones(3, np.float32)}), [2, 3, 4])


@pytest.mark.parametrize("make", [
    lambda: tf.zeros([10**12]), lambda: tf.ones([10**6, 10**6]), lambda: tf.eye(10**6),
    lambda: tf.tile([1.0], [10**12]), lambda: tf.pad([1.0], [[0, 10**12]]),
    lambda: tf.range(10**12), lambda: tf.one_hot([1], 10**12),
    lambda: tf.reduce_sum(tf.broadcast_to([1.0, 2.0], [10**12, 2]))])
def test_huge_sizes_raise_resource_exhausted_before_allocating(make):
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating"):
        make()


def test_huge_sizes_in_a_traced_function():
    f = tf.function(lambda n: tf.zeros(tf.stack([n, n])))
    with pytest.raises(tf.errors.ResourceExhaustedError, match="Fill"):
        f(tf.constant(10**6))


@pytest.mark.parametrize("call,error,text", [
    (lambda: tf.constant(1) // tf.constant(0), tf.errors.InvalidArgumentError,
     "Integer division by zero"),
    (lambda: tf.constant([4, 2]) % tf.constant([1, 0]), tf.errors.InvalidArgumentError,
     "Integer division by zero"),
    (lambda: tf.reshape(tf.ones([4]), [-2, 2]), tf.errors.InvalidArgumentError, "-2"),
    (lambda: tf.nn.relu(tf.constant([True])), tf.errors.InvalidArgumentError, "Relu.*bool"),
    (lambda: tf.square(tf.constant([True])), tf.errors.InvalidArgumentError, "Square.*bool"),
    (lambda: tf.reduce_sum(tf.constant([True])), tf.errors.InvalidArgumentError, "Sum.*bool"),
    (lambda: tf.reduce_mean(tf.constant([True])), tf.errors.InvalidArgumentError, "Mean.*bool"),
    (lambda: tf.strided_slice(tf.ones([3]), [0], [1, 2]), tf.errors.InvalidArgumentError,
     "same length"),
    (lambda: tf.einsum("ij,jk->iq", tf.ones([2, 2]), tf.ones([2, 2])), ValueError, "label q"),
    (lambda: tf.function(lambda a, b: tf.einsum("ij,jk->iq", a, b))(
        tf.ones([2, 2]), tf.ones([2, 2])), ValueError, "label q"),
    (lambda: tf.norm(tf.ones([2, 2]), axis=1.5), ValueError, "'axis' must be None"),
])
def test_invalid_arguments_raise_tensorflows_error(call, error, text):
    with pytest.raises(error, match=text):
        call()


def test_float_division_by_zero_still_gives_inf():
    with np.errstate(divide="ignore"):
        assert np.isinf(float(tf.constant(1.0) // tf.constant(0.0)))
    assert bool(tf.reduce_all(tf.constant([True, True])))  # logical reductions take bools


def test_an_unknown_fetch_or_feed_name_is_a_value_error():
    with tf.Graph().as_default():
        p = v1.placeholder(tf.float32, [])
        y = p * 2.0
        with v1.Session() as sess:
            with pytest.raises(ValueError, match="nope"):
                sess.run("nope:0")
            with pytest.raises(ValueError, match="nope"):
                sess.run(y, {"nope:0": 1.0})


@pytest.mark.parametrize("fn", [tf.sqrt, tf.math.rsqrt, tf.math.reciprocal])
def test_a_masked_branch_does_not_poison_the_gradient(fn):
    # TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad give 0 where the incoming gradient
    # is 0, so the branch where() did not take contributes 0 even at x <= 0
    x = tf.constant([-1.0, 0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with np.errstate(all="ignore"):
            y = tf.reduce_sum(tf.where(x > 0, fn(x), 0.0))
    with np.errstate(all="ignore"):
        g = tape.gradient(y, x).numpy()
    assert g[0] == 0.0 and g[1] == 0.0 and np.isfinite(g[2]) and g[2] != 0.0


def test_apply_gradients_casts_integer_gradients_as_keras():
    v = tf.Variable([1.0, 2.0])
    tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant([1, 1]), v)])
    np.testing.assert_allclose(v.numpy(), [0.9, 1.9])


@pytest.mark.parametrize("args, name, dtype", [
    (("a",), "limit", "string"), ((0, "a"), "limit", "string"), ((True,), "limit", "bool"),
    ((0, 5, tf.constant("x")), "delta", "string")])
def test_range_of_a_non_number_names_the_argument(args, name, dtype):
    """Not Python's `tuple.index(x): x not in tuple` (issue 32, item 4)."""
    with pytest.raises(TypeError, match=rf"range: `{name}` has dtype {dtype}"):
        tf.range(*args)
    assert tf.range(3, dtype=tf.int8).dtype == tf.int8
