"""conv3d, the transposes, separable/atrous convolutions and the N-d pools against TensorFlow 2.21
(values and gradients), when TensorFlow is installed; TensorFlow's gradient op types."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(3)


def r(*shape):
    return RNG.standard_normal(shape)


def f32(*shape):  # TensorFlow's 3-D pools take no float64
    return r(*shape).astype(np.float32)


CASES = [
    TFCase("conv3d_same", "tf.nn.conv3d(x0, x1, [1, 1, 2, 1, 1], 'SAME')",
           lambda x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"),
           [r(2, 3, 5, 4, 2), r(2, 3, 2, 2, 3)], wrt=(0, 1)),
    TFCase("conv3d_valid_ncdhw_free", "tf.nn.conv3d(x0, x1, [1, 2, 1, 1, 1], 'VALID')",
           lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], "VALID"),
           [r(1, 5, 4, 4, 3), r(3, 2, 2, 3, 2)], wrt=(0, 1)),
    TFCase("conv3d_transpose", "tf.nn.conv3d_transpose(x0, x1, [1, 4, 6, 5, 2], 2)",
           lambda y, w: tf.nn.conv3d_transpose(y, w, [1, 4, 6, 5, 2], 2),
           [r(1, 2, 3, 3, 3), r(2, 2, 2, 2, 3)], wrt=(0, 1)),
    TFCase("conv1d_transpose", "tf.nn.conv1d_transpose(x0, x1, [2, 9, 2], 2, 'VALID')",
           lambda y, w: tf.nn.conv1d_transpose(y, w, [2, 9, 2], 2, "VALID"),
           [r(2, 4, 3), r(3, 2, 3)], wrt=(0, 1)),
    TFCase("separable", "tf.nn.separable_conv2d(x0, x1, x2, [1, 2, 2, 1], 'SAME')",
           lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 2, 2, 1], "SAME"),
           [r(2, 5, 6, 2), r(3, 3, 2, 2), r(1, 1, 4, 3)], wrt=(0, 1, 2)),
    TFCase("atrous", "tf.nn.atrous_conv2d(x0, x1, 2, 'SAME')",
           lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), [r(1, 7, 6, 2), r(3, 3, 2, 2)],
           wrt=(0, 1)),
    TFCase("max_pool3d", "tf.nn.max_pool3d(x0, [2, 2, 3], [1, 2, 2], 'SAME')",
           lambda x: tf.nn.max_pool3d(x, [2, 2, 3], [1, 2, 2], "SAME"), [f32(2, 3, 5, 6, 2)],
           wrt=(0,)),
    TFCase("avg_pool3d", "tf.nn.avg_pool3d(x0, 2, 2, 'SAME')",
           lambda x: tf.nn.avg_pool3d(x, 2, 2, "SAME"), [f32(1, 3, 5, 4, 2)], wrt=(0,)),
    TFCase("max_pool2d_explicit",
           "tf.nn.max_pool2d(x0, 3, 2, [[0, 0], [1, 2], [2, 0], [0, 0]])",
           lambda x: tf.nn.max_pool2d(x, 3, 2, [[0, 0], [1, 2], [2, 0], [0, 0]]),
           [r(2, 6, 7, 2)], wrt=(0,)),
    TFCase("max_pool1d_explicit", "tf.nn.max_pool1d(x0, 2, 2, [[0, 0], [1, 1], [0, 0]])",
           lambda x: tf.nn.max_pool1d(x, 2, 2, [[0, 0], [1, 1], [0, 0]]), [r(2, 5, 3)],
           wrt=(0,)),
    TFCase("pool_avg_2d", "tf.nn.pool(x0, [2, 3], 'AVG', strides=[2, 1], padding='SAME')",
           lambda x: tf.nn.pool(x, [2, 3], "AVG", strides=[2, 1], padding="SAME"),
           [r(1, 5, 5, 2)], wrt=(0,)),
    TFCase("max_pool_ties", "tf.nn.max_pool2d(tf.nn.relu(x0), 2, 2, 'VALID')",
           lambda x: tf.nn.max_pool2d(tf.nn.relu(x), 2, 2, "VALID"),
           [np.minimum(r(2, 6, 6, 3), 0) + (RNG.random((2, 6, 6, 3)) > 0.8)], wrt=(0,)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-6)


def test_conv3d_gradient_op_types():
    x, w = tf.constant(r(1, 3, 3, 3, 2)), tf.constant(r(2, 2, 2, 2, 2))

    @tf.function
    def grads(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv3d(x, w, 1, "SAME")
        return tape.gradient(y, [x, w])
    graph = grads.get_concrete_function(x, w).graph
    types = {op.type for op in graph.get_operations()}
    assert {"Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"} <= types


def test_conv3d_errors_name_the_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels"):
        tf.nn.conv3d(tf.zeros([1, 3, 3, 3, 2]), tf.zeros([2, 2, 2, 3, 1]), 1, "SAME")
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.conv3d(tf.zeros([1, 3, 3, 3, 2]), tf.zeros([2, 2, 2, 2, 1]), 1, "SAME", "NHWC")
    with pytest.raises(ValueError, match="pointwise_filter"):
        tf.nn.separable_conv2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2, 2, 1]),
                               tf.zeros([2, 1, 2, 3]), [1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="smaller than the window"):
        tf.nn.max_pool2d(tf.zeros([1, 5, 5, 1]), 2, 2, [[0, 0], [2, 0], [0, 0], [0, 0]])
