"""One TensorFlow 1 program per streaming-metric case, written once for both interpreters: given
`tf` (TensorFlow's `tf.compat.v1` with eager execution disabled, or `wengert.compat.v1`), a case
entry and its arrays, build the metric over placeholders in a fresh graph, initialize the local
variables, and run the update op once per batch, reading the value after each.

A case entry: {"name", "metric", "fed": [argument names fed per batch], "kwargs": {other
arguments, JSON}, "batches": n, "static": whether placeholders get the full static shape (or,
"unknown_rank", no shape at all),
"sparse": [arguments fed as SparseTensors from <arg>_indices/_values/_shape arrays],
"unmatched": [result keys the test leaves out]}. Arrays are keyed "<name>/<arg><batch>". The
results, keyed "<name>/...": update<b> and value<b> (the update op's result and the value
after batch b), names (the value's name and the update's op's) and variables (name, shape and
dtype of each local variable, and whether it is a metric variable and trainable).
"""
import numpy as np


def _placeholder(tf, name, array, static):
    if static == "unknown_rank":
        return tf.placeholder(tf.as_dtype(array.dtype), name=name)
    shape = list(array.shape) if static else [None] + list(array.shape[1:])
    return tf.placeholder(tf.as_dtype(array.dtype), shape, name=name)


def _inputs(tf, entry, arrays):
    name, static = entry["name"], entry.get("static", False)
    fed, args = {}, {}
    for key in entry["fed"]:
        if key in entry.get("sparse", ()):
            rank = len(arrays[f"{name}/{key}_shape0"])
            parts = [tf.placeholder(tf.int64, [None, rank], name=key + "_indices"),
                     tf.placeholder(tf.int64, [None], name=key + "_values"),
                     tf.placeholder(tf.int64, [rank], name=key + "_shape")]
            for part, suffix in zip(parts, ("indices", "values", "shape")):
                fed[part] = f"{name}/{key}_{suffix}"
            args[key] = tf.SparseTensor(*parts)
        else:
            args[key] = _placeholder(tf, key, arrays[f"{name}/{key}0"], static)
            fed[args[key]] = f"{name}/{key}"
    return fed, args


def _describe(tf, variable, metric_names):
    return (f"{variable.name} {variable.shape.as_list()} {variable.dtype.name} "
            f"metric={variable.name in metric_names} trainable={variable.trainable}")


def run_case(tf, entry, arrays):
    """The results of one case (see the module docstring)."""
    name = entry["name"]
    graph = tf.Graph()
    results = {}
    with graph.as_default():
        fed, args = _inputs(tf, entry, arrays)
        value, update = getattr(tf.metrics, entry["metric"])(**args, **entry.get("kwargs", {}))
        init = tf.local_variables_initializer()
        metric_names = {v.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)}
        variables = [_describe(tf, v, metric_names) for v in tf.local_variables()]
        with tf.Session(graph=graph) as sess:
            sess.run(init)
            for b in range(entry["batches"]):
                feed = {t: arrays[f"{key}{b}"] for t, key in fed.items()}
                results[f"{name}/update{b}"] = np.asarray(sess.run(update, feed))
                results[f"{name}/value{b}"] = np.asarray(sess.run(value))
    results[f"{name}/names"] = np.array([value.name, update.op.name])
    results[f"{name}/variables"] = np.array(variables)
    return results
