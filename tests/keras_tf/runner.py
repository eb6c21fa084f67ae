"""Runs inside TensorFlow's venv (never imported by wengert's tests): for each case in the
request file, rebuild the layer from its Keras config, set the weights wengert made, and return
its outputs and the gradients of sum(output * seed) with respect to the inputs and every
trainable weight.

Usage: python runner.py request.json arrays.npz result.npz
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402


def _flat(x):
    return tf.nest.flatten(x)


def run_case(case, arrays, out):
    name = case["name"]
    layer = keras.layers.deserialize(case["config"])
    inputs = [tf.constant(arrays[f"{name}/input{i}"]) for i in range(case["n_inputs"])]
    kwargs = {}
    if f"{name}/mask" in arrays:
        kwargs["mask"] = tf.constant(arrays[f"{name}/mask"])
    for key in case.get("tensor_kwargs", []):
        kwargs[key] = tf.constant(arrays[f"{name}/kw/{key}"])
    kwargs.update(case.get("kwargs", {}))
    call_in, rest = (inputs, []) if case.get("list_input") else (inputs[0], inputs[1:])
    layer(call_in, *rest, **kwargs)  # build
    weights = [arrays[f"{name}/weight{i}"] for i in range(case["n_weights"])]
    if len(weights) != len(layer.weights):
        raise ValueError(f"{name}: TF's layer has {len(layer.weights)} weights "
                         f"({[w.path for w in layer.weights]}), wengert's {len(weights)}")
    layer.set_weights(weights)
    with tf.GradientTape(persistent=True) as tape:
        for t in inputs:
            if t.dtype.is_floating:
                tape.watch(t)
        outputs = _flat(layer(call_in, *rest, training=case.get("training", False), **kwargs))
        total = 0.0
        for i, o in enumerate(outputs):
            seed = arrays.get(f"{name}/seed{i}")
            if seed is not None:
                total = total + tf.reduce_sum(tf.cast(o, tf.float64) * seed)
    for i, o in enumerate(outputs):
        out[f"{name}/output{i}"] = np.asarray(o)
    sources = [t for t in inputs if t.dtype.is_floating] + list(layer.trainable_weights)
    grads = tape.gradient(total, sources)
    for i, g in enumerate(grads):
        out[f"{name}/grad{i}"] = np.zeros(sources[i].shape, "float64") if g is None \
            else np.asarray(tf.convert_to_tensor(g))
    out[f"{name}/weight_shapes"] = np.asarray(json.dumps([list(w.shape) for w in layer.weights]))


def main():
    request = json.load(open(sys.argv[1]))
    arrays = dict(np.load(sys.argv[2]))
    out = {}
    for case in request:
        try:
            run_case(case, arrays, out)
        except Exception as err:  # reported per case
            out[f"{case['name']}/error"] = np.asarray(f"{type(err).__name__}: {err}")
    np.savez(sys.argv[3], **out)


if __name__ == "__main__":
    main()
