"""A TensorFlow 1 model built with variable scopes and get_variable, trained in a Session and
saved with tf.train.Saver, then restored into a fresh graph."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()


def dense(x, units, scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [x.shape[1], units], initializer=tf.constant_initializer(0.1))
        b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
        return tf.matmul(x, w) + b


x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
pred = dense(tf.nn.tanh(dense(x, 4, "layer1")), 1, "layer2")
loss = tf.reduce_mean(tf.square(pred - y))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
print("variables:", [v.name for v in tf.global_variables()])
rng = np.random.default_rng(13)
xs = rng.normal(size=(32, 3)).astype(np.float32)
ys = xs @ np.array([[0.5], [-1.0], [2.0]], np.float32)
saver = tf.train.Saver()
folder = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(50):
        _, value = sess.run([train, loss], {x: xs, y: ys})
    print(f"trained loss {value:.5f}")
    path = saver.save(sess, os.path.join(folder, "model.ckpt"))
tf.reset_default_graph()
x = tf.placeholder(tf.float32, [None, 3])
pred = dense(tf.nn.tanh(dense(x, 4, "layer1")), 1, "layer2")
with tf.Session() as sess:
    tf.train.Saver().restore(sess, path)
    print("restored prediction:", np.round(sess.run(pred, {x: xs[:2]}), 4).tolist())
