"""TF2 / Keras 3 optimizers: updates against hand-computed values, clipping, schedules, errors,
and the same updates inside a traced function."""
import math
import warnings
import weakref

import numpy as np
import pytest

import wengert as tf
from wengert import optimizers
from wengert.optimizers import SGD, Adagrad, Adam, AdamW, RMSprop, schedules

W0 = np.array([1.0, -2.0, 0.5])
GRADS = [np.array([0.1, -0.2, 0.3]), np.array([-0.4, 0.5, 0.1]), np.array([0.2, 0.2, -0.6])]
LR = 0.1
LR32 = float(np.float32(LR))  # learning rates are kept in a float32 variable, as in Keras


def run(opt, grads=GRADS, w0=W0):
    w = tf.Variable(np.array(w0, dtype=np.float64))
    for g in grads:
        opt.apply_gradients([(tf.constant(g), w)])
    return w.numpy()


# -- hand-computed references (Keras 3's documented rules) --------------------------------------
def sgd_ref(momentum=0.0, nesterov=False, lr=LR32):
    w, v = W0.copy(), np.zeros(3)
    for g in GRADS:
        if momentum:
            v = momentum * v - lr * g
            w = w + (momentum * v - lr * g if nesterov else v)
        else:
            w = w - lr * g
    return w


def adam_ref(b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, wd=0.0, lr=LR32):
    w, m, v, vhat = W0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for t, g in enumerate(GRADS, start=1):
        w = w - w * wd * lr
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vhat = np.maximum(vhat, v)
        alpha = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w = w - alpha * m / (np.sqrt(vhat if amsgrad else v) + eps)
    return w


def rmsprop_ref(rho=0.9, momentum=0.0, eps=1e-7, centered=False, lr=LR32):
    w, s, a, u = W0.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in GRADS:
        s = rho * s + (1 - rho) * g * g
        a = rho * a + (1 - rho) * g
        inc = lr * g / np.sqrt((s - a * a if centered else s) + eps)
        u = momentum * u + inc
        w = w - (u if momentum else inc)
    return w


def adagrad_ref(init=0.1, eps=1e-7, lr=LR32):
    w, acc = W0.copy(), np.full(3, init)
    for g in GRADS:
        acc = acc + g * g
        w = w - lr * g / np.sqrt(acc + eps)
    return w


CASES = [
    ("sgd", lambda: SGD(LR), lambda: sgd_ref()),
    ("momentum", lambda: SGD(LR, momentum=0.9), lambda: sgd_ref(0.9)),
    ("nesterov", lambda: SGD(LR, momentum=0.9, nesterov=True), lambda: sgd_ref(0.9, True)),
    ("adam", lambda: Adam(LR), lambda: adam_ref()),
    ("adam_betas", lambda: Adam(LR, beta_1=0.5, beta_2=0.8, epsilon=1e-3),
     lambda: adam_ref(0.5, 0.8, 1e-3)),
    ("amsgrad", lambda: Adam(LR, beta_1=0.5, beta_2=0.8, amsgrad=True),
     lambda: adam_ref(0.5, 0.8, amsgrad=True)),
    ("adamw", lambda: AdamW(LR, weight_decay=0.1), lambda: adam_ref(wd=0.1)),
    ("rmsprop", lambda: RMSprop(LR), lambda: rmsprop_ref()),
    ("rmsprop_momentum", lambda: RMSprop(LR, momentum=0.5), lambda: rmsprop_ref(momentum=0.5)),
    ("rmsprop_centered", lambda: RMSprop(LR, rho=0.8, momentum=0.3, centered=True),
     lambda: rmsprop_ref(0.8, 0.3, centered=True)),
    ("adagrad", lambda: Adagrad(LR), lambda: adagrad_ref()),
    ("adagrad_init", lambda: Adagrad(LR, initial_accumulator_value=1.0, epsilon=1e-3),
     lambda: adagrad_ref(1.0, 1e-3)),
]


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_updates_match_hand_computed(name, make, ref):
    np.testing.assert_allclose(run(make()), ref(), rtol=1e-12, atol=1e-14)


def test_sgd_first_steps_by_hand():
    # w1 = w0 - 0.1 g0; with momentum 0.9: v1 = -0.1 g0, v2 = 0.9 v1 - 0.1 g1, w2 = w0 + v1 + v2
    w = run(SGD(0.5), GRADS[:1])
    np.testing.assert_allclose(w, [0.95, -1.9, 0.35], rtol=1e-15)
    w = run(SGD(0.5, momentum=0.5), GRADS[:2])
    v1 = -0.5 * GRADS[0]
    v2 = 0.5 * v1 - 0.5 * GRADS[1]
    np.testing.assert_allclose(w, W0 + v1 + v2, rtol=1e-15)


def test_adam_first_step_is_lr_times_sign():
    # After one step m/sqrt(v) is g/|g| up to epsilon: every entry moves by about lr.
    w = run(Adam(0.5), GRADS[:1])
    np.testing.assert_allclose(W0 - w, 0.5 * np.sign(GRADS[0]), rtol=1e-4)


def test_slots_and_iterations():
    opt = Adam(LR)
    w = tf.Variable(np.array(W0))
    assert opt.iterations.numpy() == 0
    opt.apply_gradients([(tf.constant(GRADS[0]), w)])
    assert opt.iterations.numpy() == 1
    assert opt.iterations.dtype == tf.int64
    np.testing.assert_allclose(opt.get_slot(w, "m").numpy(), 0.1 * GRADS[0])
    assert len(opt.variables) == 4 and len(opt.variables()) == 4  # iterations, lr, m, v (Keras 3)
    assert list(opt._checkpoint_children()) == ["iterations", "slots/0/m", "slots/0/v"]


def test_float32_variables_stay_float32():
    w = tf.Variable(np.array([1.0, 2.0], np.float32))
    for opt in (SGD(0.1, momentum=0.9), Adam(), RMSprop(centered=True), Adagrad(), AdamW()):
        opt.apply_gradients([(tf.constant([0.5, -0.5], tf.float32), w)])
        assert w.dtype == tf.float32 and w.numpy().dtype == np.float32


def test_float_gradient_is_cast_to_the_variable_dtype():
    w = tf.Variable(np.array([1.0, 2.0], np.float32))
    SGD(1.0).apply_gradients([(tf.constant([0.5, 0.5], tf.float64), w)])
    np.testing.assert_allclose(w.numpy(), [0.5, 1.5])


def test_update_is_in_place():
    # Updates go through assign_sub, which writes into the variable's own array when nothing
    # else refers to it (a weak reference does not count).
    w = tf.Variable(np.array(W0))
    array = weakref.ref(w._value)
    opt = Adam(LR)
    opt.apply_gradients([(tf.constant(GRADS[0]), w)])
    opt.apply_gradients([(tf.constant(GRADS[1]), w)])
    assert w._value is array()


# -- clipping -------------------------------------------------------------------------------------
def test_clipnorm_clips_each_gradient():
    w1, w2 = tf.Variable([0.0, 0.0], dtype=tf.float64), tf.Variable([0.0], dtype=tf.float64)
    SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0], tf.float64), w1),
                                            (tf.constant([0.5], tf.float64), w2)])
    np.testing.assert_allclose(w1.numpy(), [-0.6, -0.8])
    np.testing.assert_allclose(w2.numpy(), [-0.5])


def test_global_clipnorm_scales_all_gradients_together():
    w1, w2 = tf.Variable([0.0, 0.0], dtype=tf.float64), tf.Variable([0.0], dtype=tf.float64)
    # global norm sqrt(9 + 16 + 144) = 13: everything scaled by 2/13
    SGD(1.0, global_clipnorm=2.0).apply_gradients([(tf.constant([3.0, 4.0], tf.float64), w1),
                                                   (tf.constant([12.0], tf.float64), w2)])
    np.testing.assert_allclose(w1.numpy(), [-6 / 13, -8 / 13])
    np.testing.assert_allclose(w2.numpy(), [-24 / 13])


def test_clipvalue_clips_entries():
    w = tf.Variable([0.0, 0.0, 0.0], dtype=tf.float64)
    SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([3.0, -0.2, -4.0], tf.float64), w)])
    np.testing.assert_allclose(w.numpy(), [-0.5, 0.2, 0.5])


def test_only_one_clip_option():
    with pytest.raises(ValueError, match="Only one of"):
        SGD(clipnorm=1.0, clipvalue=1.0)
    with pytest.raises(ValueError, match="positive"):
        SGD(clipnorm=0.0)


# -- errors and warnings --------------------------------------------------------------------------
def test_none_gradient_is_skipped_with_a_warning_naming_the_variable():
    a = tf.Variable([1.0], dtype=tf.float64, name="used")
    b = tf.Variable([2.0], dtype=tf.float64, name="unused_weight")
    opt = SGD(1.0)
    with pytest.warns(UserWarning, match="unused_weight"):
        opt.apply_gradients([(tf.constant([0.5], tf.float64), a), (None, b)])
    np.testing.assert_allclose(a.numpy(), [0.5])
    np.testing.assert_allclose(b.numpy(), [2.0])


def test_all_none_gradients_raise_listing_variables():
    a = tf.Variable([1.0], name="alpha")
    b = tf.Variable([2.0], name="beta")
    with pytest.raises(ValueError, match="No gradients provided.*alpha.*beta"):
        Adam().apply_gradients([(None, a), (None, b)])


def test_wrong_shape_raises_before_any_variable_changes():
    a = tf.Variable(np.array([1.0, 2.0]), name="first")
    b = tf.Variable(np.array([[1.0, 2.0]]), name="second")
    opt = Adam(LR)
    with pytest.raises(ValueError, match=r"second.*\(3,\).*\(1, 2\)"):
        opt.apply_gradients([(tf.constant([1.0, 1.0], tf.float64), a),
                             (tf.constant([1.0, 1.0, 1.0], tf.float64), b)])
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(b.numpy(), [[1.0, 2.0]])
    assert opt.iterations.numpy() == 0


def test_not_a_variable():
    with pytest.raises(TypeError, match="not a Variable"):
        SGD().apply_gradients([(tf.constant(1.0), tf.constant(2.0))])


# -- minimize -------------------------------------------------------------------------------------
def test_minimize_with_callable_loss():
    w = tf.Variable(np.array([3.0]))
    opt = SGD(0.25)
    for _ in range(2):
        opt.minimize(lambda: tf.reduce_sum(w * w), [w])
    np.testing.assert_allclose(w.numpy(), [3.0 * 0.5 * 0.5])


def test_minimize_with_tape_and_tensor_loss():
    w = tf.Variable(np.array([3.0]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    SGD(0.25).minimize(loss, [w], tape=tape)
    np.testing.assert_allclose(w.numpy(), [1.5])
    with pytest.raises(ValueError, match="tape"):
        SGD().minimize(loss, [w])


def test_minimize_var_list_callable():
    w = tf.Variable(np.array([2.0]))
    SGD(0.5).minimize(lambda: tf.reduce_sum(w * w), lambda: [w])
    np.testing.assert_allclose(w.numpy(), [0.0])


# -- weight decay, learning rate ---------------------------------------------------------------
def test_weight_decay_and_exclusion():
    a = tf.Variable(np.array([1.0]), name="kernel")
    b = tf.Variable(np.array([1.0]), name="bias")
    opt = SGD(0.5, weight_decay=0.2)
    opt.exclude_from_weight_decay(var_names=["bias"])
    zero = tf.constant([0.0], tf.float64)
    opt.apply_gradients([(zero, a), (zero, b)])
    np.testing.assert_allclose(a.numpy(), [1.0 - 0.2 * 0.5])
    np.testing.assert_allclose(b.numpy(), [1.0])


def test_learning_rate_can_be_changed():
    w = tf.Variable(np.array([0.0]))
    opt = SGD(0.5)
    opt.learning_rate = 2.0
    assert float(opt.learning_rate) == 2.0
    opt.apply_gradients([(tf.constant([1.0], tf.float64), w)])
    np.testing.assert_allclose(w.numpy(), [-2.0])


def test_schedule_is_called_with_iterations():
    schedule = schedules.PiecewiseConstantDecay([1], [1.0, 0.1])
    w = tf.Variable(np.array([0.0]))
    opt = SGD(schedule)
    g = tf.constant([1.0], tf.float64)
    for _ in range(3):
        opt.apply_gradients([(g, w)])
    # steps 0 and 1 use 1.0, step 2 uses 0.1
    np.testing.assert_allclose(w.numpy(), [-2.0 - float(np.float32(0.1))])
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        opt.learning_rate = 0.5


def test_get_and_config_round_trip():
    assert isinstance(optimizers.get("Adam"), Adam)
    assert isinstance(optimizers.get("sgd"), SGD)
    assert isinstance(optimizers.get("ADAMW"), AdamW)
    opt = RMSprop(0.01)
    assert optimizers.get(opt) is opt
    with pytest.raises(ValueError, match="Unknown optimizer"):
        optimizers.get("adamax_typo")
    opt = Adam(schedules.ExponentialDecay(0.1, 10, 0.5), beta_1=0.8, clipnorm=1.0)
    clone = Adam.from_config(opt.get_config())
    assert clone.beta_1 == 0.8 and clone.clipnorm == 1.0
    assert isinstance(clone._learning_rate, schedules.ExponentialDecay)
    assert optimizers.deserialize(optimizers.serialize(SGD(0.3))).get_config()[
        "learning_rate"] == pytest.approx(0.3)


def test_deferred_slot_restore():
    opt = Adam(LR)
    opt._defer_restore({"slots/0/m": np.array([1.0, 2.0, 3.0]),
                        "slots/0/v": np.array([4.0, 5.0, 6.0])})
    w = tf.Variable(np.array(W0))
    opt.build([w])
    np.testing.assert_array_equal(opt.get_slot(w, "m").numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(opt.get_slot(w, "v").numpy(), [4.0, 5.0, 6.0])


# -- schedules ----------------------------------------------------------------------------------
def value(schedule, step):
    return float(schedule(step).numpy())


def test_exponential_decay():
    s = schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    for step in (0, 5, 10, 25):
        assert value(s, step) == pytest.approx(0.1 * 0.5 ** (step / 10), rel=1e-6)
    s = schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True)
    for step, expected in ((0, 0.1), (9, 0.1), (10, 0.05), (25, 0.025)):
        assert value(s, step) == pytest.approx(expected, rel=1e-6)
    assert s(3).dtype == tf.float32


def test_piecewise_constant_decay():
    s = schedules.PiecewiseConstantDecay([100, 110], [1.0, 0.5, 0.1])
    for step, expected in ((0, 1.0), (100, 1.0), (101, 0.5), (110, 0.5), (111, 0.1), (10**6, 0.1)):
        assert value(s, step) == pytest.approx(expected, rel=1e-6)
    with pytest.raises(ValueError, match="1 less"):
        schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5])


def test_cosine_decay():
    s = schedules.CosineDecay(0.1, decay_steps=100, alpha=0.1)
    for step in (0, 25, 50, 100, 200):
        t = min(step, 100) / 100
        expected = 0.1 * ((1 - 0.1) * 0.5 * (1 + math.cos(math.pi * t)) + 0.1)
        assert value(s, step) == pytest.approx(expected, rel=1e-6)
    w = schedules.CosineDecay(0.0, decay_steps=10, warmup_target=1.0, warmup_steps=10)
    assert value(w, 5) == pytest.approx(0.5)
    assert value(w, 10) == pytest.approx(1.0)
    assert value(w, 15) == pytest.approx(0.5, rel=1e-6)


def test_schedule_accepts_the_iterations_variable():
    s = schedules.ExponentialDecay(1.0, 1, 0.5)
    step = tf.Variable(np.int64(2), trainable=False)
    assert value(s, step) == pytest.approx(0.25)
    assert schedules.deserialize(schedules.serialize(s)).get_config() == s.get_config()


# -- inside tf.function -------------------------------------------------------------------------
TRACED = [c for c in CASES if c[0] in ("momentum", "nesterov", "amsgrad", "adamw",
                                        "rmsprop_centered", "adagrad")] + [
    ("schedule", lambda: SGD(schedules.ExponentialDecay(0.1, 1, 0.5), momentum=0.5), None),
    ("global_clip", lambda: Adam(LR, global_clipnorm=0.3), None),
]


@pytest.mark.parametrize("name,make,ref", TRACED, ids=[c[0] for c in TRACED])
def test_traced_updates_match_eager(name, make, ref):
    eager_opt, traced_opt = make(), make()
    w_eager, w_traced = tf.Variable(np.array(W0)), tf.Variable(np.array(W0))
    u_eager, u_traced = tf.Variable(np.array([2.0])), tf.Variable(np.array([2.0]))

    def loss(w, u, x):
        return tf.reduce_sum(w * w * x) + tf.reduce_sum(u * w[0])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            value = loss(w_traced, u_traced, x)
        grads = tape.gradient(value, [w_traced, u_traced])
        return traced_opt.apply_gradients(zip(grads, [w_traced, u_traced]))

    for i in range(3):
        x = tf.constant(np.array([1.0, 2.0, 3.0]) * (i + 1))
        with tf.GradientTape() as tape:
            value = loss(w_eager, u_eager, x)
        grads = tape.gradient(value, [w_eager, u_eager])
        eager_opt.apply_gradients(zip(grads, [w_eager, u_eager]))
        iterations = step(x)
    assert step.experimental_get_tracing_count() == 2  # slots created: traced again, as in TF
    assert int(iterations.numpy()) == 3 and traced_opt.iterations.numpy() == 3
    np.testing.assert_allclose(w_traced.numpy(), w_eager.numpy(), rtol=1e-12)
    np.testing.assert_allclose(u_traced.numpy(), u_eager.numpy(), rtol=1e-12)
    if ref is not None:
        for slot in traced_opt.variables[1:]:
            assert isinstance(slot, tf.Variable)


def test_traced_minimize_with_a_callable():
    w = tf.Variable(np.array([3.0]))
    opt = SGD(0.25)

    @tf.function
    def step():
        opt.minimize(lambda: tf.reduce_sum(w * w), [w])

    step()
    step()
    np.testing.assert_allclose(w.numpy(), [0.75])


def test_tf1_graph_is_refused_with_a_pointer():
    with tf.Graph().as_default():
        w = tf.Variable([1.0])
        opt = SGD()
        with pytest.raises(RuntimeError, match="compat.v1.train"):
            opt.apply_gradients([(tf.constant([1.0]), w)])


def test_warnings_module_is_quiet_for_full_gradients():
    w = tf.Variable(np.array([1.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SGD().apply_gradients([(tf.constant([1.0], tf.float64), w)])
