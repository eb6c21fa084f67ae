"""tf.nn's LRN, crelu, extra losses, moments, approx_max_k and isotonic_regression against
TensorFlow 2.21 (values and gradients) when it is installed, and the behaviour the op table
cannot express."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(21)


def r(*shape):
    return RNG.standard_normal(shape)


def f32(*shape):  # TensorFlow's LRN takes no float64
    return r(*shape).astype(np.float32)


CASES = [
    TFCase("lrn_defaults", "tf.nn.local_response_normalization(x0)",
           lambda x: tf.nn.local_response_normalization(x), [f32(2, 3, 3, 12)], wrt=(0,),
           rtol=1e-4, atol=1e-5),
    TFCase("lrn_params", "tf.nn.lrn(x0, 2, 0.5, 0.2, 0.9)",
           lambda x: tf.nn.lrn(x, 2, 0.5, 0.2, 0.9), [f32(1, 2, 3, 6)], wrt=(0,), rtol=1e-4,
           atol=1e-5),
    TFCase("crelu_axis", "tf.nn.crelu(x0, axis=1)", lambda x: tf.nn.crelu(x, axis=1),
           [r(2, 3, 2)], wrt=(0,)),
    TFCase("log_poisson_full", "tf.nn.log_poisson_loss(x0, x1, compute_full_loss=True)",
           lambda z, c: tf.nn.log_poisson_loss(z, c, compute_full_loss=True),
           [np.abs(r(3, 4)) * 2, r(3, 4)], wrt=(0, 1)),
    TFCase("weighted_xent", "tf.nn.weighted_cross_entropy_with_logits(x0, x1, x2)",
           lambda z, x, q: tf.nn.weighted_cross_entropy_with_logits(z, x, q),
           [RNG.random((3, 4)), r(3, 4), np.abs(r(4)) + 0.5], wrt=(0, 1, 2)),
    TFCase("sufficient_statistics", "tf.nn.sufficient_statistics(x0, [0, 2], tf.constant(0.3, tf.float64))[:3]",
           lambda x: tf.nn.sufficient_statistics(x, [0, 2], 0.3)[:3], [r(2, 3, 4)], wrt=(0,)),
    TFCase("normalize_moments", "tf.nn.normalize_moments(x0, x1, x2, x3)",
           lambda c, m, v, s: tf.nn.normalize_moments(c, m, v, s),
           [np.array(5.0), r(3), np.abs(r(3)) + 1, r(3)], wrt=(1, 2, 3)),
    TFCase("weighted_moments", "tf.nn.weighted_moments(x0, [1], x1, keepdims=True)",
           lambda x, w: tf.nn.weighted_moments(x, [1], w, keepdims=True),
           [r(3, 4), np.abs(r(3, 4))], wrt=(0, 1)),
    TFCase("zero_fraction", "tf.nn.zero_fraction(x0)", lambda x: tf.nn.zero_fraction(x),
           [np.array([[0.0, 1.0], [0.0, 0.0]])]),
    TFCase("isotonic_dec", "tf.nn.isotonic_regression(x0)",
           lambda x: tf.nn.isotonic_regression(x), [r(3, 7)], wrt=(0,)),
    TFCase("isotonic_inc_axis0", "tf.nn.isotonic_regression(x0, decreasing=False, axis=0)",
           lambda x: tf.nn.isotonic_regression(x, decreasing=False, axis=0), [r(6, 3)],
           wrt=(0,)),
    TFCase("isotonic_int", "tf.nn.isotonic_regression(x0)",
           lambda x: tf.nn.isotonic_regression(x), [np.array([[3, 1, 2, 2, 5]], np.int32)]),
    TFCase("bn_global", "tf.nn.batch_norm_with_global_normalization(x0, x1, x2, x3, x4, 0.1, "
           "True)", lambda *a: tf.nn.batch_norm_with_global_normalization(*a, 0.1, True),
           [r(2, 4), r(4), np.abs(r(4)), r(4), r(4)], wrt=(0, 1, 2, 3, 4)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=2e-5, atol=1e-6)


def test_lrn_gradient_op_is_tensorflows_and_not_differentiable_again():
    x = tf.constant(r(1, 2, 2, 4).astype(np.float32))  # LRN: half, bfloat16, float32 only
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.nn.lrn(x, 1)
        g = inner.gradient(y, x)
    assert g.op.type == "LRNGrad" if hasattr(g, "op") and g.op is not None else True
    assert outer.gradient(g, x) is None


def test_approx_k_is_exact_top_k():
    # TensorFlow 2.21 has no CPU kernel for ApproxTopK; wengert computes the exact answer.
    x = tf.constant([[3.0, 9.0, 1.0], [4.0, 0.0, 7.0]])
    values, indices = tf.nn.approx_max_k(x, 1, reduction_dimension=0)
    np.testing.assert_array_equal(values.numpy(), [[4.0, 9.0, 7.0]])
    np.testing.assert_array_equal(indices.numpy(), [[1, 0, 1]])
    values, indices = tf.nn.approx_min_k(x, 2)
    np.testing.assert_array_equal(values.numpy(), [[1.0, 3.0], [0.0, 4.0]])


def test_isotonic_segments_and_equal_means_stay_apart():
    out, seg = tf.nn.isotonic_regression([[2.0, 2.0, 1.0, 1.0, 3.0]])
    np.testing.assert_array_equal(seg.numpy(), [[0, 1, 2, 2, 2]])
    np.testing.assert_allclose(out.numpy(), [[2, 2, 5 / 3, 5 / 3, 5 / 3]], rtol=1e-6)
    assert tf.nn.isotonic_regression(tf.constant([[1, 2]], tf.int8))[0].dtype == tf.float32


def test_errors():
    with pytest.raises(TypeError, match="floating"):
        tf.nn.lrn(tf.zeros([1, 1, 1, 2], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 4"):
        tf.nn.lrn(tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="same shape"):
        tf.nn.weighted_cross_entropy_with_logits(tf.zeros([2]), tf.zeros([3]), 2.0)
    with pytest.raises(TypeError, match="numeric"):
        tf.nn.isotonic_regression(tf.constant([[True, False]]))
