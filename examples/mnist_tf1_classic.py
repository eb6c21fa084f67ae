"""A TensorFlow 1 training script in the classic style, run unchanged: flags, variable scopes
and get_variable, summaries merged with merge_all and written by a FileWriter (open the log
directory in TensorBoard), a Saver every few hundred steps, and streaming accuracy with
tf.metrics on the held-out images.

    python examples/mnist_tf1_classic.py --steps=1000 --logdir=/tmp/mnist_tf1
    tensorboard --logdir=/tmp/mnist_tf1

A two-layer perceptron (784 -> 128 ReLU -> 10) trained with Adam on batches of 100 images. The
data is `wengert.datasets.mnist.load_split()`: MNIST when its files are found (8,000 training /
2,000 held-out images), else a built-in substitute; the script says which.
"""
import os
import tempfile

import numpy as np

import wengert.compat.v1 as tf
from wengert.datasets import mnist

flags = tf.app.flags
flags.DEFINE_integer("steps", 1000, "Training steps.")
flags.DEFINE_integer("batch_size", 100, "Images per step.")
flags.DEFINE_float("learning_rate", 1e-3, "Adam's learning rate.")
flags.DEFINE_integer("save_every", 250, "Steps between checkpoints.")
flags.DEFINE_string("logdir", os.path.join(tempfile.gettempdir(), "mnist_tf1"),
                    "Where the event files and checkpoints go.")
FLAGS = flags.FLAGS


def dense(x, units, name, activation=None):
    """A fully connected layer whose variables live in variable_scope(name)."""
    with tf.variable_scope(name):
        w = tf.get_variable("weights", [int(x.shape[1]), units],
                            initializer=tf.glorot_uniform_initializer(seed=1))
        b = tf.get_variable("biases", [units], initializer=tf.zeros_initializer())
        tf.summary.histogram("weights", w)
        y = tf.matmul(x, w) + b
        return activation(y) if activation else y


def model(x):
    hidden = dense(x, 128, "hidden", tf.nn.relu)
    return dense(hidden, 10, "logits")


def prepare(images, labels):
    return images.reshape(len(images), -1).astype(np.float32) / 255.0, labels.astype(np.int64)


def train(split, steps, batch_size, learning_rate, save_every, logdir, verbose=True):
    """Train and evaluate; returns (held-out accuracy, the last checkpoint's path)."""
    (x_train, y_train), (x_test, y_test) = (prepare(*part) for part in split)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 784], name="images")
        labels = tf.placeholder(tf.int64, [None], name="labels")
        logits = model(x)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.AdamOptimizer(learning_rate).minimize(loss, global_step=global_step)
        tf.summary.scalar("loss", loss)
        merged = tf.summary.merge_all()
        accuracy, update_accuracy = tf.metrics.accuracy(labels, tf.argmax(logits, 1))
        saver = tf.train.Saver(max_to_keep=2)
        writer = tf.summary.FileWriter(logdir, tf.get_default_graph())
        rng = np.random.RandomState(0)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            for step in range(1, steps + 1):
                chosen = rng.randint(0, len(x_train), batch_size)
                feed = {x: x_train[chosen], labels: y_train[chosen]}
                _, summary = sess.run([train_op, merged], feed)
                writer.add_summary(summary, step)
                if step % save_every == 0 or step == steps:
                    path = saver.save(sess, os.path.join(logdir, "model.ckpt"), global_step=step)
            for start in range(0, len(x_test), 500):
                sess.run(update_accuracy, {x: x_test[start:start + 500],
                                           labels: y_test[start:start + 500]})
            test_accuracy = float(sess.run(accuracy))
        writer.close()
    if verbose:
        print(f"TF1 MLP, {steps} steps of {batch_size}: held-out accuracy {test_accuracy:.2%}; "
              f"checkpoint {path}; summaries in {logdir}")
    return test_accuracy, path


def main(argv=None):
    split = mnist.load_split()
    print(f"data: {split.source}")
    train(split, FLAGS.steps, FLAGS.batch_size, FLAGS.learning_rate, FLAGS.save_every,
          FLAGS.logdir)


if __name__ == "__main__":
    tf.app.run()
