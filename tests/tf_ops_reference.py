"""Compare wengert ops with TensorFlow 2.21's.

A `TFCase` pairs a TensorFlow expression (a string over `tf`, `np`, `keras` and the inputs x0,
x1, ...) with the same computation in wengert (a function of the input tensors). `run_tf` runs
all cases of a test module in one subprocess (tests/tf_ops/runner.py, under `TF_PYTHON`, default
/work/tfvenv/bin/python) or, without TensorFlow, reads its stored answers
(tests/reference_store.py); `check` then compares outputs and, for the inputs listed in `wrt`,
the gradients of sum(output * seed) with TensorFlow's seeds.
"""
import os

import numpy as np

import reference_store
import wengert as tf
from tf_reference import tf_python  # noqa: F401  (re-exported for the tests)

RUNNER = os.path.join(os.path.dirname(__file__), "tf_ops", "runner.py")


class TFCase:
    def __init__(self, name, expr, fn, inputs, wrt=(), rtol=None, atol=None):
        self.name, self.expr, self.fn = name, expr, fn
        self.inputs, self.wrt = [np.asarray(x) for x in inputs], list(wrt)
        self.rtol, self.atol = rtol, atol  # this case's tolerances, if not check()'s

    def __repr__(self):
        return self.name


def run_tf_or_skip(cases):
    """TensorFlow's answers for `cases`: live under TF_PYTHON, or stored in tests/references/
    when TensorFlow is not installed (tests/reference_store.py)."""
    return run_tf(cases, tf_python())


def run_tf(cases, python):
    """{case name: {"outputs": [...], "seeds": [...], "grads": [...]} or {"error": text}}, from
    TensorFlow under `python` or, when `python` is None, from the reference store."""
    arrays, request = {}, []
    for case in cases:
        for i, x in enumerate(case.inputs):
            arrays[f"{case.name}/x{i}"] = x
        request.append({"name": case.name, "expr": case.expr, "n_inputs": len(case.inputs),
                        "wrt": case.wrt})
    data = reference_store.answers(request, arrays, python, RUNNER)
    results = {}
    for case in cases:
        n = case.name
        if f"{n}/error" in data:
            results[n] = {"error": str(data[f"{n}/error"])}
            continue

        def listed(kind):
            keys = sorted((k for k in data if k.startswith(f"{n}/{kind}")),
                          key=lambda k: int(k.rsplit(kind, 1)[1]))
            return [data[k] for k in keys]
        results[n] = {"outputs": listed("output"), "seeds": listed("seed"),
                      "grads": listed("grad")}
    return results


def check(case, result, rtol=1e-5, atol=1e-6):
    """Assert wengert's outputs (and gradients) equal TensorFlow's."""
    rtol = rtol if case.rtol is None else case.rtol
    atol = atol if case.atol is None else case.atol
    assert "error" not in result, f"{case.name}: TensorFlow failed: {result.get('error')}"
    inputs = [tf.constant(x) for x in case.inputs]
    with tf.GradientTape(persistent=True) as tape:
        for i in case.wrt:
            tape.watch(inputs[i])
        out = case.fn(*inputs)
        outputs = tf.nest.flatten(out)
        if case.wrt:
            total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * s)
                              for o, s in zip(outputs, result["seeds"]) if o.dtype.is_floating])
    assert len(outputs) == len(result["outputs"]), case.name
    for k, (mine, theirs) in enumerate(zip(outputs, result["outputs"])):
        mine = np.asarray(mine)
        assert mine.shape == theirs.shape, f"{case.name}: output {k} shape {mine.shape} vs " \
                                           f"{theirs.shape}"
        np.testing.assert_allclose(mine.astype(np.float64) if mine.dtype != object else mine,
                                   theirs, rtol=rtol, atol=atol,
                                   err_msg=f"{case.name}: output {k}")
    if case.wrt:
        grads = tape.gradient(total, [inputs[i] for i in case.wrt])
        for k, (g, theirs) in enumerate(zip(grads, result["grads"])):
            mine = np.zeros(theirs.shape) if g is None else np.asarray(tf.convert_to_tensor(g))
            np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol,
                                       err_msg=f"{case.name}: gradient {k}")
