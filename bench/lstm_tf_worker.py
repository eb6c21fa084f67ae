"""TensorFlow's side of bench_lstm.py, run by /work/tfvenv/bin/python (never imported by wengert).

    python lstm_tf_worker.py DATA.npz

Builds the benchmark's model in TensorFlow's Keras (Embedding(10,000, 128) -> LSTM(128) ->
Dense(1), Adam, sigmoid cross-entropy from logits), then serves one request per line on stdin:
"epoch" runs `fit` over the data once (50 steps of batch 64, not shuffled) and prints its
seconds; "quit" ends. A first pass (tracing) runs before the reply "ready".
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
    model = tf.keras.Sequential([tf.keras.Input((x.shape[1],), dtype="int32"),
                                 layers.Embedding(10_000, 128), layers.LSTM(128),
                                 layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0, shuffle=False)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "epoch":
            break
        start = time.perf_counter()
        model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0, shuffle=False)
        print(f"{time.perf_counter() - start:.6f}", flush=True)


if __name__ == "__main__":
    main()
