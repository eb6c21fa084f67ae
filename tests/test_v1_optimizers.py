"""TF1 optimizers (compat.v1.train): graph + Session training, hand-computed updates, editing
the (gradient, variable) list, errors; and the same optimizers eagerly and in tf.function."""
import math

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.train import (AdamOptimizer, GradientDescentOptimizer, MomentumOptimizer,
                           RMSPropOptimizer, get_global_step, get_or_create_global_step)

W0 = np.array([1.0, -2.0, 0.5])
GRADS = [np.array([0.1, -0.2, 0.3]), np.array([-0.4, 0.5, 0.1]), np.array([0.2, 0.2, -0.6])]


def session_run(make_opt, grads=GRADS):
    """Apply `grads` one step each to w = W0 via loss = sum(w * g) (so the gradient is g)."""
    with tf.Graph().as_default():
        w = tf.Variable(W0.copy(), name="w")
        g = v1.placeholder(tf.float64, [3])
        step = make_opt().minimize(tf.reduce_sum(w * g))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for grad in grads:
                sess.run(step, {g: grad})
            return sess.run(w)


def momentum_ref(lr, mu, nesterov=False):
    w, a = W0.copy(), np.zeros(3)
    for g in GRADS:
        a = mu * a + g
        w = w - (lr * g + lr * mu * a if nesterov else lr * a)
    return w


def adam_ref(lr=0.001, b1=0.9, b2=0.999, eps=1e-8):
    w, m, v = W0.copy(), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, start=1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    return w


def rmsprop_ref(lr, decay=0.9, mu=0.0, eps=1e-10, centered=False):
    w, ms, mg, mom = W0.copy(), np.ones(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        ms = decay * ms + (1 - decay) * g * g
        mg = decay * mg + (1 - decay) * g
        mom = mu * mom + lr * g / np.sqrt((ms - mg * mg if centered else ms) + eps)
        w = w - mom
    return w


CASES = [
    ("gd", lambda: GradientDescentOptimizer(0.5), lambda: W0 - 0.5 * sum(GRADS)),
    ("momentum", lambda: MomentumOptimizer(0.1, 0.9), lambda: momentum_ref(0.1, 0.9)),
    ("nesterov", lambda: MomentumOptimizer(0.1, 0.9, use_nesterov=True),
     lambda: momentum_ref(0.1, 0.9, True)),
    ("adam", lambda: AdamOptimizer(), lambda: adam_ref()),
    ("adam_args", lambda: AdamOptimizer(0.1, beta1=0.5, beta2=0.8, epsilon=1e-3),
     lambda: adam_ref(0.1, 0.5, 0.8, 1e-3)),
    ("rmsprop", lambda: RMSPropOptimizer(0.1), lambda: rmsprop_ref(0.1)),
    ("rmsprop_momentum_centered",
     lambda: RMSPropOptimizer(0.1, decay=0.8, momentum=0.5, epsilon=1e-6, centered=True),
     lambda: rmsprop_ref(0.1, 0.8, 0.5, 1e-6, True)),
]


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_session_updates_match_hand_computed(name, make, ref):
    np.testing.assert_allclose(session_run(make), ref(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_eager_updates_match_hand_computed(name, make, ref):
    w = tf.Variable(W0.copy())
    opt = make()
    for grad in GRADS:
        g = tf.constant(grad)
        opt.minimize(lambda: tf.reduce_sum(w * g), var_list=[w])
    np.testing.assert_allclose(w.numpy(), ref(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_traced_updates_match_hand_computed(name, make, ref):
    w = tf.Variable(W0.copy())
    opt = make()

    @tf.function
    def step(g):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * g)
        opt.apply_gradients([(tape.gradient(loss, w), w)])

    for grad in GRADS:
        step(tf.constant(grad))
    # one trace, and a second at once when the first created slot variables (as TensorFlow does)
    assert step.experimental_get_tracing_count() == (1 if name == "gd" else 2)
    np.testing.assert_allclose(w.numpy(), ref(), rtol=1e-12, atol=1e-14)


def softmax_data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4))
    labels = (x[:, 0] + x[:, 1] > 0).astype(int) + (x[:, 2] > 1)
    return x, np.eye(3)[labels]


def test_classic_tutorial_softmax_regression_trains():
    xs, ys = softmax_data()
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float64, [None, 4])
        y_ = v1.placeholder(tf.float64, [None, 3])
        W = tf.Variable(np.zeros((4, 3)))
        b = tf.Variable(np.zeros(3))
        y = tf.nn.softmax(tf.matmul(x, W) + b)
        cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.math.log(y), axis=1))
        train_step = v1.train.GradientDescentOptimizer(0.5).minimize(cross_entropy) \
            if hasattr(v1, "train") else GradientDescentOptimizer(0.5).minimize(cross_entropy)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            loss0 = sess.run(cross_entropy, feed_dict={x: xs, y_: ys})
            assert sess.run(train_step, feed_dict={x: xs, y_: ys}) is None
            # first step by hand: p = 1/3 everywhere; dlogits = (p - y) / n
            dlogits = (np.full_like(ys, 1 / 3) - ys) / len(xs)
            np.testing.assert_allclose(sess.run(W), -0.5 * xs.T @ dlogits, rtol=1e-12)
            np.testing.assert_allclose(sess.run(b), -0.5 * dlogits.sum(0), rtol=1e-12)
            losses = [loss0]
            for _ in range(30):
                sess.run(train_step, feed_dict={x: xs, y_: ys})
                losses.append(sess.run(cross_entropy, feed_dict={x: xs, y_: ys}))
    assert losses[-1] < 0.6 * losses[0]
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))


def test_compute_edit_apply_with_clipping_and_global_step():
    with tf.Graph().as_default():
        w = tf.Variable(np.array([0.0, 0.0]), name="w")
        v = tf.Variable(np.array([0.0]), name="v")
        loss = tf.reduce_sum(w * tf.constant([3.0, -4.0], tf.float64)) + tf.reduce_sum(v * 10.0)
        global_step = get_or_create_global_step()
        assert get_global_step() is global_step
        opt = GradientDescentOptimizer(1.0)
        grads_and_vars = opt.compute_gradients(loss)  # default: all trainable variables
        assert [var for _, var in grads_and_vars] == [w, v]
        clipped = [(tf.clip_by_value(g, -1.0, 1.0), var) for g, var in grads_and_vars]
        train_op = opt.apply_gradients(clipped, global_step=global_step)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train_op)
            sess.run(train_op)
            np.testing.assert_allclose(sess.run(w), [-2.0, 2.0])
            np.testing.assert_allclose(sess.run(v), [-2.0])
            assert sess.run(global_step) == 2


def test_all_none_gradients_error_lists_variables():
    with tf.Graph().as_default():
        used = tf.Variable(1.0, name="used")
        a = tf.Variable(1.0, name="unrelated_a")
        b = tf.Variable(2.0, name="unrelated_b")
        loss = used * 2.0
        opt = GradientDescentOptimizer(0.1)
        with pytest.raises(ValueError, match="No gradients provided.*unrelated_a.*unrelated_b"):
            opt.minimize(loss, var_list=[a, b])
        with pytest.raises(ValueError, match="No gradients provided.*unrelated_a"):
            opt.apply_gradients([(None, a), (None, b)])


def test_some_none_gradients_are_skipped():
    with tf.Graph().as_default():
        used = tf.Variable(1.0, name="used")
        other = tf.Variable(5.0, name="other")
        step = GradientDescentOptimizer(0.5).minimize(used * 2.0)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step)
            assert sess.run(used) == 0.0 and sess.run(other) == 5.0


def test_wrong_shape_raises_before_building():
    with tf.Graph().as_default() as graph:
        w = tf.Variable(np.zeros(3))
        grad = tf.constant([1.0, 2.0], tf.float64)
        n_ops = len(graph.get_operations())
        with pytest.raises(ValueError, match=r"shape \(2,\).*\(3,\)"):
            MomentumOptimizer(0.1, 0.9).apply_gradients([(grad, w)])
        assert len(graph.get_operations()) == n_ops  # no slots, no update ops
        assert not [v for v in v1.global_variables() if "Momentum" in v.name]


def test_slots_are_graph_variables_initialized_with_the_others():
    with tf.Graph().as_default():
        w = tf.Variable(np.ones(2), name="weights")
        opt = AdamOptimizer(0.1)
        step = opt.minimize(tf.reduce_sum(w * w))
        names = sorted(v.name for v in v1.global_variables())
        assert "weights/Adam:0" in names and "weights/Adam_1:0" in names
        assert "beta1_power:0" in names
        assert opt.get_slot(w, "m") is not None and opt.get_slot_names() == ["m", "v"]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step)
            np.testing.assert_allclose(sess.run(opt.get_slot(w, "m")), 0.1 * 2 * np.ones(2))
            assert sess.run(opt.variables()[0]) == pytest.approx(0.9 ** 2)


def test_learning_rate_placeholder():
    with tf.Graph().as_default():
        w = tf.Variable(np.array([1.0]))
        lr = v1.placeholder(tf.float64, [])
        step = GradientDescentOptimizer(lr).minimize(tf.reduce_sum(w))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step, {lr: 0.25})
            sess.run(step, {lr: 0.5})
            np.testing.assert_allclose(sess.run(w), [0.25])


def test_eager_tensor_loss_is_refused():
    w = tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="callable"):
        GradientDescentOptimizer(0.1).minimize(w * 2.0)


def test_eager_default_var_list_and_global_step():
    w = tf.Variable(np.array([2.0]))
    step = tf.Variable(np.int64(0), trainable=False)
    GradientDescentOptimizer(0.25).minimize(lambda: tf.reduce_sum(w * w), global_step=step)
    np.testing.assert_allclose(w.numpy(), [1.0])
    assert step.numpy() == 1
