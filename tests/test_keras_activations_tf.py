"""keras.activations against Keras 3 on TensorFlow 2.21: every function with Keras 3's arguments,
values and gradients on inputs that sit exactly on each kink (0, +-1, +-3, 6, the thresholds and
caps) and around them; the activation layers (Activation by name, ReLU, ELU, LeakyReLU) the same
way. Without TensorFlow: values against NumPy, float64 gradients by finite differences away from
the kinks, and get/serialize/deserialize by every name Keras 3 accepts."""
import numpy as np
import pytest
from scipy.special import erf

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.keras import activations
from wengert.testing import check_grads

RNG = np.random.default_rng(2731)
KINKS = np.array([-7.0, -6.0, -3.0, -2.5, -1.0, -0.8, -0.5, -0.25, 0.0, 0.25, 0.5, 0.8, 1.0,
                  1.5, 2.0, 3.0, 6.0, 6.5])
KERAS_NAMES = ("celu", "elu", "exponential", "gelu", "glu", "hard_shrink", "hard_sigmoid",
               "hard_silu", "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid",
               "log_softmax", "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink",
               "softmax", "softplus", "softsign", "sparse_plus", "sparse_sigmoid", "sparsemax",
               "squareplus", "swish", "tanh", "tanh_shrink")


def kinked(dtype=np.float64):
    """Two rows: the kink points, then random points around them."""
    near = KINKS + RNG.uniform(-0.2, 0.2, KINKS.shape)
    return np.stack([KINKS, near]).astype(dtype)


def act(name, args="", kwargs=None, x=None, label=""):
    fn = getattr(activations, name)
    kwargs = kwargs or {}
    return TFCase(f"{name}{label}", f"keras.activations.{name}(x0{args})",
                  lambda t: fn(t, **kwargs), [kinked() if x is None else x], wrt=[0])


def layer(label, expr, make, x=None):
    return TFCase(label, f"{expr}(x0)", lambda t: make()(t), [kinked() if x is None else x],
                  wrt=[0])


PLAIN = [act(n) for n in KERAS_NAMES if n not in ("linear", "threshold")]
WITH_ARGS = [
    act("relu", ", negative_slope=0.1", {"negative_slope": 0.1}, label="_slope"),
    act("relu", ", max_value=2.0", {"max_value": 2.0}, label="_max"),
    act("relu", ", max_value=6.0", {"max_value": 6.0}, label="_max6"),
    act("relu", ", threshold=0.5", {"threshold": 0.5}, label="_threshold"),
    act("relu", ", negative_slope=0.2, max_value=3.0", {"negative_slope": 0.2, "max_value": 3.0},
        label="_slope_max"),
    act("relu", ", negative_slope=0.3, threshold=1.0", {"negative_slope": 0.3, "threshold": 1.0},
        label="_slope_threshold"),
    act("relu", ", negative_slope=0.25, max_value=2.0, threshold=-1.0",
        {"negative_slope": 0.25, "max_value": 2.0, "threshold": -1.0}, label="_all"),
    act("elu", ", alpha=0.5", {"alpha": 0.5}, label="_alpha"),
    act("celu", ", alpha=2.0", {"alpha": 2.0}, label="_alpha"),
    act("gelu", ", approximate=True", {"approximate": True}, label="_approx"),
    act("leaky_relu", ", negative_slope=0.01", {"negative_slope": 0.01}, label="_slope"),
    act("softmax", ", axis=0", {"axis": 0}, label="_axis0"),
    act("log_softmax", ", axis=0", {"axis": 0}, label="_axis0"),
    act("sparsemax", ", axis=0", {"axis": 0}, label="_axis0"),
    act("glu", ", axis=0", {"axis": 0}, label="_axis0"),
    act("soft_shrink", ", threshold=1.0", {"threshold": 1.0}, label="_t1"),
    act("hard_shrink", ", threshold=1.0", {"threshold": 1.0}, label="_t1"),
    act("squareplus", ", b=1", {"b": 1}, label="_b1"),
    act("threshold", ", 0.5, -2.0", {"threshold": 0.5, "default_value": -2.0}),
    act("threshold", ", -1.0, 0.0", {"threshold": -1.0, "default_value": 0.0}, label="_at_kink"),
    act("hard_silu", x=kinked(np.float32), label="_f32"),
    act("mish", x=kinked(np.float32), label="_f32"),
    act("gelu", x=kinked(np.float32), label="_f32"),
]
LAYERS = [
    layer("layer_activation_mish", "keras.layers.Activation('mish')",
          lambda: tf.keras.layers.Activation("mish")),
    layer("layer_activation_hard_swish", "keras.layers.Activation('hard_swish')",
          lambda: tf.keras.layers.Activation("hard_swish")),
    layer("layer_activation_sparse_plus", "keras.layers.Activation('sparse_plus')",
          lambda: tf.keras.layers.Activation("sparse_plus")),
    layer("layer_relu_all", "keras.layers.ReLU(max_value=2.0, negative_slope=0.2, threshold=0.5)",
          lambda: tf.keras.layers.ReLU(max_value=2.0, negative_slope=0.2, threshold=0.5)),
    layer("layer_relu_threshold", "keras.layers.ReLU(threshold=1.0)",
          lambda: tf.keras.layers.ReLU(threshold=1.0)),
    layer("layer_relu_max6", "keras.layers.ReLU(max_value=6.0)",
          lambda: tf.keras.layers.ReLU(max_value=6.0)),
    layer("layer_elu_alpha", "keras.layers.ELU(alpha=0.3)", lambda: tf.keras.layers.ELU(alpha=0.3)),
    layer("layer_leaky_relu", "keras.layers.LeakyReLU(negative_slope=0.1)",
          lambda: tf.keras.layers.LeakyReLU(negative_slope=0.1)),
]
CASES = PLAIN + WITH_ARGS + LAYERS


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_matches_keras(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-6)


def _np_relu(x, slope=0.0, cap=None, t=0.0):
    out = np.where(x > t, x, 0.0)
    if cap is not None:
        out = np.clip(out, 0.0, cap)
    return out - slope * np.maximum(t - x, 0.0)


NUMPY = {
    "exponential": np.exp,
    "mish": lambda x: x * np.tanh(np.log1p(np.exp(x))),
    "hard_sigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "hard_swish": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "softsign": lambda x: x / (1 + np.abs(x)),
    "log_sigmoid": lambda x: -np.log1p(np.exp(-x)),
    "tanh_shrink": lambda x: x - np.tanh(x),
    "gelu": lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))),
    "celu": lambda x: np.maximum(x, 0) + np.expm1(np.minimum(x, 0)),
    "squareplus": lambda x: (x + np.sqrt(x * x + 4)) / 2,
    "sparse_plus": lambda x: np.where(x <= -1, 0, np.where(x < 1, (x + 1) ** 2 / 4, x)),
    "sparse_sigmoid": lambda x: np.clip((x + 1) / 2, 0, 1),
    "soft_shrink": lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.5, 0),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0),
    "relu": _np_relu,
}


@pytest.mark.parametrize("name", sorted(NUMPY))
def test_values_match_numpy(name):
    x = kinked()
    np.testing.assert_allclose(activations.get(name)(tf.constant(x)).numpy(), NUMPY[name](x),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("slope,cap,t", [(0.1, None, 0.0), (0.0, 2.0, 0.0), (0.0, None, 0.5),
                                         (0.2, 3.0, 1.0), (0.25, 2.0, -1.0)])
def test_relu_arguments_match_numpy(slope, cap, t):
    x = kinked()
    out = activations.relu(tf.constant(x), negative_slope=slope, max_value=cap, threshold=t)
    np.testing.assert_allclose(out.numpy(), _np_relu(x, slope, cap, t), rtol=1e-12, atol=1e-12)


SMOOTH = ("exponential", "mish", "softsign", "log_sigmoid", "tanh_shrink", "gelu", "celu",
          "squareplus", "selu", "elu", "silu", "softplus", "sigmoid", "tanh", "softmax",
          "log_softmax", "glu")


@pytest.mark.parametrize("name", SMOOTH)
def test_gradients_by_finite_differences(name):
    x = RNG.uniform(-2.0, 2.0, (3, 4)) + 0.05
    check_grads(activations.get(name), [x])


@pytest.mark.parametrize("name", KERAS_NAMES + ("threshold",))
def test_every_keras_name_round_trips(name):
    fn = activations.get(name)
    assert getattr(activations, name) is fn
    canonical = {"swish": "silu", "hard_swish": "hard_silu"}.get(name, name)
    assert activations.serialize(fn) == canonical
    assert activations.deserialize(canonical) is fn
    assert tf.keras.layers.Dense(2, activation=name).get_config()["activation"] == canonical


def test_activation_layer_accepts_every_name():
    x = tf.constant(kinked(np.float32)[:, :8])
    for name in KERAS_NAMES:
        out = tf.keras.layers.Activation(name)(x)
        want = activations.get(name)(x).numpy()
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-6, atol=1e-7)


def test_unknown_name_is_a_clear_error():
    with pytest.raises(ValueError, match="Unknown activation function: 'relux'"):
        activations.get("relux")
