"""max_pool_with_argmax, fractional pools, dilation2d/erosion2d: the pooling sequences, TensorFlow's
values and gradients (when TensorFlow is installed), errors."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf, tf_python

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("size,ratio", [(7, 1.5), (9, 1.7), (10, 2.0), (23, 2.3)])
def test_fractional_sequences_cover_the_input_in_near_equal_gaps(size, ratio, pseudo_random):
    x = tf.zeros([1, size, size, 1])
    _, rows, cols = tf.nn.fractional_max_pool(x, [1.0, ratio, ratio, 1.0],
                                              pseudo_random=pseudo_random, seed=7)
    out = int(np.floor(size / ratio))
    for seq in (rows.numpy(), cols.numpy()):
        assert seq[0] == 0 and seq[-1] == size and len(seq) == out + 1
        assert set(np.diff(seq)) <= {size // out, size // out + 1}


def test_fractional_seed_fixes_the_windows_and_no_seed_varies_them():
    x = tf.constant(RNG.standard_normal((1, 40, 40, 1)))
    a = [tf.nn.fractional_max_pool(x, 1.7, seed=4)[1].numpy() for _ in range(2)]
    np.testing.assert_array_equal(a[0], a[1])
    draws = {tuple(tf.nn.fractional_max_pool(x, 1.7)[1].numpy()) for _ in range(8)}
    assert len(draws) > 1


def test_fractional_overlapping_windows_share_the_boundary():
    x = tf.constant(np.arange(25.0).reshape(1, 5, 5, 1))
    y, rows, cols = tf.nn.fractional_avg_pool(x, [1.0, 1.6, 1.6, 1.0], overlapping=True, seed=1)
    rows, cols = rows.numpy(), cols.numpy()
    want = x.numpy()[0, rows[0]:rows[1] + 1, cols[0]:cols[1] + 1, 0].mean()
    assert y.numpy()[0, 0, 0, 0] == pytest.approx(want)


def test_argmax_ties_go_to_the_first_maximum_and_gradient_follows():
    x = tf.constant(np.array([[1, 3, 3, 0], [3, 2, 0, 0], [5, 5, 1, 7], [5, 5, 2, 2]],
                             np.float32).reshape(1, 4, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, argmax = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    np.testing.assert_array_equal(argmax.numpy().ravel(), [1, 2, 8, 11])
    assert argmax.dtype == tf.int64
    grad = tape.gradient(y, x).numpy().ravel()
    np.testing.assert_array_equal(np.nonzero(grad)[0], [1, 2, 8, 11])


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="pooling_ratio"):
        tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1]), [2.0, 1.5, 1.5, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="no output"):
        tf.nn.fractional_avg_pool(tf.zeros([1, 1, 4, 1]), 1.5)
    with pytest.raises(TypeError, match="output_dtype"):
        tf.nn.max_pool_with_argmax(tf.zeros([1, 4, 4, 1]), 2, 2, "VALID", output_dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels"):
        tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 3]), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 2]), [1, 1, 1, 1], "SAME",
                         "NCHW")


def r(*shape):
    return RNG.standard_normal(shape)


CASES = [
    TFCase("argmax_same", "tf.nn.max_pool_with_argmax(x0, 3, 2, 'SAME')",
           lambda x: tf.nn.max_pool_with_argmax(x, 3, 2, "SAME"), [r(2, 5, 6, 3)], wrt=(0,)),
    TFCase("argmax_batch", "tf.nn.max_pool_with_argmax(x0, 2, 2, 'VALID', "
           "include_batch_in_index=True)",
           lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", include_batch_in_index=True),
           [r(3, 4, 5, 2)], wrt=(0,)),
    TFCase("dilation_same", "tf.nn.dilation2d(x0, x1, [1, 1, 1, 1], 'SAME', 'NHWC', "
           "[1, 1, 1, 1])",
           lambda x, w: tf.nn.dilation2d(x, w, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
           [r(2, 5, 6, 2), r(2, 3, 2)], wrt=(0, 1)),
    TFCase("dilation_rates", "tf.nn.dilation2d(x0, x1, [1, 2, 1, 1], 'VALID', 'NHWC', "
           "[1, 2, 2, 1])",
           lambda x, w: tf.nn.dilation2d(x, w, [1, 2, 1, 1], "VALID", "NHWC", [1, 2, 2, 1]),
           [r(1, 7, 8, 2), r(2, 2, 2)], wrt=(0, 1)),
    TFCase("erosion", "tf.nn.erosion2d(x0, x1, [1, 1, 2, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
           lambda x, w: tf.nn.erosion2d(x, w, [1, 1, 2, 1], "SAME", "NHWC", [1, 1, 1, 1]),
           [r(2, 5, 6, 2), r(3, 2, 2)], wrt=(0, 1)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf(CASES, tf_python())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
