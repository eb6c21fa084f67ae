"""Vectorized jacobian / batch_jacobian (one batched reverse pass) against the per-row loop.

Every differentiable op-table row is differentiated both ways, in float64, and must agree; where
every op on the path is declared batch-safe (or has a batched variant) the vectorized pass must
actually have run. The same is done for the Jacobian of each row's gradient (the Hessian of a
projection, nested tapes), which puts the gradient ops themselves (TanhGrad, ReduceBroadcast,
StridedSliceGrad, SumToShape, ...) on the batched path. Those two checks are what prove each
`batch=` declaration ("safe", "negative_axis", or a batched variant beside the rule).
"""

import numpy as np
import pytest

import wengert as tf
from wengert.autodiff import batched, jacobians
from wengert.framework.registry import _GRADIENTS, get_op_def
from wengert.framework.tensor import Tensor

import op_table

ROWS = op_table.all_rows()
CASES = [(row, i) for row in ROWS if row.grad for i in range(len(row.samples))]
IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in CASES]

# Ops a typical MLP / elementwise / matmul / reduction / slicing model uses: all must batch.
MUST_BATCH = {"AddV2", "Sub", "Mul", "RealDiv", "Neg", "Square", "Pow", "Maximum", "Exp", "Log",
              "Tanh", "Sigmoid", "Relu", "Softplus", "MatMul", "BatchMatMulV2", "BiasAdd",
              "Sum", "Mean", "Max", "Reshape", "Transpose", "ExpandDims", "Squeeze",
              "StridedSlice", "ConcatV2", "Pack", "Softmax", "LogSoftmax", "ReadVariableOp",
              "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
              "Identity", "Cast", "SelectV2", "BroadcastTo", "TanhGrad", "ReluGrad",
              "SigmoidGrad", "SumToShape", "ReduceBroadcast", "StridedSliceGrad", "AddN"}


def _declared(op_type):
    """Batch-safe as declared: a batched variant, a negative-axis rule, `batch="safe"`, or
    no gradient at all (nothing runs)."""
    return get_op_def(op_type).batch is not None or _GRADIENTS.get(op_type, 0) is None


def test_typical_model_ops_are_declared_batch_safe():
    missing = sorted(t for t in MUST_BATCH if not _declared(t))
    assert not missing, f"no batch-safe rule for {missing}"


# -- helpers ------------------------------------------------------------------------------------
def _wrt(sample):
    if sample.wrt is not None:
        return list(sample.wrt)
    return [i for i, a in enumerate(sample.args)
            if isinstance(a, np.ndarray) and a.dtype.kind == "f"]


def _float_outputs(result):
    flat = result if isinstance(result, (list, tuple)) else [result]
    return [o for o in flat if isinstance(o, Tensor) and o.dtype.is_floating]


def _both_ways(tape, target, sources):
    """(vectorized, loop) jacobians, and whether the vectorized call really vectorized."""
    fast = tape.jacobian(target, sources, unconnected_gradients="zero")
    mode = jacobians.last_mode()
    slow = tape.jacobian(target, sources, unconnected_gradients="zero",
                         experimental_use_pfor=False)
    assert jacobians.last_mode() == ("loop", "experimental_use_pfor=False")
    return fast, slow, mode


def _path_types(tape, target, sources):
    path = jacobians._pruned(tape._records, [target], tape._connected(sources))
    return {op.type for op in path}, path


def _check(tape, target, sources, where):
    types, path = _path_types(tape, target, sources)
    fast, slow, mode = _both_ways(tape, target, sources)
    for f, s in zip(fast, slow):
        np.testing.assert_allclose(f.numpy(), s.numpy(), rtol=1e-10, atol=1e-12,
                                   err_msg=where)
        assert f.shape == s.shape
    expected = batched.why_not(path, target) is None and np.size(target.numpy()) > 0
    if all(_declared(t) for t in types) and expected:
        assert mode == ("vectorized", None), f"{where}: {mode}"
    if mode[0] == "vectorized":
        assert all(_declared(t) for t in types)
    return mode


def _run_row(row, sample):
    wrt = _wrt(sample)
    args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in sample.args]
    sources = [args[i] for i in wrt]
    return args, sources


# -- every op-table row -------------------------------------------------------------------------
@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_row_jacobian_matches_loop(row, index):
    sample = row.samples[index]
    args, sources = _run_row(row, sample)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        outputs = _float_outputs(row.fn(*args, **sample.kwargs))
    for k, out in enumerate(outputs):
        _check(tape, out, sources, f"{row.name} output {k}")


GRAD2 = [(row, i) for row, i in CASES if row.grad2]


@pytest.mark.parametrize("row,index", GRAD2,
                         ids=[f"{row.name}-{row.samples[i].name or i}" for row, i in GRAD2])
def test_row_hessian_matches_loop(row, index):
    """Jacobian of the gradient of <v, f(x)>: the gradient ops go through the batched pass."""
    sample = row.samples[index]
    args, sources = _run_row(row, sample)
    rng = np.random.default_rng(index)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(sources)
        with tf.GradientTape() as inner:
            inner.watch(sources)
            outputs = _float_outputs(row.fn(*args, **sample.kwargs))
            total = tf.add_n([tf.reduce_sum(o * rng.normal(size=o.shape)) for o in outputs])
        grads = inner.gradient(total, sources, unconnected_gradients="zero")
    for k, g in enumerate(grads):
        if g is None or not isinstance(g, Tensor):
            continue
        _check(outer, g, sources, f"{row.name} gradient {k}")


# -- batch_jacobian -----------------------------------------------------------------------------
def _batch_pair(tape, target, source):
    fast = tape.batch_jacobian(target, source)
    mode = jacobians.last_mode()
    slow = tape.batch_jacobian(target, source, experimental_use_pfor=False)
    return fast, slow, mode


@pytest.mark.parametrize("make", [
    lambda x, w: tf.tanh(tf.matmul(x, w)),
    lambda x, w: tf.nn.softmax(tf.matmul(x, w)),
    lambda x, w: tf.reduce_sum(tf.sin(x)[:, :, None] * w, axis=1),
    lambda x, w: tf.reshape(tf.transpose(tf.reshape(x * 2.0, (4, 3, 1)), (0, 2, 1)), (4, 3)),
], ids=["mlp", "softmax", "reduce", "reshape"])
def test_batch_jacobian_matches_loop(make):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(4, 3)))
    w = tf.constant(rng.normal(size=(3, 5)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = make(x, w)
    fast, slow, mode = _batch_pair(tape, y, x)
    assert mode == ("vectorized", None)
    assert fast.shape == (4,) + tuple(y.shape[1:]) + (3,)
    np.testing.assert_allclose(fast.numpy(), slow.numpy(), rtol=1e-12, atol=1e-12)


def test_batch_jacobian_of_matrices_per_example():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(2, 3, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.exp(x)[:, 1:, :] * 3.0
    fast, slow, mode = _batch_pair(tape, y, x)
    assert mode[0] == "vectorized" and fast.shape == (2, 2, 2, 3, 2)
    np.testing.assert_allclose(fast.numpy(), slow.numpy())


# -- models, Hessians, fallbacks, options -------------------------------------------------------
def _mlp(x, w1, b1, w2):
    h = tf.tanh(tf.squeeze(tf.matmul(w1, x[:, None]), -1) + b1)
    return tf.squeeze(tf.matmul(w2, h[:, None]), -1)


def test_mlp_jacobian_matches_numpy():
    rng = np.random.default_rng(2)
    x = rng.normal(size=6)
    w1, b1, w2 = rng.normal(size=(8, 6)), rng.normal(size=8), rng.normal(size=(3, 8))
    xs = tf.constant(x)
    variables = [tf.Variable(w1), tf.Variable(b1), tf.Variable(w2)]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = _mlp(xs, *variables)
    jx, jw1, jb1, jw2 = tape.jacobian(y, [xs] + variables)
    assert jacobians.last_mode() == ("vectorized", None)
    h = np.tanh(w1 @ x + b1)
    want_x = w2 @ ((1 - h ** 2)[:, None] * w1)
    np.testing.assert_allclose(jx.numpy(), want_x, rtol=1e-12)
    np.testing.assert_allclose(jb1.numpy(), w2 * (1 - h ** 2), rtol=1e-12)
    np.testing.assert_allclose(jw2.numpy(), np.einsum("ij,k->ijk", np.eye(3), h), rtol=1e-12)
    np.testing.assert_allclose(jw1.numpy(), np.einsum("ij,j,k->ijk", w2, 1 - h ** 2, x),
                               rtol=1e-12)


def test_hessian_by_nested_tapes_matches_finite_differences():
    rng = np.random.default_rng(3)
    x0 = rng.normal(size=5)
    a = rng.normal(size=(5, 5))

    def f(x):
        return tf.reduce_sum(tf.sin(x) * tf.linalg.matvec(tf.constant(a), x)) + tf.reduce_max(x ** 3)

    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    hessian = outer.jacobian(g, x)
    mode = jacobians.last_mode()
    eps = 1e-6
    numeric = np.zeros((5, 5))
    for j in range(5):
        step = np.zeros(5)
        step[j] = eps
        xp, xm = tf.constant(x0 + step), tf.constant(x0 - step)
        with tf.GradientTape() as t1:
            t1.watch(xp)
            yp = f(xp)
        with tf.GradientTape() as t2:
            t2.watch(xm)
            ym = f(xm)
        numeric[:, j] = (t1.gradient(yp, xp).numpy() - t2.gradient(ym, xm).numpy()) / (2 * eps)
    np.testing.assert_allclose(hessian.numpy(), numeric, rtol=1e-6, atol=1e-6)
    assert mode[0] in ("vectorized", "loop")


def test_hessian_of_mlp_loss_vectorized():
    rng = np.random.default_rng(4)
    w = tf.constant(rng.normal(size=(4, 3)))
    x = tf.constant(rng.normal(size=(5, 4)))
    labels = np.eye(3)[rng.integers(0, 3, size=5)]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch(w)
            logits = tf.nn.relu(tf.matmul(x, w)) + tf.matmul(x, w) * 0.5
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, logits))
        g = inner.gradient(loss, w)
    fast = outer.jacobian(g, w)
    assert jacobians.last_mode() == ("vectorized", None)
    slow = outer.jacobian(g, w, experimental_use_pfor=False)
    np.testing.assert_allclose(fast.numpy(), slow.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fast.numpy().reshape(12, 12), fast.numpy().reshape(12, 12).T,
                               atol=1e-12)


def test_jacobian_recorded_by_outer_tape():
    x = tf.constant([0.3, -0.7, 1.1])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sin(x) * tf.reduce_sum(x)
        j = inner.jacobian(y, x)
        assert jacobians.last_mode()[0] == "vectorized"
        total = tf.reduce_sum(j)
    got = outer.gradient(total, x).numpy()
    x0 = x.numpy()
    # sum_ij J_ij = s sum_i cos(x_i) + 3 sum_i sin(x_i), s = sum(x); its derivative in x_k:
    want = np.cos(x0).sum() - np.sin(x0) * x0.sum() + 3 * np.cos(x0)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_fallback_for_custom_gradient():
    @tf.custom_gradient
    def clipped(x):
        def grad(dy):
            return dy * 0.5
        return tf.identity(x * 2.0), grad

    x = tf.constant([1.0, 2.0, 3.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(clipped(x))
    j = tape.jacobian(y, x)
    mode = jacobians.last_mode()
    assert mode[0] == "loop" and "CustomGradient" in mode[1]
    np.testing.assert_allclose(j.numpy(), np.diag(np.exp(2 * x.numpy()) * 0.5))


def test_fallback_for_op_without_batched_rule():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.gather_nd(x * x, np.array([[1, 2], [0, 0], [1, 2]]))
    j = tape.jacobian(y, x)
    mode = jacobians.last_mode()
    assert mode[0] == "loop" and "GatherNd" in mode[1]
    np.testing.assert_allclose(j.numpy(), tape.jacobian(y, x, experimental_use_pfor=False))


def test_fallback_for_batched_gather():
    params = tf.constant(np.arange(12.0).reshape(2, 6))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(params)
        y = tf.gather(params, np.array([[0, 5], [1, 1]]), axis=1, batch_dims=1)
    j = tape.jacobian(y, params)
    assert jacobians.last_mode()[0] == "loop"
    np.testing.assert_allclose(j.numpy(), tape.jacobian(y, params, experimental_use_pfor=False))


@pytest.mark.parametrize("mode", ["none", "zero"])
def test_unconnected_sources(mode):
    x, z = tf.constant([1.0, 2.0]), tf.constant([[3.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 3.0
    jx, jz = tape.jacobian(y, [x, z], unconnected_gradients=mode)
    assert jacobians.last_mode()[0] == "vectorized"
    np.testing.assert_allclose(jx.numpy(), 3 * np.eye(2))
    if mode == "none":
        assert jz is None
    else:
        assert jz.shape == (2, 1, 1) and not jz.numpy().any()
    column = tf.constant([[5.0], [6.0]])
    bj = tape.batch_jacobian(y[:, None], column, unconnected_gradients=mode)
    assert jacobians.last_mode()[0] == "vectorized"
    # TensorFlow's batch_jacobian gives zeros for an unconnected source in either mode
    assert bj.shape == (2, 1, 1) and not bj.numpy().any()
    looped = tape.batch_jacobian(y[:, None], column, unconnected_gradients=mode,
                                 experimental_use_pfor=False)
    assert looped.shape == (2, 1, 1) and not looped.numpy().any()


def test_dict_and_list_sources():
    a, b = tf.constant([1.0, 2.0, 3.0]), tf.Variable([[0.5], [0.25]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(a) * b[:, 0]
    got = tape.jacobian(y, {"a": a, "rest": [b]})
    assert jacobians.last_mode()[0] == "vectorized"
    np.testing.assert_allclose(got["a"].numpy(), np.array([[0.5] * 3, [0.25] * 3]))
    np.testing.assert_allclose(got["rest"][0].numpy(), 6.0 * np.eye(2)[:, :, None])


def test_target_is_source_and_scalar_target():
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        s = tf.reduce_sum(x * x)
    np.testing.assert_allclose(tape.jacobian(x, x).numpy(), np.eye(2).reshape(1, 2, 1, 2))
    np.testing.assert_allclose(tape.jacobian(s, x).numpy(), [[2.0, 4.0]])
    assert jacobians.last_mode()[0] == "vectorized"


def test_rows_in_blocks(monkeypatch):
    monkeypatch.setattr(batched, "ROW_BLOCK_ELEMENTS", 7)
    rng = np.random.default_rng(5)
    x = tf.constant(rng.normal(size=5))
    w = tf.constant(rng.normal(size=(7, 5)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sigmoid(tf.squeeze(tf.matmul(w, x[:, None]), -1))
    fast = tape.jacobian(y, x)
    assert jacobians.last_mode()[0] == "vectorized"
    np.testing.assert_allclose(fast.numpy(), tape.jacobian(y, x, experimental_use_pfor=False))


def test_graph_mode_falls_back():
    @tf.function
    def jac(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * 2.0
        return tape.jacobian(y, x)

    x = tf.constant([0.1, 0.2, 0.3], dtype=tf.float64)
    np.testing.assert_allclose(jac(x).numpy(), np.diag(2 * np.cos(x.numpy())))


def test_func_jacrev_vectorizes():
    from wengert import func
    x = tf.constant([0.1, 0.2, 0.3], dtype=tf.float64)
    j = func.jacrev(lambda v: tf.exp(v) * tf.reduce_sum(v))(x)
    assert jacobians.last_mode()[0] == "vectorized"
    x0 = x.numpy()
    np.testing.assert_allclose(j.numpy(), np.diag(np.exp(x0) * x0.sum()) + np.exp(x0)[:, None])
