"""A multilayer perceptron for MNIST with the Keras API: `Sequential`, `compile`, `fit`.

    python examples/mnist_mlp_keras.py

TensorFlow 2's beginner tutorial model: 28x28 images -> Flatten -> Dense(128, relu) ->
Dropout(0.2) -> Dense(10) logits, trained with Adam on the sparse categorical cross-entropy.
`fit` shows a progress bar per epoch and scores the held-out images after each one
(validation_data); with `log_dir`, a `TensorBoard` callback logs the run there (train/ and
validation/ runs: `tensorboard --logdir <log_dir>`). Nowhere is a gradient mentioned: `fit` runs a GradientTape over the model's
trainable variables and hands the gradients to the optimizer.
"""
import numpy as np

import wengert as tf
from wengert.datasets import mnist


def main(split=None, epochs=5, batch_size=32, verbose=True, seed=0, log_dir=None):
    """Train the MLP; returns its accuracy on the held-out images."""
    if split is None:
        split = mnist.load_split()
        if verbose:
            print(f"data: {split.source}")
    (x_train, y_train), (x_test, y_test) = split
    x_train, x_test = x_train.astype(np.float32) / 255.0, x_test.astype(np.float32) / 255.0

    tf.keras.utils.set_random_seed(seed)
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(10),
    ])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    if verbose:
        model.summary()
    callbacks = [tf.keras.callbacks.TensorBoard(log_dir, histogram_freq=1)] if log_dir else []
    model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs,
              validation_data=(x_test, y_test), verbose=1 if verbose else 0,
              callbacks=callbacks)
    _, test_accuracy = model.evaluate(x_test, y_test, verbose=0)
    if verbose:
        print(f"Keras MLP (784-128-10, dropout 0.2, Adam), {epochs} epochs: "
              f"test accuracy {test_accuracy:.2%}")
    return float(test_accuracy)


if __name__ == "__main__":
    main()
