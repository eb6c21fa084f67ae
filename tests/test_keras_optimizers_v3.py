"""Keras 3's optimizers, options and schedules in wengert, step by step against TensorFlow's
Keras (2.21 / Keras 3).

tests/keras_optimizer_trajectories.json holds Keras 3's own trajectories on a fixed small
problem (written by tests/keras_optimizer_trajectories_tf.py, which documents the problem):
every optimizer, every base option (weight decay, the three clippings, EMA with and without
overwrite, gradient accumulation, loss_scale_factor), every schedule, a custom schedule, a
custom optimizer subclass and LossScaleOptimizer. Each case is replayed here with wengert and
compared after every step, so these checks run without TensorFlow.
"""
import json
import pathlib

import numpy as np
import pytest

import wengert as tf
from wengert import optimizers
from wengert.optimizers import schedules

DATA = json.loads((pathlib.Path(__file__).parent / "keras_optimizer_trajectories.json")
                  .read_text())
NAMES = ("w1", "w2")


class HalvingSchedule(schedules.LearningRateSchedule):
    """The test script's custom schedule: lr0 / 2^(step // every)."""

    def __init__(self, lr0, every):
        self.lr0, self.every = lr0, every

    def __call__(self, step):
        halvings = tf.math.floordiv(tf.cast(step, tf.float32), float(self.every))
        return self.lr0 * tf.pow(0.5, halvings)

    def get_config(self):
        return {"lr0": self.lr0, "every": self.every}


class MomentumSGD(optimizers.Optimizer):
    """The custom optimizer of Keras's Optimizer docstring, written with the public hooks."""

    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, variables):
        super().build(variables)
        self.momentums = [self.add_variable_from_reference(v, "momentum") for v in variables]
        self.counter = self.add_variable(shape=(), dtype="float32", name="counter")

    def update_step(self, gradient, variable, learning_rate):
        learning_rate = tf.cast(learning_rate, variable.dtype)
        m = self.momentums[self._get_variable_index(variable)]
        self.assign(m, m * self.momentum - gradient * learning_rate)
        self.assign_add(variable, m)
        self.assign_add(self.counter, 1.0)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}


CLASSES = {"MomentumSGD": MomentumSGD}
SCHEDULE_CLASSES = {"HalvingSchedule": HalvingSchedule}


def gradients(weights, t):
    out = {}
    for k in NAMES:
        drift = np.asarray(DATA["D"][t][k], np.float32)
        out[k] = (np.float32(0.5) * (weights[k] - np.asarray(DATA["C"][k], np.float32))
                  + drift).astype(np.float32)
    return out


def make_learning_rate(value):
    if isinstance(value, dict):
        cls = SCHEDULE_CLASSES.get(value["schedule"]) or getattr(schedules, value["schedule"])
        return cls(**value["config"])
    return value


def make_optimizer(case):
    kwargs = {k: make_learning_rate(v) if k == "learning_rate" else v
              for k, v in case["kwargs"].items()}
    cls = CLASSES.get(case["class_name"]) or getattr(optimizers, case["class_name"])
    return cls(**kwargs)


def new_variables():
    return [tf.Variable(np.asarray(DATA["W0"][k], np.float32), name=k) for k in NAMES]


def run_case(opt, steps, step_fn=None):
    variables = new_variables()
    trajectory, n_variables = [], None
    for t in range(steps):
        g = gradients({k: v.numpy() for k, v in zip(NAMES, variables)}, t)
        pairs = [(tf.constant(g[k]), v) for k, v in zip(NAMES, variables)]
        (step_fn or opt.apply_gradients)(pairs)
        n_variables = n_variables or len(opt.variables)
        trajectory.append([v.numpy().ravel() for v in variables])
    opt.finalize_variable_values(variables)
    return trajectory, [v.numpy().ravel() for v in variables], n_variables


@pytest.mark.parametrize("name", sorted(DATA["cases"]))
def test_trajectory_matches_keras(name):
    case = DATA["cases"][name]
    opt = make_optimizer(case)
    trajectory, final, n_variables = run_case(opt, case["steps"])
    for step, (ours, theirs) in enumerate(zip(trajectory, case["trajectory"])):
        for k, a, b in zip(NAMES, ours, theirs):
            np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name}: {k} after step {step + 1}")
    for a, b in zip(final, case["final"]):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6, err_msg=f"{name}: finalized")
    assert int(np.asarray(opt.iterations)) == case["iterations"]
    assert n_variables == case["n_variables"], f"{name}: optimizer variables"


@pytest.mark.parametrize("name", sorted(DATA["schedules"]))
def test_schedule_values_match_keras(name):
    entry = DATA["schedules"][name]
    schedule = getattr(schedules, entry["class_name"])(**entry["config"])
    ours = [float(np.asarray(schedule(step))) for step in range(len(entry["values"]))]
    np.testing.assert_allclose(ours, entry["values"], rtol=1e-6, atol=1e-8)
    assert sorted(schedule.get_config()) == entry["config_keys"]
    clone = schedules.deserialize(schedules.serialize(schedule))
    assert float(np.asarray(clone(7))) == pytest.approx(entry["values"][7], rel=1e-6)
    traced = tf.function(lambda s: schedule(s))
    np.testing.assert_allclose(float(traced(tf.constant(9, tf.int64))), entry["values"][9],
                               rtol=1e-6)


def test_loss_scale_optimizer_matches_keras():
    expected = DATA["loss_scale"]
    opt = optimizers.LossScaleOptimizer(optimizers.SGD(0.1, momentum=0.5), initial_scale=8.0,
                                        dynamic_growth_steps=2)
    variables = new_variables()
    for t, (weights, scale) in enumerate(zip(expected["trajectory"], expected["scales"])):
        factor = float(opt.dynamic_scale.numpy()) if opt.built else 8.0
        g = {k: v * np.float32(factor) for k, v in
             gradients({k: v.numpy() for k, v in zip(NAMES, variables)}, t).items()}
        if t == 2:
            g["w2"][0, 1] = np.inf
        opt.apply_gradients([(tf.constant(g[k]), v) for k, v in zip(NAMES, variables)])
        for v, w in zip(variables, weights):
            np.testing.assert_allclose(v.numpy().ravel(), w, rtol=2e-5, atol=2e-6)
        assert float(opt.dynamic_scale.numpy()) == scale
    assert int(opt.iterations.numpy()) == expected["iterations"]
    assert sorted(opt.get_config()) == expected["config_keys"]
    clone = optimizers.LossScaleOptimizer.from_config(opt.get_config())
    assert isinstance(clone.inner_optimizer, optimizers.SGD)
    assert clone.inner_optimizer.momentum == 0.5 and clone.dynamic_growth_steps == 2
    assert float(np.asarray(opt.scale_loss(tf.constant(1.0)))) == expected["scales"][-1]


@pytest.mark.parametrize("name", sorted(DATA["default_configs"]))
def test_default_config_matches_keras(name):
    theirs = DATA["default_configs"][name]
    ours = getattr(optimizers, name)().get_config()
    assert sorted(ours) == sorted(theirs)
    for key, value in theirs.items():
        if isinstance(value, float):
            assert ours[key] == pytest.approx(value, rel=1e-6), key
        elif key != "name":
            assert ours[key] == value, key
    clone = type(getattr(optimizers, name)()).from_config(ours)
    assert clone.get_config() == ours
    assert optimizers.deserialize(optimizers.serialize(clone)).get_config() == ours
