"""A TensorFlow 1 script: placeholders, variables, a softmax classifier trained by
GradientDescentOptimizer in a Session, then evaluated on held-out rows."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

rng = np.random.default_rng(1)
centers = rng.normal(size=(3, 4)) * 3
labels = rng.integers(0, 3, size=300)
features = (centers[labels] + rng.normal(size=(300, 4))).astype(np.float32)
onehot = np.eye(3, dtype=np.float32)[labels]

x = tf.placeholder(tf.float32, [None, 4], name="x")
y_ = tf.placeholder(tf.float32, [None, 3], name="y")
W = tf.Variable(np.zeros((4, 3), np.float32), name="W")
b = tf.Variable(np.zeros(3, np.float32), name="b")
logits = tf.matmul(x, W) + b
cross_entropy = tf.reduce_mean(
    tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=logits))
train_step = tf.train.GradientDescentOptimizer(0.1).minimize(cross_entropy)
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

print("ops:", logits.op.type, cross_entropy.op.type, x.name, W.name)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(101):
        batch = slice((step * 20) % 240, (step * 20) % 240 + 20)
        _, loss = sess.run([train_step, cross_entropy],
                           feed_dict={x: features[batch], y_: onehot[batch]})
        if step % 20 == 0:
            print(f"step {step:3d}: loss {loss:.5f}")
    print(f"held-out accuracy {sess.run(accuracy, {x: features[240:], y_: onehot[240:]}):.4f}")
    print("W row sums:", np.round(sess.run(W).sum(axis=1), 4).tolist())
