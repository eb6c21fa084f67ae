"""SparseTensors through tf.function (traced as their three tensors; SparseTensorSpec in an
input_signature; SparseTensor outputs), tf.nest with expand_composites, and Dataset.map over
sparse elements, with what TensorFlow 2.21 gives for the same calls."""
import numpy as np
import pytest

import wengert as tf

ST = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31., 2.], dense_shape=[4, 10])
ONE = tf.sparse.SparseTensor(indices=[[0, 2]], values=[5.], dense_shape=[4, 10])


def test_nest_expands_composites_only_when_asked():
    flat = tf.nest.flatten({"x": ST, "y": 1}, expand_composites=True)
    assert [np.asarray(t).tolist() for t in flat[:3]] == [[[0, 2], [3, 4]], [31., 2.], [4, 10]]
    assert flat[3] == 1
    assert tf.nest.flatten({"x": ST, "y": 1})[0] is ST
    doubled = tf.nest.map_structure(lambda t: t * 2, ST, expand_composites=True)
    assert isinstance(doubled, tf.sparse.SparseTensor)
    assert doubled.values.numpy().tolist() == [62., 4.]
    rebuilt = tf.nest.pack_sequence_as([ST], flat[:3], expand_composites=True)[0]
    assert rebuilt.dense_shape.numpy().tolist() == [4, 10]
    tf.nest.assert_same_structure(ST, ONE, expand_composites=True)
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure(ST, [1, 2, 3], expand_composites=True)


def test_function_takes_and_returns_sparse_tensors():
    @tf.function
    def scale(s, k):
        return tf.sparse.map_values(tf.multiply, s, k), tf.sparse.reduce_sum(s, axis=1)
    out, sums = scale(ST, 2.)
    assert isinstance(out, tf.sparse.SparseTensor)
    assert out.values.numpy().tolist() == [62., 4.]
    assert sums.numpy().tolist() == [31., 0., 0., 2.]
    scale(ST, 3.)
    assert scale.experimental_get_tracing_count() == 2


def test_sparse_tensor_spec_in_an_input_signature():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 10], tf.float32)])
    def product(s):
        assert s.shape.as_list() == [None, 10]
        return tf.sparse.sparse_dense_matmul(s, tf.ones([10, 1]))
    assert product(ST).numpy().ravel().tolist() == [31., 0., 0., 2.]
    assert product(ONE).numpy().ravel().tolist() == [5., 0., 0., 0.]
    assert product.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="does not match SparseTensorSpec"):
        product(tf.sparse.SparseTensor([[0]], [1], [3]))


def test_gradient_through_a_traced_sparse_product():
    w = tf.Variable([[1.], [2.], [3.], [4.], [5.], [6.], [7.], [8.], [9.], [10.]])

    @tf.function
    def loss(s):
        return tf.reduce_sum(tf.sparse.sparse_dense_matmul(s, w))
    with tf.GradientTape() as tape:
        value = loss(ST)
    assert float(value) == 31. * 3 + 2. * 5
    grad = tape.gradient(value, w).numpy().ravel()
    assert grad.tolist() == [0, 0, 31, 0, 2, 0, 0, 0, 0, 0]


def test_dataset_map_over_sparse_elements():
    ds = tf.data.Dataset.from_tensor_slices(tf.sparse.SparseTensor([[0, 2], [3, 4]], [31, 2],
                                                                   [4, 10]))
    doubled = ds.map(lambda s: tf.sparse.add(s, s))
    assert repr(doubled.element_spec) == "SparseTensorSpec(TensorShape([10]), tf.int32)"
    assert [r.values.numpy().tolist() for r in doubled] == [[62], [], [], [4]]
    sizes = ds.map(lambda s: tf.size(s.values))
    assert list(sizes.as_numpy_iterator()) == [1, 0, 0, 1]
    made = tf.data.Dataset.range(3).map(lambda i: tf.sparse.SparseTensor([[0]], [i], [5]))
    assert [b.indices.numpy().tolist() for b in made.batch(2)] == [[[0, 0], [1, 0]], [[0, 0]]]
    assert len(list(ds.filter(lambda s: tf.size(s.values) > 0))) == 2


def test_sparse_placeholder_fed_in_a_session():
    with tf.Graph().as_default():
        p = tf.compat.v1.sparse.placeholder(tf.float32, shape=[None, 3])
        assert p.shape.as_list() == [None, 3]
        total = tf.sparse.reduce_sum(p, axis=1)
        with tf.compat.v1.Session() as sess:
            fed = tf.compat.v1.SparseTensorValue([[0, 1], [2, 2]], [1., 2.], [4, 3])
            assert sess.run(total, {p: fed}).tolist() == [1., 0., 2., 0.]
            back = sess.run(p, {p: ([[0, 1]], [5.], [2, 3])})
    assert back.indices.tolist() == [[0, 1]] and back.dense_shape.tolist() == [2, 3]
    with pytest.raises(RuntimeError, match="eager"):
        tf.compat.v1.sparse.placeholder(tf.float32)


def test_to_dense_of_a_shape_known_only_when_the_graph_runs():
    with tf.Graph().as_default():
        p = tf.compat.v1.sparse.placeholder(tf.int64, shape=[None, None])
        dense = tf.sparse.to_dense(p, default_value=-1)
        scattered = tf.scatter_nd([[0, 1]], [7], tf.cast(p.dense_shape, tf.int32))
        with tf.compat.v1.Session() as sess:
            fed = tf.compat.v1.SparseTensorValue([[0, 1], [2, 0]], [4, 5], [3, 2])
            assert sess.run(dense, {p: fed}).tolist() == [[-1, 4], [-1, -1], [5, -1]]
            assert sess.run(scattered, {p: fed}).tolist() == [[0, 7], [0, 0], [0, 0]]
