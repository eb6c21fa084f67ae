"""tf.feature_column and tf.compat.v1.feature_column against TensorFlow 2.21: the programs in
tests/feature_columns/programs.py run under wengert here and under TensorFlow to record
tests/feature_columns/tf_answers.json (numbers, column and variable names, parsing specs). Also:
input_layer eagerly, gradients reaching embedding tables and linear weights, columns over parsed
tf.train.Example records, and TensorFlow's errors for bad columns."""
import json
import os
import sys

import numpy as np
import pytest

import wengert as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from feature_columns import programs  # noqa: E402

fc = tf.feature_column
ANSWERS = json.load(open(os.path.join(os.path.dirname(programs.__file__), "tf_answers.json")))


@pytest.fixture
def graph():
    with tf.Graph().as_default():
        yield


@pytest.mark.parametrize("name", sorted(programs.PROGRAMS))
def test_program_matches_tensorflow(name):
    got, want = programs.run(tf, name), ANSWERS[name]
    assert sorted(got) == sorted(want)
    for key in want:
        if key in ("input_layer", "linear"):
            np.testing.assert_allclose(got[key], want[key], rtol=1e-6)
        else:
            assert got[key] == want[key], key


def test_input_layer_runs_eagerly():
    out = tf.compat.v1.feature_column.input_layer({"a": np.array([[1.0], [2.0]], np.float32)},
                                                   [fc.numeric_column("a")])
    assert isinstance(out, tf.Tensor)
    assert out.numpy().tolist() == [[1.0], [2.0]]


def test_gradients_reach_embeddings_and_weights(graph):
    color = fc.categorical_column_with_vocabulary_list("color", ["r", "g", "b"])
    features = {"color": tf.constant([["r", "g"], ["b", ""]]),
                "x": tf.constant([[1.0], [2.0]])}
    dense = tf.compat.v1.feature_column.input_layer(
        features, [fc.embedding_column(color, 2, combiner="sum",
                                       initializer=tf.compat.v1.ones_initializer())])
    linear = tf.compat.v1.feature_column.linear_model(features, [color, fc.numeric_column("x")])
    loss = tf.reduce_sum(dense) + tf.reduce_sum(linear)
    variables = tf.compat.v1.trainable_variables()
    grads = tf.gradients(loss, variables)
    with tf.compat.v1.Session() as sess:
        sess.run([tf.compat.v1.global_variables_initializer(),
                  tf.compat.v1.tables_initializer()])
        values = dict(zip([v.op.name for v in variables], sess.run(
            [tf.convert_to_tensor(g) for g in grads])))
    np.testing.assert_allclose(values["input_layer/color_embedding/embedding_weights"],
                               np.ones((3, 2)))
    np.testing.assert_allclose(values["linear_model/color/weights"], [[1], [1], [1]])
    np.testing.assert_allclose(values["linear_model/x/weights"], [[3.0]])
    np.testing.assert_allclose(values["linear_model/bias_weights"], [2.0])


def test_columns_over_parsed_examples(graph):
    age = fc.numeric_column("age", default_value=-1.0)
    tags = fc.categorical_column_with_vocabulary_list("tags", ["a", "b", "c"])
    records = []
    for a, t in ((30.0, [b"a", b"c"]), (None, [b"b"])):
        feature = {"tags": tf.train.Feature(bytes_list=tf.train.BytesList(value=t))}
        if a is not None:
            feature["age"] = tf.train.Feature(float_list=tf.train.FloatList(value=[a]))
        records.append(tf.train.Example(features=tf.train.Features(
            feature=feature)).SerializeToString())
    spec = fc.make_parse_example_spec([age, tags])
    parsed = tf.io.parse_example(tf.constant(records), spec)
    dense = tf.compat.v1.feature_column.input_layer(parsed, [age, fc.indicator_column(tags)])
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.tables_initializer())
        assert sess.run(dense).tolist() == [[30.0, 1.0, 0.0, 1.0], [-1.0, 0.0, 1.0, 0.0]]


def test_columns_are_values():
    a = fc.categorical_column_with_vocabulary_list("c", ["x", "y"])
    b = fc.categorical_column_with_vocabulary_list("c", ["x", "y"])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.num_buckets == 2 and a.vocabulary_list == ("x", "y")
    assert a._replace(num_oov_buckets=2).num_buckets == 4
    with pytest.raises(AttributeError, match="immutable"):
        a.key = "d"


@pytest.mark.parametrize("build, match", [
    (lambda: fc.bucketized_column(fc.numeric_column("a"), [3, 1]), "sorted list"),
    (lambda: fc.crossed_column([fc.categorical_column_with_hash_bucket("a", 3), "b"], 4),
     "not supported for crossing"),
    (lambda: fc.categorical_column_with_vocabulary_list("a", ["x", "x"]), "Duplicate keys"),
    (lambda: fc.categorical_column_with_vocabulary_list("a", ["x"], default_value=0,
                                                        num_oov_buckets=1),
     "Can't specify both"),
    (lambda: fc.embedding_column(fc.numeric_column("a"), 2), "CategoricalColumn"),
    (lambda: fc.categorical_column_with_hash_bucket("a", 0), "at least 1"),
    (lambda: fc.crossed_column(["a"], 4), "length > 1"),
    (lambda: fc.numeric_column("a", shape=(0,)), "greater than 0"),
    (lambda: tf.compat.v1.feature_column.input_layer(
        {"a": tf.constant([[1]])}, [fc.categorical_column_with_identity("a", 3)]),
     "DenseColumn"),
    (lambda: tf.compat.v1.feature_column.input_layer(
        {"b": tf.constant([[1.0]])}, [fc.numeric_column("a")]),
     "Feature a is not in features dictionary"),
    (lambda: tf.compat.v1.feature_column.input_layer({"a": tf.constant(1.0)},
                                                     [fc.numeric_column("a")]),
     "cannot have rank 0"),
    (lambda: tf.compat.v1.feature_column.input_layer({"a": tf.constant([[1.0]])}, []),
     "must not be empty"),
])
def test_bad_columns_raise_before_building(graph, build, match):
    with pytest.raises(ValueError, match=match):
        build()
    assert tf.compat.v1.global_variables() == []
    built = {op.type for op in tf.compat.v1.get_default_graph().get_operations()}
    assert built <= {"Const"}  # only the features the lambda made


def test_sequence_columns_describe_but_refuse_dense_input(graph):
    words = fc.sequence_categorical_column_with_vocabulary_list("words", ["a", "b"])
    steps = fc.sequence_numeric_column("steps", shape=2)
    assert words.name == "words" and words.num_buckets == 2
    spec = fc.make_parse_example_spec([words, steps])
    assert sorted(f"{k}: {v}" for k, v in spec.items()) == [
        "steps: VarLenFeature(dtype=tf.float32)", "words: VarLenFeature(dtype=tf.string)"]
    with pytest.raises(ValueError, match="must not be of type SequenceCategoricalColumn"):
        tf.compat.v1.feature_column.input_layer({"words": tf.constant([["a"]])},
                                                [fc.indicator_column(words)])


def test_shared_embedding_columns_share_one_table(graph):
    a = fc.categorical_column_with_identity("a", 3)
    b = fc.categorical_column_with_identity("b", 3)
    ea, eb = tf.compat.v1.feature_column.shared_embedding_columns(
        [a, b], 2, initializer=tf.compat.v1.ones_initializer())
    assert ea.name == "a_shared_embedding" and eb.name == "b_shared_embedding"
    tf.compat.v1.feature_column.input_layer({"a": tf.constant([[0]]), "b": tf.constant([[2]])},
                                            [ea, eb])
    names = [v.op.name for v in tf.compat.v1.global_variables()]
    assert names == ["input_layer/a_b_shared_embedding/embedding_weights"]
    ea2, eb2 = fc.shared_embeddings([a, b], 2)
    with pytest.raises(ValueError, match="not supported in `linear_model` or `input_layer`"):
        tf.compat.v1.feature_column.input_layer({"a": tf.constant([[0]]),
                                                 "b": tf.constant([[2]])}, [ea2, eb2])
