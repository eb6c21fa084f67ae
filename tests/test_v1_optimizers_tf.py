"""Every TF 1 optimizer of compat.v1.train against TensorFlow 2.21 running the same TF 1 graph:
a least-squares loss over a weight matrix and a bias, five `minimize(global_step=...)` steps in
a Session, then the weights, every slot of the weight matrix, the global step and the names of
the graph's variables (slots named as TensorFlow names them). TensorFlow's answers are stored
(tests/references/), so this also checks where TensorFlow is absent."""
import numpy as np
import pytest

from keras_tf_eval import tf_eval
import wengert as tf
import wengert.compat.v1 as v1

CONFIGS = {
    "gd": "train.GradientDescentOptimizer(0.05)",
    "momentum": "train.MomentumOptimizer(0.05, 0.9)",
    "nesterov": "train.MomentumOptimizer(0.05, 0.9, use_nesterov=True)",
    "adam": "train.AdamOptimizer(0.05, beta1=0.8, beta2=0.9, epsilon=1e-4)",
    "rmsprop": "train.RMSPropOptimizer(0.05, decay=0.8, momentum=0.5, centered=True)",
    "adagrad": "train.AdagradOptimizer(0.2, initial_accumulator_value=0.5)",
    "adagrad_da": "train.AdagradDAOptimizer(0.2, gs)",
    "adagrad_da_l1_l2": "train.AdagradDAOptimizer(0.2, gs, 0.3, l1_regularization_strength=0.05,"
                        " l2_regularization_strength=0.1)",
    "adadelta": "train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-3)",
    "ftrl": "train.FtrlOptimizer(0.2)",
    "ftrl_l1_l2_shrinkage": "train.FtrlOptimizer(0.2, learning_rate_power=-0.7, "
                            "initial_accumulator_value=0.3, l1_regularization_strength=0.1, "
                            "l2_regularization_strength=0.2, "
                            "l2_shrinkage_regularization_strength=0.05, beta=0.3)",
    "ftrl_named_slots": "train.FtrlOptimizer(0.2, accum_name='acc', linear_name='lin')",
    "proximal_adagrad": "train.ProximalAdagradOptimizer(0.2, 0.4, 0.05, 0.1)",
    "proximal_gd": "train.ProximalGradientDescentOptimizer(0.05, 0.2, 0.3)",
    "proximal_gd_plain": "train.ProximalGradientDescentOptimizer(0.05)",
}

RNG = np.random.default_rng(28)
ARRAYS = {"x": RNG.normal(size=(6, 3)).astype(np.float32),
          "y": RNG.normal(size=(6, 2)).astype(np.float32),
          "w0": RNG.normal(size=(3, 2)).astype(np.float32),
          "b0": RNG.normal(size=(2,)).astype(np.float32)}

# One program, run by TensorFlow as written and by wengert with `v1` standing in for
# tf.compat.v1: it fills `out` with each configuration's results.
PROGRAM = """
for name, config in CONFIGS.items():
    with v1.Graph().as_default():
        gs = v1.train.get_or_create_global_step()
        w = v1.get_variable("w", initializer=A["w0"])
        b = v1.get_variable("b", initializer=A["b0"])
        loss = v1.reduce_sum(v1.square(v1.matmul(A["x"], w) + b - A["y"]))
        opt = eval(config, {"train": v1.train, "gs": gs})
        step = opt.minimize(loss, global_step=gs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(5):
                sess.run(step)
            out[name + "/w"], out[name + "/b"], out[name + "/step"] = sess.run([w, b, gs])
            for slot in opt.get_slot_names():
                out[name + "/slot_" + slot] = sess.run(opt.get_slot(w, slot))
            out[name + "/names"] = np.array([v.name for v in v1.global_variables()])
"""


@pytest.fixture(scope="module")
def theirs():
    script = f"v1 = tf.compat.v1\nv1.disable_eager_execution()\nCONFIGS = {CONFIGS!r}\n" + PROGRAM
    return tf_eval(script, ARRAYS)


@pytest.fixture(scope="module")
def mine():
    out = {}
    exec(PROGRAM, {"CONFIGS": CONFIGS, "v1": v1, "A": ARRAYS, "np": np, "out": out})
    return out


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_five_session_steps_match_tensorflow(name, theirs, mine):
    keys = sorted(k for k in theirs if k.startswith(name + "/"))
    assert keys == sorted(k for k in mine if k.startswith(name + "/"))
    for key in keys:
        if key.endswith("/names"):
            assert list(mine[key]) == list(theirs[key]), key
        else:
            np.testing.assert_allclose(mine[key], theirs[key], rtol=2e-5, atol=1e-6,
                                       err_msg=key)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_eager_steps_match_tensorflows_session(name, theirs):
    """The same five steps taken eagerly (a callable loss) land where TensorFlow's graph did."""
    gs = tf.Variable(np.int64(0), trainable=False, name="global_step")
    w = tf.Variable(ARRAYS["w0"], name="w")
    b = tf.Variable(ARRAYS["b0"], name="b")
    opt = eval(CONFIGS[name], {"train": v1.train, "gs": gs})

    def loss():
        return tf.reduce_sum(tf.square(tf.matmul(ARRAYS["x"], w) + b - ARRAYS["y"]))
    for _ in range(5):
        opt.minimize(loss, global_step=gs, var_list=[w, b])
    np.testing.assert_allclose(w.numpy(), theirs[name + "/w"], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), theirs[name + "/b"], rtol=2e-5, atol=1e-6)
    assert int(gs.numpy()) == 5


def _graph_step(**options):
    with v1.Graph().as_default():
        w = v1.get_variable("w", initializer=ARRAYS["w0"])
        loss = v1.reduce_sum(v1.square(v1.matmul(ARRAYS["x"], w) - ARRAYS["y"][:, :2]))
        opt = v1.train.AdagradOptimizer(0.1)
        step = opt.minimize(loss, **options)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step)
            return sess.run(w), opt.get_slot_names()


def test_gating_aggregation_and_grad_loss_options():
    plain, names = _graph_step()
    assert names == ["accumulator"]
    for options in ({"gate_gradients": v1.train.Optimizer.GATE_GRAPH},
                    {"gate_gradients": v1.train.Optimizer.GATE_NONE},
                    {"aggregation_method": 1},
                    {"colocate_gradients_with_ops": True}, {"name": "step"}):
        np.testing.assert_allclose(_graph_step(**options)[0], plain, rtol=1e-6)
    doubled, _ = _graph_step(grad_loss=np.float32(2.0))
    assert not np.allclose(doubled, plain)  # twice the gradient: another Adagrad step
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
        _graph_step(gate_gradients=7)


def test_hyperparameter_errors_name_the_argument():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        v1.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match=r"learning_rate_power \(0.5\) must be a non-positive"):
        v1.train.FtrlOptimizer(0.1, learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength -1 needs to be positive"):
        v1.train.FtrlOptimizer(0.1, l1_regularization_strength=-1)
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be"):
        v1.train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=0)


def test_proximal_step_zeroes_small_weights_as_numpy_computes():
    """ProximalGradientDescent against the closed form in NumPy (float64)."""
    w0 = np.array([0.3, -0.02, 0.01, -1.0])
    g = np.array([0.1, 0.1, 0.0, 0.2])
    w = tf.Variable(w0)
    opt = v1.train.ProximalGradientDescentOptimizer(0.5, 0.1, 0.2)
    opt.apply_gradients([(tf.constant(g), w)])
    v = w0 - 0.5 * g
    expected = np.sign(v) * np.maximum(np.abs(v) - 0.05, 0) / (1 + 0.1)
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-12)
    assert w.numpy()[2] == 0.0


def test_global_step_value_and_assertions():
    with v1.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        v1.train.assert_global_step(step)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(step.assign_add(4))
            assert v1.train.global_step(sess, step) == 4
    assert v1.train.global_step(None, tf.Variable(np.int64(3))) == 3
    with pytest.raises(TypeError, match='"global_step" does not have integer type'):
        v1.train.assert_global_step(tf.Variable(1.0))
    with pytest.raises(TypeError, match='"global_step" is not scalar'):
        v1.train.assert_global_step(tf.Variable(np.zeros(2, np.int64)))
    with pytest.raises(TypeError, match='"global_step" must be a Variable or Tensor'):
        v1.train.assert_global_step(3)
