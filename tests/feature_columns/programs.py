"""TF 1 feature-column programs, written against a `tf` module given as an argument so the same
code runs under TensorFlow 2.21 (to record its answers) and under wengert (to check them).
`python tests/feature_columns/programs.py` run by TensorFlow's interpreter rewrites
tests/feature_columns/tf_answers.json."""
import json
import os
import sys
import tempfile

import numpy as np


def _columns(tf):
    fc = tf.feature_column
    age = fc.numeric_column("age")
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green"],
                                                       num_oov_buckets=1)
    city = fc.categorical_column_with_hash_bucket("city", 5)
    ages = fc.bucketized_column(age, [18, 30, 50])
    weighted = fc.weighted_categorical_column(fc.categorical_column_with_identity("wid", 3), "wv")
    return fc, age, color, city, ages, weighted


def dense_columns(tf):
    """Every kind of dense column through input_layer, and a linear model's variables."""
    fc, age, color, city, ages, weighted = _columns(tf)
    table = tf.compat.v1.constant_initializer(np.arange(9.).reshape(3, 3))
    columns = [age, fc.numeric_column("xy", shape=(2,), normalizer_fn=lambda x: x * 2.0), ages,
               fc.embedding_column(color, 3, initializer=table), fc.indicator_column(color),
               fc.indicator_column(city), fc.indicator_column(fc.crossed_column([ages, "color"], 7)),
               fc.indicator_column(fc.categorical_column_with_identity("n", 4, default_value=0)),
               fc.indicator_column(weighted)]
    features = {"age": tf.constant([[20.], [60.], [10.]]),
                "xy": tf.constant([[1., 2.], [3., 4.], [5., 6.]]),
                "color": tf.constant([["red"], ["blue"], ["green"]]),
                "city": tf.constant([["a"], ["paris"], ["b"]]),
                "n": tf.constant([[1], [7], [3]]),
                "wid": tf.constant([[0, 2], [1, 1], [2, 0]]),
                "wv": tf.constant([[0.5, 2.], [1., 3.], [4., 1.]])}
    dense = tf.compat.v1.feature_column.input_layer(features, columns)
    linear = tf.compat.v1.feature_column.linear_model(features, [age, ages, color, city], units=2)
    spec = fc.make_parse_example_spec(
        [age, ages, color, city, weighted, fc.crossed_column(["s1", "s2"], 4)])
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(tf.compat.v1.tables_initializer())
        return {"names": [c.name for c in columns], "input_layer": sess.run(dense).tolist(),
                "linear": sess.run(linear).tolist(), "input_name": dense.name,
                "variables": [v.name for v in tf.compat.v1.global_variables()],
                "spec": sorted(f"{k}: {v}" for k, v in spec.items())}


def sparse_and_files(tf):
    """Vocabulary files with OOV buckets, integer vocabularies, hashed integers, string
    crosses with a hash key, the embedding combiners, SparseTensor features and a linear model
    with set weights."""
    fc = tf.feature_column
    vocab = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(vocab, "w") as f:
        f.write("cat\ndog\nbird\n")
    pet = fc.categorical_column_with_vocabulary_file("pet", vocab, num_oov_buckets=2)
    k = fc.categorical_column_with_vocabulary_list("k", [10, 20, 30])
    hid = fc.categorical_column_with_hash_bucket("hid", 10, dtype=tf.int64)
    cross = fc.crossed_column(["s1", "s2"], 100, hash_key=7)
    init = tf.compat.v1.constant_initializer
    columns = [fc.indicator_column(pet), fc.indicator_column(k), fc.indicator_column(hid),
               fc.indicator_column(cross),
               fc.embedding_column(pet, 2, combiner="sum",
                                   initializer=init(np.arange(10.).reshape(5, 2))),
               fc.embedding_column(k, 2, combiner="sqrtn",
                                   initializer=init(np.arange(6.).reshape(3, 2)))]
    features = {"pet": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], ["dog", "fish", "cat"], [3, 2]),
                "k": tf.constant([10, 40, 30], dtype=tf.int64),
                "hid": tf.constant([[3, -1], [5, 5], [-1, -1]], dtype=tf.int64),
                "s1": tf.constant([["a", "b"], ["c", ""], ["d", "e"]]),
                "s2": tf.constant([["x"], ["y"], ["z"]]),
                "num": tf.constant([[1., 2.], [3., 4.], [5., 6.]])}
    dense = tf.compat.v1.feature_column.input_layer(features, columns)
    linear = tf.compat.v1.feature_column.linear_model(
        features, [pet, k, fc.numeric_column("num", shape=2)], sparse_combiner="mean")
    sets = [tf.compat.v1.assign(v, tf.reshape(tf.range(1, v.shape.num_elements() + 1,
                                                       dtype=tf.float32), v.shape))
            for v in tf.compat.v1.global_variables() if v.name.startswith("linear_model")]
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(tf.compat.v1.tables_initializer())
        out = sess.run(dense)
        sess.run(sets)
        return {"buckets": [c.num_buckets for c in (pet, k, hid, cross)],
                "input_layer": out.tolist(), "linear": sess.run(linear).tolist(),
                "model_variables": [v.name for v in tf.compat.v1.get_collection(
                    tf.compat.v1.GraphKeys.MODEL_VARIABLES)]}


PROGRAMS = {"dense_columns": dense_columns, "sparse_and_files": sparse_and_files}


def run(tf, name):
    graph = tf.Graph()
    with graph.as_default():
        return PROGRAMS[name](tf)


if __name__ == "__main__":
    import tensorflow
    tensorflow.compat.v1.disable_eager_execution()
    answers = {name: run(tensorflow, name) for name in PROGRAMS}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_answers.json")
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in answers.items()) + "}\n")
    sys.stdout.write(f"wrote {path}\n")
