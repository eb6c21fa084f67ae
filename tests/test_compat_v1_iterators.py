"""TensorFlow 1's reinitializable and feedable dataset iterators in `wengert.compat.v1.data`:
`Iterator.from_structure(types, shapes)` with `make_initializer(dataset)` switching between a
training and a validation set in one Session, and `Iterator.from_string_handle(handle, types,
shapes)` reading whichever iterator's `string_handle()` is fed, with their `output_types`,
`output_shapes`, `output_classes` and TensorFlow's errors, run as TF 1 programs in wengert and
in TensorFlow 2.21 with eager execution disabled (tf1_scenarios.py, answers stored)."""
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "reinitializable": '''
train = tf.data.Dataset.range(5).map(lambda x: (x, tf.cast(x, tf.float32) * 2)).batch(2)
val = tf.data.Dataset.range(10, 13).map(lambda x: (x, tf.cast(x, tf.float32))).batch(2)
iterator = tf.data.Iterator.from_structure(tf.data.get_output_types(train),
                                           tf.data.get_output_shapes(train))
out["types"] = str(iterator.output_types)
out["shapes"] = str(iterator.output_shapes)
out["classes"] = [c.__name__ for c in iterator.output_classes]
out["spec_shapes"] = [str(s.shape) for s in iterator.element_spec]
features, labels = iterator.get_next()
out["next_shapes"] = [str(features.shape), str(labels.shape)]
train_init = iterator.make_initializer(train)
val_init = iterator.make_initializer(val)
out["init_op_name"] = train_init.name
out["no_initializer"] = error_of(lambda: iterator.initializer)
with tf.Session() as sess:
    out["before_init"] = error_of(lambda: sess.run(features)).split(":")[0]
    for epoch in range(2):
        sess.run(train_init)
        seen = []
        while True:
            try:
                f, l = sess.run([features, labels])
            except tf.errors.OutOfRangeError:
                break
            seen.append(f.tolist() + l.tolist())
        out["train_epoch_%d" % epoch] = str(seen)
        sess.run(val_init)
        f, l = sess.run([features, labels])
        out["val_first_%d" % epoch] = np.concatenate([f, l])
    sess.run(train_init)
    out["restart"] = sess.run(features)
''',
    "feedable": '''
train = tf.data.Dataset.range(6).map(lambda x: {"x": x, "y": -x}).repeat()
val = tf.data.Dataset.range(100, 103).map(lambda x: {"x": x, "y": x * 2})
handle = tf.placeholder(tf.string, shape=[])
iterator = tf.data.Iterator.from_string_handle(handle, tf.data.get_output_types(train),
                                               tf.data.get_output_shapes(train))
element = iterator.get_next()
out["types"] = str(sorted(iterator.output_types.items()))
training_iterator = tf.data.make_one_shot_iterator(train)
validation_iterator = tf.data.make_initializable_iterator(val)
with tf.Session() as sess:
    training_handle = sess.run(training_iterator.string_handle())
    validation_handle = sess.run(validation_iterator.string_handle())
    out["handle_type"] = type(training_handle).__name__
    seen = [sess.run(element, {handle: training_handle})["x"] for _ in range(3)]
    sess.run(validation_iterator.initializer)
    seen += [sess.run(element, {handle: validation_handle})["y"] for _ in range(3)]
    out["val_done"] = error_of(lambda: sess.run(element, {handle: validation_handle})).split(
        ":")[0]
    seen += [sess.run(element, {handle: training_handle})["x"] for _ in range(4)]
    out["seen"] = np.array(seen)
    out["bad_handle"] = error_of(lambda: sess.run(element, {handle: b"no such iterator"})
                                 ).split(":")[0]
out["feedable_initializer"] = error_of(lambda: iterator.initializer)
''',
    "structure_only": '''
iterator = tf.data.Iterator.from_structure(tf.int64)
out["shapes"] = str(iterator.output_shapes)
out["classes"] = iterator.output_classes.__name__
value = iterator.get_next()
out["value_shape"] = str(value.shape)
init = iterator.make_initializer(tf.data.Dataset.range(3).batch(2))
with tf.Session() as sess:
    sess.run(init)
    out["batches"] = str([sess.run(value).tolist() for _ in range(2)])
    out["end"] = error_of(lambda: sess.run(value)).split(":")[0]
pair = tf.data.Iterator.from_structure((tf.int64, tf.float32),
                                       (tf.TensorShape([None]), tf.TensorShape([])))
out["wrong_types"] = error_of(lambda: pair.make_initializer(
    tf.data.Dataset.range(3).map(lambda x: (x, x))))
out["wrong_structure"] = error_of(lambda: pair.make_initializer(tf.data.Dataset.range(3)))
out["wrong_shapes"] = error_of(lambda: pair.make_initializer(
    tf.data.Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.float32)))))
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_the_iterator_classes_are_tensorflows():
    assert v1.data.Iterator is tf.compat.v1.data.Iterator
    with tf.Graph().as_default():
        iterator = v1.data.make_one_shot_iterator(tf.data.Dataset.range(2))
        assert isinstance(iterator, v1.data.Iterator)
        assert iterator.string_handle().dtype == tf.string
