"""The classic MNIST softmax tutorial, TensorFlow 1 style: placeholders, a Session, and
`GradientDescentOptimizer(0.5).minimize(cross_entropy)`, which asks for the gradients itself.

    python examples/mnist_softmax_tf1.py

A softmax regression y = softmax(x W + b) over 784 pixels, trained for 1000 steps on batches of
100 images, then scored on held-out images. The data is `wengert.datasets.mnist.load_split()`:
MNIST when its files are found (8,000 training / 2,000 held-out images), else a built-in
substitute; the script says which.
"""
import numpy as np

import wengert.compat.v1 as tf
from wengert.datasets import mnist


def prepare(images, labels):
    """Flattened float32 pixels in [0, 1] and one-hot float32 labels, as the tutorial feeds them."""
    x = images.reshape(len(images), -1).astype(np.float32) / 255.0
    return x, np.eye(10, dtype=np.float32)[labels]


def batches(x, y, batch_size, seed=0):
    """Endless mini-batches, reshuffled every epoch (the tutorial's mnist.train.next_batch)."""
    rng = np.random.RandomState(seed)
    while True:
        order = rng.permutation(len(x))
        for start in range(0, len(x) - batch_size + 1, batch_size):
            chosen = order[start:start + batch_size]
            yield x[chosen], y[chosen]


def main(split=None, steps=1000, batch_size=100, learning_rate=0.5, verbose=True):
    """Train the softmax regression; returns its accuracy on the held-out images."""
    if split is None:
        split = mnist.load_split()
        if verbose:
            print(f"data: {split.source}")
    (x_train, y_train), (x_test, y_test) = (prepare(*part) for part in split)

    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 784])
        W = tf.Variable(tf.zeros([784, 10]))
        b = tf.Variable(tf.zeros([10]))
        y = tf.matmul(x, W) + b                      # the logits; softmax(y) is the model
        y_ = tf.placeholder(tf.float32, [None, 10])
        cross_entropy = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
        train_step = tf.train.GradientDescentOptimizer(learning_rate).minimize(cross_entropy)
        correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))

        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = batches(x_train, y_train, batch_size)
            for step in range(1, steps + 1):
                batch_xs, batch_ys = next(feed)
                _, loss = sess.run([train_step, cross_entropy],
                                   feed_dict={x: batch_xs, y_: batch_ys})
                if verbose and step % (steps // 4 or 1) == 0:
                    print(f"  step {step:4d}: cross-entropy {loss:.3f}")
            test_accuracy = float(sess.run(accuracy, feed_dict={x: x_test, y_: y_test}))
    if verbose:
        print(f"TF1 softmax regression, {steps} steps of {batch_size}: "
              f"test accuracy {test_accuracy:.2%}")
    return test_accuracy


if __name__ == "__main__":
    main()
