"""Behaviour of shape, creation and indexing ops that the op table cannot express: TensorFlow
semantics (None gradients, scatter-add of repeated indices, raising on out-of-range indices),
views, static shapes with unknown dimensions, and clear errors."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError
from wengert.framework.execute import execute
from wengert.framework.tensor_shape import TensorShape
from wengert.ops import array_ops, creation_ops, indexing_ops, reshape_ops
from wengert.ops.broadcast_ops import ADD_N


def grad_of(fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return tape.gradient(y, xs)


class Spec:
    """A stand-in for a graph tensor: only a (possibly partly unknown) shape and a dtype."""

    def __init__(self, shape, dtype=tf.float32):
        self.shape = TensorShape(shape)
        self.dtype = dtype


# -- gradients: TensorFlow semantics ---------------------------------------------------------------
def test_stop_gradient_blocks_and_identity_passes():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.identity(x) * tf.stop_gradient(x)
        z = tf.stop_gradient(x * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 2.0])
    assert tape.gradient(z, x) is None


def test_gather_gradient_adds_repeated_indices_and_indices_get_none():
    params = tf.constant([1.0, 2.0, 3.0])
    indices = tf.constant([0, 0, 2])
    with tf.GradientTape() as tape:
        tape.watch([params, indices])
        y = tf.gather(params, indices)
    d_params, d_indices = tape.gradient(y, [params, indices])
    np.testing.assert_allclose(d_params.numpy(), [2.0, 0.0, 1.0])
    assert d_indices is None


def test_fill_value_gets_the_sum_of_the_gradient():
    (g,) = grad_of(lambda v: tf.fill([2, 3], v) * tf.constant(np.arange(6.0).reshape(2, 3)),
                   np.array(1.5))
    assert g.shape == () and float(g) == 15.0


def test_creation_and_shape_ops_are_not_differentiable():
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.shape(x), tf.float32) + tf.cast(tf.size(x), tf.float32)
    assert tape.gradient(y, x) is None
    for op_type in ["Shape", "Size", "Rank", "Eye", "Range", "OneHot", "StopGradient",
                    "Where"]:
        assert not tf.framework.registry.get_op_def(op_type).differentiable


def test_getitem_on_variable_reaches_the_variable():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = v[1, ::-2] * v[:, 0][tf.newaxis]
    g = tape.gradient(y, v)
    np.testing.assert_allclose(g.numpy(), [[6.0, 0.0, 0.0], [8.0, 0.0, 1.0]])


def test_unused_outputs_of_unstack_and_split_get_zero_gradient():
    (g,) = grad_of(lambda x: tf.unstack(x)[1] * 3.0, np.ones((3, 2)))
    np.testing.assert_allclose(g.numpy(), [[0, 0], [3, 3], [0, 0]])
    (g,) = grad_of(lambda x: tf.split(x, [1, 2], axis=1)[0], np.ones((2, 3)))
    np.testing.assert_allclose(g.numpy(), [[1, 0, 0], [1, 0, 0]])


def test_second_order_through_strided_slice_and_gather():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x[::-1][:2] * x[1:] * tf.gather(x, [2, 2])
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    # y = [x2*x1*x2, x1*x2*x2] -> sum = 2 x1 x2^2; d/dx = [0, 2x2^2, 4x1x2]; row sums of Hessian
    np.testing.assert_allclose(g.numpy(), [0.0, 18.0, 24.0])
    np.testing.assert_allclose(h.numpy(), [0.0, 12.0 + 0.0, 12.0 + 8.0])


def test_empty_slice_gradient_is_zeros():
    (g,) = grad_of(lambda x: x[2:1], np.ones((3, 2)))
    assert g is None or not np.any(g.numpy())


# -- forward semantics -----------------------------------------------------------------------------
def test_shape_ops_return_views():
    x = tf.constant(np.arange(24.0).reshape(2, 3, 4))
    for y in [tf.reshape(x, [4, -1]), tf.transpose(x), x[:, ::-1, 1], tf.expand_dims(x, 1),
              tf.squeeze(tf.expand_dims(x, 0)), tf.reverse(x, [2]), tf.unstack(x)[1],
              tf.split(x, 2, axis=2)[1]]:
        assert np.shares_memory(np.asarray(y._value), x._value)


def test_getitem_matches_numpy_for_basic_keys():
    a = np.arange(60.0).reshape(3, 4, 5)
    x = tf.constant(a)
    keys = [0, -1, (1, 2), (slice(None), -1), (Ellipsis, slice(None, None, -1)), (None, Ellipsis, None), (slice(5, None),), (slice(-2, -10, -1), 1),
        (Ellipsis,), (1, Ellipsis, 2), (tf.constant(1), slice(1, 3))]
    for key in keys:
        np.testing.assert_array_equal(x[key].numpy(), a[tuple(
            int(k) if isinstance(k, tf.Tensor) else k for k in (key if isinstance(key, tuple)
                                                                 else (key,)))])
    assert tf.newaxis is None


def test_getitem_with_index_lists_and_masks():
    a = np.arange(12.0).reshape(3, 4)
    x = tf.constant(a)
    np.testing.assert_array_equal(x[[2, 0]].numpy(), a[[2, 0]])
    np.testing.assert_array_equal(x[:, tf.constant([3, 1])].numpy(), a[:, [3, 1]])
    np.testing.assert_array_equal(x[x > 5.0].numpy(), a[a > 5.0])
    np.testing.assert_array_equal(x[:, [True, False, True, False]].numpy(), a[:, [0, 2]])
    # TensorFlow order, not NumPy's: the int applies first, then the list on the remaining axis
    b = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(tf.constant(b)[1, :, [0, 3]].numpy(), b[1][:, [0, 3]])
    with pytest.raises(TypeError, match="one tensor, list or mask index"):
        x[[0], [1]]


def test_iterating_a_tensor_uses_getitem():
    rows = list(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert [r.numpy().tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0]]


def test_gather_batch_dims_matches_a_loop():
    params = np.arange(2 * 3 * 4.0).reshape(2, 3, 4)
    indices = np.array([[0, 3], [2, 2]], np.int32)
    got = tf.gather(params, indices, axis=2, batch_dims=-1).numpy()
    want = np.stack([p[:, i] for p, i in zip(params, indices)])
    np.testing.assert_array_equal(got, want)


def test_creation_dtypes():
    assert tf.zeros([2]).dtype == tf.float32 and tf.ones([2], tf.int64).dtype == tf.int64
    assert tf.range(5).dtype == tf.int32 and tf.range(1.0, 3).dtype == tf.float32
    assert tf.range(tf.constant(4, tf.int64)).dtype == tf.int64
    assert tf.range(0, 1, 0.5, dtype=tf.float64).dtype == tf.float64
    assert tf.fill([2], tf.constant(3, tf.int32)).dtype == tf.int32
    assert tf.eye(2, dtype=tf.float64).dtype == tf.float64
    assert tf.eye(2, batch_shape=[3]).shape == (3, 2, 2)
    assert tf.shape(tf.zeros([2, 3]), out_type=tf.int64).dtype == tf.int64
    assert tf.one_hot([1], 3).dtype == tf.float32
    assert tf.one_hot([1], 3, on_value=5, off_value=-1).numpy().tolist() == [[-1, 5, -1]]
    assert tf.one_hot([1], 3, dtype=tf.int32).dtype == tf.int32
    assert tf.shape(tf.Variable([[1.0, 2.0]])).numpy().tolist() == [1, 2]
    assert int(tf.rank(tf.zeros([2, 3, 4]))) == 3 and int(tf.size(tf.zeros([2, 3]))) == 6


def test_float32_stays_float32():
    x = tf.constant(np.ones((2, 3), np.float32))
    for y in [tf.pad(x, [[1, 1], [0, 0]], constant_values=2.5), tf.tile(x, [2, 1]),
              tf.concat([x, x], 0), tf.gather(x, [1]), x[::-1], tf.pad(x, [[1, 1], [1, 1]],
                                                                       "REFLECT")]:
        assert y.dtype == tf.float32


def test_mirror_pad_matches_numpy():
    a = np.arange(12.0).reshape(3, 4)
    for mode, padding in [("REFLECT", [[2, 2], [3, 1]]), ("SYMMETRIC", [[3, 0], [0, 4]])]:
        np.testing.assert_array_equal(tf.pad(a, padding, mode).numpy(),
                                      np.pad(a, padding, mode=mode.lower()))


# -- static shape rules with unknown dimensions --------------------------------------------------
def test_shape_rules_handle_unknown_dimensions():
    x = Spec([None, 3])
    assert reshape_ops.RESHAPE.shape(x, shape=(-1,))[0].as_list() == [None]
    assert reshape_ops.RESHAPE.shape(Spec([2, 3]), shape=(3, -1))[0].as_list() == [3, 2]
    assert array_ops.CONCAT.shape(x, Spec([2, 3]), axis=0)[0].as_list() == [None, 3]
    assert array_ops.CONCAT.shape(x, Spec([2, None]), axis=1)[0].as_list() == [2, None]
    assert creation_ops.TILE.shape(x, multiples=(2, 2))[0].as_list() == [None, 6]
    assert reshape_ops.TRANSPOSE.shape(x, perm=(1, 0))[0].as_list() == [3, None]
    assert array_ops.PACK.shape(x, Spec([2, None]), axis=1)[0].as_list() == [2, 2, 3]
    assert indexing_ops.STRIDED_SLICE.shape(x, spec=((0, None, 2), 1))[0].as_list() == [None]
    assert indexing_ops.STRIDED_SLICE.shape(x, spec=(Ellipsis, None))[0].as_list() == \
        [None, 3, 1]
    assert indexing_ops.GATHER.shape(Spec([5, None]), Spec([None], tf.int32), axis=1,
                                     batch_dims=0)[0].as_list() == [5, None]
    assert reshape_ops.SQUEEZE.shape(x, axis=None)[0].rank is None
    assert [s.as_list() for s, _ in array_ops.SPLIT_V.shape(x, size_splits=(1, 2), axis=1)] == \
        [[None, 1], [None, 2]]
    assert reshape_ops.RESHAPE.shape(Spec(None), shape=(2, -1))[0].as_list() == [2, None]


def test_shape_rules_of_graph_forms_handle_unknown_dimensions():
    x = Spec([None, 3])
    assert [s.as_list() for s, _ in array_ops.SPLIT.shape(x, num_split=2, axis=0)] == \
        [[None, 3], [None, 3]]
    assert [s.as_list() for s, _ in array_ops.SPLIT_V.shape(x, size_splits=(2, -1), axis=0)] \
        == [[2, 3], [None, 3]]
    assert reshape_ops.RESHAPE.shape(Spec([6]), x, shape=None)[0].as_list() == [None, 3]
    assert indexing_ops.SLICE.shape(x, begin=(1, 0), size=(-1, 2))[0].as_list() == [None, 2]
    with pytest.raises(InvalidArgumentError, match="4 elements"):
        reshape_ops.RESHAPE.shape(Spec([4]), Spec([3, 3]), shape=None)


# -- graph mode: shapes known only when the graph runs ---------------------------------------------
def _run_graph(build, feeds):
    """Build `build(*placeholders)` in a new graph (placeholders of feed shapes with an unknown
    first dimension) and run it on the feeds."""
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        holders = [v1.placeholder(tf.float64, [None] + list(np.shape(f)[1:])) for f in feeds]
        fetches = build(*holders)
    with v1.Session(graph=g) as sess:
        return sess.run(fetches, dict(zip(holders, feeds)))


def test_range_in_graph_mode_takes_tensor_bounds():
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        fixed = tf.range(1, 10, 3)
        limit = v1.placeholder(tf.int32, [])
        computed = tf.range(limit)
        floats = tf.range(0.0, tf.cast(limit, tf.float32), 0.5)
    assert fixed.shape.as_list() == [3] and computed.shape.as_list() == [None]
    with v1.Session(graph=g) as sess:
        a, b, c = sess.run([fixed, computed, floats], {limit: 4})
    np.testing.assert_array_equal(a, [1, 4, 7])
    np.testing.assert_array_equal(b, np.arange(4))
    assert b.dtype == np.int32 and c.dtype == np.float32 and len(c) == 8


def test_split_and_boolean_mask_on_an_unknown_batch_dimension():
    x = np.arange(12.0).reshape(6, 2)
    halves, parts, masked = _run_graph(lambda h: [
        tf.split(h, 2), tf.split(h, [1, -1]), tf.boolean_mask(h, [True, False] * 3)], [x])
    np.testing.assert_array_equal(halves[1], x[3:])
    np.testing.assert_array_equal(parts[1], x[1:])
    np.testing.assert_array_equal(masked, x[::2])
    with pytest.raises(InvalidArgumentError, match=r"mask shape \(2, 3\)"):
        _run_graph(lambda h: tf.boolean_mask(h, np.ones((2, 3), bool)), [x])


def test_gradients_in_graph_mode_read_unknown_shapes_when_the_graph_runs():
    x = np.arange(12.0).reshape(4, 3)

    def build(h):
        y = tf.reduce_sum(tf.tile(tf.reshape(h, [-1]), [2]) ** 2) + tf.reduce_sum(h[1:, ::2])
        y += tf.reduce_sum(tf.concat([h, h * 3.0], 0) ** 2) + tf.reduce_sum(tf.gather(h, [0, 0]))
        return tf.gradients(y, [h])[0]
    want = 4 * x + 2 * x + 18 * x
    want[1:, ::2] += 1
    want[0] += 2
    np.testing.assert_allclose(_run_graph(build, [x]), want)


def test_eager_gradients_take_static_shapes_from_attributes():
    """Eagerly every shape is known, so gradient ops get no extra "like" input (speed)."""
    x = tf.constant(np.ones((2, 3)))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.reshape(x, [6]) * x[0, 0] * tf.gather(x, [1])[0, 0])
        inner.gradient(y, x)
    grad_ops = {op.type: op for op in outer._records}
    for op_type in ("Reshape", "StridedSliceGrad", "GatherGrad"):
        assert len(grad_ops[op_type].inputs) == (2 if op_type == "GatherGrad" else 1)


def test_pad_constant_values_must_be_known_in_a_graph():
    x = np.ones((2, 2))
    got = _run_graph(lambda h: tf.pad(h, [[1, 0], [0, 0]], constant_values=tf.constant(2.0,
                                                                                     tf.float64)),
                     [x])
    np.testing.assert_array_equal(got[0], [2.0, 2.0])
    with pytest.raises(ValueError, match="constant_values must be known"):
        _run_graph(lambda h: tf.pad(h, [[1, 0], [0, 0]], constant_values=h[0, 0]), [x])


# -- clear errors ----------------------------------------------------------------------------------
def test_reshape_error_names_the_sizes():
    with pytest.raises(InvalidArgumentError, match=r"Reshape: .*6 elements.*\(2, 3\).*\[4, -1\]"):
        tf.reshape(tf.ones([2, 3]), [4, -1])
    with pytest.raises(InvalidArgumentError, match=r"6 elements.*\[4, 2\]"):
        tf.reshape(tf.ones([2, 3]), [4, 2])


def test_concat_and_stack_errors_name_the_shapes():
    with pytest.raises(InvalidArgumentError, match=r"ConcatV2\b.*: .*one rank.*\(2,\).*\(2, 2\)"):
        tf.concat([tf.ones([2]), tf.ones([2, 2])], 0)
    with pytest.raises(InvalidArgumentError, match=r"ConcatV2\b.*: .*\(2, 2\).*\(2, 3\).*dimension 1 differs"):
        tf.concat([tf.ones([2, 2]), tf.ones([2, 3])], 0)
    with pytest.raises(InvalidArgumentError, match=r"Pack\b.*: .*one shape"):
        tf.stack([tf.ones([2]), tf.ones([3])])


def test_gather_raises_on_out_of_range_indices_like_tensorflow():
    params = tf.ones([4, 2])
    with pytest.raises(InvalidArgumentError, match=r"GatherV2: indices\[1\] = 4 is not in "
                                                   r"\[0, 4\).*valid indices are 0 to 3"):
        tf.gather(params, [0, 4])
    with pytest.raises(InvalidArgumentError, match=r"indices\[0, 1\] = -1"):
        tf.gather(params, [[0, -1]])
    with pytest.raises(InvalidArgumentError, match=r"GatherNd.*not in \[0, 2\)"):
        tf.gather_nd(params, [[1, 2]])
    with pytest.raises(InvalidArgumentError, match="GatherV2.*'Tindices' of float32.*int32, int64"):
        tf.gather(params, [0.0])


def test_indexing_errors():
    x = tf.ones([2, 3])
    with pytest.raises(InvalidArgumentError, match=r"StridedSlice: index 5 is out of bounds.*size 2"):
        x[5]
    with pytest.raises(InvalidArgumentError, match=r"too many indices \(3\).*\(2, 3\)"):
        x[0, 0, 0]
    with pytest.raises(InvalidArgumentError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(InvalidArgumentError, match="step cannot be zero"):
        x[::0]


def test_other_bad_arguments():
    x = tf.ones([2, 3])
    cases = [
        (lambda: tf.split(x, 2, axis=1), r"Split.*size 3.*2 equal parts"),
        (lambda: tf.split(x, [1, 1], axis=1), r"SplitV.*\[1, 1\]"),
        (lambda: tf.tile(x, [2]), r"Tile: .*one entry per dimension.*\(2, 3\)"),
        (lambda: tf.squeeze(x, [0]), r"Squeeze: .*squeeze axis 0.*size is 2"),
        (lambda: tf.transpose(x, [0, 0]), r"Transpose\b.*: .*not a permutation"),
        (lambda: tf.pad(x, [[1, 1]]), r"PadV2: .*one \[before, after\] pair"),
        (lambda: tf.pad(x, [[2, 2], [0, 0]], "REFLECT"), r"MirrorPad: REFLECT padding.*too large"),
        (lambda: tf.range(5, 1), r"range: start 5 cannot reach limit 1"),
        (lambda: tf.range(0, 5, 0), r"delta must not be 0"),
        (lambda: tf.unstack(x, num=3), r"num=3"),
        (lambda: tf.expand_dims(x, 3), r"axis 3 is out of range"),
        (lambda: tf.slice(x, [1, 0], [2, -1]), r"Slice: .*does not fit inside shape \(2, 3\)"),
        (lambda: tf.boolean_mask(x, [True]), r"mask shape \(1,\)"),
        (lambda: tf.fill([2], tf.ones([2])), r"Fill: value must be a scalar"),
    ]
    for fn, pattern in cases:
        with pytest.raises((InvalidArgumentError, ValueError), match=pattern):
            fn()
    with pytest.raises(ValueError, match="mode must be"):
        tf.pad(x, [[0, 0], [0, 0]], "WRAP")


def test_builtins_are_not_shadowed():
    assert tf.range is not range and tf.slice is not slice
    assert array_ops._pyrange is range and indexing_ops._pyslice is slice


# -- summing many gradient parts; scalar indexing -----------------------------------------------
@pytest.mark.parametrize("count,shape", [(3, (4,)), (300, (300,)), (5, (200, 400)), (40, ())])
def test_add_n_of_many_parts_matches_numpy(count, shape):
    """AddN stacks small parts in blocks and accumulates large ones in place; both sum exactly
    what NumPy sums (the blocks of 65,536 elements split 300 parts of 300)."""
    rng = np.random.default_rng(count)
    parts = [rng.normal(size=shape) for _ in range(count)]
    np.testing.assert_allclose(tf.add_n([tf.constant(p) for p in parts]).numpy(),
                               np.sum(parts, axis=0), rtol=1e-12, atol=1e-12)


def test_add_n_broadcasting_parts_fall_back_to_pairwise_sums():
    rng = np.random.default_rng(1)
    a, b, c = rng.normal(size=(3, 1)), rng.normal(size=(3, 1)), rng.normal(size=(3, 4))
    for parts in ([a, b, c, a], [a, b, c, c]):  # a mixed block, and a uniform one of another shape
        out = execute(ADD_N, [tf.constant(p) for p in parts])
        np.testing.assert_allclose(out.numpy(), sum(parts), rtol=1e-12)


def test_indexing_a_vector_by_an_int_gives_a_rank_0_array():
    """x[i] of a vector is a 0-d array (not a NumPy scalar), and its gradient flows as before."""
    v = tf.Variable([1.0, 2.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        s = v[1]
        loss = s * s * tf.constant([1.0, 2.0], dtype=tf.float64)
        loss = tf.reduce_sum(loss)
    assert type(s._value) is np.ndarray and s.shape == () and s.numpy() == 2.0
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [0.0, 12.0, 0.0])
