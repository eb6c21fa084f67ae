"""The MNIST softmax tutorial, TensorFlow 2 style: a GradientTape and the SGD optimizer.

    python examples/mnist_softmax_tf2.py

The same model as mnist_softmax_tf1.py (logits = x W + b, softmax cross-entropy, learning rate
0.5, 1000 steps of 100 images), written eagerly: the tape records the forward pass and
`tape.gradient` gives dLoss/dW and dLoss/db, which `SGD.apply_gradients` applies. The training
step is a `tf.function`, traced once into a graph and then run as one.
"""
import numpy as np

import wengert as tf
from wengert.datasets import mnist


def prepare(images, labels):
    """Flattened float32 pixels in [0, 1] and int64 labels 0-9."""
    return images.reshape(len(images), -1).astype(np.float32) / 255.0, labels.astype(np.int64)


def main(split=None, steps=1000, batch_size=100, learning_rate=0.5, verbose=True):
    """Train the softmax regression; returns its accuracy on the held-out images."""
    if split is None:
        split = mnist.load_split()
        if verbose:
            print(f"data: {split.source}")
    (x_train, y_train), (x_test, y_test) = (prepare(*part) for part in split)

    W = tf.Variable(tf.zeros([784, 10]), name="W")
    b = tf.Variable(tf.zeros([10]), name="b")
    optimizer = tf.keras.optimizers.SGD(learning_rate)

    def model(x):
        return tf.matmul(x, W) + b  # logits

    @tf.function
    def train_step(x, labels):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=model(x)))
        gradients = tape.gradient(loss, [W, b])
        optimizer.apply_gradients(zip(gradients, [W, b]))
        return loss

    rng = np.random.RandomState(0)
    order, position = rng.permutation(len(x_train)), 0
    for step in range(1, steps + 1):
        if position + batch_size > len(order):
            order, position = rng.permutation(len(x_train)), 0
        chosen = order[position:position + batch_size]
        position += batch_size
        loss = train_step(tf.constant(x_train[chosen]), tf.constant(y_train[chosen]))
        if verbose and step % (steps // 4 or 1) == 0:
            print(f"  step {step:4d}: cross-entropy {float(loss):.3f}")

    predictions = tf.argmax(model(tf.constant(x_test)), axis=1)
    test_accuracy = float(np.mean(predictions.numpy() == y_test))
    if verbose:
        print(f"TF2 softmax regression (GradientTape + SGD), {steps} steps of {batch_size}: "
              f"test accuracy {test_accuracy:.2%}")
    return test_accuracy


if __name__ == "__main__":
    main()
