"""Dataset.interleave in TensorFlow's order (a dataset that ends frees its slot, and the next
input element opens there when the turn comes back), with and without num_parallel_calls, and
the parallel version overlapping slow datasets. Expected orders: TensorFlow 2.21's."""
import threading
import time

import numpy as np

import wengert as tf


def _repeats(lengths, **options):
    counts = tf.data.Dataset.from_tensor_slices(np.array(lengths, np.int64))
    return counts.enumerate().interleave(
        lambda i, n: tf.data.Dataset.from_tensors(i).repeat(n), cycle_length=3, **options)


def test_interleave_order_matches_tensorflow():
    expected = [0, 1, 2, 0, 2, 0, 3, 2, 3, 3]
    assert [int(v) for v in _repeats([3, 1, 3, 3])] == expected
    assert [int(v) for v in _repeats([3, 1, 3, 3], num_parallel_calls=2)] == expected
    blocks = tf.data.Dataset.range(1, 6).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=3, block_length=2)
    assert [int(v) for v in blocks] == [1, 2, 2, 3, 3, 4, 4, 3, 4, 4, 5, 5, 5, 5, 5]
    loose = _repeats([3, 1, 3, 3], num_parallel_calls=3, deterministic=False)
    assert sorted(int(v) for v in loose) == sorted(expected)


class _Overlap:
    """How many of the slow datasets were producing at once, at most."""

    def __init__(self):
        self.lock, self.active, self.most = threading.Lock(), 0, 0

    def __enter__(self):
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)

    def __exit__(self, *exc):
        with self.lock:
            self.active -= 1


def _slow(i, overlap):
    def gen():
        for k in range(3):
            with overlap:
                time.sleep(0.03)
            yield i * 10 + k
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))


def _overlapped(**options):
    overlap = _Overlap()
    ds = tf.data.Dataset.range(4).interleave(lambda i: _slow(int(i), overlap), cycle_length=4,
                                             **options)
    return [int(v) for v in ds], overlap.most


def test_parallel_interleave_overlaps_slow_datasets():
    serial, serial_most = _overlapped()
    parallel, parallel_most = _overlapped(num_parallel_calls=4)
    assert parallel == serial == [0, 10, 20, 30, 1, 11, 21, 31, 2, 12, 22, 32]
    assert serial_most == 1 and parallel_most > 1, (serial_most, parallel_most)
