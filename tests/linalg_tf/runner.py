"""Runs inside TensorFlow's venv (never imported by wengert's tests): evaluates the named cases
of cases.py with TensorFlow and writes outputs and gradients of sum(real(output * seed)).

Usage: python runner.py request.json arrays.npz result.npz  (request: [{"name": case}, ...];
the case "names" answers tf.linalg's and tf.signal's public names)
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import cases  # noqa: E402


def run(name, arrays, out):
    fn, inputs = cases.CASES[name]
    tensors = [tf.constant(arrays[f"{name}/in{i}"]) for i in range(len(inputs))]
    with tf.GradientTape() as tape:
        for t in tensors:
            if t.dtype.is_floating or t.dtype.is_complex:
                tape.watch(t)
        result = fn(tf, *tensors)
        flat = tf.nest.flatten(result)
        total = tf.constant(0.0, tf.float64)
        for k, o in enumerate(flat):
            out[f"{name}/out{k}"] = o.numpy()
            if o.dtype.is_floating or o.dtype.is_complex:
                seed = tf.constant(arrays[f"{name}/seed{k}"], dtype=o.dtype)
                total += tf.cast(tf.math.real(tf.reduce_sum(o * seed)), tf.float64)
    if name in cases.FORWARD_ONLY:
        return
    sources = [t for t in tensors if t.dtype.is_floating or t.dtype.is_complex]
    for k, g in enumerate(tape.gradient(total, sources)):
        out[f"{name}/grad{k}"] = np.zeros(0) if g is None else g.numpy()


def main(request_path, arrays_path, result_path):
    with open(request_path) as f:
        names = [case["name"] for case in json.load(f)]
    arrays = dict(np.load(arrays_path))
    out = {f"names/{space}": np.array(sorted(n for n in dir(getattr(tf, space))
                                             if not n.startswith("_")))
           for space in ("linalg", "signal")}
    for name in names:
        if name == "names":
            continue
        try:
            run(name, arrays, out)
        except Exception as err:  # noqa: BLE001 - reported per case
            out[f"{name}/error"] = np.array(f"{type(err).__name__}: {err}")
    np.savez(result_path, **out)


if __name__ == "__main__":
    main(*sys.argv[1:])
