"""A TensorFlow 1 script as papers' code is written: eager execution disabled, placeholders,
a two-layer network from tf.compat.v1 variables, softmax cross-entropy, Adam's minimize with a
global step, a Session loop with feed_dict, accuracy by argmax, and gradients by tf.gradients."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
rng = np.random.default_rng(23)
x_data = rng.normal(size=(120, 6)).astype("float32")
labels = (x_data[:, 0] > x_data[:, 1]).astype("int64") + (x_data[:, 2] > 0.5).astype("int64")
y_data = np.eye(3, dtype="float32")[labels]

x = tf.placeholder(tf.float32, [None, 6], name="x")
y_ = tf.placeholder(tf.float32, [None, 3], name="y")
w1 = tf.Variable(rng.normal(size=(6, 10)).astype("float32") * 0.3, name="w1")
b1 = tf.Variable(tf.zeros([10]), name="b1")
w2 = tf.Variable(rng.normal(size=(10, 3)).astype("float32") * 0.3, name="w2")
b2 = tf.Variable(tf.zeros([3]), name="b2")
hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
logits = tf.matmul(hidden, w2) + b2
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=global_step)
correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
grad_w1 = tf.gradients(loss, [w1])[0]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("initial loss:", round(float(sess.run(loss, {x: x_data, y_: y_data})), 5))
    print("grad w1 norm:", round(float(np.linalg.norm(sess.run(grad_w1, {x: x_data, y_: y_data}))), 5))
    for step in range(30):
        batch = slice((step * 40) % 120, (step * 40) % 120 + 40)
        _, value = sess.run([train_op, loss], feed_dict={x: x_data[batch], y_: y_data[batch]})
        if step % 10 == 9:
            print(f"step {step + 1}: loss {value:.5f}")
    print("accuracy:", round(float(sess.run(accuracy, {x: x_data, y_: y_data})), 4))
    print("global step:", sess.run(global_step))
    print("trainable:", [v.name for v in tf.trainable_variables()])
