"""Captured tensors and variables inside traced code behave as they do eagerly, compared with
TensorFlow 2.21 running the same program text (tests/traced_snippets.py): a tape inside a
tf.function watching a tensor the function captured, gradients with respect to captures and
variables, captures of captures in nested functions, captures in cond and while_loop bodies, and
per-example gradients by vectorized_map over a function that takes a tape gradient with respect
to captured variables (eagerly and inside tf.function). Finite differences in float64 check the
per-example gradients without TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from traced_snippets import assert_same, run_here, tensorflow_answers

_rng = np.random.default_rng(30)
ARRAYS = {
    "grid": np.linspace(-1.0, 1.0, 7, dtype=np.float32).reshape(-1, 1),
    "w1": _rng.normal(size=(1, 5)).astype(np.float32),
    "b1": _rng.normal(size=(5,)).astype(np.float32),
    "w2": _rng.normal(size=(5, 1)).astype(np.float32),
    "x": _rng.normal(size=(6, 3)).astype(np.float32),
    "y": _rng.normal(size=(6, 1)).astype(np.float32),
    "w": _rng.normal(size=(3, 1)).astype(np.float32),
}

_PINN = """
grid = tf.constant(A["grid"])
w1, b1, w2 = (tf.Variable(A[k]) for k in ("w1", "b1", "w2"))
def u(x):
    return tf.tanh(x @ w1 + b1) @ w2
"""

CASES = {
    "watch_captured_grid": _PINN + """
@tf.function
def derivatives():
    with tf.GradientTape() as t2:
        t2.watch(grid)
        with tf.GradientTape() as t1:
            t1.watch(grid)
            value = u(grid)
        du = t1.gradient(value, grid)
    return value, du, t2.gradient(du, grid)
out["u"], out["du"], out["d2u"] = derivatives()
""",
    "captures_and_variables_as_sources": _PINN + """
@tf.function
def grads():
    with tf.GradientTape() as tape:
        tape.watch(grid)
        loss = tf.reduce_sum(u(grid) ** 2)
    return tape.gradient(loss, [grid, w1, b1, w2])
for i, g in enumerate(grads()):
    out[f"g{i}"] = g
""",
    "unwatched_capture_is_none": _PINN + """
@tf.function
def grads():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(u(grid) ** 2)
    g = tape.gradient(loss, [grid, w2])
    return tf.constant(g[0] is None), g[1]
out["none"], out["gw2"] = grads()
""",
    "captures_of_captures_nested": _PINN + """
@tf.function
def inner():
    return u(grid) * grid
@tf.function
def outer():
    shifted = grid + 1.0
    @tf.function
    def nested():
        return tf.sin(shifted) * u(grid)
    with tf.GradientTape() as tape:
        tape.watch(grid)
        total = tf.reduce_sum(inner()) + tf.reduce_sum(nested())
    return tape.gradient(total, [grid, w1])
out["g_grid"], out["g_w1"] = outer()
""",
    "nested_function_in_branch_and_loop": _PINN + """
@tf.function
def outer(p):
    scale = tf.exp(grid)
    @tf.function
    def inner(v):
        return tf.tanh(v * scale) + u(grid)
    with tf.GradientTape() as tape:
        tape.watch(grid)
        c = tf.cond(p > 0, lambda: inner(grid), lambda: grid * 0.0)
        _, w = tf.while_loop(lambda i, w: i < 2, lambda i, w: (i + 1, inner(w)),
                             (tf.constant(0), grid))
        total = tf.reduce_sum(c) + tf.reduce_sum(w)
    return total, tape.gradient(total, [grid, w2])
out["total"], (out["g_grid"], out["g_w2"]) = outer(tf.constant(1.0))
""",
    "eager_tape_through_function": _PINN + """
@tf.function
def residual():
    return tf.reduce_sum(tf.square(u(grid) - tf.sin(grid)))
with tf.GradientTape() as tape:
    tape.watch(grid)
    r = residual()
out["r"] = r
out["g_grid"], out["g_b1"] = tape.gradient(r, [grid, b1])
""",
    "captures_in_cond_branches": _PINN + """
@tf.function
def branch(p):
    with tf.GradientTape() as tape:
        tape.watch(grid)
        v = tf.cond(p > 0, lambda: u(grid) * grid, lambda: tf.cos(grid) * w2[0, 0])
        total = tf.reduce_sum(v)
    return tape.gradient(total, [grid, w2])
out["pos_grid"], out["pos_w2"] = branch(tf.constant(1.0))
out["neg_grid"], out["neg_w2"] = branch(tf.constant(-1.0))
""",
    "captures_in_while_body": _PINN + """
@tf.function
def loop():
    with tf.GradientTape() as tape:
        tape.watch(grid)
        _, v = tf.while_loop(lambda i, v: i < 3,
                             lambda i, v: (i + 1, tf.tanh(v * grid + u(grid))),
                             (tf.constant(0), tf.zeros_like(grid)))
        total = tf.reduce_sum(v)
    return tape.gradient(total, [grid, w1, b1, w2])
for i, g in enumerate(loop()):
    out[f"g{i}"] = g
""",
    "tape_inside_while_body": _PINN + """
@tf.function
def summed():
    def body(i, acc):
        with tf.GradientTape() as tape:
            tape.watch(grid)
            y = tf.reduce_sum(u(grid * tf.cast(i, tf.float32)))
        return i + 1, acc + tape.gradient(y, grid)
    return tf.while_loop(lambda i, acc: i < 3, body, (1, tf.zeros_like(grid)))[1]
out["g"] = summed()
""",
    "jacobians_of_captures": _PINN + """
@tf.function
def jacobians():
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(grid)
        y = u(grid) * grid
        z = tf.reduce_sum(y ** 2)
    return (tape.gradient(z, grid), tape.gradient(z, y), tape.jacobian(y, grid),
            tape.batch_jacobian(y, grid), tape.jacobian(y, w2))
out["dz"], out["dzdy"], out["jac"], out["batch_jac"], out["jac_w2"] = jacobians()
""",
    "map_fn_and_explicit_watch": _PINN + """
@tf.function
def grads():
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch([grid, b1])
        y = tf.map_fn(lambda row: u(row[None])[0] + tf.reduce_sum(grid), grid)
    return tape.gradient(y, [grid, b1, w1])
g_grid, g_b1, g_w1 = grads()
out["g_grid"], out["g_b1"], out["w1_is_none"] = g_grid, g_b1, tf.constant(g_w1 is None)
""",
    "keras_model_on_captured_grid": """
grid = tf.constant(A["grid"])
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(5, activation="tanh"),
                          keras.layers.Dense(1)])
model.set_weights([A["w1"], A["b1"], A["w2"], np.zeros(1, np.float32)])
@tf.function
def du():
    with tf.GradientTape() as tape:
        tape.watch(grid)
        value = model(grid)
    return tape.gradient(value, grid)
out["du"] = du()
""",
}

_PER_EXAMPLE = """
x, y = tf.constant(A["x"]), tf.constant(A["y"])
w = tf.Variable(A["w"])
b = tf.Variable(np.zeros(1, np.float32))
def example_gradient(example):
    xi, yi = example
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.tanh(tf.matmul(xi[None], w) + b) - yi))
    return tape.gradient(loss, [w, b])
"""

CASES.update({
    "per_example_eager": _PER_EXAMPLE + """
out["gw"], out["gb"] = tf.vectorized_map(example_gradient, (x, y))
""",
    "per_example_in_function": _PER_EXAMPLE + """
out["gw"], out["gb"] = tf.function(lambda: tf.vectorized_map(example_gradient, (x, y)))()
""",
    "per_example_watching_capture": """
x, grid = tf.constant(A["x"]), tf.constant(A["grid"])
def example_gradient(xi):
    with tf.GradientTape() as tape:
        tape.watch(grid)
        value = tf.reduce_sum(tf.sin(grid * xi[0]) + xi[1] * grid ** 2)
    return tape.gradient(value, grid)
out["g"] = tf.vectorized_map(example_gradient, x)
""",
    "per_example_keras_model": """
x, y = tf.constant(A["x"]), tf.constant(A["y"])
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(5, activation="tanh"),
                          keras.layers.Dense(1)])
model.set_weights([np.tile(A["w1"], (3, 1)), A["b1"], A["w2"], np.zeros(1, np.float32)])
def example_gradient(example):
    xi, yi = example
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xi[None]) - yi))
    return tape.gradient(loss, model.trainable_variables)
for i, g in enumerate(tf.vectorized_map(example_gradient, (x, y))):
    out[f"g{i}"] = g
""",
    "per_example_second_order": _PER_EXAMPLE + """
with tf.GradientTape() as outer:
    gw, gb = tf.vectorized_map(example_gradient, (x, y))
    penalty = tf.reduce_sum(gw ** 2) + tf.reduce_sum(gb ** 2)
out["penalty"] = penalty
out["dw"], out["db"] = outer.gradient(penalty, [w, b])
""",
    "jacobian_of_variable_gradient": """
x, w = tf.constant(A["x"]), tf.Variable(A["w"])
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
    gw = inner.gradient(loss, w)
out["hessian"] = outer.jacobian(gw, w, experimental_use_pfor=True)
""",
})


@pytest.fixture(scope="module")
def answers():
    return tensorflow_answers(CASES, ARRAYS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, answers):
    assert_same(name, run_here(name, CASES[name], ARRAYS), answers[name], rtol=2e-5, atol=2e-6)


def _loss(xi, yi, w, b):
    return np.sum((np.tanh(xi[None] @ w + b) - yi) ** 2)


def test_per_example_gradients_match_finite_differences():
    x, y = ARRAYS["x"].astype(np.float64), ARRAYS["y"].astype(np.float64)
    w0 = ARRAYS["w"].astype(np.float64)
    w, b = tf.Variable(w0), tf.Variable(np.zeros(1))

    def example_gradient(example):
        xi, yi = example
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.tanh(tf.matmul(xi[None], w) + b) - yi))
        return tape.gradient(loss, [w, b])

    for gw, gb in (tf.vectorized_map(example_gradient, (x, y)),
                   tf.function(lambda: tf.vectorized_map(example_gradient, (x, y)))()):
        for i in range(len(x)):
            eps = 1e-6
            for j in range(3):
                step = np.zeros_like(w0)
                step[j] = eps
                numeric = (_loss(x[i], y[i], w0 + step, 0.0) -
                           _loss(x[i], y[i], w0 - step, 0.0)) / (2 * eps)
                np.testing.assert_allclose(gw[i, j, 0], numeric, rtol=1e-6, atol=1e-8)
            numeric_b = (_loss(x[i], y[i], w0, eps) - _loss(x[i], y[i], w0, -eps)) / (2 * eps)
            np.testing.assert_allclose(gb[i, 0], numeric_b, rtol=1e-6, atol=1e-8)


def test_gradient_of_captured_grid_matches_finite_differences():
    grid = tf.constant(np.linspace(-1.0, 1.0, 5).reshape(-1, 1))
    w1 = tf.Variable(ARRAYS["w1"].astype(np.float64))

    @tf.function
    def du():
        with tf.GradientTape() as tape:
            tape.watch(grid)
            value = tf.reduce_sum(tf.tanh(grid @ w1))
        return tape.gradient(value, grid)

    eps = 1e-6
    plus = np.tanh((grid.numpy() + eps) @ w1.numpy()).sum(axis=1)
    minus = np.tanh((grid.numpy() - eps) @ w1.numpy()).sum(axis=1)
    np.testing.assert_allclose(du().numpy()[:, 0], (plus - minus) / (2 * eps), rtol=1e-6)


def test_a_nested_function_used_out_of_its_scope_raises_type_error():
    kept = []

    @tf.function
    def outer(x):
        y = x * 2.0

        @tf.function
        def inner():
            return y + 1.0
        kept.append(inner)
        return inner()

    assert float(outer(tf.constant(1.0))) == 3.0
    with pytest.raises(TypeError, match="out of scope"):
        kept[0]()


def test_vectorized_map_reads_variables_each_call():
    w = tf.Variable([[1.0], [2.0]])

    def example_gradient(xi):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(xi[None], w) ** 2)
        return tape.gradient(loss, w)

    run = tf.function(lambda x: tf.vectorized_map(example_gradient, x))
    x = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_allclose(run(x)[:, :, 0], [[2.0, 0.0], [0.0, 4.0]])
    w.assign([[3.0], [1.0]])
    np.testing.assert_allclose(run(x)[:, :, 0], [[6.0, 0.0], [0.0, 2.0]])
