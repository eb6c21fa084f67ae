"""Compare keras.applications models built by wengert with the same models built by TensorFlow
2.21's Keras: parameter count, layer names, each layer's weight shapes, and the output on one
image with the same weights.

The weights are not TensorFlow's random draws but a fixed formula of (layer name, variable
name without a "_<n>" suffix, shape) (`fixed_value`): a seeded normal draw scaled so that activations keep their size
through deep networks (kernels ~ N(0, 1/fan_in), batch-norm scales and variances near 1,
shifts and means near 0). With TensorFlow live, its model gets them, saves a `.weights.h5`
file, and wengert's model loads that file (and must then hold the formula's values, so the
file moved every weight to its place); without TensorFlow (CI) wengert's model gets the same
values directly, and TensorFlow's stored output still checks the forward pass.

`tf_models(cases, images)` runs every case of a test module in one TensorFlow process. A case
is (key, expression building the model in `keras`, whether to compare the output); `images`
maps an image key to an array, and a case's output is computed on images[case's image key].
"""
import inspect
import json
import os
import re
import tempfile
import types
import zlib

import numpy as np

import wengert.keras as wk
from keras_tf_eval import tf_eval
from wengert.keras import applications
from tf_reference import tf_python

_WEIGHTS_DIR = "WENGERT_APPLICATIONS_WEIGHTS_DIR"


def fixed_value(layer_class, layer_name, var_name, shape):
    """The fixed test value of one variable (see the module docstring)."""
    kind = re.sub(r"_\d+$", "", var_name.split("/")[-1].split(":")[0])
    seed = zlib.crc32(f"{layer_name}/{kind}".encode())
    draw = np.random.RandomState(seed).standard_normal(shape)
    if kind in ("kernel", "depthwise_kernel") and len(shape) >= 2:
        fan_in = int(np.prod(shape[:2]) if layer_class == "DepthwiseConv2D"
                     else np.prod(shape[:-1]))
        return (draw / np.sqrt(fan_in)).astype("float32")
    if kind == "count":
        return np.zeros(shape, "int64")
    if kind in ("gamma", "moving_variance", "variance", "variable"):
        return (1.0 + 0.1 * np.abs(draw)).astype("float32")
    return (0.1 * draw).astype("float32")


def _layers_of(model):
    """Every layer of `model`, entering nested models, in order (iteratively)."""
    out, stack = [], list(reversed(model.layers))
    while stack:
        layer = stack.pop()
        out.append(layer)
        stack.extend(reversed(getattr(layer, "layers", [])))
    return out


_SNIPPET = """
import inspect, json, re, zlib
CASES = json.loads(CASES_JSON)
WDIR = os.environ.get("WENGERT_APPLICATIONS_WEIGHTS_DIR")

def summary(model, key):
    layers = _layers_of(model)
    out[key + "__params"] = np.array(model.count_params())
    out[key + "__names"] = np.array([l.name for l in layers if type(l).__name__ != "InputLayer"])
    out[key + "__shapes"] = np.array([l.name + ":" + ";".join(
        "x".join(map(str, v.shape)) for v in l.weights) for l in layers if l.weights])

for key, build, image, compare in CASES:
    keras.backend.clear_session()
    model = eval(build)
    summary(model, key)
    if compare:
        for l in _layers_of(model):
            for v in l.weights:
                v.assign(fixed_value(type(l).__name__, l.name, v.name, tuple(v.shape)))
        if WDIR:
            model.save_weights(os.path.join(WDIR, key + ".weights.h5"))
        out[key + "__out"] = np.asarray(model(A[image], training=False))
"""


def tf_models(cases, images):
    """{key: {"params", "names", "shapes", ["out"]}} from TensorFlow, and the directory of the
    weights files it wrote (None without TensorFlow)."""
    source = (inspect.getsource(fixed_value) + "\n" + inspect.getsource(_layers_of) + "\n"
              + f"CASES_JSON = {json.dumps(json.dumps(cases))}\n" + _SNIPPET)
    folder = tempfile.mkdtemp(prefix="wengert-apps-") if tf_python() else None
    previous = os.environ.get(_WEIGHTS_DIR)
    if folder:
        os.environ[_WEIGHTS_DIR] = folder
    try:
        flat = tf_eval(source, dict(images))
    finally:
        if previous is None:
            os.environ.pop(_WEIGHTS_DIR, None)
        else:
            os.environ[_WEIGHTS_DIR] = previous
    result = {}
    for name, value in flat.items():
        key, part = name.rsplit("__", 1)
        result.setdefault(key, {})[part] = value
    return result, folder


def wengert_summary(model):
    """The same summary of a wengert model (its op nodes, which Keras does not list among
    `model.layers`, left out)."""
    layers = [layer for layer in _layers_of(model) if not _is_operation(layer)]
    return {
        "params": model.count_params(),
        "names": [layer.name for layer in layers if type(layer).__name__ != "InputLayer"],
        "shapes": [layer.name + ":" + ";".join("x".join(map(str, v.shape)) for v in layer.weights)
                   for layer in layers if layer.weights]}


def _is_operation(layer):
    return type(layer).__module__.endswith("saving.op_layers")


def build_application(expression):
    """wengert's model for a case's expression over `keras.applications` (the test's own fixed
    text), with Keras's automatic names counted from a fresh session."""
    wk.backend.clear_session()
    names = {"keras": types.SimpleNamespace(applications=applications, Input=wk.Input)}
    return eval("keras.applications." + expression, names)


def check_structure(model, want):
    got = wengert_summary(model)
    assert got["params"] == int(want["params"])
    assert got["names"] == [str(n) for n in want["names"]]
    assert got["shapes"] == [str(s) for s in want["shapes"]]


def set_fixed_weights(model, key, folder):
    """Give `model` the formula's weights: through TensorFlow's file when it wrote one (and
    then check that every variable holds the formula's value), directly otherwise. A nested
    model's variables take the values of the layers inside it (TensorFlow's side assigns the
    container's first, then its layers')."""
    expected = [(v, fixed_value(type(layer).__name__, layer.name, v.name, tuple(v.shape)))
                for layer in _layers_of(model) if not getattr(layer, "layers", None)
                for v in layer.weights]
    if folder:
        model.load_weights(os.path.join(folder, key + ".weights.h5"))
        for variable, value in expected:
            np.testing.assert_array_equal(np.asarray(variable.numpy()), value,
                                          err_msg=variable.name)
    else:
        for variable, value in expected:
            variable.assign(value)


def check_output(model, key, want, image, folder, rtol=1e-4):
    set_fixed_weights(model, key, folder)
    got = np.asarray(model(image, training=False))
    scale = float(np.max(np.abs(want["out"]))) or 1.0
    np.testing.assert_allclose(got, want["out"], rtol=rtol, atol=rtol * scale)
