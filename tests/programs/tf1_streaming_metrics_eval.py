"""A TensorFlow 1 evaluation loop as estimator-era code writes it: a softmax classifier trained
with placeholders and GradientDescent, then evaluated batch by batch with tf.metrics (accuracy,
precision/recall of one class, AUC, mean IoU, per-class accuracy, precision@k, a mean of the
loss), the update ops gathered from a collection, the metric variables reset between epochs
with the local-variables initializer, and each epoch's values read once at its end."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
rng = np.random.default_rng(7)
x_data = rng.normal(size=(96, 5)).astype("float32")
labels_data = ((x_data[:, 0] > 0).astype("int64") + (x_data[:, 1] > 0.4).astype("int64"))

x = tf.placeholder(tf.float32, [None, 5], name="x")
y = tf.placeholder(tf.int64, [None], name="y")
with tf.variable_scope("classifier"):
    w = tf.get_variable("w", [5, 3], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
logits = tf.matmul(x, w) + b
probabilities = tf.nn.softmax(logits)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
predicted = tf.argmax(logits, 1)
is_two = tf.equal(y, 2)

with tf.name_scope("eval"):
    metrics = {
        "accuracy": tf.metrics.accuracy(y, predicted, updates_collections=["eval_updates"]),
        "precision_2": tf.metrics.precision(is_two, tf.equal(predicted, 2),
                                            updates_collections=["eval_updates"]),
        "recall_2": tf.metrics.recall(is_two, tf.equal(predicted, 2),
                                      updates_collections=["eval_updates"]),
        "auc_2": tf.metrics.auc(is_two, probabilities[:, 2], num_thresholds=50,
                                updates_collections=["eval_updates"]),
        "mean_iou": tf.metrics.mean_iou(y, predicted, 3, updates_collections=["eval_updates"]),
        "per_class": tf.metrics.mean_per_class_accuracy(y, predicted, 3,
                                                        updates_collections=["eval_updates"]),
        "precision_at_2": tf.metrics.precision_at_k(y, logits, 2,
                                                    updates_collections=["eval_updates"]),
        "loss": tf.metrics.mean(loss, updates_collections=["eval_updates"]),
    }
updates = tf.get_collection("eval_updates")
reset = tf.local_variables_initializer()
print("metric variables:", len(tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)))
print("first:", [v.name for v in tf.local_variables()[:4]])
print("trainable:", [v.name for v in tf.trainable_variables()])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(3):
        for start in range(0, 96, 16):
            sess.run(train_op, {x: x_data[start:start + 16], y: labels_data[start:start + 16]})
        sess.run(reset)
        for start in range(0, 96, 24):
            sess.run(updates, {x: x_data[start:start + 24], y: labels_data[start:start + 24]})
        values = sess.run({name: value for name, (value, _) in metrics.items()})
        print(f"epoch {epoch}: " + ", ".join(f"{k} {float(v):.5f}" for k, v in
                                             sorted(values.items())))
