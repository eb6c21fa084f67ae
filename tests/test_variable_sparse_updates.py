"""tf.Variable's sparse updates and reads (scatter_*, scatter_nd_*, batch_scatter_update,
sparse_read, gather_nd, count_up_to) and its TensorFlow 1 members (eval, load,
initialized_value, set_shape, to_proto/from_proto, SaveSliceInfo): eagerly, inside tf.function
and on TensorFlow 1 graph variables, with the values TensorFlow 2.21 gives (read from
/work/tfvenv case by case)."""
import numpy as np
import pytest

import wengert as tf


def _slices(indices, values):
    return tf.IndexedSlices(tf.constant(values, tf.float32), tf.constant(indices))


def test_scatter_row_updates_eager():
    v = tf.Variable([[1., 2], [3, 4], [5, 6]])
    v.scatter_update(_slices([0, 2], [[9., 9], [8, 8]]))
    assert v.numpy().tolist() == [[9, 9], [3, 4], [8, 8]]
    steps = [("scatter_add", [0, 0], [[1., 1], [1, 1]], [[11, 11], [3, 4], [8, 8]]),
             ("scatter_sub", [1], [[1., 1]], [[11, 11], [2, 3], [8, 8]]),
             ("scatter_mul", [1, 1], [[2., 2], [3, 3]], [[11, 11], [12, 18], [8, 8]]),
             ("scatter_div", [1], [[2., 2]], [[11, 11], [6, 9], [8, 8]]),
             ("scatter_max", [1, 1], [[100., 0], [0, 200]], [[11, 11], [100, 200], [8, 8]]),
             ("scatter_min", [0], [[0., 0]], [[0, 0], [100, 200], [8, 8]])]
    for method, indices, values, want in steps:
        out = getattr(v, method)(_slices(indices, values))
        assert v.numpy().tolist() == want, method
        assert np.asarray(out).tolist() == want
    v.scatter_update(tf.IndexedSlices(tf.constant(7.), tf.constant([1])))  # a scalar update
    assert v.numpy().tolist() == [[0, 0], [7, 7], [8, 8]]


def test_scatter_errors_leave_the_variable_alone():
    v = tf.Variable([[1., 2], [3, 4], [5, 6]])
    with pytest.raises(TypeError, match="must be a `tf.IndexedSlices`"):
        v.scatter_update(tf.constant([1.]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Must have updates.shape"):
        v.scatter_update(_slices([0], [1., 1]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        v.scatter_update(_slices([5], [[1., 1]]))
    assert v.numpy().tolist() == [[1, 2], [3, 4], [5, 6]]


def test_scatter_nd_and_batch_updates():
    v = tf.Variable([[1., 8], [1, 200], [8, 8]])
    v.scatter_nd_update(tf.constant([[0, 1], [2, 0]]), tf.constant([7., 7]))
    assert v.numpy().tolist() == [[1, 7], [1, 200], [7, 8]]
    v.scatter_nd_add(tf.constant([[0, 1], [2, 0]]), tf.constant([1., 1]))
    assert v.numpy().tolist() == [[1, 8], [1, 200], [8, 8]]
    v.scatter_nd_sub(tf.constant([[1]]), tf.constant([[1., 1]]))
    assert v.numpy().tolist() == [[1, 8], [0, 199], [8, 8]]
    v.batch_scatter_update(_slices([1, 0, 1], [[1., 1], [2, 2], [3, 3]]))
    assert v.numpy().tolist() == [[2, 2], [3, 3], [8, 8]]
    b = tf.Variable([[1., 2, 3], [4, 5, 6]])
    b.batch_scatter_update(_slices([[2], [0]], [[9.], [7.]]))  # per batch row
    assert b.numpy().tolist() == [[1, 2, 9], [7, 5, 6]]


def test_sparse_read_gather_nd_and_their_gradients():
    x = tf.Variable([[1., 2], [3, 4], [5, 6]])
    assert x.sparse_read([2, 0]).numpy().tolist() == [[5, 6], [1, 2]]
    assert x.sparse_read([[2, 0]]).numpy().tolist() == [[[5, 6], [1, 2]]]
    assert x.gather_nd([[2, 0], [1, 1]]).numpy().tolist() == [5, 4]
    assert x.gather_nd([[2]]).numpy().tolist() == [[5, 6]]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x.sparse_read([0, 0, 2]) * 2.)
    g = tape.gradient(y, x)
    assert isinstance(g, tf.IndexedSlices)  # as TensorFlow's ResourceGather
    assert g.indices.numpy().tolist() == [0, 0, 2] and np.all(g.values.numpy() == 2)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x.gather_nd([[0], [2]]))
    g = tape.gradient(y, x)
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [0, 2]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x.gather_nd([[0, 1], [2, 0]]))
    assert tf.convert_to_tensor(tape.gradient(y, x)).numpy().tolist() == [[0, 1], [0, 0], [1, 0]]


def test_count_up_to():
    c = tf.Variable(0)
    assert [int(c.count_up_to(2)), int(c.count_up_to(2))] == [0, 1]
    with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
        c.count_up_to(2)
    assert int(c.numpy()) == 2
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.Variable(1.).count_up_to(2)


def test_updates_inside_a_function():
    v = tf.Variable([[0., 0], [0, 0], [0, 0]])
    c = tf.Variable(2)

    @tf.function
    def f():
        v.scatter_update(_slices([0], [[5., 5]]))
        read = v.sparse_read([0])
        v.scatter_nd_add([[1, 1]], [10.])
        return read, c.count_up_to(100)

    read, count = f()
    assert read.numpy().tolist() == [[5, 5]] and int(count) == 2
    assert v.numpy().tolist() == [[5, 5], [0, 10], [0, 0]] and int(c.numpy()) == 3


def test_tf1_graph_variables():
    with tf.Graph().as_default():
        w = tf.compat.v1.Variable([[1., 2], [3, 4]], name="w")
        c = tf.compat.v1.Variable(0, name="c")
        up = w.scatter_update(tf.IndexedSlices(tf.constant([[9., 9]]), tf.constant([1])))
        read, nd, count = w.sparse_read([1]), w.gather_nd([[0, 1]]), c.count_up_to(2)
        with pytest.raises(NotImplementedError):
            w.initialized_value()
        with pytest.raises(NotImplementedError, match="VariableDef"):
            w.to_proto()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            assert sess.run(up).tolist() == [[1, 2], [9, 9]]
            assert sess.run(read).tolist() == [[9, 9]] and sess.run(nd).tolist() == [2]
            assert [sess.run(count), sess.run(count)] == [0, 1]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(count)
            assert w.eval().tolist() == [[1, 2], [9, 9]]
            w.load([[0., 0], [0, 0]], sess)
            assert sess.run(w).tolist() == [[0, 0], [0, 0]]
        w.set_shape([2, None])
        with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(3, 2\) are not compatible"):
            w.set_shape([3, 2])


def test_tf1_members_eagerly_and_in_a_function():
    v = tf.Variable([1., 2.])
    with pytest.raises(NotImplementedError):
        v.eval()
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        v.initialized_value()
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        v.to_proto()
    with pytest.raises(NotImplementedError):
        tf.Variable.from_proto(None)
    v.load([3., 4.])
    assert v.numpy().tolist() == [3, 4]
    with pytest.raises(ValueError):
        v.load([3., 4., 5.])
    v.set_shape([2])
    v.set_shape([None])
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(3,\) are not compatible"):
        v.set_shape([3])

    @tf.function
    def f():
        with pytest.raises(ValueError, match="Either session argument should be provided"):
            v.load([5., 6.])
        with pytest.raises(NotImplementedError):
            v.initialized_value()
        return v.read_value()

    assert f().numpy().tolist() == [3, 4]


def test_save_slice_info():
    info = tf.Variable.SaveSliceInfo("v", [4, 2], [2, 0], [2, 2])
    assert info.spec == "4 2 2,2:0,2" and info.full_name == "v"
    back = tf.Variable.SaveSliceInfo.from_spec(info.spec)
    assert (back.full_shape, back.var_offset, back.var_shape) == ([4, 2], [2, 0], [2, 2])
    with pytest.raises(NotImplementedError, match="SaveSliceInfoDef"):
        info.to_proto()
