"""Optimizer.stateless_apply (one step on given values, the variables untouched) and
LossScaleOptimizer.check_finite against TensorFlow 2.21's Keras 3 and by hand. Keras's
TensorFlow backend refuses stateless_apply (tf.distribute), so the reference is the same step
taken the stateful way: the values assigned, `apply` run, the results read."""
import numpy as np
import pytest

import wengert as tf
from wengert import keras

from keras_tf_eval import tf_eval

STATEFUL = '''
def step(opt, w, state):
    for variable, value in zip(opt.variables, state):
        variable.assign(value)
    kept = np.asarray(w)
    w.assign(A["w2"])
    opt.apply([A["g2"]], [w])
    out_w, out_state = [np.asarray(w)], [np.asarray(v) for v in opt.variables]
    w.assign(kept)
    return out_w, out_state
'''
STATELESS = '''
def step(opt, w, state):
    return opt.stateless_apply(state, [A["g2"]], [A["w2"]])
'''
SCRIPT = '''
for name, make in (("sgd", lambda: keras.optimizers.SGD(0.1, momentum=0.9)),
                   ("adam", lambda: keras.optimizers.Adam(0.01))):
    opt = make()
    w = keras.Variable(A["w"])
    opt.build([w])
    first = [np.asarray(v) for v in opt.variables]
    opt.apply([A["g1"]], [w])
    state = [np.asarray(v) for v in opt.variables]
    new_w, new_state = step(opt, w, state)
    out[name + "_w"] = np.asarray(new_w[0])
    out[name + "_state"] = np.concatenate([np.ravel(np.asarray(v, "float64")) for v in new_state])
    out[name + "_kept"] = np.asarray(w)
lso = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD())
out["finite"] = np.array([bool(lso.check_finite([A["g1"], A["g2"]])),
                          bool(lso.check_finite([A["g1"], A["bad"]]))])
'''


def _arrays():
    rng = np.random.default_rng(4)
    return {k: rng.normal(size=(3,)).astype("float32") for k in ("w", "w2", "g1", "g2")} | {
        "bad": np.array([1.0, np.nan, 2.0], "float32")}


@pytest.fixture(scope="module")
def answers():
    arrays, ours = _arrays(), {}
    scope = {"keras": keras, "np": np, "A": arrays, "out": ours}
    exec(STATELESS + SCRIPT.replace("keras.Variable", "tf.Variable"), scope | {"tf": tf})
    return ours, tf_eval(STATEFUL + SCRIPT, arrays)


@pytest.mark.parametrize("key", ["sgd_w", "sgd_state", "sgd_kept", "adam_w", "adam_state",
                                 "adam_kept", "finite"])
def test_matches_keras(answers, key):
    ours, theirs = answers[0][key], answers[1][key]
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours.astype("float64"), theirs.astype("float64"), rtol=1e-6,
                               atol=1e-7)


def test_stateless_apply_needs_a_built_optimizer_and_matching_lists():
    opt = keras.optimizers.SGD(0.5)
    with pytest.raises(ValueError, match="built"):
        opt.stateless_apply([], [tf.constant([1.0])], [np.zeros(1, "float32")])
    v = tf.Variable([1.0, 2.0])
    opt.build([v])
    with pytest.raises(ValueError, match="trainable"):
        opt.stateless_apply([x.numpy() for x in opt.variables], [tf.constant([1.0, 1.0])], [])
    new, state = opt.stateless_apply([x.numpy() for x in opt.variables],
                                     [tf.constant([1.0, 1.0])], [np.array([3.0, 3.0], "float32")])
    np.testing.assert_allclose(new[0].numpy(), [2.5, 2.5])
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])
    assert int(opt.iterations.numpy()) == 0 and int(state[0].numpy()) == 1
