"""Shapes, sizes and bounds known only when a graph runs (issue 16, the dynamic-shapes items):
tile multiples, slice begin/size, one_hot depth, eye sizes, x[...] bounds (x[i] with a loop
counter), gather_nd batch dimensions, pad, random shapes, and lists mixing tensors and numbers
(autopacking). Each runs in a graph on placeholders (int placeholders for the values, unknown
dimensions for the data) and is compared with the eager result, values and gradients to second
order; static shapes are TensorFlow's; values known while building stay attributes."""
import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1
RNG = np.random.default_rng(7)
X = RNG.normal(size=(4, 5))
P = RNG.normal(size=(3, 4, 2))


def _squared_sum(outputs, weights):
    return tf.add_n([tf.reduce_sum(w * o * o) for o, w in zip(outputs, weights)])


def _eager(fn, floats, ints, weights, directions):
    xs = [tf.constant(a) for a in floats]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            outs = fn(*xs, *[tf.constant(i) for i in ints])
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            loss = _squared_sum(outs, weights)
        g1 = inner.gradient(loss, xs)
        dot = tf.add_n([tf.reduce_sum(g * d) for g, d in zip(g1, directions)])
    g2 = outer.gradient(dot, xs)
    return [o.numpy() for o in outs], [g.numpy() for g in g1], [g.numpy() for g in g2]


def _graph(fn, floats, ints, weights, directions):
    with tf.Graph().as_default():
        xs = [v1.placeholder(tf.float64, [None] + list(a.shape[1:])) for a in floats]
        ns = [v1.placeholder(tf.as_dtype(i.dtype), i.shape) for i in ints]
        outs = fn(*xs, *ns)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        loss = _squared_sum(outs, weights)
        g1 = tf.gradients(loss, xs)
        g2 = tf.gradients(tf.add_n([tf.reduce_sum(g * d) for g, d in zip(g1, directions)]), xs)
        feed = dict(zip(xs + ns, list(floats) + list(ints)))
        with v1.Session() as sess:
            got = sess.run(outs + g1 + g2, feed)
    n = len(outs)
    return outs, got[:n], got[n:n + len(xs)], got[n + len(xs):]


def check(fn, floats, ints):
    """fn(*float tensors, *int tensors) in a graph with everything fed equals fn eagerly: values,
    gradients and second derivatives of a weighted sum of squares. Returns the graph outputs."""
    probe = fn(*[tf.constant(a) for a in floats], *[tf.constant(i) for i in ints])
    probe = probe if isinstance(probe, (list, tuple)) else [probe]
    weights = [RNG.normal(size=p.shape) for p in probe]
    directions = [RNG.normal(size=a.shape) for a in floats]
    eager_outs, e1, e2 = _eager(fn, floats, ints, weights, directions)
    outs, values, g1, g2 = _graph(fn, floats, ints, weights, directions)
    for got, want in zip(values, eager_outs):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    for got, want in zip(g1 + g2, e1 + e2):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    return outs


def _n(value, dtype=np.int32):
    return np.array(value, dtype)


CASES = {
    "tile": (lambda x, n: tf.tile(x, [n, 1]), [X], [_n(3)], [None, 5]),
    "tile-vector": (lambda x, m: tf.tile(x, m), [X], [_n([2, 3])], [None, None]),
    "slice-size": (lambda x, n: tf.slice(x, [1, 0], [n, -1]), [X], [_n(2)], [None, 5]),
    "slice-begin": (lambda x, n: tf.slice(x, [n, n], [2, 3]), [X], [_n(1)], [2, 3]),
    "slice-runtime-minus-one": (lambda x, n: tf.slice(x, [1, n + 2], [n, 2]), [X], [_n(-1)],
                                [None, 2]),
    "slice-vectors": (lambda x, b, s: tf.slice(x, b, s), [X], [_n([1, 2]), _n([-1, 2])],
                      [None, None]),
    "getitem-index": (lambda x, i: x[i], [X], [_n(2)], [5]),
    "getitem-negative-index": (lambda x, i: x[:, i], [X], [_n(-2)], [None]),
    "getitem-bounds": (lambda x, i: x[i:, :i + 2], [X], [_n(1)], [None, None]),
    "getitem-step": (lambda x, i: x[::i, ::-i], [X], [_n(2)], [None, None]),
    "getitem-int64": (lambda x, i: x[i, 1:], [X], [_n(3, np.int64)], [4]),
    "strided_slice": (lambda x, b: tf.strided_slice(x, [b, 0], [b + 2, 5], [1, 2]), [X],
                      [_n(1)], [None, 3]),
    "strided_slice-vector": (lambda x, b: tf.strided_slice(x, b, [4, 5], shrink_axis_mask=1),
                             [X], [_n([2, 1])], [None]),
    "gather_nd-batch": (lambda p, i: tf.gather_nd(p, i, batch_dims=1), [P],
                        [_n([[[1], [3]], [[0], [0]], [[2], [1]]], np.int64)], [3, 2, 2]),
    "pad": (lambda x, n: tf.pad(x, [[0, n], [n, 1]]), [X], [_n(2)], [None, None]),
    "pad-tensor": (lambda x, p: tf.pad(x, p, constant_values=1.5), [X], [_n([[1, 0], [2, 1]])],
                   [None, None]),
    "reshape-concat": (lambda x, n: tf.reshape(x, tf.concat([tf.shape(x)[:1], [n, -1]], 0)),
                       [X], [_n(5)], [None, None, None]),
    "broadcast_to": (lambda x, n: tf.broadcast_to(x[:1], [n, 5]), [X], [_n(3)], [None, 5]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_runtime_values_in_graphs_match_eager_to_second_order(name):
    fn, floats, ints, static = CASES[name]
    outs = check(fn, floats, ints)
    assert outs[0].shape.as_list() == static


def test_while_loop_counter_indexes_and_differentiates():
    def f(x):
        n = tf.shape(x)[0]
        _, acc = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a + x[i] * x[n - 1 - i]),
                               [tf.constant(0), tf.zeros_like(x[0])])
        return acc
    outs = check(f, [X], [])
    assert outs[0].shape.as_list() == [5]
    traced = tf.function(f, input_signature=[tf.TensorSpec([None, 5], tf.float64)])
    np.testing.assert_allclose(traced(X).numpy(), (X * X[::-1]).sum(0))


def test_creation_ops_take_runtime_sizes():
    fn = tf.function(lambda x: (tf.one_hot([0, 2], tf.shape(x)[0]), tf.eye(tf.shape(x)[0]),
                                tf.eye(2, tf.shape(x)[0], batch_shape=[tf.shape(x)[1]]),
                                tf.random.normal(tf.shape(x)), tf.random.uniform([tf.shape(x)[0]]),
                                tf.random.stateless_uniform(tf.shape(x), [1, 2])),
                     input_signature=[tf.TensorSpec([None, None], tf.float32)])
    hot, eye, batch_eye, normal, uniform, stateless = fn(np.zeros((3, 2), np.float32))
    np.testing.assert_array_equal(hot.numpy(), np.eye(3)[[0, 2]])
    np.testing.assert_array_equal(eye.numpy(), np.eye(3))
    np.testing.assert_array_equal(batch_eye.numpy(), np.broadcast_to(np.eye(2, 3), (2, 2, 3)))
    assert normal.shape == (3, 2) and uniform.shape == (3,) and stateless.shape == (3, 2)
    graph = fn.get_concrete_function().graph if hasattr(fn, "get_concrete_function") else None
    if graph is not None:
        shapes = [t.shape.as_list() for t in fn.get_concrete_function().outputs]
        assert shapes == [[2, None], [None, None], [None, 2, None], [None, None], [None],
                          [None, None]]


def test_known_values_stay_attributes():
    """Values known while the graph is built add no inputs: eager and static-shape graphs run
    the ops they ran before."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [4, 3])
        n = tf.shape(x)[0]
        for out in (tf.tile(x, [n, 1]), tf.slice(x, [0, 1], [n - 1, 2]), x[n - 1], x[:n - 2],
                    tf.pad(x, [[0, n], [0, 0]]), tf.one_hot([0], n), tf.eye(n)):
            assert len(out.op.inputs) <= 1, out.op
        assert tf.tile(x, [n, 1]).op.get_attr("multiples") == (4, 1)
        # partly known: the known entries fold (x's second dimension is 3)
        y = v1.placeholder(tf.float32, [None, 3])
        assert y[:tf.shape(y)[1]].op.get_attr("spec") == ((None, 3, None),)


def test_static_shapes_of_computed_shape_vectors():
    """TensorFlow's constant_value_as_shape: the known entries of a computed shape vector."""
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        n = v1.placeholder(tf.int32, [])
        assert tf.reshape(x, tf.concat([tf.shape(x)[:1], [3, 1]], 0)).shape.as_list() == \
            [None, 3, 1]
        assert tf.zeros(tf.stack([n, 3])).shape.as_list() == [None, 3]
        assert tf.zeros([n, tf.shape(x)[1]]).shape.as_list() == [None, 3]
        assert tf.reshape(x, tf.shape(x)).shape.as_list() == [None, 3]
        assert tf.ones(tf.shape(x)[1:]).shape.as_list() == [3]
        assert tf.get_static_value(tf.shape(x)[1:]) is None  # (a full value is not known)


def test_lists_mixing_tensors_and_numbers_are_packed():
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def f(x):
        n = tf.shape(x)[0]
        flat = tf.reshape(x, tf.concat([tf.shape(x)[:1], [-1]], 0))
        pairs = tf.reshape(x, tf.concat([[n], [2, n * 0 + 2]], 0))
        return flat, pairs, tf.stack([n, 1, -1]), tf.convert_to_tensor([[n, 2], [3, n]])
    flat, pairs, stacked, nested = f(np.ones((3, 4), np.float32))
    assert flat.shape == (3, 4) and pairs.shape == (3, 2, 2)
    assert stacked.numpy().tolist() == [3, 1, -1] and nested.numpy().tolist() == [[3, 2], [3, 3]]
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:  # eagerly too: the Pack carries the gradient (as TF)
        tape.watch(x)
        y = tf.convert_to_tensor([x, 1.0, [x, x][0] * 3.0])
        loss = tf.reduce_sum(y * y)
    assert y.numpy().tolist() == [2.0, 1.0, 6.0]
    assert tape.gradient(loss, x).numpy() == pytest.approx(2 * 2.0 + 2 * 6.0 * 3.0)
    with pytest.raises((TypeError, ValueError)):
        tf.convert_to_tensor([tf.constant(1), 2.5])  # a float cannot join an int32 tensor


def test_runtime_errors_name_the_op():
    fn = tf.function(lambda x, i: x[i], input_signature=[tf.TensorSpec([None], tf.float32),
                                                         tf.TensorSpec([], tf.int32)])
    assert fn(np.arange(3, dtype=np.float32), np.int32(2)).numpy() == 2.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="StridedSlice"):
        fn(np.arange(3, dtype=np.float32), np.int32(5))
    tile = tf.function(lambda x, n: tf.tile(x, [n]), input_signature=[
        tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tile"):
        tile(np.ones(2, np.float32), np.int32(-1))


def test_map_fn_with_a_runtime_count_indexes_rows():
    fn = tf.function(lambda x: tf.map_fn(lambda r: r * 2.0, x),
                     input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    np.testing.assert_array_equal(fn(np.ones((3, 2), np.float32)).numpy(), np.full((3, 2), 2.0))
