"""A TensorFlow 1 input pipeline in the queue style: CSV and TFRecord files written to a temporary
folder, string_input_producer over them, a TextLineReader with decode_csv and a TFRecordReader
with parse_single_example, batches by tf.train.batch (one thread: the order is deterministic)
feeding a small linear model trained with start_queue_runners and a Coordinator until the
epochs run out, then a shuffle_batch whose contents (not order) are printed."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

folder = tempfile.mkdtemp()
xs = np.linspace(-1.0, 1.0, 12).astype(np.float32)
for part in range(2):
    with open(os.path.join(folder, f"part{part}.csv"), "w") as f:
        f.write("x,y\n")
        for x in xs[part * 6:(part + 1) * 6]:
            f.write(f"{x:.4f},{3.0 * x + 1.0:.4f}\n")
with tf.io.TFRecordWriter(os.path.join(folder, "extra.tfrecord")) as writer:
    for i, x in enumerate(xs[:5]):
        example = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=[float(x)])),
            "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}))
        writer.write(example.SerializeToString())

csv_files = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".csv"))
filenames = tf.train.string_input_producer(csv_files, num_epochs=4, shuffle=False)
key, line = tf.TextLineReader(skip_header_lines=1).read(filenames)
x, y = tf.decode_csv(line, record_defaults=[[0.0], [0.0]])
x_batch, y_batch = tf.train.batch([x, y], batch_size=4)
print("batch:", x_batch.op.name, x_batch.shape, y_batch.dtype.name)

w = tf.get_variable("w", [], initializer=tf.zeros_initializer())
b = tf.get_variable("b", [], initializer=tf.zeros_initializer())
loss = tf.reduce_mean(tf.square(w * x_batch + b - y_batch))
step = tf.train.get_or_create_global_step()
train = tf.train.GradientDescentOptimizer(0.3).minimize(loss, global_step=step)
print("runners:", [r.name for r in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)])

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    losses = []
    try:
        while not coord.should_stop():
            _, value = sess.run([train, loss])
            losses.append(value)
    except tf.errors.OutOfRangeError:
        print("epochs done after", sess.run(step), "steps")
    finally:
        coord.request_stop()
    coord.join(threads)
    print("first losses:", np.round(losses[:3], 4).tolist())
    print("last loss: %.4f" % losses[-1])
    print("w, b: %.3f %.3f" % tuple(sess.run([w, b])))

tf.reset_default_graph()
records = tf.train.string_input_producer([os.path.join(folder, "extra.tfrecord")], num_epochs=2,
                                         shuffle=False)
_, serialized = tf.TFRecordReader().read(records)
features = tf.parse_single_example(serialized, {"x": tf.FixedLenFeature([], tf.float32),
                                                "id": tf.FixedLenFeature([], tf.int64)})
ids, values = tf.train.shuffle_batch([features["id"], features["x"]], batch_size=3, capacity=10,
                                     min_after_dequeue=2, seed=7,
                                     allow_smaller_final_batch=True)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    seen = []
    try:
        while True:
            got_ids, got_values = sess.run([ids, values])
            seen.extend(zip(got_ids.tolist(), np.round(got_values, 4).tolist()))
    except tf.errors.OutOfRangeError:
        pass
    coord.request_stop()
    coord.join(threads)
print("shuffled examples (sorted):", sorted(seen))
