"""The reverse pass keeps its state to itself (issue 13 item 4): which inputs a pass skips
reaches the gradient rule through a per-pass view, never written onto op records that tapes,
graphs and other passes share; broadcasting is undone in one function, batched or not."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.backprop import PassView, fit_to_input
from wengert.framework.errors import InvalidArgumentError
from wengert.framework.execute import execute
from wengert.framework.operation import Operation
from wengert.framework.registry import defop, needs_grad
from wengert.framework.tensor import convert_to_tensor
from wengert.ops import broadcast_ops

SEEN = []  # (record type, skip_input_indices, needs_grad per input) as each call saw them


def _spy_rule(op, grad):
    SEEN.append((type(op), op.skip_input_indices, [needs_grad(op, i) for i in range(2)]))
    return grad * op.inputs[1], grad * op.inputs[0]


SPY = defop("TestOnlyPassStateSpy", np.multiply, grad=_spy_rule)


def spy(x, y):
    return execute(SPY, (convert_to_tensor(x), convert_to_tensor(y)))


def test_rule_sees_skipped_inputs_through_a_view_and_the_record_is_untouched():
    x, c = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    SEEN.clear()
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(c)
        y = spy(x, c)
    np.testing.assert_allclose(tape.gradient(y, x), [3.0, 4.0])   # c skipped in this pass
    np.testing.assert_allclose(tape.gradient(y, [x, c])[1], [1.0, 2.0])  # nothing skipped
    record = y._op
    assert SEEN[0][0] is PassView and SEEN[0][1:] == ((1,), [True, False])
    assert SEEN[1][0] is Operation and SEEN[1][1:] == ((), [True, True])
    assert record.skip_input_indices == ()  # the shared record kept the class default
    with pytest.raises(AttributeError):
        record.skip_input_indices = (0,)  # nobody may write pass state onto a record


def test_pass_view_delegates_reads_and_writes_to_the_record():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = spy(x, 2.0)
    record = y._op
    view = PassView(record, (1,))
    assert view.inputs is record.inputs and view.outputs is record.outputs
    assert view.type == "TestOnlyPassStateSpy" and view.name == record.name
    assert view.get_attr is not None and repr(view) == repr(record)
    view.attrs = {"changed": True}  # a rule that changes its op (a While keeping history)
    assert record.attrs == {"changed": True}
    assert view.skip_input_indices == (1,) and record.skip_input_indices == ()


def test_graph_ops_are_not_written_by_gradients_or_forward_mode():
    with tf.Graph().as_default() as graph:
        x = tf.compat.v1.placeholder(tf.float32, [2])
        c = tf.constant([3.0, 4.0])
        y = x * c
        tf.gradients(tf.reduce_sum(y), [x])
        with tf.autodiff.ForwardAccumulator(x, tf.ones([2])) as acc:
            z = tf.sin(x) * c
        assert acc.jvp(z) is not None
    assert all(op.skip_input_indices == () for op in graph.get_operations())


def test_one_unbroadcast_sums_broadcast_axes_batched_or_not():
    g = tf.constant(np.ones((2, 3, 4)))
    like = tf.constant(np.ones((1, 4)))
    np.testing.assert_allclose(broadcast_ops.unbroadcast(g, like), np.full((1, 4), 6.0))
    batched = broadcast_ops.unbroadcast(g, tf.constant(np.ones(4)), batch_dims=1)
    np.testing.assert_allclose(batched, np.full((2, 4), 3.0))
    rows = broadcast_ops.unbroadcast(g, tf.constant(np.ones((3, 1))), batch_dims=1)
    np.testing.assert_allclose(rows, np.full((2, 3, 1), 4.0))
    same = tf.constant(np.ones((2, 4)))
    assert broadcast_ops.unbroadcast(same, tf.constant(np.ones(4)), batch_dims=1) is same
    with pytest.raises(InvalidArgumentError, match=r"\(2, 3, 4\).*does not fit.*\(5,\)"):
        broadcast_ops.unbroadcast(g, tf.constant(np.ones(5)))
    with pytest.raises(InvalidArgumentError, match=r"does not fit"):
        broadcast_ops.unbroadcast(g, tf.constant(np.ones((3, 5))), batch_dims=1)


def test_unbroadcast_in_a_graph_with_unknown_dimensions():
    with tf.Graph().as_default():
        g = tf.compat.v1.placeholder(tf.float64, [None, 3])
        like = tf.compat.v1.placeholder(tf.float64, [None])
        out = broadcast_ops.unbroadcast(g, tf.constant(np.ones(3)))
        unknown = broadcast_ops.unbroadcast(g, like)
        with tf.compat.v1.Session() as sess:
            feeds = {g: np.ones((2, 3)), like: np.ones(3)}
            np.testing.assert_allclose(sess.run(out, feeds), [2.0, 2.0, 2.0])
            np.testing.assert_allclose(sess.run(unknown, feeds), [2.0, 2.0, 2.0])
        with pytest.raises(InvalidArgumentError, match="does not fit"):
            broadcast_ops.unbroadcast(g, tf.constant(np.ones(4)))


def test_fit_to_input_names_the_op_whose_rule_returned_a_wrong_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = spy(x, 2.0)
    op = y._op
    with pytest.raises(InvalidArgumentError, match="float64.*TestOnlyPassStateSpy.*float32"):
        fit_to_input(op, x, tf.constant([1.0, 2.0], dtype=tf.float64))
    with pytest.raises(InvalidArgumentError, match="TestOnlyPassStateSpy.*does not fit"):
        fit_to_input(op, x, tf.constant([1.0, 2.0, 3.0]))
