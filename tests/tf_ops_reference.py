"""Compare wengert ops with TensorFlow 2.21's, when TensorFlow is installed.

A `TFCase` pairs a TensorFlow expression (a string over `tf`, `np` and the inputs x0, x1, ...)
with the same computation in wengert (a function of the input tensors). `run_tf` runs all cases
of a test module in one subprocess (tests/tf_ops/runner.py, under `TF_PYTHON`, default
/work/tfvenv/bin/python); `check` then compares outputs and, for the inputs listed in `wrt`, the
gradients of sum(output * seed) with TensorFlow's seeds. `tf_python()` is None without
TensorFlow, and the tests that need it skip.
"""
import json
import os
import subprocess
import tempfile

import numpy as np

import wengert as tf
from tf_reference import tf_python  # noqa: F401  (re-exported for the tests' skipif)

RUNNER = os.path.join(os.path.dirname(__file__), "tf_ops", "runner.py")


class TFCase:
    def __init__(self, name, expr, fn, inputs, wrt=(), rtol=None, atol=None):
        self.name, self.expr, self.fn = name, expr, fn
        self.inputs, self.wrt = [np.asarray(x) for x in inputs], list(wrt)
        self.rtol, self.atol = rtol, atol  # this case's tolerances, if not check()'s

    def __repr__(self):
        return self.name


def run_tf_or_skip(cases):
    """run_tf under TF_PYTHON, or skip the calling test when TensorFlow is not installed (for a
    module-scoped `tf_results` fixture)."""
    import pytest
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow (TF_PYTHON) is not installed")
    return run_tf(cases, python)


def run_tf(cases, python):
    """{case name: {"outputs": [...], "seeds": [...], "grads": [...]} or {"error": text}}."""
    arrays, request = {}, []
    for case in cases:
        for i, x in enumerate(case.inputs):
            arrays[f"{case.name}/x{i}"] = x
        request.append({"name": case.name, "expr": case.expr, "n_inputs": len(case.inputs),
                        "wrt": case.wrt})
    with tempfile.TemporaryDirectory() as tmp:
        req, arr, res = (os.path.join(tmp, n) for n in ("r.json", "a.npz", "o.npz"))
        json.dump(request, open(req, "w"))
        np.savez(arr, **arrays)
        done = subprocess.run([python, RUNNER, req, arr, res], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"TensorFlow runner failed:\n{done.stderr[-3000:]}")
        data = dict(np.load(res))
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
