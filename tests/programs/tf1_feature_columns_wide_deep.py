"""A census-style wide-and-deep model in TensorFlow 1 with feature columns: tf.train.Example
records parsed with the columns' parsing spec, a linear model over bucketized, hashed,
vocabulary and crossed columns (the wide part), a small network over numeric and embedding
columns built by input_layer (the deep part), both trained together with Adagrad; the
variables' names and shapes, the loss, the accuracy and the wide weights learnt for one column
printed."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
rng = np.random.default_rng(3)
EDUCATION = ["Bachelors", "HS-grad", "Masters", "Doctorate"]
OCCUPATION = ["Tech", "Sales", "Craft", "Admin", "Other"]


def record(age, hours, education, occupation, label):
    feature = {
        "age": tf.train.Feature(float_list=tf.train.FloatList(value=[age])),
        "hours": tf.train.Feature(float_list=tf.train.FloatList(value=[hours])),
        "education": tf.train.Feature(bytes_list=tf.train.BytesList(value=[education.encode()])),
        "occupation": tf.train.Feature(
            bytes_list=tf.train.BytesList(value=[occupation.encode()])),
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label]))}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


records = []
for i in range(64):
    age, hours = float(rng.integers(18, 70)), float(rng.integers(10, 60))
    education, occupation = EDUCATION[i % 4], OCCUPATION[(i * 3) % 5]
    label = int(age > 40 and hours > 35) or int(education == "Doctorate")
    records.append(record(age, hours, education, occupation, label))

fc = tf.feature_column
age = fc.numeric_column("age")
hours = fc.numeric_column("hours", normalizer_fn=lambda x: (x - 35.0) / 15.0)
age_buckets = fc.bucketized_column(age, [25, 35, 45, 55, 65])
education = fc.categorical_column_with_vocabulary_list("education", EDUCATION)
occupation = fc.categorical_column_with_hash_bucket("occupation", 8)
wide = [age_buckets, education, occupation,
        fc.crossed_column([age_buckets, "education"], 16)]
deep = [hours, fc.numeric_column("age", normalizer_fn=lambda x: x / 50.0),
        fc.indicator_column(education),
        fc.embedding_column(occupation, 3, initializer=tf.constant_initializer(
            rng.normal(scale=0.1, size=(8, 3))))]

spec = fc.make_parse_example_spec(wide + deep)
spec["label"] = tf.FixedLenFeature([1], tf.int64)
print("spec:", sorted(spec))
serialized = tf.placeholder(tf.string, [None], name="serialized")
features = tf.io.parse_example(serialized, spec)
labels = tf.cast(features.pop("label"), tf.float32)

wide_logits = tf.feature_column.linear_model(features, wide)
with tf.variable_scope("deep"):
    net = tf.feature_column.input_layer(features, deep)
    print("deep input width:", net.shape[1])
    w1 = tf.get_variable("w1", [net.shape[1], 8],
                         initializer=tf.constant_initializer(rng.normal(scale=0.4, size=(9, 8))))
    b1 = tf.get_variable("b1", [8], initializer=tf.zeros_initializer())
    hidden = tf.nn.relu(tf.matmul(net, w1) + b1)
    deep_logits = tf.matmul(hidden, tf.get_variable(
        "w2", [8, 1], initializer=tf.constant_initializer(rng.normal(scale=0.4, size=(8, 1)))))
logits = wide_logits + deep_logits
loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.AdagradOptimizer(0.1).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(logits > 0, tf.float32), labels),
                                  tf.float32))

for v in tf.trainable_variables():
    print(v.name, v.shape.as_list())
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    for step in range(60):
        batch = records[(step * 16) % 64:(step * 16) % 64 + 16]
        _, value = sess.run([train_op, loss], {serialized: batch})
        if step % 20 == 0:
            print(f"step {step}: loss {value:.4f}")
    print(f"accuracy: {sess.run(accuracy, {serialized: records}):.3f}")
    weights = [v for v in tf.global_variables() if v.op.name == "linear_model/education/weights"]
    print("wide weights of education:", np.round(sess.run(weights[0]), 3).ravel().tolist())
