"""A small convolutional network for MNIST with the Keras API.

    python examples/mnist_cnn_keras.py

Two convolution + max-pooling blocks and a dense head, the classic Keras MNIST convnet made
small enough to train on a laptop CPU in a quarter of a minute:

    28x28x1 -> Conv2D(16, 3x3, relu) -> 26x26x16 -> MaxPooling2D(2x2) -> 13x13x16
            -> Conv2D(32, 3x3, relu) -> 11x11x32 -> MaxPooling2D(2x2) -> 5x5x32
            -> Flatten -> 800 -> Dense(10) logits

trained with Adam on the sparse categorical cross-entropy, its learning rate halved after every
epoch (an ExponentialDecay schedule) so the last epochs settle instead of wandering. Each
filter is shared by every position of the image, so 12,810 weights do better than the MLP's
101,770: `fit` sums the gradient of the loss over all the positions a filter was applied at
(the gradient rule of `nn.conv2d`), and for each pooling window sends the gradient to the input
that won the max.
"""
import math
import time

import numpy as np

import wengert as tf
from wengert.datasets import mnist


def build_model():
    layers = tf.keras.layers
    return tf.keras.Sequential([
        layers.Conv2D(16, 3, activation="relu", input_shape=(28, 28, 1)),
        layers.MaxPooling2D(),
        layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(10),
    ])


def main(split=None, epochs=4, batch_size=32, verbose=True, seed=0):
    """Train the convnet; returns its accuracy on the held-out images."""
    if split is None:
        split = mnist.load_split()
        if verbose:
            print(f"data: {split.source}")
    (x_train, y_train), (x_test, y_test) = split
    # images get a channel axis: [n, 28, 28] -> [n, 28, 28, 1] (NHWC), scaled to [0, 1]
    x_train = x_train.astype(np.float32)[..., None] / 255.0
    x_test = x_test.astype(np.float32)[..., None] / 255.0

    tf.keras.utils.set_random_seed(seed)
    model = build_model()
    steps_per_epoch = math.ceil(len(x_train) / batch_size)
    learning_rate = tf.keras.optimizers.schedules.ExponentialDecay(
        3e-3, decay_steps=steps_per_epoch, decay_rate=0.5)
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    if verbose:
        model.summary()
    start = time.perf_counter()
    model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs,
              validation_data=(x_test, y_test), verbose=1 if verbose else 0)
    seconds = time.perf_counter() - start
    _, test_accuracy = model.evaluate(x_test, y_test, batch_size=256, verbose=0)
    if verbose:
        print(f"Keras CNN (conv16-pool-conv32-pool-dense10, Adam), {epochs} epochs in "
              f"{seconds:.0f} s: test accuracy {test_accuracy:.2%}")
    return float(test_accuracy)


if __name__ == "__main__":
    main()
