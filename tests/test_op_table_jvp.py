"""Forward mode for every op-table row: JVPs against finite differences.

For each differentiable row (see tests/op_table/__init__.py):
- order 1: the ForwardAccumulator's J u, projected on a random cotangent, matches central
  differences (`check_grads(modes=("fwd",))`);
- forward over reverse (rows with second-order checks): the JVP of the row's gradient function
  matches finite differences of that gradient, which exercises the JVP rules of the helper ops
  gradient rules use (ReluGrad, TanhGrad, ReduceBroadcast, StridedSliceGrad, ...).

Op types without a `jvp=` rule of their own get their tangents from the transposed-VJP fallback
(autodiff/forward.py). FALLBACK lists them; the tests check that the list is exactly the set of
differentiable op types without a rule, and that every one of them went through the fallback in
some row's check (so each fallback is tested against finite differences).
"""

import numpy as np
import pytest

import wengert as tf
from wengert.autodiff import checker, forward
from wengert.autodiff.checker import check_grads
from wengert.framework.registry import _GRADIENTS, get_op_def, registered_op_types

import op_table

ROWS = op_table.all_rows()

CASES = [(row, i) for row in ROWS if row.grad for i in range(len(row.samples))]
IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in CASES]
SECOND = [(row, i) for row, i in CASES if row.grad2]
SECOND_IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in SECOND]

# Differentiable op types whose tangents come from the transposed-VJP fallback: the families
# being edited elsewhere (array, indexing, linalg, creation). All of them but the matrix products
# are linear and can declare `jvp=linear` (MatMul, BatchMatMulV2, Einsum: `jvp=multilinear`).
FALLBACK = {
    # control flow (functional ops: their tangents come through their gradient functions)
    "If", "Case", "While",
    # fused batch norm: its tangents come through its gradient function
    "FusedBatchNormV3", "FusedBatchNormGradV3",
    # py_function: its tangents come through its gradient (a py_function of the VJP)
    "EagerPyFunc",
}
# Differentiable op types no eager op-table computation runs through `execute` (so no
# accumulator sees them), with where they are covered instead.
NOT_OBSERVED = {
    "ReadVariableOp": "variable reads: tests/test_forward.py (tangents of variables)",
    "ReadVariableInControlFlow": "graph-only reads inside traced control flow: "
                                 "tests/test_autograph_state.py",
}

_SEEN_FALLBACK = set()


@pytest.fixture(autouse=True)
def _record_fallbacks(monkeypatch):
    original = forward._transposed_vjp

    def recording(op_def, *args):
        _SEEN_FALLBACK.add(op_def.type)
        return original(op_def, *args)
    monkeypatch.setattr(forward, "_transposed_vjp", recording)


def _fn(row, sample):
    fn = lambda *a: row.fn(*a, **sample.kwargs)  # noqa: E731
    fn.__name__ = row.name
    return fn


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_jvp_matches_finite_differences(row, index):
    sample = row.samples[index]
    check_grads(_fn(row, sample), list(sample.args), order=1, modes=("fwd",), wrt=sample.wrt,
                rtol=row.rtol, atol=row.atol, eps=row.eps)


@pytest.mark.parametrize("row,index", SECOND, ids=SECOND_IDS)
def test_forward_over_reverse_matches_finite_differences(row, index):
    sample = row.samples[index]
    args = [checker._as_array(a) for a in sample.args]
    wrt = sample.wrt if sample.wrt is not None else [
        i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    rng = np.random.default_rng(7)
    outs = checker._flat_outputs(_fn(row, sample), args)
    cotangents = [rng.standard_normal(o.shape) for o in outs]
    gradient = checker._vjp_function(_fn(row, sample), wrt, cotangents)
    gradient.__name__ = f"gradient of {row.name}"
    check_grads(gradient, args, order=1, modes=("fwd",), wrt=wrt, rtol=row.rtol,
                atol=row.atol, eps=row.eps)


def _jvps(row, sample, args, wrt, directions):
    """The accumulator's tangent of each output (zeros where unconnected), as built by `args`."""
    primals = [args[i] for i in wrt]
    with forward.ForwardAccumulator(primals, [tf.constant(u) for u in directions]) as acc:
        outs = checker._flat_outputs(_fn(row, sample), args)
    return [acc.jvp(o, unconnected_gradients="zero") for o in outs if o.dtype.is_floating]


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_jvp_built_in_a_graph_matches_eager(row, index):
    """An accumulator opened inside a graph adds tangent ops next to the ops it sees; running
    them in a Session gives the eager tangents (which the check above ties to finite
    differences). Float inputs are placeholders, the others constants."""
    sample = row.samples[index]
    args = [checker._as_array(a) for a in sample.args]
    wrt = sample.wrt if sample.wrt is not None else [
        i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    wrt = list(wrt) if isinstance(wrt, (list, tuple)) else [wrt]
    rng = np.random.default_rng(11)
    directions = [rng.standard_normal(np.shape(args[i])) for i in wrt]
    eager_args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
    want = [t.numpy() for t in _jvps(row, sample, eager_args, wrt, directions)]
    with tf.Graph().as_default():
        feed, graph_args = {}, list(args)
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray) and a.dtype.kind == "f":
                graph_args[i] = tf.compat.v1.placeholder(a.dtype, a.shape)
                feed[graph_args[i]] = a
            elif isinstance(a, np.ndarray):
                graph_args[i] = tf.constant(a)
        tangents = _jvps(row, sample, graph_args, wrt, directions)
        with tf.compat.v1.Session() as sess:
            got = sess.run(tangents, feed)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def _without_rule():
    """Differentiable op types of the op-table families (wengert.ops, wengert.framework, and
    the control flow of wengert.control_flow) that have no JVP rule. Ops other packages declare (e.g.
    debugging's CheckNumerics) are tested by their own packages."""
    types = (registered_op_types("wengert.ops.") + registered_op_types("wengert.framework.")
             + registered_op_types("wengert.control_flow."))
    return {t for t in types if get_op_def(t).jvp is None and _GRADIENTS.get(t) is not None}


def test_fallback_list_is_exact():
    """Every differentiable op type has a JVP rule or is listed as using the fallback."""
    missing = _without_rule() - FALLBACK - set(NOT_OBSERVED)
    assert not missing, f"differentiable op types with no jvp rule, not listed: {sorted(missing)}"
    registered = set(registered_op_types("wengert."))
    stale = (FALLBACK & registered) - _without_rule()
    assert not stale, f"listed as fallback but they have a jvp rule now: {sorted(stale)}"


def test_every_fallback_op_was_checked():
    """Runs after the checks above (file order): each listed fallback type was exercised."""
    if not _SEEN_FALLBACK:
        pytest.skip("run the whole file to check fallback coverage")
    unchecked = (FALLBACK & set(registered_op_types("wengert."))) - _SEEN_FALLBACK
    assert not unchecked, f"fallback op types no row exercised: {sorted(unchecked)}"
    unlisted = _SEEN_FALLBACK - FALLBACK
    assert not unlisted, f"op types used the fallback without being listed: {sorted(unlisted)}"
