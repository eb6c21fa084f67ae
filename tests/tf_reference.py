"""Compare wengert's Keras layers with TensorFlow 2.21's Keras, when TensorFlow is installed.

`TF_PYTHON` (default /work/tfvenv/bin/python) runs tests/keras_tf/runner.py in a subprocess: each
case's layer is rebuilt there from the config wengert writes (so configs are checked too), given
wengert's weights, and run on the same inputs; outputs and the gradients of sum(output * seed)
with respect to the inputs and every trainable weight come back. `tf_python()` is None when no
such interpreter exists; the answers then come from tests/references/ (reference_store.py).
"""
import functools
import json
import os
import subprocess
import zlib

import numpy as np

import reference_store
import wengert as tf
from wengert.util import nest
from wengert.keras.serialization import serialize_keras_object

RUNNER = os.path.join(os.path.dirname(__file__), "keras_tf", "runner.py")


def tf_python():
    """TensorFlow's interpreter (TF_PYTHON), or None when it is missing or cannot import TF."""
    return _importing(os.environ.get("TF_PYTHON", "/work/tfvenv/bin/python"))


@functools.lru_cache(maxsize=None)
def _importing(path):
    """`path` if it imports tensorflow and keras: asked once per path and process (an import
    of TensorFlow takes seconds, and the suite asks in many modules)."""
    if not os.path.exists(path):
        return None
    probe = subprocess.run([path, "-c", "import tensorflow, keras"], capture_output=True)
    return path if probe.returncode == 0 else None


class Case:
    """One layer call: the layer (built by the call), inputs (NumPy), call kwargs."""

    def __init__(self, name, layer, inputs, mask=None, training=False, list_input=False,
                 kwargs=None, tensor_kwargs=None):
        """inputs: one array, a list passed as one list argument (list_input), or several
        passed as positional arguments (MultiHeadAttention's query, value, key)."""
        self.name, self.layer, self.inputs, self.mask = name, layer, list(inputs), mask
        self.training, self.list_input = training, list_input
        self.kwargs, self.tensor_kwargs = kwargs or {}, tensor_kwargs or {}

    def run_wengert(self, rng):
        inputs = [tf.constant(x) for x in self.inputs]
        call_in, rest = (inputs, []) if self.list_input else (inputs[0], inputs[1:])
        kwargs = dict(self.kwargs)
        kwargs.update({k: tf.constant(v) for k, v in self.tensor_kwargs.items()})
        if self.mask is not None:
            kwargs["mask"] = tf.constant(self.mask)
        self.layer(call_in, *rest, **kwargs)
        draw = np.random.default_rng(zlib.crc32(self.name.encode()))
        self.layer.set_weights([_redrawn(w, draw) for w in self.layer.get_weights()])
        with tf.GradientTape(persistent=True) as tape:
            for t in inputs:
                if t.dtype.is_floating:
                    tape.watch(t)
            out = self.layer(call_in, *rest, training=self.training, **kwargs)
            outputs = nest.flatten(out)
            self.seeds = [rng.normal(size=tuple(o.shape)) for o in outputs]
            total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * s)
                              for o, s in zip(outputs, self.seeds)])
        sources = [t for t in inputs if t.dtype.is_floating] + self.layer.trainable_weights
        grads = tape.gradient(total, sources)
        self.outputs = [np.asarray(o) for o in outputs]
        self.grads = [np.zeros(s.shape) if g is None else np.asarray(tf.convert_to_tensor(g))
                      for s, g in zip(sources, grads)]

    def request(self, arrays):
        name = self.name
        for i, x in enumerate(self.inputs):
            arrays[f"{name}/input{i}"] = x
        if self.mask is not None:
            arrays[f"{name}/mask"] = self.mask
        for k, v in self.tensor_kwargs.items():
            arrays[f"{name}/kw/{k}"] = v
        weights = self.layer.get_weights()
        for i, w in enumerate(weights):
            arrays[f"{name}/weight{i}"] = w
        for i, s in enumerate(self.seeds):
            arrays[f"{name}/seed{i}"] = s
        return {"name": name, "config": _stable_names(serialize_keras_object(self.layer), name),
                "n_inputs": len(self.inputs), "n_weights": len(weights),
                "training": self.training, "list_input": self.list_input,
                "kwargs": self.kwargs, "tensor_kwargs": list(self.tensor_kwargs)}


def _redrawn(weight, rng):
    """A weight drawn again from the case's own generator (uniform in [-0.5, 0.5]; constant and
    integer weights kept), so that the weights sent to TensorFlow are the same in every run
    whatever layers the process built before."""
    if weight.size == 0 or weight.dtype.kind not in "fc" or np.all(weight == weight.flat[0]):
        return weight
    return rng.uniform(-0.5, 0.5, weight.shape).astype(weight.dtype)


def _stable_names(config, case):
    """The layer config with each layer's automatic name (`lstm_22`, numbered by how many layers
    the process made before) replaced by one that depends on the case only, so that the request
    is the same in every run and TensorFlow's stored answer can be matched to it."""
    stack, k = [config], 0
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            inner = item.get("config")
            if "class_name" in item and isinstance(inner, dict) and "name" in inner:
                inner["name"], k = f"{case}_{k}".lower().replace("-", "_"), k + 1
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return config


def run_tf(cases, python):
    """Run every case in TensorFlow; {case name: {"outputs", "grads", "weight_shapes"} or
    {"error"}}."""
    rng = np.random.default_rng(7)
    arrays, request = {}, []
    for case in cases:
        case.run_wengert(rng)
        request.append(case.request(arrays))
    data = reference_store.answers(request, arrays, python, RUNNER)
    results = {}
    for case in cases:
        n = case.name
        if f"{n}/error" in data:
            results[n] = {"error": str(data[f"{n}/error"])}
            continue
        results[n] = {"outputs": [data[k] for k in sorted(
            (k for k in data if k.startswith(f"{n}/output")), key=lambda k: int(k.split(
                "output")[-1]))],
            "grads": [data[f"{n}/grad{i}"] for i in range(len(case.grads))],
            "weight_shapes": json.loads(str(data[f"{n}/weight_shapes"]))}
    return results


def assert_matches(case, result, rtol=1e-5, atol=1e-6):
    assert "error" not in result, f"{case.name}: TensorFlow failed: {result.get('error')}"
    assert [list(w.shape) for w in case.layer.weights] == result["weight_shapes"], case.name
    assert len(case.outputs) == len(result["outputs"]), case.name
    for k, (mine, theirs) in enumerate(zip(case.outputs, result["outputs"])):
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol,
                                   err_msg=f"{case.name}: output {k}")
    for k, (mine, theirs) in enumerate(zip(case.grads, result["grads"])):
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol,
                                   err_msg=f"{case.name}: gradient {k}")
