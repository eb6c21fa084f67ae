"""Variable: construction, reading, assignment (checked, atomic), operators, and tape records."""
import weakref

import numpy as np
import pytest

import wengert as tf


def close(a, b, tol=1e-6):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def test_construction():
    v = tf.Variable([1.0, 2.0], name="weights")
    assert v.trainable is True
    assert v.name == "weights:0"
    assert v.shape == (2,) and v.dtype == tf.float32 and v.ndim == 1
    close(v.numpy(), [1.0, 2.0])
    assert tf.Variable(1).dtype == tf.int32
    assert tf.Variable(np.zeros(3)).dtype == tf.float64
    assert tf.Variable(1, dtype=tf.float64).dtype == tf.float64
    assert tf.Variable(1.0, trainable=False).trainable is False
    assert tf.Variable(lambda: tf.constant([3.0])).shape == (1,)
    assert tf.Variable(tf.constant(2.0)).numpy() == 2.0
    with pytest.raises(ValueError):
        tf.Variable()


def test_initial_value_is_copied():
    array = np.array([1.0, 2.0])
    v = tf.Variable(array)
    array[0] = 50.0
    assert v.numpy()[0] == 1.0
    out = v.numpy()
    out[1] = 50.0
    assert v.numpy()[1] == 2.0


def test_read_value_and_value():
    v = tf.Variable([1.0, 2.0])
    r = v.read_value()
    assert isinstance(r, tf.Tensor)
    close(r, [1.0, 2.0])
    close(v.value(), [1.0, 2.0])
    v.assign([3.0, 4.0])
    close(r, [1.0, 2.0])  # an earlier read keeps its value
    close(v.read_value(), [3.0, 4.0])


def test_assign_family():
    v = tf.Variable([1.0, 2.0])
    assert v.assign([5.0, 6.0]) is v
    close(v, [5.0, 6.0])
    v.assign_add([1.0, 1.0])
    close(v, [6.0, 7.0])
    v.assign_sub(tf.constant([2.0, 2.0]))
    close(v, [4.0, 5.0])
    assert v.assign([0.0, 0.0], read_value=False) is None
    close(v, [0.0, 0.0])
    v.assign(tf.Variable([9.0, 9.0]))
    close(v, [9.0, 9.0])


def test_assign_wrong_shape_raises_and_keeps_value():
    v = tf.Variable([1.0, 2.0])
    for bad in ([1.0, 2.0, 3.0], [[1.0, 2.0]], 5.0):
        with pytest.raises(ValueError, match="shape"):
            v.assign(bad)
    with pytest.raises(ValueError, match="shape"):
        v.assign_add([1.0])
    close(v, [1.0, 2.0])


def test_assign_wrong_dtype_raises_and_keeps_value():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(TypeError, match="float64"):
        v.assign(tf.constant([1.0, 2.0], dtype=tf.float64))
    i = tf.Variable([1, 2])
    with pytest.raises(TypeError):
        i.assign([1.5, 2.5])
    with pytest.raises(TypeError):
        i.assign_add([0.5, 0.5])
    close(v, [1.0, 2.0])
    np.testing.assert_array_equal(i.numpy(), [1, 2])


def test_operators_read_the_variable():
    v = tf.Variable([1.0, 2.0])
    close(v + 1.0, [2.0, 3.0])
    close(1.0 + v, [2.0, 3.0])
    close(v * v, [1.0, 4.0])
    close(v - tf.constant([1.0, 1.0]), [0.0, 1.0])
    close(tf.constant([1.0, 1.0]) - v, [0.0, -1.0])
    close(2.0 / v, [2.0, 1.0])
    close(v ** 2, [1.0, 4.0])
    close(-v, [-1.0, -2.0])
    np.testing.assert_array_equal((v > 1.5).numpy(), [False, True])
    close(np.asarray(v), [1.0, 2.0])
    assert len(v) == 2


def test_python_scalar_on_the_left_of_a_variable():
    v = tf.Variable([1.0, 2.0])
    close(2 * v, [2.0, 4.0])
    close(2 - v, [1.0, 0.0])
    close(np.float64(3.0) * v, [3.0, 6.0])
    w = tf.Variable(2.0, dtype=tf.float64)
    assert (3 * w).dtype == tf.float64


def test_variable_in_ops_and_gradients():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.multiply(v, v) + 2 * v
    close(tape.gradient(y, v), [4.0, 6.0])


def test_scalar_variable_conversions():
    v = tf.Variable(3.0)
    assert float(v) == 3.0
    assert int(tf.Variable(4)) == 4
    assert bool(tf.Variable(True)) is True


def test_variable_repr():
    text = repr(tf.Variable([1.0, 2.0], name="w"))
    assert "w:0" in text and "float32" in text and "shape=(2,)" in text


def test_reads_recorded_only_when_watched():
    v = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as tape:
        r = v.read_value()
    assert r.op is None
    assert tape.gradient(r, v) is None


def test_gradient_after_assign_uses_read_values():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        a = v * v
        v.assign_sub(1.0)
        b = v * v
        y = a + b
    close(tape.gradient(y, v), 2 * 3.0 + 2 * 2.0)


def test_variable_is_keyed_by_ref_and_unhashable():
    v = tf.Variable(1.0)
    assert {v.ref(): 1}[v.ref()] == 1
    assert v.ref().deref() is v
    with pytest.raises(TypeError, match=r"unhashable.*ref\(\)"):
        {v: 1}
    with tf.Graph().as_default():  # TF 1 graphs: identity and id hashing, as in TensorFlow
        g = tf.Variable(1.0)
        assert {g: 1}[g] == 1 and (g == g) is True and (g == tf.Variable(1.0)) is False


def test_variable_equality_is_elementwise():
    """`==`/`!=` on variables compare values elementwise, as on tensors (issue 22 item 3)."""
    v = tf.Variable([0.0, 2.0])
    np.testing.assert_array_equal((v != 0.0).numpy(), [False, True])
    np.testing.assert_array_equal((v == tf.Variable([1.0, 2.0])).numpy(), [False, True])
    np.testing.assert_array_equal(tf.where(v != 0.0, v, -1.0).numpy(), [-1.0, 2.0])
    assert (v == None) is False and (v != None) is True  # noqa: E711
    mismatch = v == tf.Variable([1.0, 2.0, 3.0])  # shapes that cannot broadcast: a scalar False
    assert mismatch.shape == () and not bool(mismatch) and bool(v != tf.constant([1.0, 2, 3]))
    assert v in [v] and v not in [tf.Variable([5.0, 6.0, 7.0])]

    @tf.function
    def masked(x):
        return tf.where(v != 0.0, x, 0.0), x == x
    kept, same = masked(tf.constant([3.0, 4.0]))
    np.testing.assert_array_equal(kept.numpy(), [0.0, 4.0])
    np.testing.assert_array_equal(same.numpy(), [True, True])


def test_variable_indexing():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    close(v[1], [3.0, 4.0])
    with tf.GradientTape() as tape:
        y = v[0, 1] * 3.0
    close(tape.gradient(y, v), [[0.0, 3.0], [0.0, 0.0]])


# -- in-place updates never change a tensor that read the variable ------------------------------
def test_assign_sub_keeps_earlier_reads_unchanged():
    v = tf.Variable([1.0, 2.0])
    read = v.read_value()
    v.assign_sub([0.5, 0.5])
    np.testing.assert_array_equal(read.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5])


def test_assign_add_keeps_values_saved_by_a_live_tape():
    v = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
    v.assign_add(1.0)                      # the tape still holds the read of 3.0
    assert float(tape.gradient(y, v)) == 6.0
    assert float(v) == 4.0


def test_assign_from_numpy_array_copies_it():
    source = np.array([1.0, 2.0], dtype=np.float32)
    v = tf.Variable(np.zeros(2, np.float32))
    v.assign(source)
    source[0] = 99.0
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    v.assign_sub(np.ones(2, np.float32))   # may happen in place: must not touch `source`
    assert source[1] == 2.0


def test_training_loop_updates_in_place_once_the_tape_is_released():
    v = tf.Variable(np.ones(4))
    before = weakref.ref(v._value)         # observe the array without holding it
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v)
    grad = tape.gradient(loss, v)
    assert loss.op is None                 # released: the forward history is not kept alive
    v.assign_sub(0.1 * grad)
    assert v._value is before()            # nothing else referred to the array
    np.testing.assert_allclose(v.numpy(), 0.8)


def test_indexing_a_variable_under_a_tape_records_one_slice_of_the_variable():
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = w[1] * 5.0
    assert [op.type for op in tape._records] == ["StridedSlice", "Mul"]
    assert tape._records[0].inputs[0] is w
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [0.0, 5.0, 0.0])


def test_assigning_a_sliced_variable_before_gradient_keeps_the_gradient_exact():
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = w[0:2] * w[0:2]
    w.assign([10.0, 20.0, 30.0])           # after the forward pass, before the reverse pass
    np.testing.assert_array_equal(y.numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [2.0, 4.0, 0.0])


def test_sliced_variable_view_blocks_in_place_updates():
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape():
        part = w[0:2]                       # may be a view of the variable's array
    w.assign_sub([1.0, 1.0, 1.0])
    np.testing.assert_array_equal(part.numpy(), [1.0, 2.0])


def test_in_place_update_never_writes_into_a_tensor_the_variable_was_assigned_from():
    t = tf.constant(np.arange(6.0).reshape(2, 3))
    v = tf.Variable(np.zeros(3))
    v.assign(t[0])                          # t[0] may be a view of t's array
    v.assign_add(np.ones(3))
    np.testing.assert_array_equal(t.numpy()[0], [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0, 3.0])


def test_gradient_of_a_variable_itself_is_one():
    """`tape.gradient(v0, [v0, v1])` as in TensorFlow's autodiff guide: 1.0 and None."""
    v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        _ = v0 * v1
    g0, g1 = tape.gradient(v0, [v0, v1])
    assert float(g0) == 1.0 and g1 is None


def test_threads_sharing_a_variable_lose_no_update():
    """Issue 22 item 4: each update is whole under a per-variable lock, so four threads of
    5,000 assign_add each end at exactly 20,000, scalars and vectors alike, whether or not the
    variable owns its array (a variable assigned a tensor's array makes a new one on update)."""
    import threading
    scalar = tf.Variable(0.0)
    vector = tf.Variable(tf.zeros([64]))
    vector.assign(tf.zeros([64]))  # holds the tensor's array: updates replace it

    def work():
        for _ in range(5000):
            scalar.assign_add(1.0)
            vector.assign_add(np.ones(64, np.float32))
            vector.assign_sub(np.full(64, 0.5, np.float32))
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert scalar.numpy() == 20000.0
    np.testing.assert_array_equal(vector.numpy(), np.full(64, 10000.0, np.float32))
