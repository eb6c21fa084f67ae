"""Behaviour of reductions and linear algebra beyond the op table: TensorFlow's conventions (ties,
zeros in products, integer dtypes, argmax defaults), stability, gradient-rule economy, and errors
that name the op and the shapes."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.context import state


def grad_of(f, *values):
    xs = [tf.constant(np.asarray(v, dtype=np.float64)) for v in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    grads = tape.gradient(y, xs)
    return [g.numpy() for g in grads] if len(grads) > 1 else grads[0].numpy()


# -- ties and zeros ------------------------------------------------------------------------------
def test_reduce_max_splits_gradient_evenly_among_ties():
    np.testing.assert_allclose(grad_of(tf.reduce_max, [1.0, 3.0, 3.0]), [0.0, 0.5, 0.5])
    np.testing.assert_allclose(grad_of(lambda x: tf.reduce_max(x, axis=1),
                                       [[2.0, 2.0, 2.0], [0.0, 5.0, 1.0]]),
                               [[1 / 3, 1 / 3, 1 / 3], [0.0, 1.0, 0.0]])


def test_reduce_min_splits_gradient_evenly_among_ties():
    np.testing.assert_allclose(grad_of(lambda x: tf.reduce_min(x, axis=0, keepdims=True),
                                       [[1.0, 4.0], [1.0, 3.0]]), [[0.5, 0.0], [0.5, 1.0]])


def test_reduce_prod_gradient_with_zeros():
    np.testing.assert_allclose(grad_of(tf.reduce_prod, [2.0, 0.0, 3.0]), [0.0, 6.0, 0.0])
    np.testing.assert_allclose(grad_of(tf.reduce_prod, [0.0, 0.0, 3.0]), [0.0, 0.0, 0.0])
    np.testing.assert_allclose(grad_of(tf.reduce_prod, [2.0, 5.0, 3.0]), [15.0, 6.0, 10.0])
    np.testing.assert_allclose(grad_of(lambda x: tf.reduce_prod(x, axis=1),
                                       [[0.0, 2.0], [3.0, 4.0]]), [[2.0, 0.0], [4.0, 3.0]])


def test_reduce_prod_second_derivative_at_a_zero():
    x = tf.constant([2.0, 0.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_prod(x)
        g = inner.gradient(y, x)
    hessian = outer.jacobian(g, x).numpy()
    np.testing.assert_allclose(hessian, [[0, 3, 0], [3, 0, 2], [0, 2, 0]])


# -- dtypes -------------------------------------------------------------------------------------
def test_integer_reductions_keep_dtype():
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    for fn in (tf.reduce_sum, tf.reduce_prod, tf.reduce_max, tf.reduce_min, tf.reduce_mean):
        assert fn(x).dtype == tf.int32, fn.__name__
    assert tf.reduce_sum(x).numpy() == 21
    assert tf.math.cumsum(x, axis=1).dtype == tf.int32


def test_integer_mean_truncates_toward_zero():
    assert tf.reduce_mean(tf.constant([1, 2])).numpy() == 1
    assert tf.reduce_mean(tf.constant([-1, -2])).numpy() == -1
    np.testing.assert_array_equal(tf.reduce_mean(tf.constant([[1, 4], [-3, -4]]), 1), [2, -3])


def test_float32_stays_float32():
    x = tf.constant(np.random.rand(3, 4).astype(np.float32))
    for out in (tf.reduce_mean(x), tf.reduce_logsumexp(x, 1), tf.reduce_std(x, 0), tf.norm(x),
                tf.matmul(x, x, transpose_b=True), tf.einsum("ij,kj->ik", x, x),
                tf.linalg.trace(tf.matmul(x, x, transpose_a=True))):
        assert out.dtype == tf.float32
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(tf.matmul(x, x, transpose_a=True))
    assert tape.gradient(y, x).dtype == tf.float32


def test_logical_reductions_need_bool():
    assert bool(tf.reduce_any(tf.constant([False, True])))
    assert not bool(tf.reduce_all([True, False]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Any.*bool"):  # TensorFlow's
        tf.reduce_any(tf.constant([0.0, 1.0]))


# -- axes ---------------------------------------------------------------------------------------
def test_axis_forms():
    x = np.arange(24.0).reshape(2, 3, 4)
    t = tf.constant(x)
    np.testing.assert_array_equal(tf.reduce_sum(t, [-1, 0]), x.sum(axis=(0, 2)))
    np.testing.assert_array_equal(tf.reduce_sum(t, tf.constant([1])), x.sum(axis=1))
    np.testing.assert_array_equal(tf.reduce_sum(t, []), x)
    assert tf.reduce_sum(t, axis=(0, 1), keepdims=True).shape == (1, 1, 4)
    assert tf.reduce_sum([1.0, 2.0]).dtype == tf.float32


def test_invalid_axis_names_op_and_shape():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Sum: .*axis 3.*\(2, 3\)"):
        tf.reduce_sum(tf.ones([2, 3]), axis=3)


def test_argmax_defaults_and_ties():
    x = tf.constant([[1.0, 5.0, 5.0], [7.0, 0.0, 7.0]])
    np.testing.assert_array_equal(tf.argmax(x), [1, 0, 1])  # axis None means 0
    assert tf.argmax(x).dtype == tf.int64
    np.testing.assert_array_equal(tf.argmax(x, axis=1, output_type=tf.int32), [1, 0])
    assert tf.math.argmin(x, axis=-1, output_type=tf.int32).dtype == tf.int32
    with tf.GradientTape() as tape:
        tape.watch(x)
        i = tf.argmax(x, 1)
    assert tape.gradient(i, x) is None


def test_count_nonzero():
    x = tf.constant([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]])
    assert tf.math.count_nonzero(x).numpy() == 3
    assert tf.math.count_nonzero(x).dtype == tf.int64
    np.testing.assert_array_equal(tf.math.count_nonzero(x, axis=1, dtype=tf.int32), [2, 1])
    assert tf.math.count_nonzero(tf.constant([True, False, True])).numpy() == 2


def test_cumsum_exclusive_reverse():
    x = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tf.math.cumsum(x), [1, 3, 6])
    np.testing.assert_array_equal(tf.math.cumsum(x, exclusive=True), [0, 1, 3])
    np.testing.assert_array_equal(tf.math.cumsum(x, reverse=True), [6, 5, 3])
    np.testing.assert_array_equal(tf.math.cumsum(x, exclusive=True, reverse=True), [5, 3, 0])


# -- stability and composites -------------------------------------------------------------------
def test_logsumexp_is_stable():
    x = [1000.0, 1000.0]
    np.testing.assert_allclose(tf.reduce_logsumexp(tf.constant(x)).numpy(), 1000 + np.log(2))
    np.testing.assert_allclose(grad_of(tf.reduce_logsumexp, x), [0.5, 0.5])
    assert tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf


def test_std_gradient_finite_where_variance_positive():
    g = grad_of(tf.math.reduce_std, [1.0, 2.0, 4.0])
    assert np.all(np.isfinite(g))


def test_norm_gradient_is_unit_vector():
    np.testing.assert_allclose(grad_of(tf.norm, [3.0, 4.0]), [0.6, 0.8])


def test_norm_rejects_unsupported_orders():
    np.testing.assert_allclose(tf.norm(tf.ones([2, 2]), ord=2, axis=[0, 1]), 2.0)  # spectral
    with pytest.raises(ValueError, match="ord"):
        tf.norm(tf.ones([2, 2]), ord="nuclear")


# -- matmul ---------------------------------------------------------------------------------------
def test_matmul_operator_variables_and_ints():
    a = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal((a @ a).numpy(), [[7, 10], [15, 22]])
    i = tf.constant([[1, 2], [3, 4]])
    assert tf.matmul(i, i).dtype == tf.int32


def test_matmul_gradient_runs_one_product_when_one_input_needs_it():
    a = tf.constant(np.random.rand(4, 3))
    w = tf.Variable(np.random.rand(3, 2))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(a, w))
    seen = []
    state.observers = (lambda op_def, *args: seen.append(op_def.type),)
    try:
        g = tape.gradient(y, w)
    finally:
        state.observers = ()
    assert seen.count("MatMul") == 1
    np.testing.assert_allclose(g.numpy(), a.numpy().T @ np.ones((4, 2)))


def test_batched_matmul_gradients_have_input_shapes():
    a = tf.constant(np.random.rand(2, 1, 3, 4))
    b = tf.constant(np.random.rand(5, 4, 2))
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.matmul(a, b)
    assert y.shape == (2, 5, 3, 2)
    ga, gb = tape.gradient(y, [a, b])
    assert ga.shape == a.shape and gb.shape == b.shape
    np.testing.assert_allclose(gb.numpy(), np.einsum("xyij,xyik->yjk", np.broadcast_to(
        a.numpy(), (2, 5, 3, 4)), np.ones((2, 5, 3, 2))))


def test_matmul_errors_name_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"MatMul: inner dimensions differ: a is \[2, 3\], b is \[4, 5\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"BatchMatMulV2.*\[2, 3, 4\]"):
        tf.matmul(tf.ones([2, 3, 4]), tf.ones([3, 4, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        tf.matmul(tf.ones([3]), tf.ones([3, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatMul.*float32.*float64"):
        tf.matmul(tf.ones([2, 2]), tf.ones([2, 2], dtype=tf.float64))
    with pytest.raises(ValueError, match="not both"):
        tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_a=True, adjoint_a=True)


# -- einsum and friends ---------------------------------------------------------------------
def test_einsum_implicit_and_repeated_indices():
    x = np.random.rand(3, 4)
    np.testing.assert_allclose(tf.einsum("ij,kj", x, x).numpy(), x @ x.T)
    square = tf.constant(np.random.rand(3, 3))
    np.testing.assert_allclose(tf.einsum("ii->", square).numpy(), np.trace(square.numpy()))
    with tf.GradientTape() as tape:
        tape.watch(square)
        y = tf.einsum("ii->", square)
    np.testing.assert_allclose(tape.gradient(y, square).numpy(), np.eye(3))  # issue 17


def test_einsum_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Einsum.*2 operands but 1"):
        tf.einsum("ij,jk->ik", tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Einsum.*'j'.*\(2, 3\)"):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Einsum.*dtypes"):
        tf.einsum("i,i->", tf.ones([2]), tf.ones([2], dtype=tf.float64))


def test_diag_and_einsum_gradients_with_an_unknown_batch_dimension():
    """diag (MatrixDiag) and einsum gradients that restore a summed-away index take the sizes
    from tensors when the graph runs, not from static shapes."""
    v1 = tf.compat.v1
    x = np.random.rand(4, 3)
    g = tf.Graph()
    with g.as_default():
        h = v1.placeholder(tf.float64, [None, 3])
        d = tf.linalg.diag(h)
        y = tf.reduce_sum(d * d) + tf.einsum("ij->", h)
        (dh,) = tf.gradients(y, [h])
    assert d.shape.as_list() == [None, 3, 3]
    with v1.Session(graph=g) as sess:
        got_d, got_dh = sess.run([d, dh], {h: x})
    np.testing.assert_allclose(got_d, np.einsum("bi,ij->bij", x, np.eye(3)))
    np.testing.assert_allclose(got_dh, 2 * x + 1)


def test_diag_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"MatrixDiagV3: .*rank >= 1"):
        tf.linalg.diag(tf.constant(1.0))
    assert tf.linalg.diag(tf.ones([3]), k=1).shape == (4, 4)  # k offsets (issue 17)


def test_trace_gradient_is_identity():
    np.testing.assert_allclose(grad_of(tf.linalg.trace, np.random.rand(3, 3)), np.eye(3))


def test_namespaces():
    for name in ("reduce_sum", "reduce_logsumexp", "reduce_variance", "reduce_std", "cumsum",
                 "argmax", "count_nonzero", "reduce_euclidean_norm"):
        assert hasattr(tf.math, name), name
    for name in ("matmul", "einsum", "tensordot", "matvec", "trace", "diag_part", "set_diag",
                 "diag", "norm", "matrix_transpose"):
        assert hasattr(tf.linalg, name), name
    assert tf.norm is tf.linalg.norm and tf.einsum is tf.linalg.einsum
