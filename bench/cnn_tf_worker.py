"""TensorFlow's side of bench_cnn.py, run by /work/tfvenv/bin/python (never imported by wengert).

    python cnn_tf_worker.py DATA.npz

Builds the demo's CNN in TensorFlow's Keras (the same layers, initial learning rate and loss as
examples/mnist_cnn_keras.py), then serves one request per line on stdin: "epoch" runs one epoch
of `fit` (batch 32, shuffled) and prints its seconds; "quit" ends. The first epoch (tracing)
is run before the first reply "ready".
"""
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def main():
    data = np.load(sys.argv[1])
    x, y = data["x"], data["y"]
    batch_size = int(data["batch_size"])
    tf.keras.utils.set_random_seed(0)
    layers = tf.keras.layers
    model = tf.keras.Sequential([
        tf.keras.Input((28, 28, 1)),
        layers.Conv2D(16, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(10),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "epoch":
            break
        start = time.perf_counter()
        history = model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0)
        seconds = time.perf_counter() - start
        print(f"{seconds} {history.history['accuracy'][-1]}", flush=True)


if __name__ == "__main__":
    main()
