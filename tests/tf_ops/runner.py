"""Runs TensorFlow expressions for tests/tf_ops_reference.py, in TensorFlow's interpreter.

    python runner.py request.json arrays.npz results.npz

Each request names a case, a TensorFlow expression written by wengert's own tests (over `tf`,
`np`, `keras` and the inputs x0, x1, ...), and the input indices to differentiate. The results hold every
output, and for differentiated cases a seed per output and the gradients of
sum(output * seed) with respect to those inputs (zeros where TensorFlow gives None); a case that
raises stores its error type and message instead.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def run_case(case, arrays, results):
    name = case["name"]
    inputs = [tf.constant(arrays[f"{name}/x{i}"]) for i in range(case["n_inputs"])]
    env = {"tf": tf, "np": np}
    if "keras" in case["expr"]:
        import keras  # noqa: PLC0415 - only the cases that use Keras 3's own ops pay for it
        env["keras"] = keras
    env.update({f"x{i}": t for i, t in enumerate(inputs)})
    wrt = case["wrt"]
    with tf.GradientTape(persistent=True) as tape:
        for i in wrt:
            tape.watch(inputs[i])
        out = eval(case["expr"], env)  # noqa: S307 - expressions written by wengert's tests
        outputs = tf.nest.flatten(out)
        if wrt:
            rng = np.random.default_rng(len(results) + 1)
            seeds = [rng.normal(size=o.shape) for o in outputs]
            total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * s)
                              for o, s in zip(outputs, seeds) if o.dtype.is_floating])
    for k, o in enumerate(outputs):
        results[f"{name}/output{k}"] = o.numpy()
    if wrt:
        grads = tape.gradient(total, [inputs[i] for i in wrt])
        for k, s in enumerate(seeds):
            results[f"{name}/seed{k}"] = s
        for k, (i, g) in enumerate(zip(wrt, grads)):
            results[f"{name}/grad{k}"] = np.zeros(inputs[i].shape) if g is None else \
                tf.convert_to_tensor(g).numpy()


def main():
    request = json.load(open(sys.argv[1]))
    arrays = dict(np.load(sys.argv[2]))
    results = {}
    for case in request:
        try:
            run_case(case, arrays, results)
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[f"{case['name']}/error"] = np.array(f"{type(exc).__name__}: {exc}")
    np.savez(sys.argv[3], **results)


if __name__ == "__main__":
    main()
