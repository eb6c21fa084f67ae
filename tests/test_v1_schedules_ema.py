"""TF 1 learning-rate decay functions of the global step and ExponentialMovingAverage, against
TensorFlow 2.21 running the same TF 1 graphs (answers stored in tests/references/), and against
NumPy and eager use where TensorFlow is not needed."""
import math

import numpy as np
import pytest

from keras_tf_eval import tf_eval
import wengert as tf
import wengert.compat.v1 as v1

STEPS = [0, 1, 3, 7, 10, 15, 24, 50, 100]
DECAYS = {
    "exponential": "train.exponential_decay(0.1, step, 10, 0.5)",
    "exponential_staircase": "train.exponential_decay(0.1, step, 10, 0.5, staircase=True)",
    "exponential_float64": "train.exponential_decay(tf.constant(0.1, tf.float64), step, 10, 0.5)",
    "natural_exp": "train.natural_exp_decay(0.1, step, 10, 0.3)",
    "natural_exp_staircase": "train.natural_exp_decay(0.1, step, 10, 0.3, staircase=True)",
    "inverse_time": "train.inverse_time_decay(0.1, step, 10, 0.5)",
    "inverse_time_staircase": "train.inverse_time_decay(0.1, step, 10, 0.5, staircase=True)",
    "polynomial": "train.polynomial_decay(0.1, step, 20, 0.01, power=2.0)",
    "polynomial_cycle": "train.polynomial_decay(0.1, step, 20, 0.01, power=0.5, cycle=True)",
    "piecewise": "train.piecewise_constant(step, [5, 20], [1.0, 0.5, 0.1])",
    "piecewise_int": "train.piecewise_constant(step, [5, 20], [3, 2, 1])",
    "cosine": "train.cosine_decay(0.1, step, 30, alpha=0.1)",
    "cosine_restarts": "train.cosine_decay_restarts(0.1, step, 10, t_mul=2.0, m_mul=0.5, "
                       "alpha=0.05)",
    "cosine_restarts_even": "train.cosine_decay_restarts(0.1, step, 10, t_mul=1.0)",
    "linear_cosine": "train.linear_cosine_decay(0.1, step, 30, num_periods=2.0, alpha=0.1, "
                     "beta=0.01)",
    "noiseless_linear_cosine": "train.noisy_linear_cosine_decay(0.1, step, 30, "
                               "initial_variance=0.0)",
}
DECAY_PROGRAM = """
for name, expr in DECAYS.items():
    with v1.Graph().as_default():
        step = v1.placeholder(tf.int64, [])
        lr = eval(expr, {"train": v1.train, "step": step, "tf": tf})
        with v1.Session() as sess:
            values = [sess.run(lr, {step: s}) for s in STEPS]
        out[name] = np.array(values)
        out[name + "/dtype"] = np.array(str(np.asarray(values[0]).dtype))
"""

RNG = np.random.default_rng(281)
ARRAYS = {"x": RNG.normal(size=(6, 3)).astype(np.float32),
          "y": RNG.normal(size=(6, 2)).astype(np.float32),
          "w0": RNG.normal(size=(3, 2)).astype(np.float32),
          "b0": RNG.normal(size=(2,)).astype(np.float32),
          "feeds": RNG.normal(size=(5, 2)).astype(np.float32)}
EMA_PROGRAM = """
with v1.Graph().as_default():
    gs = v1.train.get_or_create_global_step()
    w = v1.get_variable("w", initializer=A["w0"])
    b = v1.get_variable("b", initializer=A["b0"])
    loss = v1.reduce_sum(v1.square(v1.matmul(A["x"], w) + b - A["y"]))
    train = v1.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=gs)
    fed = v1.placeholder(tf.float32, [2], name="fed")
    ema = v1.train.ExponentialMovingAverage(0.9, num_updates=gs)
    debiased = v1.train.ExponentialMovingAverage(0.8, zero_debias=True, name="debiased")
    with v1.control_dependencies([train]):
        update = v1.group(ema.apply([w, b]), debiased.apply([fed]))
    out["names"] = np.array([ema.average_name(w), ema.average(b).name,
                             debiased.average_name(fed)])
    out["restore_keys"] = np.array(sorted(ema.variables_to_restore()))
    out["variables"] = np.array([v.name for v in v1.global_variables()])
    out["moving_average_variables"] = np.array([v.name for v in v1.moving_average_variables()])
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        for value in A["feeds"]:
            sess.run(update, {fed: value})
        out["w"], out["w_avg"], out["b_avg"], out["fed_avg"] = sess.run(
            [w, ema.average(w), ema.average(b), debiased.average(fed)])
"""


def _run_mine(program, names):
    out = {}
    exec(program, {**names, "v1": v1, "tf": tf, "np": np, "out": out})
    return out


@pytest.fixture(scope="module")
def decays():
    prelude = f"v1 = tf.compat.v1\nv1.disable_eager_execution()\nDECAYS = {DECAYS!r}\n" \
              f"STEPS = {STEPS!r}\n"
    return tf_eval(prelude + DECAY_PROGRAM), _run_mine(DECAY_PROGRAM, {"DECAYS": DECAYS,
                                                                        "STEPS": STEPS})


@pytest.mark.parametrize("name", sorted(DECAYS))
def test_decay_matches_tensorflow_over_steps(name, decays):
    theirs, mine = decays
    assert str(mine[name + "/dtype"]) == str(theirs[name + "/dtype"])
    np.testing.assert_allclose(mine[name], theirs[name], rtol=2e-6, atol=1e-9)


def test_decays_are_callables_eagerly_and_need_a_step():
    step = tf.Variable(np.int64(0))
    lr = v1.train.exponential_decay(0.1, step, 10, 0.5)
    assert callable(lr) and math.isclose(float(lr()), 0.1, rel_tol=1e-6)
    step.assign(10)
    assert math.isclose(float(lr()), 0.05, rel_tol=1e-6)
    w = tf.Variable([1.0])
    v1.train.GradientDescentOptimizer(lr).minimize(lambda: tf.reduce_sum(w * 2.0), var_list=[w])
    np.testing.assert_allclose(w.numpy(), [0.9], rtol=1e-6)
    with pytest.raises(ValueError, match="global_step is required for cosine_decay"):
        v1.train.cosine_decay(0.1, None, 10)
    with pytest.raises(ValueError, match="length of boundaries should be 1 less"):
        v1.train.piecewise_constant(step, [1, 2], [1.0])


def test_noisy_linear_cosine_decay_wanders_around_the_linear_cosine():
    values = [float(v1.train.noisy_linear_cosine_decay(0.1, 3, 30, initial_variance=0.01)())
              for _ in range(200)]
    exact = float(v1.train.linear_cosine_decay(0.1, 3, 30)())
    std = 0.1 * math.sqrt(0.01 / 4 ** 0.55) * 0.5 * (1 + math.cos(math.pi * 0.1))
    assert abs(np.mean(values) - exact) < 4 * std / math.sqrt(200)
    assert 0.7 * std < np.std(values) < 1.3 * std


@pytest.fixture(scope="module")
def ema_results():
    prelude = "v1 = tf.compat.v1\nv1.disable_eager_execution()\n"
    return tf_eval(prelude + EMA_PROGRAM, ARRAYS), _run_mine(EMA_PROGRAM, {"A": ARRAYS})


@pytest.mark.parametrize("key", ["names", "restore_keys", "variables",
                                 "moving_average_variables", "w", "w_avg", "b_avg", "fed_avg"])
def test_moving_average_matches_tensorflow(key, ema_results):
    theirs, mine = ema_results
    if theirs[key].dtype.kind == "U":
        assert list(mine[key]) == list(theirs[key])
    else:
        np.testing.assert_allclose(mine[key], theirs[key], rtol=2e-6, atol=1e-7)


def test_eager_moving_average_against_numpy():
    w = tf.Variable(np.array([1.0, 2.0]), name="w")
    ema = v1.train.ExponentialMovingAverage(0.5)
    expected = np.array([3.0, 0.0])  # the shadow starts at the value the first apply sees
    for value in ([3.0, 0.0], [5.0, 4.0]):
        w.assign(value)
        assert ema.apply([w]) is None
        expected = expected - 0.5 * (expected - np.array(value))
    np.testing.assert_allclose(ema.average(w).numpy(), expected, rtol=1e-12)
    assert ema.average_name(w) == "w/ExponentialMovingAverage"
    with pytest.raises(TypeError, match="must be half, float, or double"):
        ema.apply([tf.Variable([1, 2])])


def test_saver_restores_the_averages_into_the_model(tmp_path):
    with v1.Graph().as_default():
        w = v1.get_variable("w", initializer=np.float32([1.0, 2.0]))
        ema = v1.train.ExponentialMovingAverage(0.5)
        with v1.control_dependencies([w.assign([3.0, 4.0])]):
            update = ema.apply([w])
        saver = v1.train.Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(update)
            path = saver.save(sess, str(tmp_path / "m"))
            average = sess.run(ema.average(w))
    with v1.Graph().as_default():
        w = v1.get_variable("w", [2])
        ema = v1.train.ExponentialMovingAverage(0.5)
        with v1.Session() as sess:
            v1.train.Saver(ema.variables_to_restore()).restore(sess, path)
            np.testing.assert_allclose(sess.run(w), average)
    np.testing.assert_allclose(average, [2.0, 3.0])
