"""Behaviour of wengert.nn and the clipping ops that the op table cannot express: TensorFlow's
choices at kinks, numerical stability, higher-order derivatives of the fused losses, None
handling, and errors that name the op, shapes and values."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads


def grad_of(fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return [None if g is None else g.numpy() for g in tape.gradient(y, xs)]


# -- namespaces ---------------------------------------------------------------------------------
def test_nn_namespace():
    assert tf.nn.sigmoid is tf.sigmoid and tf.nn.tanh is tf.tanh and tf.nn.softplus is tf.softplus
    assert not hasattr(tf, "relu") and not hasattr(tf, "softmax_cross_entropy_with_logits")
    assert tf.clip_by_value and tf.clip_by_norm and tf.clip_by_global_norm and tf.global_norm


# -- kinks: TensorFlow's derivative at the breakpoint ---------------------------------------------
@pytest.mark.parametrize("fn,x,want", [
    (tf.nn.relu, [0.0, -0.0, 1.0, -1.0], [0.0, 0.0, 1.0, 0.0]),
    (tf.nn.relu6, [0.0, 6.0, 3.0, 7.0], [0.0, 0.0, 1.0, 0.0]),
    (tf.nn.leaky_relu, [0.0, 1.0, -1.0], [0.2, 1.0, 0.2]),
    (tf.nn.elu, [0.0, 1.0], [1.0, 1.0]),
])
def test_gradient_at_kinks(fn, x, want):
    (g,) = grad_of(fn, np.array(x))
    np.testing.assert_array_equal(g, want)


def test_relu_second_derivative_is_zero_and_keeps_float32():
    x = tf.constant([-1.0, 0.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.nn.relu(x)
        g = inner.gradient(y, x)
    assert g.dtype == tf.float32
    np.testing.assert_array_equal(outer.gradient(g, x, unconnected_gradients="zero").numpy(), 0)


def test_int_relu_is_allowed_but_float_activations_ask_for_cast():
    np.testing.assert_array_equal(tf.nn.relu(tf.constant([-2, 3])).numpy(), [0, 3])
    for fn in (tf.nn.elu, tf.nn.selu, tf.nn.softmax, tf.nn.log_softmax, tf.nn.l2_loss):
        with pytest.raises(TypeError, match="cast"):
            fn(tf.constant([1, 2]))


# -- softmax cross-entropy: stability, exact gradients, higher order ------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dense_cross_entropy_is_stable_for_huge_logits(dtype):
    logits = np.array([[1000.0, 0.0, -1000.0], [-1000.0, 1000.0, 0.0]], dtype)
    labels = np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]], dtype)
    loss = tf.nn.softmax_cross_entropy_with_logits(tf.constant(labels), tf.constant(logits))
    assert loss.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(loss.numpy(), [1000.0, 1000.0])
    d_labels, d_logits = grad_of(tf.nn.softmax_cross_entropy_with_logits, labels, logits)
    np.testing.assert_array_equal(d_logits, [[1.0, -1.0, 0.0], [-0.5, 0.5, 0.0]])
    np.testing.assert_array_equal(d_labels, [[0.0, 1000.0, 2000.0], [2000.0, 0.0, 1000.0]])


def test_sparse_cross_entropy_is_stable_for_huge_logits():
    logits = np.array([[1000.0, 0.0, -1000.0]])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1]), tf.constant(logits))
    np.testing.assert_allclose(loss.numpy(), [1000.0])
    _, d_logits = grad_of(tf.nn.sparse_softmax_cross_entropy_with_logits,
                          np.array([1], np.int32), logits)
    np.testing.assert_array_equal(d_logits, [[1.0, -1.0, 0.0]])


def test_sigmoid_cross_entropy_is_stable_for_huge_logits():
    logits, labels = np.array([1000.0, -1000.0, 0.0]), np.array([0.0, 1.0, 0.5])
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=tf.constant(logits))
    np.testing.assert_allclose(loss.numpy(), [1000.0, 1000.0, np.log(2)])
    d_labels, d_logits = grad_of(lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(z, x),
                                 labels, logits)
    np.testing.assert_array_equal(d_logits, [1.0, -1.0, 0.0])
    np.testing.assert_array_equal(d_labels, -logits)


def test_softmax_is_stable_and_sums_to_one():
    y = tf.nn.softmax(tf.constant([[1000.0, 1000.0, -1000.0]])).numpy()
    np.testing.assert_allclose(y, [[0.5, 0.5, 0.0]])
    np.testing.assert_allclose(tf.nn.log_softmax(tf.constant([1000.0, 0.0])).numpy(),
                               [0.0, -1000.0])


def test_cross_entropy_hessian_is_softmax_jacobian():
    """d^2 loss / d logits^2 = diag(p) - p p^T, row by row via reverse over reverse."""
    rng = np.random.default_rng(0)
    logits = tf.constant(rng.standard_normal(4))
    labels = tf.constant(np.full(4, 0.25))
    p = np.exp(logits.numpy()) / np.exp(logits.numpy()).sum()
    for loss_fn in (lambda x: tf.nn.softmax_cross_entropy_with_logits(labels, x),
                    lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant(2), x)):
        rows = []
        for i in range(4):
            with tf.GradientTape() as outer:
                outer.watch(logits)
                with tf.GradientTape() as inner:
                    inner.watch(logits)
                    loss = loss_fn(logits)
                g_i = inner.gradient(loss, logits)[i]
            rows.append(outer.gradient(g_i, logits).numpy())
        np.testing.assert_allclose(np.array(rows), np.diag(p) - np.outer(p, p), atol=1e-12)


@pytest.mark.parametrize("fn", [
    lambda z, x: tf.nn.softmax_cross_entropy_with_logits(z, x),
    lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(z, x),
])
def test_third_order_gradients_of_losses(fn):
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((2, 3))
    labels = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    check_grads(fn, [labels, rng.standard_normal((2, 3))], order=3)


def test_sparse_labels_get_no_gradient():
    labels, logits = tf.constant([0, 2]), tf.constant(np.zeros((2, 3)))
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    assert tape.gradient(loss, labels) is None


# -- errors -------------------------------------------------------------------------------------
def test_sparse_label_out_of_range_names_value_and_classes():
    with pytest.raises(tf.InvalidArgumentError, match=r"label value of 7.*\[0, 5\)") as err:
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1, 7]),
                                                        tf.constant(np.zeros((2, 5))))
    assert "SparseSoftmaxCrossEntropyWithLogits" in str(err.value)
    with pytest.raises(tf.InvalidArgumentError, match="-1"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([-1]),
                                                        tf.constant(np.zeros((1, 5))))


def test_label_shape_mismatch_names_both_shapes():
    logits = tf.constant(np.zeros((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"\(2, 4\).*\(2, 3\)"):
        tf.nn.softmax_cross_entropy_with_logits(tf.constant(np.zeros((2, 4))), logits)
    with pytest.raises(tf.InvalidArgumentError, match=r"\(3,\).*\(2, 3\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0, 1, 2]), logits)
    with pytest.raises(tf.InvalidArgumentError, match=r"rank"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([[0, 1, 2]]), logits)
    with pytest.raises(ValueError, match=r"\(2, 3\) vs \(3,\)"):
        tf.nn.sigmoid_cross_entropy_with_logits(tf.constant(np.zeros(3)), logits)


def test_label_dtype_errors():
    logits = tf.constant(np.zeros((2, 3), np.float32))
    # TF 2.21 casts the labels to the logits' dtype: float64 labels give a float32 loss
    loss = tf.nn.softmax_cross_entropy_with_logits(tf.constant(np.zeros((2, 3))), logits)
    assert loss.dtype == tf.float32
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0.0, 1.0]), logits)


def test_bias_add_checks_the_channel_dimension():
    with pytest.raises(tf.InvalidArgumentError, match=r"\(5,\).*\(2, 3\)"):
        tf.nn.bias_add(tf.constant(np.zeros((2, 3))), tf.constant(np.zeros(5)))
    out = tf.nn.bias_add(tf.constant(np.zeros((2, 3, 4))), tf.constant(np.array([1.0, 2.0, 3.0])),
                         data_format="NCHW")
    np.testing.assert_array_equal(out.numpy()[0, :, 0], [1.0, 2.0, 3.0])


# -- clipping -----------------------------------------------------------------------------------
def test_clip_by_value_gradient_passes_inside_and_at_the_bounds():
    t = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    d_t, d_lo, d_hi = grad_of(tf.clip_by_value, t, np.array(-1.0), np.array(1.0))
    np.testing.assert_array_equal(d_t, [0.0, 1.0, 1.0, 1.0, 0.0])
    assert d_lo == 1.0 and d_hi == 1.0


def test_clip_by_value_rejects_bounds_that_enlarge_t():
    with pytest.raises(tf.InvalidArgumentError, match=r"\(3,\)"):
        tf.clip_by_value(tf.constant(np.zeros(3)), np.zeros((2, 3)), 1.0)


def test_clip_by_norm_gradient_is_finite_at_zero():
    (g,) = grad_of(lambda t: tf.clip_by_norm(t, 1.0), np.zeros(4))
    np.testing.assert_array_equal(g, np.ones(4))
    check_grads(lambda t: tf.clip_by_norm(t, 1.0), [np.zeros(4)], order=1)
    np.testing.assert_array_equal(tf.clip_by_norm(tf.constant(np.zeros(3)), 1.0).numpy(), 0)


def test_clip_by_norm_keeps_direction():
    t = np.array([3.0, 4.0])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant(t), 1.0).numpy(), [0.6, 0.8])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant(t), 10.0).numpy(), t)


def test_clip_by_global_norm_passes_none_through():
    a, b = tf.constant([3.0, 0.0]), tf.constant([4.0])
    clipped, norm = tf.clip_by_global_norm([a, None, b], 1.0)
    assert clipped[1] is None and len(clipped) == 3
    np.testing.assert_allclose(norm.numpy(), 5.0)
    np.testing.assert_allclose(clipped[0].numpy(), [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(clipped[2].numpy(), [0.8], rtol=1e-6)
    np.testing.assert_allclose(tf.global_norm([a, None, b]).numpy(), 5.0)


def test_clip_by_global_norm_use_norm_zero_and_inf():
    t = tf.constant([1.0, 2.0])
    clipped, _ = tf.clip_by_global_norm([t], 1.0, use_norm=0.0)
    np.testing.assert_array_equal(clipped[0].numpy(), [1.0, 2.0])
    with np.errstate(invalid="ignore"):  # inf - inf
        clipped, _ = tf.clip_by_global_norm([t], 1.0, use_norm=np.inf)
    assert np.isnan(clipped[0].numpy()).all()


def test_clip_by_global_norm_needs_a_sequence():
    with pytest.raises(TypeError, match="sequence"):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)
