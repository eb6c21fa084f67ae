"""tf.Graph's feed/fetch guards (prevent_feeding/prevent_fetching, honoured by Session.run),
its placement scopes (colocate_with, container, device), num_operations and get, with
Operation.colocation_groups, the composites' consumers(), SparseTensor.eval and TensorArray.grad,
as TensorFlow 2.21 has them (read from /work/tfvenv case by case)."""
import pytest

import wengert as tf


def test_prevent_feeding_and_fetching():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1., name="a")
        b = tf.identity(a, name="b")
        c = b * 2
        assert g.num_operations() == 4 and g.get() is g
        assert g.is_feedable(a) and g.is_fetchable(a) and g.is_fetchable(a.op)
        g.prevent_feeding(a)
        g.prevent_fetching(b.op)
        assert not g.is_feedable(a)
        assert not g.is_fetchable(b) and not g.is_fetchable(b.op) and g.is_fetchable(c)
        with tf.compat.v1.Session() as sess:
            with pytest.raises(ValueError, match="Tensor a:0 may not be fed."):
                sess.run(c, {a: 5.})
            for fetch in (b, b.op):
                with pytest.raises(ValueError, match="Operation b has been marked as not "
                                                     "fetchable"):
                    sess.run(fetch)
            assert sess.run(c) == 2.0  # what reads b still runs


def test_placement_scopes():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1., name="a")
        assert a.op.colocation_groups() == [b"loc:@a"]
        with g.colocate_with(a.op):
            d = tf.identity(a, name="d")
        assert d.op.colocation_groups() == [b"loc:@a"]
        with g.colocate_with(a):  # a tensor stands for its op
            e = tf.identity(a, name="e")
        assert e.op.colocation_groups() == [b"loc:@a"]
        with pytest.raises(ValueError, match="ignore_existing is not True"):
            with g.colocate_with(None):
                pass
        with g.colocate_with(None, ignore_existing=True):
            tf.identity(a, name="f")
        with g.container("cont") as name:
            tf.constant(3., name="k")
        assert name == "cont"
        with g.device("/cpu:0"):
            tf.constant(3., name="m")
        with tf.compat.v1.Session() as sess:
            assert sess.run(d) == 1.0


def test_composite_consumers_sparse_eval_and_tensor_array_grad():
    eager = tf.IndexedSlices(tf.constant([1.]), tf.constant([0]))
    assert eager.consumers() == [] and tf.SparseTensor([[0]], [1.], [2]).consumers() == []
    with pytest.raises(NotImplementedError):
        tf.SparseTensor([[0]], [1.], [2]).eval()
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0]], [1.], [2])
        dense = tf.sparse.to_dense(sp)
        assert sp.consumers() == [dense.op]
        xs = tf.IndexedSlices(tf.constant([1.]), tf.constant([0]))
        z = xs.values * 2
        assert xs.consumers() == [z.op]
        with tf.compat.v1.Session():
            value = sp.eval()
        assert value.indices.tolist() == [[0]] and value.values.tolist() == [1.0]
        assert value.dense_shape.tolist() == [2]
    with pytest.raises(NotImplementedError, match="not supported when executing eagerly"):
        tf.TensorArray(tf.float32, 2).grad("g")
