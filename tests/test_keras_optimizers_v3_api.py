"""Keras 3's optimizer API in wengert: `apply`, the subclassing hooks (build, add_variable,
update_step, assign helpers), learning_rate, variables, configs, errors naming the bad
argument, traced functions and checkpoints. Values are checked against NumPy; the Keras
trajectories themselves are in test_keras_optimizers_v3.py.
"""
import warnings

import numpy as np
import pytest

import wengert as tf
from wengert import optimizers
from wengert.optimizers import schedules

ALL = [optimizers.SGD, optimizers.Adam, optimizers.AdamW, optimizers.Adamax, optimizers.Nadam,
       optimizers.Lamb, optimizers.Lion, optimizers.RMSprop, optimizers.Adagrad,
       optimizers.Adadelta, optimizers.Adafactor, optimizers.Ftrl]


class MomentumSGD(tf.keras.optimizers.Optimizer):
    """SGD with momentum written as on keras.io: build + update_step with the public hooks."""

    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, variables):
        if self.built:
            return
        super().build(variables)
        self.momentums = self.add_optimizer_variables(variables, "momentum")
        self.steps_seen = self.add_variable(shape=(), dtype="int64", name="steps_seen")

    def update_step(self, gradient, variable, learning_rate):
        learning_rate = tf.cast(learning_rate, variable.dtype)
        m = self.momentums[self._get_variable_index(variable)]
        self.assign(m, m * self.momentum - gradient * learning_rate)
        self.assign_add(variable, m)
        self.assign_add(self.steps_seen, 1)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}


def numpy_momentum(w, grads, lr, momentum):
    v = np.zeros_like(w)
    for g in grads:
        v = momentum * v - lr * g
        w = w + v
    return w


def test_custom_optimizer_subclass_as_on_keras_io():
    opt = MomentumSGD(learning_rate=0.1, momentum=0.5)
    a = tf.Variable(np.array([1.0, 2.0]))
    b = tf.Variable(np.array([[0.5, -0.5]]))
    grads = [np.array([0.2, -0.4]), np.array([0.1, 0.3]), np.array([-0.5, 0.0])]
    opt.apply([tf.constant(grads[0]), tf.constant(np.ones((1, 2)))], [a, b])
    for g in grads[1:]:
        opt.apply([tf.constant(g), tf.constant(np.ones((1, 2)))])  # built: variables implied
    np.testing.assert_allclose(a.numpy(), numpy_momentum(np.array([1.0, 2.0]), grads, 0.1, 0.5))
    np.testing.assert_allclose(b.numpy(), numpy_momentum(np.array([[0.5, -0.5]]),
                                                         [np.ones((1, 2))] * 3, 0.1, 0.5))
    assert int(opt.iterations.numpy()) == 3 and int(opt.steps_seen.numpy()) == 6
    assert opt.momentums[1].shape.as_list() == [1, 2] and opt.momentums[0].dtype == tf.float64
    names = [v.name for v in opt.variables]
    assert len(names) == 5 and "momentum" in names[2] and "steps_seen" in names[4]
    clone = MomentumSGD.from_config(opt.get_config())
    assert clone.momentum == 0.5 and float(clone.learning_rate.numpy()) == pytest.approx(0.1)


def test_custom_optimizer_rejects_variables_it_was_not_built_with():
    opt = MomentumSGD(learning_rate=0.1)
    a, c = tf.Variable([1.0]), tf.Variable([2.0], name="stranger")
    opt.apply_gradients([(tf.constant([1.0]), a)])
    with pytest.raises(ValueError, match="stranger"):
        opt.apply_gradients([(tf.constant([1.0]), c)])
    assert c.numpy()[0] == 2.0


def test_builtin_optimizers_take_new_variables_later():
    opt = optimizers.Nadam(0.1)
    a, c = tf.Variable([1.0]), tf.Variable([2.0])
    opt.apply_gradients([(tf.constant([1.0]), a)])
    opt.apply_gradients([(tf.constant([1.0]), c)])
    assert c.numpy()[0] < 2.0 and opt._get_variable_index(c) == 1


def test_subclass_without_super_init_is_explained():
    class Broken(optimizers.Optimizer):
        def __init__(self):
            self.x = 1

    with pytest.raises(RuntimeError, match="super"):
        Broken().apply_gradients([(tf.constant([1.0]), tf.Variable([1.0]))])


def test_subclass_without_update_step_is_explained():
    class Empty(optimizers.Optimizer):
        pass

    with pytest.raises(NotImplementedError, match="update_step"):
        Empty(0.1).apply_gradients([(tf.constant([1.0]), tf.Variable([1.0]))])


def test_subclass_overriding_update_step_of_a_builtin_can_call_super():
    class LoggingAdam(optimizers.Adam):
        calls = 0

        def update_step(self, gradient, variable, learning_rate):
            type(self).calls += 1
            super().update_step(gradient, variable, learning_rate)

    ours, ref = LoggingAdam(0.1), optimizers.Adam(0.1)
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 2.0])
    for _ in range(3):
        ours.apply_gradients([(tf.constant([0.5, -1.0]), a)])
        ref.apply_gradients([(tf.constant([0.5, -1.0]), b)])
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-7)
    assert LoggingAdam.calls == 3


def test_apply_checks_its_arguments():
    opt = optimizers.SGD(0.1)
    with pytest.raises(ValueError, match="build"):
        opt.apply([tf.constant([1.0])])
    a = tf.Variable([1.0])
    opt.apply([tf.constant([1.0])], [a])
    with pytest.raises(ValueError, match="2 gradients"):
        opt.apply([tf.constant([1.0]), tf.constant([1.0])])
    np.testing.assert_allclose(a.numpy(), [0.9])


def test_assign_helpers_and_add_variable_initializers():
    opt = optimizers.SGD(0.1)
    v = opt.add_variable((2,), initializer="ones", name="x")
    opt.assign_add(v, tf.constant([1.0, 2.0]))
    opt.assign_sub(v, tf.constant([0.5, 0.5]))
    np.testing.assert_allclose(v.numpy(), [1.5, 2.5])
    opt.assign(v, tf.constant([0.0, 1.0]))
    np.testing.assert_allclose(v.numpy(), [0.0, 1.0])
    w = opt.add_variable((2, 2), initializer=tf.keras.initializers.Constant(3.0),
                         dtype="float64")
    assert w.dtype == tf.float64 and w.numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    with pytest.raises(ValueError, match="initializer"):
        opt.add_variable((2,), initializer="glorot_nonsense")
    with pytest.raises(ValueError, match="2 names but 3 initializers"):
        opt.add_optimizer_variables([tf.Variable([1.0])], ["a", "b"], ["zeros"] * 3)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_unknown_option_is_named(cls):
    with pytest.raises(ValueError, match="momentun"):
        cls(learning_rate=0.1, momentun=0.9)


@pytest.mark.parametrize("kwargs, word", [
    ({"gradient_accumulation_steps": 1}, "gradient_accumulation_steps"),
    ({"use_ema": True, "ema_momentum": 1.5}, "ema_momentum"),
    ({"use_ema": True, "ema_overwrite_frequency": 0.5}, "ema_overwrite_frequency"),
    ({"clipnorm": 1.0, "clipvalue": 1.0}, "clipnorm"),
    ({"loss_scale_factor": 0.0}, "loss_scale_factor"),
])
def test_bad_option_values_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        optimizers.Adam(0.1, **kwargs)


def test_loss_scale_optimizer_arguments():
    with pytest.raises(ValueError, match="clipnorm"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="bogus"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), bogus=1)
    with pytest.raises(ValueError, match="dynamic=False"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), dynamic=False)
    with pytest.raises(TypeError, match="inner_optimizer"):
        optimizers.LossScaleOptimizer("sgd")


def test_decay_is_ignored_with_a_warning():
    with pytest.warns(UserWarning, match="decay"):
        optimizers.SGD(0.1, decay=0.01)


def test_learning_rate_is_settable_and_reads_the_schedule():
    opt = optimizers.Lion(0.1)
    opt.learning_rate = 0.05
    assert float(opt.learning_rate.numpy()) == pytest.approx(0.05)
    opt.learning_rate = schedules.ExponentialDecay(0.2, 1, 0.5)
    assert float(np.asarray(opt.learning_rate)) == pytest.approx(0.2)
    a = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([1.0]), a)])
    assert float(np.asarray(opt.learning_rate)) == pytest.approx(0.1)  # step 1: 0.2 * 0.5
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        opt.learning_rate = 0.3
    opt = optimizers.SGD(lambda: 0.25)
    assert float(np.asarray(opt.learning_rate)) == 0.25


def test_custom_schedule_round_trips_with_custom_objects():
    class Linear(schedules.LearningRateSchedule):
        def __init__(self, start, slope):
            self.start, self.slope = start, slope

        def __call__(self, step):
            return self.start + self.slope * tf.cast(step, tf.float32)

        def get_config(self):
            return {"start": self.start, "slope": self.slope}

    opt = optimizers.SGD(Linear(0.1, 0.01))
    config = optimizers.serialize(opt)
    clone = optimizers.deserialize(config, custom_objects={"Linear": Linear})
    assert isinstance(clone._learning_rate, Linear) and clone._learning_rate.slope == 0.01
    with pytest.raises(ValueError, match="custom_objects"):
        optimizers.deserialize(config)


def test_schedule_arguments_are_checked():
    with pytest.raises(ValueError, match="decay_steps"):
        schedules.PolynomialDecay(0.1, 0)
    with pytest.raises(ValueError, match="decay_steps"):
        schedules.InverseTimeDecay(0.1, -1, 0.5)
    with pytest.raises(ValueError, match="first_decay_steps"):
        schedules.CosineDecayRestarts(0.1, 0)


def test_get_knows_every_optimizer():
    for cls in ALL:
        assert isinstance(optimizers.get(cls.__name__.lower()), cls)
    assert optimizers.get({"class_name": "Lamb", "config": {"learning_rate": 0.3}}) \
        .get_config()["learning_rate"] == pytest.approx(0.3)
    assert tf.keras.optimizers.Adafactor is optimizers.Adafactor


def test_loss_scale_factor_scales_the_loss_and_unscales_gradients():
    opt = optimizers.SGD(0.1, loss_scale_factor=8.0)
    assert float(opt.scale_loss(tf.constant(2.0))) == 16.0
    a = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([8.0]), a)])
    np.testing.assert_allclose(a.numpy(), [0.9])


def test_gradient_accumulation_holds_variables_between_updates():
    opt = optimizers.SGD(0.1, gradient_accumulation_steps=3)
    a = tf.Variable([0.0])
    for g in (1.0, 2.0):
        opt.apply_gradients([(tf.constant([g]), a)])
        assert a.numpy()[0] == 0.0
    opt.apply_gradients([(tf.constant([6.0]), a)])
    np.testing.assert_allclose(a.numpy(), [-0.3])
    assert int(np.asarray(opt.iterations)) == 1 and int(opt._iterations.numpy()) == 3
    np.testing.assert_allclose(opt.get_slot(a, "gradient_accumulator").numpy(), [0.0])


def test_ema_finalize_overwrites_with_the_average():
    opt = optimizers.SGD(1.0, use_ema=True, ema_momentum=0.5)
    a = tf.Variable([0.0])
    for _ in range(3):
        opt.apply_gradients([(tf.constant([1.0]), a)])
    # weights -1, -2, -3; averages -1, -1.5, -2.25
    np.testing.assert_allclose(opt.get_slot(a, "average").numpy(), [-2.25])
    opt.finalize_variable_values([a])
    np.testing.assert_allclose(a.numpy(), [-2.25])


def test_weight_decay_exclusion():
    opt = optimizers.Lion(0.1, weight_decay=0.5)
    a, bias = tf.Variable([1.0]), tf.Variable([1.0], name="bias")
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients([(tf.constant([1.0]), a), (tf.constant([1.0]), bias)])
    np.testing.assert_allclose(a.numpy(), [1.0 - 0.05 - 0.1])
    np.testing.assert_allclose(bias.numpy(), [0.9])


def run_problem(make, traced, steps=5):
    opt = make()
    w = tf.Variable(np.array([1.0, -2.0, 3.0], np.float32))
    u = tf.Variable(np.ones((2, 3), np.float32))

    def step(g1, g2):
        return opt.apply_gradients([(g1, w), (g2, u)])

    run = tf.function(step, autograph=False) if traced else step
    for t in range(steps):
        g1 = np.float32(0.5) * w.numpy() + np.float32(t)
        g2 = u.numpy() * np.float32(0.3) - np.float32(0.1 * t)
        if t == 2 and isinstance(opt, optimizers.LossScaleOptimizer):
            g1[0] = np.inf
        run(tf.constant(g1), tf.constant(g2))
    opt.finalize_variable_values([w, u])
    return w.numpy(), u.numpy(), int(np.asarray(opt.iterations))


@pytest.mark.parametrize("make", [
    lambda: optimizers.Nadam(0.1, use_ema=True, ema_overwrite_frequency=2,
                             gradient_accumulation_steps=2),
    lambda: optimizers.Adafactor(0.1),
    lambda: optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
    lambda: optimizers.LossScaleOptimizer(optimizers.Adam(0.1), initial_scale=4.0,
                                          dynamic_growth_steps=2),
    lambda: optimizers.Lamb(0.1, weight_decay=0.1, clipnorm=1.0),
    lambda: optimizers.Adamax(schedules.CosineDecayRestarts(0.1, 2), use_ema=True),
    lambda: MomentumSGD(learning_rate=0.1, gradient_accumulation_steps=2),
], ids=["nadam_options", "adafactor", "ftrl", "loss_scale", "lamb", "adamax", "custom"])
def test_traced_steps_equal_eager_steps(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        eager, traced = run_problem(make, False), run_problem(make, True)
    for a, b in zip(eager[:2], traced[:2]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert eager[2] == traced[2]


def test_nadam_momentum_product_is_checkpointed():
    opt = optimizers.Nadam(0.1)
    a = tf.Variable([1.0, 2.0])
    opt.apply_gradients([(tf.constant([1.0, 1.0]), a)])
    children = opt._checkpoint_children()
    assert list(children) == ["iterations", "slots/0/momentum", "slots/0/velocity",
                              "variables/0"]
    restored = optimizers.Nadam(0.1)
    restored._defer_restore({k: v.numpy() for k, v in children.items() if k != "iterations"})
    restored.build([tf.Variable([1.0, 2.0])])
    np.testing.assert_allclose(restored._u_product.numpy(), opt._u_product.numpy())
    assert restored.get_slot(restored._seen[0], "velocity").numpy()[0] > 0


def test_set_weights_and_own_variables_round_trip():
    opt = optimizers.Adamax(0.1)
    a = tf.Variable([1.0, 2.0])
    opt.apply_gradients([(tf.constant([1.0, -1.0]), a)])
    store = {}
    opt.save_own_variables(store)
    other = optimizers.Adamax(0.1)
    other.build([tf.Variable([0.0, 0.0])])
    other.load_own_variables(store)
    assert [np.asarray(v.numpy()).tolist() for v in other.variables] == \
        [np.asarray(v.numpy()).tolist() for v in opt.variables]
    with pytest.raises(ValueError, match="set_weights"):
        other.set_weights([np.zeros(2)])


def test_sparse_gradients_reach_the_new_optimizers_densified():
    for cls in (optimizers.Lion, optimizers.Adadelta, optimizers.Nadam):
        dense_opt, sparse_opt = cls(0.1), cls(0.1)
        a = tf.Variable(np.arange(6.0).reshape(3, 2))
        b = tf.Variable(np.arange(6.0).reshape(3, 2))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(b, [0, 2, 0]) ** 2)
        grad = tape.gradient(loss, b)
        assert isinstance(grad, tf.IndexedSlices)
        sparse_opt.apply_gradients([(grad, b)])
        dense_opt.apply_gradients([(tf.convert_to_tensor(grad), a)])
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)
