"""Behaviour of the convolution and pooling ops that the op table cannot express: TensorFlow's
output shapes over many padding/stride/dilation combinations, the adjoint relations between the
ops, max-pool ties, SAME average pooling, graph mode with unknown dimensions, and errors that
name the op and the shapes."""
import itertools

import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads

from op_table.conv_rows import distinct, ref_conv2d, ref_conv2d_transpose, ref_pool

v1 = tf.compat.v1
RNG = np.random.default_rng(5)


def rand(*shape):
    return RNG.uniform(-1, 1, size=shape)


# -- forward: every combination against the loop reference -----------------------------------------
COMBOS = list(itertools.product([(5, 5), (6, 7)], [(1, 1), (2, 2), (3, 2)], [(1, 1), (2, 1)],
                                ["SAME", "VALID"]))


@pytest.mark.parametrize("hw,kernel,stride,padding", COMBOS)
@pytest.mark.parametrize("dilation", [(1, 1), (2, 2)])
def test_conv2d_matches_reference_and_tf_shapes(hw, kernel, stride, padding, dilation):
    x, w = rand(2, *hw, 3), rand(*kernel, 3, 2)
    got = tf.nn.conv2d(x, w, stride, padding, dilations=dilation).numpy()
    np.testing.assert_allclose(got, ref_conv2d(x, w, stride, padding, dilations=dilation),
                               atol=1e-12)
    eff = [(k - 1) * d + 1 for k, d in zip(kernel, dilation)]
    want_hw = [-(-n // s) if padding == "SAME" else -(-(n - e + 1) // s)
               for n, e, s in zip(hw, eff, stride)]
    assert got.shape == (2, *want_hw, 2)


def test_conv2d_known_values():
    x = np.arange(16.0).reshape(1, 4, 4, 1)
    w = np.ones((2, 2, 1, 1))
    y = tf.nn.conv2d(x, w, 2, "VALID").numpy()[0, :, :, 0]
    np.testing.assert_array_equal(y, [[10, 18], [42, 50]])
    same = tf.nn.conv2d(x, w, 1, "SAME").numpy()[0, :, :, 0]
    assert same.shape == (4, 4) and same[3, 3] == 15  # SAME pads after: bottom-right sees one
    assert same[0, 0] == 0 + 1 + 4 + 5


def test_nchw_equals_nhwc():
    x, w = rand(2, 6, 5, 3), rand(3, 2, 3, 4)
    nhwc = tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME").numpy()
    nchw = tf.nn.conv2d(x.transpose(0, 3, 1, 2), w, [1, 1, 2, 1], "SAME", data_format="NCHW")
    np.testing.assert_allclose(nchw.numpy(), nhwc.transpose(0, 3, 1, 2), atol=1e-12)


def test_explicit_padding_equals_padding_first():
    x, w = rand(1, 5, 5, 2), rand(3, 3, 2, 2)
    explicit = tf.nn.conv2d(x, w, 2, [[0, 0], [1, 2], [0, 1], [0, 0]])
    padded = np.pad(x, [(0, 0), (1, 2), (0, 1), (0, 0)])
    np.testing.assert_allclose(explicit.numpy(), tf.nn.conv2d(padded, w, 2, "VALID").numpy())


def test_float32_kept_and_accurate():
    x, w = rand(2, 9, 9, 4).astype(np.float32), rand(3, 3, 4, 5).astype(np.float32)
    y = tf.nn.conv2d(x, w, 1, "SAME")
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y.numpy(), ref_conv2d(x.astype(np.float64), w, 1, "SAME"),
                               rtol=1e-5, atol=1e-5)


# -- the adjoint relations ----------------------------------------------------------------------------
@pytest.mark.parametrize("stride,padding,dilation", [(1, "SAME", 1), (2, "SAME", 1),
                                                     (2, "VALID", 1), (1, "SAME", 2),
                                                     (3, "VALID", 2)])
def test_conv2d_transpose_is_the_adjoint(stride, padding, dilation):
    """<conv2d(x, w), y> = <x, conv2d_transpose(y, w)> for every geometry."""
    x, w = rand(2, 8, 7, 3), rand(3, 2, 3, 4)
    y_shape = tf.nn.conv2d(x, w, stride, padding, dilations=dilation).shape
    y = rand(*y_shape)
    forward = np.sum(tf.nn.conv2d(x, w, stride, padding, dilations=dilation).numpy() * y)
    back = tf.nn.conv2d_transpose(y, w, x.shape, stride, padding, dilations=dilation).numpy()
    np.testing.assert_allclose(forward, np.sum(x * back), rtol=1e-10)
    np.testing.assert_allclose(back, ref_conv2d_transpose(y, w, x.shape, stride, padding,
                                                          dilations=dilation), atol=1e-12)


def test_gradient_ops_are_tensorflows():
    x, w = tf.constant(rand(1, 5, 5, 2)), tf.constant(rand(3, 3, 2, 3))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, 2, "SAME")
    assert [op.type for op in tape._records] == ["Conv2D"]
    dx, dw = tape.gradient(y, [x, w])
    assert dx.shape == x.shape and dw.shape == w.shape


@pytest.mark.parametrize("fn", [
    lambda x, w: tf.nn.conv2d(x, w, [1, 2], "SAME", dilations=1),
    lambda x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=2),
    lambda x, w: tf.nn.conv2d(x, w, 2, [[0, 0], [0, 2], [1, 1], [0, 0]]),
    lambda x, w: tf.nn.depthwise_conv2d(x, w[..., :2], [1, 2, 2, 1], "SAME"),
], ids=["stride", "dilation", "explicit", "depthwise"])
def test_second_order_composite(fn):
    """Gradient penalties differentiate conv gradients: check a conv -> tanh -> conv chain to
    second order in both modes (reverse over reverse, forward over reverse and so on)."""
    def model(x, w):
        return tf.reduce_sum(tf.tanh(fn(x, w)) ** 2)
    check_grads(model, [rand(1, 6, 6, 3), rand(3, 3, 3, 3)], order=2, modes=("rev", "fwd"),
                rtol=1e-5, atol=1e-6)


def test_depthwise_channel_order():
    """Output channel c*M + m is input channel c convolved with filter[:, :, c, m]."""
    x, w = rand(1, 4, 4, 2), rand(2, 2, 2, 3)
    y = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID").numpy()
    for c in range(2):
        for m in range(3):
            one = tf.nn.conv2d(x[..., c:c + 1], w[:, :, c:c + 1, m:m + 1], 1, "VALID").numpy()
            np.testing.assert_allclose(y[..., c * 3 + m], one[..., 0], atol=1e-12)


def test_conv1d_ncw_and_strides_forms():
    x, w = rand(2, 3, 9), rand(3, 3, 4)
    nwc = tf.nn.conv1d(x.transpose(0, 2, 1), w, [1, 2, 1], "SAME").numpy()
    ncw = tf.nn.conv1d(x, w, 2, "SAME", data_format="NCW").numpy()
    np.testing.assert_allclose(ncw, nwc.transpose(0, 2, 1), atol=1e-12)
    assert nwc.shape == (2, 5, 4)


# -- pooling ------------------------------------------------------------------------------------------
def test_max_pool_tie_goes_to_first_maximum():
    """On ties the gradient goes to the first maximum in row-major window order (TF CPU)."""
    x = tf.constant(np.array([[1.0, 3.0, 3.0, 0.0], [3.0, 2.0, 1.0, 3.0]]).reshape(1, 2, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    np.testing.assert_array_equal(y.numpy().ravel(), [3, 3])
    grad = tape.gradient(y, x).numpy().reshape(2, 4)
    np.testing.assert_array_equal(grad, [[0, 1, 1, 0], [0, 0, 0, 0]])


def test_overlapping_max_windows_add_up():
    x = tf.constant(np.array([0.0, 5.0, 1.0, 2.0, 0.0]).reshape(1, 1, 5, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, [1, 3], 1, "VALID")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(), [0, 2, 0, 1, 0])


def test_avg_pool_same_excludes_padding():
    ones = np.ones((1, 5, 5, 2))
    np.testing.assert_allclose(tf.nn.avg_pool2d(ones, 3, 2, "SAME").numpy(), np.ones((1, 3, 3, 2)))
    x = rand(2, 5, 6, 3)
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy(),
                               ref_pool(x, 3, 2, "SAME", "avg"), atol=1e-12)


def test_max_pool_same_pads_with_minus_infinity():
    x = -np.ones((1, 3, 3, 1)) - rand(1, 3, 3, 1) ** 2
    np.testing.assert_allclose(tf.nn.max_pool2d(x, 2, 2, "SAME").numpy(),
                               ref_pool(x, 2, 2, "SAME", "max"))
    assert np.all(tf.nn.max_pool2d(x, 2, 2, "SAME").numpy() < 0)


def test_pool_aliases_and_1d():
    x = distinct(2, 6, 6, 3)
    np.testing.assert_array_equal(tf.nn.max_pool(x, 2, 2, "VALID").numpy(),
                                  tf.nn.max_pool2d(x, 2, 2, "VALID").numpy())
    np.testing.assert_array_equal(tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID").numpy(),
                                  tf.nn.avg_pool2d(x, 2, 2, "VALID").numpy())
    seq = distinct(2, 7, 3)
    np.testing.assert_allclose(tf.nn.max_pool1d(seq, 2, 2, "SAME").numpy(),
                               ref_pool(seq[:, None], (1, 2), (1, 2), "SAME", "max")[:, 0])
    np.testing.assert_allclose(tf.nn.max_pool(seq, 3, 1, "VALID").numpy(),
                               ref_pool(seq[:, None], (1, 3), 1, "VALID", "max")[:, 0])


def test_max_pool_third_order():
    """MaxPoolGrad and MaxPoolGradGrad are each other's adjoints (third derivatives exist)."""
    x = distinct(1, 4, 4, 2)
    check_grads(lambda t: tf.nn.max_pool2d(t, 2, 1, "SAME") ** 3, [x], order=3, rtol=1e-5)


# -- graph mode ---------------------------------------------------------------------------------------
def test_graph_mode_unknown_batch_shapes_and_gradients():
    x0, w0 = rand(3, 9, 9, 2), rand(3, 3, 2, 4)
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [None, 9, 9, 2])
        w = tf.constant(w0)
        y = tf.nn.conv2d(x, w, 2, "SAME")
        p = tf.nn.max_pool2d(tf.nn.relu(y), 2, 2, "SAME")
        a = tf.nn.avg_pool2d(y, 3, 1, "VALID")
        assert y.shape.as_list() == [None, 5, 5, 4] and p.shape.as_list() == [None, 3, 3, 4]
        assert a.shape.as_list() == [None, 3, 3, 4]
        loss = tf.reduce_sum(p) + tf.reduce_sum(a * a)
        dx, dw = tf.gradients(loss, [x, w])
        assert dx.shape.as_list() == [None, 9, 9, 2] and dw.shape.as_list() == [3, 3, 2, 4]
    with v1.Session(graph=g) as sess:
        got = sess.run([y, dx, dw], {x: x0})
    np.testing.assert_allclose(got[0], ref_conv2d(x0, w0, 2, "SAME"), atol=1e-12)
    xe, we = tf.constant(x0), tf.constant(w0)
    with tf.GradientTape() as tape:
        tape.watch([xe, we])
        ye = tf.nn.conv2d(xe, we, 2, "SAME")
        le = tf.reduce_sum(tf.nn.max_pool2d(tf.nn.relu(ye), 2, 2, "SAME")) + \
            tf.reduce_sum(tf.nn.avg_pool2d(ye, 3, 1, "VALID") ** 2)
    want = tape.gradient(le, [xe, we])
    np.testing.assert_allclose(got[1], want[0].numpy(), atol=1e-12)
    np.testing.assert_allclose(got[2], want[1].numpy(), atol=1e-12)


def test_conv2d_transpose_with_a_computed_output_shape():
    """Keras-style: output_shape built from tf.shape at run time (unknown batch)."""
    y0, w0 = rand(2, 3, 3, 4), rand(3, 3, 2, 4)

    @tf.function
    def up(y):
        batch = tf.shape(y)[0]
        return tf.nn.conv2d_transpose(y, w0, tf.stack([batch, 6, 6, 2]), 2)
    got = up(tf.constant(y0)).numpy()
    np.testing.assert_allclose(got, ref_conv2d_transpose(y0, w0, (2, 6, 6, 2), 2, "SAME"),
                               atol=1e-12)


# -- errors -------------------------------------------------------------------------------------------
def test_channel_mismatch_names_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Conv2D: input has 3 channels but filters expect 4.*\(2, 5, 5, 3\)"):
        tf.nn.conv2d(tf.zeros([2, 5, 5, 3]), tf.zeros([3, 3, 4, 8]), 1, "SAME")
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 5, 5, 3])
        with pytest.raises(tf.errors.InvalidArgumentError, match="3 channels but filters expect 4"):
            tf.nn.conv2d(x, tf.zeros([3, 3, 4, 8]), 1, "SAME")


@pytest.mark.parametrize("call,pattern", [
    (lambda: tf.nn.conv2d(tf.zeros([1, 2, 2, 1]), tf.zeros([3, 3, 1, 1]), 1, "VALID"),
     r"Conv2D: the input of shape \(1, 2, 2, 1\) is too small"),
    (lambda: tf.nn.conv2d(tf.zeros([5, 5, 3]), tf.zeros([3, 3, 3, 2]), 1, "SAME"),
     r"input must have rank 4"),
    (lambda: tf.nn.max_pool2d(tf.zeros([1, 2, 2, 1]), 3, 1, "VALID"),
     r"MaxPool: the input of shape \(1, 2, 2, 1\) is too small"),
    (lambda: tf.nn.depthwise_conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 2, 1]),
                                    [1, 1, 1, 1], "SAME"),
     r"DepthwiseConv2dNative: input has 3 channels but filter expects 2"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 3, 3, 8]), tf.zeros([3, 3, 4, 8]),
                                    [2, 6, 6, 3], 2), r"output_shape\) has 3 channels"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 3, 3, 8]), tf.zeros([3, 3, 4, 8]),
                                    [2, 9, 9, 4], 2), r"Conv2DBackpropInput"),
])
def test_shape_errors(call, pattern):
    with pytest.raises(tf.errors.InvalidArgumentError, match=pattern):
        call()


@pytest.mark.parametrize("call,error,pattern", [
    (lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 2]), [1, 2, 2, 2], "SAME"),
     ValueError, "batch and channel entries must be 1"),
    (lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 2]), 1, "FULL"),
     ValueError, "padding must be"),
    (lambda: tf.nn.avg_pool2d(tf.zeros([1, 5, 5, 3]), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]),
     ValueError, "'SAME' or 'VALID'"),
    (lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 3], tf.int32), tf.zeros([3, 3, 3, 2], tf.int32),
                          1, "SAME"), TypeError, "cast"),
    (lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 2], tf.float64), 1, "SAME"),
     (TypeError, tf.errors.InvalidArgumentError), "float"),
])
def test_argument_errors(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()
