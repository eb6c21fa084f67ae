"""Datasets saved and resumed: Dataset.save/load/snapshot (wengert's own directory format),
iterators in tf.train.Checkpoint continuing from the same element, NumpyIterator.save/restore,
and padded_batch with per-component padded_shapes/padding_values on datasets of pairs and
nested structures (expected values: TensorFlow 2.21 running the same pipelines, as literals)."""
import os

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, NotFoundError


def _pairs():
    return tf.data.Dataset.from_generator(
        lambda: iter([([1, 2], [5.0]), ([3], [6.0, 7.0, 8.0])]),
        output_signature=(tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.float32)))


def _lists(ds):
    return [tuple(np.asarray(c).tolist() for c in tf.nest.flatten(e))
            for e in ds.as_numpy_iterator()]


def test_padded_batch_per_component_shapes_and_values():
    b = _pairs().padded_batch(2, padded_shapes=([4], [5]), padding_values=(-1, 9.5))
    assert b.element_spec == (tf.TensorSpec([None, 4], tf.int32),
                              tf.TensorSpec([None, 5], tf.float32))
    assert _lists(b) == [([[1, 2, -1, -1], [3, -1, -1, -1]],
                          [[5.0, 9.5, 9.5, 9.5, 9.5], [6.0, 7.0, 8.0, 9.5, 9.5]])]
    b = _pairs().padded_batch(2, padding_values=(np.int32(-1), np.float32(9.5)))
    assert b.element_spec == (tf.TensorSpec([None, None], tf.int32),
                              tf.TensorSpec([None, None], tf.float32))
    assert _lists(b) == [([[1, 2], [3, -1]], [[5.0, 9.5, 9.5], [6.0, 7.0, 8.0]])]
    with pytest.raises(DataLossError, match="Attempted to pad to a smaller size"):
        _lists(_pairs().padded_batch(2, padded_shapes=([None], [2])))


def test_padded_batch_nested_structure():
    nested = tf.data.Dataset.from_generator(
        lambda: iter([({"a": [1]}, ([2, 2], "x"))]),
        output_signature=({"a": tf.TensorSpec([None], tf.int32)},
                          (tf.TensorSpec([None], tf.int64), tf.TensorSpec([], tf.string))))
    b = nested.padded_batch(1, padded_shapes=({"a": [3]}, ([4], [])),
                            padding_values=({"a": 7}, (np.int64(8), "p")))
    assert b.element_spec == ({"a": tf.TensorSpec([None, 3], tf.int32)},
                              (tf.TensorSpec([None, 4], tf.int64),
                               tf.TensorSpec([None], tf.string)))
    assert _lists(b) == [([[1, 7, 7]], [[2, 2, 8, 8]], [b"x"])]
    with pytest.raises(ValueError, match="does not match the structure"):
        nested.padded_batch(1, padded_shapes=([3], [4]))


def test_save_and_load(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(({"a": np.arange(6).reshape(3, 2)},
                                             ["x", "y\x00z", ""]))
    ds.save(str(tmp_path / "saved"))
    back = tf.data.Dataset.load(str(tmp_path / "saved"))
    assert back.element_spec == ds.element_spec
    assert _lists(back) == _lists(ds)
    assert sorted(os.listdir(tmp_path / "saved")) == ["element_spec.json", "shard_0.npz"]
    tf.data.experimental.save(tf.data.Dataset.range(6), str(tmp_path / "sharded"),
                              compression="GZIP", shard_func=lambda x: x % 2)
    loaded = tf.data.experimental.load(str(tmp_path / "sharded"), compression="GZIP")
    assert _lists(loaded) == [(0,), (2,), (4,), (1,), (3,), (5,)]
    mixed = tf.data.Dataset.load(str(tmp_path / "sharded"),
                                 reader_func=lambda shards: shards.interleave(
                                     lambda x: x, cycle_length=2))
    assert _lists(mixed) == [(0,), (1,), (2,), (3,), (4,), (5,)]
    with pytest.raises(NotFoundError, match="no saved dataset"):
        tf.data.Dataset.load(str(tmp_path / "nothing"))
    ragged = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    with pytest.raises(TypeError, match="only dense tensor components"):
        ragged.save(str(tmp_path / "ragged"))


def test_snapshot_writes_once_then_reads(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from range(4)
    source = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
    snap = source.snapshot(str(tmp_path / "snap"))
    assert _lists(snap) == [(0,), (1,), (2,), (3,)]
    assert _lists(snap) == [(0,), (1,), (2,), (3,)]
    assert len(calls) == 1
    again = source.apply(tf.data.experimental.snapshot(str(tmp_path / "snap")))
    assert _lists(again.map(lambda x: x * 10)) == [(0,), (10,), (20,), (30,)]
    assert len(calls) == 1


def test_iterator_in_checkpoint_resumes_at_the_same_element(tmp_path):
    def pipeline():
        return tf.data.Dataset.range(20).shuffle(20, seed=3).batch(2)
    it = iter(pipeline())
    for _ in range(3):
        next(it)
    step = tf.Variable(3)
    path = tf.train.Checkpoint(it=it, step=step).save(str(tmp_path / "ckpt"))
    want = [next(it).numpy().tolist() for _ in range(2)]
    assert ("it/.ATTRIBUTES/ITERATOR_STATE", [1]) in tf.train.list_variables(path)
    fresh = iter(pipeline())
    tf.train.Checkpoint(it=fresh, step=tf.Variable(0)).restore(path)
    assert [next(fresh).numpy().tolist() for _ in range(2)] == want
    ahead = iter(tf.data.Dataset.range(20).batch(2))
    for _ in range(7):
        next(ahead)
    tf.train.Checkpoint(it=ahead, step=tf.Variable(0)).restore(path)
    assert next(ahead).numpy().tolist() == [6, 7]


def test_numpy_iterator_save_restore():
    it = tf.data.Dataset.range(5).as_numpy_iterator()
    assert isinstance(it, tf.data.NumpyIterator)
    assert it.next() == 0
    state = it.save()
    assert next(it) == 1 and next(it) == 2
    it.restore(state)
    assert list(it) == [1, 2, 3, 4]
