"""Ragged tensors in tf.data, with TensorFlow 2.21's element specs and values (recorded from it):
Dataset.from_tensor_slices of a ragged tensor, batch of ragged elements (fast path and after
shuffle), ragged outputs of map and ragged inputs to it, and ragged_batch of dense elements of
varying length, with drop_remainder and a pair of components, and from_generator with a
RaggedTensorSpec output_signature."""
import numpy as np
import pytest

import wengert as tf

RT = [[1, 2], [3], [4, 5, 6], []]


def values(dataset):
    return [e.to_list() if isinstance(e, tf.RaggedTensor) else np.asarray(e).tolist()
            for e in dataset]


def test_slices_of_a_ragged_tensor():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(RT))
    assert repr(ds.element_spec) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    assert values(ds) == RT
    assert all(isinstance(e, tf.Tensor) for e in ds)
    deep = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]],
                                                                  [[5, 6, 7]]]))
    assert repr(deep.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert values(deep) == [[[1], [2, 3]], [[4]], [[5, 6, 7]]]
    assert values(deep.batch(2)) == [[[[1], [2, 3]], [[4]]], [[[5, 6, 7]]]]


def test_batches_of_ragged_rows():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(RT))
    batched = ds.batch(2)
    assert repr(batched.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert values(batched) == [[[1, 2], [3]], [[4, 5, 6], []]]
    shuffled = sorted(map(str, values(ds.shuffle(4, seed=1).batch(2))))
    assert len(shuffled) == 2
    pairs = tf.data.Dataset.from_tensor_slices((tf.ragged.constant(RT), [10, 20, 30, 40]))
    first, second = list(pairs.batch(3))
    assert first[0].to_list() == [[1, 2], [3], [4, 5, 6]] and first[1].numpy().tolist() == \
        [10, 20, 30]
    assert second[0].to_list() == [[]] and second[1].numpy().tolist() == [40]


def test_map_with_ragged_inputs_and_outputs():
    made = tf.data.Dataset.range(3).map(
        lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x * 2), [x, x]))
    assert repr(made.element_spec) == \
        "RaggedTensorSpec(TensorShape([2, None]), tf.int64, 1, tf.int64)"
    assert values(made) == [[[], []], [[0], [1]], [[0, 1], [2, 3]]]
    assert values(made.batch(2)) == [[[[], []], [[0], [1]]], [[[0, 1], [2, 3]]]]
    rows = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(RT)).batch(2).map(
        lambda r: (r + 1, r.row_lengths()))
    (a, la), (b, lb) = list(rows)
    assert a.to_list() == [[2, 3], [4]] and la.numpy().tolist() == [2, 1]
    assert b.to_list() == [[5, 6, 7], []] and lb.numpy().tolist() == [3, 0]


def test_ragged_batch():
    ds = tf.data.Dataset.range(5).map(lambda x: tf.range(x))
    batched = ds.ragged_batch(2)
    assert repr(batched.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)"
    assert values(batched) == [[[], [0]], [[0, 1], [0, 1, 2]], [[0, 1, 2, 3]]]
    assert values(ds.ragged_batch(2, drop_remainder=True)) == [[[], [0]], [[0, 1], [0, 1, 2]]]
    matrices = tf.data.Dataset.range(3).map(lambda x: tf.zeros([x, 2])).ragged_batch(2)
    assert repr(matrices.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None, 2]), tf.float32, 1, tf.int64)"
    assert values(matrices) == [[[], [[0.0, 0.0]]], [[[0.0, 0.0], [0.0, 0.0]]]]
    ragged = tf.data.Dataset.range(3).map(
        lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x * 2), [x, x]))
    assert repr(ragged.ragged_batch(2).element_spec) == \
        "RaggedTensorSpec(TensorShape([None, 2, None]), tf.int64, 2, tf.int64)"


def test_from_generator_with_a_ragged_signature():
    def gen():
        for i in range(3):
            yield tf.ragged.constant([[1] * i, [2]])
    spec = tf.RaggedTensorSpec(shape=(2, None), dtype=tf.int32)
    ds = tf.data.Dataset.from_generator(gen, output_signature=spec)
    assert ds.element_spec == spec
    assert values(ds) == [[[], [2]], [[1], [2]], [[1, 1], [2]]]
    assert values(ds.batch(2)) == [[[[], [2]], [[1], [2]]], [[[1, 1], [2]]]]
    assert values(ds.map(lambda r: r.to_tensor())) == [[[0], [2]], [[1], [2]], [[1, 1], [2, 0]]]

    def wrong():
        yield [[1], [2, 3]]
    bad = tf.data.Dataset.from_generator(wrong, output_signature=spec)
    with pytest.raises((TypeError, ValueError)):
        list(bad)


def test_unbatch_of_ragged_batches_gives_their_rows():
    """TensorFlow 2.21: unbatch of a ragged batch yields its rows, each with one ragged rank
    less (ragged rank 0, a dense row, where the batch had 1), beside dense components."""
    rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
    rows = tf.data.Dataset.from_tensor_slices(rt).batch(2).unbatch()
    assert rows.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64)
    assert [np.asarray(r).tolist() for r in rows] == [[1, 2, 3], [4], [], [5, 6]]
    deep = tf.ragged.constant([[[1], [2, 3]], [[4]], [], [[5, 6], []]])
    rows = tf.data.Dataset.from_tensor_slices(deep).batch(3).unbatch()
    assert rows.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert [r.to_list() for r in rows] == [[[1], [2, 3]], [[4]], [], [[5, 6], []]]
    pairs = tf.data.Dataset.from_tensor_slices((rt, tf.constant([1, 2, 3, 4]))).batch(3).unbatch()
    assert pairs.element_spec[1] == tf.TensorSpec([], tf.int32)
    assert [(np.asarray(a).tolist(), int(b)) for a, b in pairs] == [
        ([1, 2, 3], 1), ([4], 2), ([], 3), ([5, 6], 4)]
