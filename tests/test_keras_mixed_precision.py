"""keras.mixed_precision against TensorFlow 2.21's Keras 3: under "mixed_float16" layers keep
float32 weights and compute in float16 (normalization in float32, a float32 output layer when
asked), losses are float32, compile wraps the optimizer in a LossScaleOptimizer and training
moves the same weights; plus the policy objects and their errors."""
import numpy as np
import pytest

import wengert as tf
from wengert import keras

from keras_tf_eval import tf_eval

SCRIPT = '''
mp = keras.mixed_precision
mp.set_global_policy("mixed_float16")
try:
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(3),
                              keras.layers.Activation("softmax", dtype="float32")])
    for i, layer in enumerate(model.layers[:3]):
        layer.set_weights([A[f"w{i}_{j}"] for j in range(len(layer.weights))])
    out["policy"] = np.array([mp.global_policy().name, mp.global_policy().compute_dtype,
                              mp.global_policy().variable_dtype])
    out["layer_dtypes"] = np.array([[str(l.dtype), str(l.compute_dtype), str(l.variable_dtype),
                                     l.dtype_policy.name] for l in model.layers])
    out["weight_dtypes"] = np.array([keras.backend.standardize_dtype(w.dtype)
                                     for w in model.weights])
    x = A["x"]
    hidden = model.layers[0](x)
    normed = model.layers[1](hidden)
    logits = model.layers[2](normed)
    out["hidden"], out["normed"] = np.asarray(hidden), np.asarray(normed)
    out["logits"], out["probs"] = np.asarray(logits), np.asarray(model(x))
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)(A["y"], logits)
    out["loss_value"] = np.asarray(loss)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
    out["optimizer"] = np.array([type(model.optimizer).__name__,
                                 type(model.optimizer.inner_optimizer).__name__])
    history = model.fit(x, A["y"], batch_size=8, epochs=2, shuffle=False, verbose=0)
    out["history"] = np.array(history.history["loss"])
    out["scale"] = np.asarray(model.optimizer.dynamic_scale)
    out["kernel_after"] = np.asarray(model.layers[0].kernel)
    out["bias_after"] = np.asarray(model.layers[2].bias)
finally:
    mp.set_global_policy("float32")
'''


def _arrays():
    rng = np.random.default_rng(11)
    arrays = {"x": rng.normal(size=(32, 4)).astype("float32"),
              "y": rng.integers(0, 3, size=32)}
    shapes = [[(4, 8), (8,)], [(8,)] * 4, [(8, 3), (3,)]]
    for i, layer in enumerate(shapes):
        for j, shape in enumerate(layer):
            value = rng.normal(size=shape) * 0.5
            if i == 1 and j == 3:
                value = np.abs(value) + 0.5
            arrays[f"w{i}_{j}"] = value.astype("float32")
    return arrays


@pytest.fixture(scope="module")
def answers():
    arrays = _arrays()
    ours = {}
    exec(SCRIPT, {"keras": keras, "np": np, "A": arrays, "out": ours})
    return ours, tf_eval(SCRIPT, arrays)


TOLERANCE = {"hidden": 2e-3, "normed": 2e-2, "logits": 2e-2, "probs": 1e-2,
             "loss_value": 1e-2, "history": 1e-2, "kernel_after": 1e-2, "bias_after": 1e-2}


@pytest.mark.parametrize("key", ["policy", "layer_dtypes", "weight_dtypes", "hidden", "normed",
                                 "logits", "probs", "loss_value", "optimizer", "history",
                                 "scale", "kernel_after", "bias_after"])
def test_matches_keras(answers, key):
    ours, theirs = (np.asarray(a[key]) for a in answers)
    assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
    if ours.dtype.kind == "f":
        assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
        atol = TOLERANCE.get(key, 0.0)
        np.testing.assert_allclose(ours.astype("float64"), theirs.astype("float64"),
                                   rtol=atol, atol=atol)
    else:
        assert ours.tolist() == theirs.tolist()


def test_policy_objects():
    mp = keras.mixed_precision
    policy = mp.DTypePolicy("mixed_float16")
    assert (policy.name, policy.compute_dtype, policy.variable_dtype) == (
        "mixed_float16", "float16", "float32")
    assert mp.Policy is mp.DTypePolicy and policy == mp.Policy("mixed_float16")
    assert mp.DTypePolicy.from_config(policy.get_config()) == policy
    assert mp.global_policy().name == "float32"
    layer = keras.layers.Dense(2, dtype=policy)
    assert layer.dtype_policy is policy and layer.dtype == "float32"
    assert keras.layers.Dense(2, dtype="float64").compute_dtype == "float64"
    config = keras.layers.Dense(2, dtype="mixed_float16").get_config()
    assert keras.layers.Dense.from_config(config).compute_dtype == "float16"


def test_unknown_and_unavailable_policies_are_clear_errors():
    mp = keras.mixed_precision
    with pytest.raises(ValueError, match="'mixed_float16'.*'float32'|valid policies"):
        mp.set_global_policy("mixed_float61")
    with pytest.raises(ValueError, match="bfloat16"):
        mp.set_global_policy("mixed_bfloat16")
    with pytest.raises(ValueError, match="floating"):
        mp.set_global_policy("int32")
    assert mp.global_policy().name == "float32"


def test_mixed_gradients_reach_float32_variables_by_finite_differences():
    layer = keras.layers.Dense(3, dtype="mixed_float16")
    x = np.random.default_rng(2).normal(size=(5, 4)).astype("float32")
    layer(x)
    with tf.GradientTape() as tape:
        out = layer(x)
        loss = tf.reduce_sum(tf.cast(out, "float32") ** 2)
    grad = tape.gradient(loss, layer.kernel)
    assert out.dtype == tf.float16 and grad.dtype == tf.float32
    kernel, bias = layer.kernel.numpy().astype("float64"), layer.bias.numpy().astype("float64")
    expected = 2 * x.T.astype("float64") @ (x @ kernel + bias)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=2e-2, atol=2e-2)


def test_compile_keeps_a_given_loss_scale_optimizer_and_plain_models_unwrapped():
    mp = keras.mixed_precision
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    assert type(model.optimizer).__name__ == "SGD"
    mp.set_global_policy("mixed_float16")
    try:
        mixed = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        given = mp.LossScaleOptimizer(keras.optimizers.Adam())
        mixed.compile(given, "mse")
        assert mixed.optimizer is given
        mixed.compile("adam", "mse")
        assert isinstance(mixed.optimizer, mp.LossScaleOptimizer)
        assert mixed.predict(np.ones((2, 2), "float32"), verbose=0).dtype == np.float16
    finally:
        mp.set_global_policy(None)
