"""Compiled plans run a Conv2D and the per-image ops only it feeds (BiasAdd, Mul/AddV2/Sub by a
channel vector, Relu, a closing MaxPool) as one step (runtime/conv_fusion.py,
ops/nn/conv/epilogues.py): the fetched values are the unfused plan's bit for bit (the same
kernels on the same values, chunk by chunk), the convolution matches the NumPy loops of
op_table.conv_rows, and chains that something else reads into, channels-first data or operands
that broadcast along the batch are left alone."""
import numpy as np
import pytest

import wengert as tf
from wengert.ops.nn.conv.epilogues import conv_epilogue_kernel

from op_table.conv_rows import ref_conv2d

RNG = np.random.default_rng(31)
v1 = tf.compat.v1


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _run(build, x, optimize):
    """(fetched values, the plan's steps) of build(placeholder) in a Session."""
    graph = tf.Graph()
    with graph.as_default():
        p = v1.placeholder(tf.float32, (None,) + x.shape[1:])
        fetches = build(p)
    sess = v1.Session(graph=graph, optimize=optimize)
    values = sess.run(fetches, {p: x})
    return values, next(iter(sess._plans.values())).steps


def _fused_steps(steps):
    return [s for s in steps if s.kernel is conv_epilogue_kernel]


def _check(build, x, fused):
    """The optimized plan's values equal the unoptimized plan's, bit for bit; `fused` steps."""
    want, _ = _run(build, x, False)
    got, steps = _run(build, x, True)
    for g, w in zip(got if isinstance(got, list) else [got], want if isinstance(want, list)
                    else [want]):
        np.testing.assert_array_equal(g, w)
    assert len(_fused_steps(steps)) == fused
    return got


W1, B1, S1, T1 = _f32(3, 3, 3, 16), _f32(16), _f32(16), _f32(16)


def _batch_norm_block(p):
    """Keras' exported Conv2D - BatchNormalization - ReLU - MaxPooling2D."""
    y = tf.nn.bias_add(tf.nn.conv2d(p, W1, 1, "SAME"), B1)
    return tf.nn.max_pool2d(tf.nn.relu(y * S1 + T1), 2, 2, "VALID")


@pytest.mark.parametrize("batch", [64, 3])  # chunks on worker threads; one product
def test_batch_norm_block_is_one_step_with_the_unfused_values(batch):
    x = _f32(batch, 32, 32, 3)
    got = _check(_batch_norm_block, x, 1)
    y = ref_conv2d(x.astype(np.float64), W1.astype(np.float64), (1, 1), "SAME") + B1
    y = np.maximum(y * S1 + T1, 0)
    want = y.reshape(batch, 16, 2, 16, 2, 16).max(axis=(2, 4))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("batch", [120, 2])
def test_operand_order_scalars_and_padded_pooling(batch):
    w, c = _f32(3, 3, 8, 24), _f32(1, 1, 1, 24)

    def build(p):
        y = tf.nn.conv2d(p, w, 1, "SAME")
        y = tf.nn.relu(c - (np.float32(0.5) * y))  # Sub(c, y), Mul(scalar, y)
        return tf.nn.max_pool2d(y, 3, 2, "SAME")  # overlapping, padded windows
    _check(build, _f32(batch, 15, 15, 8), 1)


def test_a_value_read_elsewhere_ends_the_chain():
    x = _f32(48, 16, 16, 16)
    w, b = _f32(3, 3, 16, 32), _f32(32)

    def build(p):
        relu = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(p, w, 1, "SAME"), b))
        return [relu, tf.nn.max_pool2d(relu, 2, 2, "VALID")]
    _, steps = _run(build, x, True)
    assert [s.op.type for s in steps if s.op.type in ("Conv2D", "MaxPool")] == \
        ["Conv2D", "MaxPool"]  # the fused step (it names the Conv2D) ends at the Relu
    assert _fused_steps(steps)[0].kernel is conv_epilogue_kernel
    _check(build, x, 1)


def test_unfusable_chains_run_as_before():
    x = _f32(4, 3, 10, 10)
    w, b = _f32(3, 3, 3, 8), _f32(8)

    def channels_first(p):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(p, w, 1, "SAME", data_format="NCHW"),
                                         b, data_format="NCHW"))
    _check(channels_first, x, 0)
    per_image = _f32(4, 1, 1, 8)

    def batch_operand(p):  # broadcasts along the batch: not a per-image op
        return tf.nn.conv2d(p, w, 1, "VALID") * per_image
    _check(batch_operand, _f32(4, 10, 10, 3), 0)


def test_training_step_gradients_are_the_unfused_ones():
    x = _f32(32, 16, 16, 3)
    w, b = tf.Variable(_f32(3, 3, 3, 8)), tf.Variable(_f32(8))

    @tf.function
    def step(v):
        with tf.GradientTape() as tape:
            y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, w, 1, "SAME"), b)),
                                 2, 2, "VALID")
            loss = tf.reduce_sum(y * y)
        return [loss] + tape.gradient(loss, [w, b])
    got = [t.numpy() for t in step(tf.constant(x))]
    with tf.GradientTape() as tape:  # eager: every op on its own
        y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)),
                             2, 2, "VALID")
        loss = tf.reduce_sum(y * y)
    want = [loss.numpy()] + [g.numpy() for g in tape.gradient(loss, [w, b])]
    for g, v in zip(got, want):
        np.testing.assert_allclose(g, v, rtol=1e-5)


def test_one_output_channel_and_one_element_operands():
    w, b, scale = _f32(3, 3, 4, 1), _f32(1), _f32(1)
    _check(lambda p: tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(p, w, 1, "SAME"), b) * scale),
           _f32(8, 8, 8, 4), 1)
    w4 = _f32(3, 3, 4, 6)
    _check(lambda p: tf.nn.conv2d(p, w4, 1, "VALID") + scale, _f32(8, 8, 8, 4), 1)
