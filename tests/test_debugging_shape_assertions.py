"""tf.debugging.assert_shapes, assert_rank_in and the tf.debugging switches, and the
conversions of tf.dtypes, with the messages and results TensorFlow 2.21 gives (read from
/work/tfvenv case by case)."""
import re

import numpy as np
import pytest

import wengert as tf

A = tf.debugging.assert_shapes


def _raises(message, call):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_symbols_agree_across_tensors():
    x, y, s, z = tf.ones([2, 3]), tf.ones([3]), tf.constant(1.), tf.ones([2, 3, 4])
    assert A([(x, ("N", "Q")), (y, ("Q",)), (s, [])]) is None
    A([(x, (".", 3)), (x, ("*", 3)), (z, ("*", 4)), (s, ("*",)), (s, ""), (s, ()),
       (x, (None, 3)), (x, tf.TensorShape([2, None])), (x.numpy(), (2, 3)), ([1, 2], (2,)),
       (x, ("N", "Q")), (y, None)])
    _raises("Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) "
            "dtype=float32 dimension 0 must have size 2.  Received size 3, shape (3,)",
            lambda: A([(x, ("N", "Q")), (y, ("N",))]))
    _raises("Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension 1 must have "
            "size 4.  Received size 3, shape (2, 3)", lambda: A([(x, (2, 4))]))
    _raises("Specified explicitly.  Tensor shape=(2, 3, 4) dtype=float32 dimension -1 must have "
            "size 3.  Received size 4, shape (2, 3, 4)", lambda: A([(z, ("*", 3))]))
    _raises("Specified explicitly.  Tensor shape=(2, 3) dtype=float32 dimension -1 must have "
            "size 1.  Received size 3, shape (2, 3)", lambda: A([(x, ("*",))]))
    _raises("Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(2, 3) "
            "dtype=float32 dimension 1 must have size 2.  Received size 3, shape (2, 3)",
            lambda: A([(x, ("N", "N"))]))
    _raises("Specified by tensor shape=() dtype=float32 dimension 0.  Tensor shape=(3,) "
            "dtype=float32 dimension 0 must have size 1.  Received size 3, shape (3,)",
            lambda: A([(s, ("N",)), (y, ("N",))]))
    _raises("msg.  Specified by tensor", lambda: A([(x, ("N", "N"))], message="msg"))


def test_ranks_and_bad_specifications():
    x = tf.ones([2, 3])
    _raises("Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)",
            lambda: A([(x, "")]))
    _raises("Tensor  must have rank 3.  Received rank 2, shape (2, 3)",
            lambda: A([(x, ("N", "Q", "R"))]))
    _raises("Tensor  must have rank at least 3.  Received rank 2, shape (2, 3)",
            lambda: A([(x, ("*", "N", "Q", "R"))]))
    _raises("msg.  Tensor  must have rank 3.", lambda: A([(x, ("N", "Q", "R"))], message="msg"))
    _raises("Tensor shape=(2, 3) dtype=float32.  Specified shape must be an iterable.",
            lambda: A([(x, 3)]))
    _raises("Tensor shape=(2, 3) dtype=float32 specified shape index 1.  Symbol `...` or `*` "
            "for a variable number of unspecified dimensions is only allowed as the first "
            "entry", lambda: A([(x, (2, "*"))]))


def test_run_time_checks_in_a_function():
    @tf.function
    def g(a, b):
        tf.debugging.assert_shapes([(a, ("N", "Q")), (b, ("Q",))])
        return a

    g.get_concrete_function(tf.TensorSpec([None, None]), tf.TensorSpec([None]))
    assert g(tf.ones([2, 3]), tf.ones([3])).shape == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have size"):
        g(tf.ones([2, 3]), tf.ones([4]))


def test_tf1_assert_shapes_returns_the_op_a_session_runs():
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float32, [None, 3])
        b = tf.compat.v1.placeholder(tf.float32, [None])
        op = tf.compat.v1.debugging.assert_shapes([(a, ("N", "Q")), (b, ("N",))])
        assert op.type == "NoOp"
        with pytest.raises(ValueError, match="dimension 1 must have size 4"):
            tf.compat.v1.debugging.assert_shapes([(a, ("N", 4))])
        with tf.compat.v1.Session() as sess:
            sess.run(op, {a: [[1, 2, 3]], b: [1.]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="must have size"):
                sess.run(op, {a: [[1, 2, 3]], b: [1., 2]})


def test_rank_in_float_dtype_iterables_and_switches():
    x = tf.ones([2, 3])
    assert tf.debugging.assert_rank_in(x, [1, 2]) is None
    _raises("Tensor  must have rank in (1, 3).  Received rank 2, shape (2, 3)",
            lambda: tf.debugging.assert_rank_in(x, [1, 3]))
    _raises("hm.  Tensor  must have rank in (1, 3).",
            lambda: tf.debugging.assert_rank_in(x, (1, 3), "hm"))
    assert tf.debugging.assert_same_float_dtype([x, tf.ones(2)]) == tf.float32
    assert tf.debugging.assert_same_float_dtype(None, tf.float64) == tf.float64
    assert tf.debugging.assert_same_float_dtype() == tf.float32
    for bad in ([x, tf.ones(2, tf.float64)], [tf.ones(2, tf.int32)]):
        with pytest.raises(ValueError):
            tf.debugging.assert_same_float_dtype(bad)
    tf.debugging.assert_proper_iterable([1, 2])
    for bad in ("ab", x, 3, b"a", np.ones(2)):
        with pytest.raises(TypeError):
            tf.debugging.assert_proper_iterable(bad)
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    assert not tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()
    assert not tf.debugging.get_log_device_placement()
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement()
    tf.debugging.set_log_device_placement(False)


def test_tf_dtypes_conversions():
    assert tf.dtypes.cast(tf.constant([1.7]), tf.int32).numpy().tolist() == [1]
    assert tf.dtypes.complex(1., 2.).numpy() == 1 + 2j
    assert tf.dtypes.saturate_cast(tf.constant([300., -4]), tf.uint8).numpy().tolist() == [255, 0]
    assert tf.dtypes.as_dtype(type_value="int8") is tf.int8
    assert tf.dtypes.float32 is tf.float32 and tf.dtypes.DType is tf.DType
