"""tf.raw_ops (issue 16 item 8): every declared op type is reachable under its op type name,
with keyword arguments only; the common ones take TensorFlow's argument names and agree with the
public functions (gradients included)."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.registry import registered_op_types

R = tf.raw_ops
X = tf.constant([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])


def test_every_op_type_is_reachable_by_name():
    for op_type in registered_op_types("wengert."):
        fn = getattr(R, op_type)
        assert callable(fn) and fn.__name__ == op_type
    assert set(registered_op_types("wengert.")) <= set(dir(R))
    with pytest.raises(AttributeError):
        R.NoSuchOp  # noqa: B018


def test_positional_arguments_are_refused():
    with pytest.raises(TypeError, match="only accepts keyword arguments"):
        R.AddV2(X, X)
    with pytest.raises(TypeError, match="only accepts keyword arguments"):
        R.Sin(X)


@pytest.mark.parametrize("call,want", [
    (lambda: R.AddV2(x=X, y=X), lambda: X + X),
    (lambda: R.Sum(input=X, axis=[1], keep_dims=True), lambda: tf.reduce_sum(X, 1, True)),
    (lambda: R.ArgMax(input=X, dimension=1, output_type=tf.int32),
     lambda: tf.argmax(X, 1, tf.int32)),
    (lambda: R.Reshape(tensor=X, shape=[3, 2]), lambda: tf.reshape(X, [3, 2])),
    (lambda: R.Transpose(x=X, perm=[1, 0]), lambda: tf.transpose(X)),
    (lambda: R.ConcatV2(values=[X, X], axis=0), lambda: tf.concat([X, X], 0)),
    (lambda: R.MatMul(a=X, b=X, transpose_b=True), lambda: tf.matmul(X, X, transpose_b=True)),
    (lambda: R.Relu(features=X), lambda: tf.nn.relu(X)),
    (lambda: R.Softmax(logits=X), lambda: tf.nn.softmax(X)),
    (lambda: R.Cast(x=X, DstT=tf.int32), lambda: tf.cast(X, tf.int32)),
    (lambda: R.SelectV2(condition=X > 0, t=X, e=-X), lambda: tf.abs(X)),
    (lambda: R.TopKV2(input=X, k=2)[0], lambda: tf.math.top_k(X, 2)[0]),
    (lambda: R.Atan2(y=X, x=X + 5.0), lambda: tf.atan2(X, X + 5.0)),
    (lambda: R.Igamma(a=tf.abs(X) + 1.0, x=tf.abs(X)), lambda: tf.math.igamma(tf.abs(X) + 1.0,
                                                                                tf.abs(X))),
    (lambda: R.Cumprod(x=X, axis=1, exclusive=True), lambda: tf.math.cumprod(X, 1, True)),
    (lambda: R.UnsortedSegmentSum(data=X, segment_ids=[1, 1], num_segments=3),
     lambda: tf.math.unsorted_segment_sum(X, [1, 1], 3)),
    (lambda: R.SparseSegmentMeanWithNumSegments(data=X, indices=[0, 1], segment_ids=[0, 0],
                                                num_segments=2),
     lambda: tf.sparse.segment_mean(X, [0, 1], [0, 0], 2)),
    (lambda: R.TensorScatterAdd(tensor=X, indices=[[0]], updates=[[1.0, 1.0, 1.0]]),
     lambda: tf.tensor_scatter_nd_add(X, [[0]], [[1.0, 1.0, 1.0]])),
    (lambda: R.Roll(input=X, shift=1, axis=1), lambda: tf.roll(X, 1, 1)),
    (lambda: R.BesselI0(x=X), lambda: tf.math.bessel_i0(X)),
    (lambda: R.Xlogy(x=X, y=tf.abs(X)), lambda: tf.math.xlogy(X, tf.abs(X))),
    (lambda: R.BitwiseAnd(x=tf.constant([5, 6]), y=tf.constant([3, 3])),
     lambda: tf.bitwise.bitwise_and([5, 6], [3, 3])),
    (lambda: R.LinSpace(start=0.0, stop=1.0, num=5), lambda: tf.linspace(0.0, 1.0, 5)),
    (lambda: R.SpaceToDepth(input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), block_size=2),
     lambda: tf.reshape(tf.transpose(tf.reshape(tf.range(16.0), [1, 2, 2, 2, 2, 1]),
                                     [0, 1, 3, 2, 4, 5]), [1, 2, 2, 4]))])
def test_raw_ops_agree_with_the_public_functions(call, want):
    np.testing.assert_allclose(call().numpy(), want().numpy(), rtol=1e-6)


def test_gradients_flow_through_raw_ops():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = R.Sum(input=R.Mul(x=x, y=x), axis=0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])


def test_generic_calls_use_the_declared_parameter_names():
    out = R.SquareGrad(x=tf.constant([1.0, 2.0]), dy=tf.constant([1.0, 1.0]))
    np.testing.assert_allclose(out.numpy(), [2.0, 4.0])
    with pytest.raises(TypeError, match="unexpected keyword"):
        R.SquareGrad(x=tf.constant([1.0]), bogus=1)
