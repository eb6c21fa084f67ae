"""Keras fit and evaluate under MultiWorkerMirroredStrategy on datasets whose size is not a
multiple of the global batch, nor the last batch of the process count (some ranks get one row
more, some none); rank 0 writes the weights and the logs to OUTDIR/result.npz.

    python fit_remainders.py OUTDIR"""
import os
import sys

import numpy as np

import wengert as tf

OUT = sys.argv[1]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
results = {}
for rows, batch in [(18, 7), (18, 8), (10, 4)]:
    data = np.random.default_rng(rows * 100 + batch)
    x = data.normal(size=(rows, 3))
    y = data.normal(size=(rows, 1))
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input((3,), dtype="float64"),
            tf.keras.layers.Dense(4, activation="tanh", dtype="float64",
                                  kernel_initializer=tf.keras.initializers.Constant(0.3)),
            tf.keras.layers.Dense(1, dtype="float64", kernel_initializer="ones")])
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=batch, epochs=2, shuffle=False, verbose=0,
                        validation_data=(x[:5] * 2, y[:5]), validation_batch_size=batch)
    case = f"{rows}-{batch}"
    for i, w in enumerate(model.get_weights()):
        results[f"{case}/w{i}"] = w
    for key, values in history.history.items():
        results[f"{case}/{key}"] = np.asarray(values)
    results[f"{case}/evaluate"] = np.asarray(model.evaluate(x, y, batch_size=batch, verbose=0))
if strategy.cluster_resolver.task_id == 0:
    np.savez(os.path.join(OUT, "result.npz"), **results)
