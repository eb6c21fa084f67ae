"""tf.data's grouping, sampling and filtering transformations, get_single_element, Options and
tf.data.experimental's functions. Expected values are what TensorFlow 2.21 gave running the same
pipelines (recorded as literals); random draws are checked by their invariants, since wengert
draws with NumPy's generator rather than TensorFlow's Philox."""
import collections

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError

ELEMENTS = [[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5] * 5, [1], [6] * 6, [2, 2]]


def _lists(ds):
    return [np.asarray(e).tolist() for e in ds.as_numpy_iterator()]


def _ragged_source():
    return tf.data.Dataset.from_generator(lambda: iter(ELEMENTS),
                                          output_signature=tf.TensorSpec([None], tf.int32))


def test_group_by_window():
    ds = tf.data.Dataset.range(10).group_by_window(
        key_func=lambda x: (x * 7) % 3, reduce_func=lambda k, w: w.batch(3), window_size=3)
    assert ds.element_spec == tf.TensorSpec([None], tf.int64)
    assert _lists(ds) == [[0, 3, 6], [1, 4, 7], [2, 5, 8], [9]]
    sized = tf.data.Dataset.range(10).group_by_window(
        key_func=lambda x: (x * 7) % 3, reduce_func=lambda k, w: w.batch(10),
        window_size_func=lambda k: k + 1)
    assert _lists(sized) == [[0], [3], [1, 4], [6], [2, 5, 8], [9], [7]]
    with pytest.raises(ValueError, match="exactly one"):
        tf.data.Dataset.range(3).group_by_window(lambda x: x, lambda k, w: w)


def test_bucket_by_sequence_length():
    ds = _ragged_source().bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2])
    assert ds.element_spec == tf.TensorSpec([None, None], tf.int32)
    assert _lists(ds) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]],
                          [[5, 5, 5, 5, 5, 0], [6, 6, 6, 6, 6, 6]], [[1, 0], [2, 2]]]
    padded = _ragged_source().take(4).bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2],
        pad_to_bucket_boundary=True, padding_values=-1, drop_remainder=True)
    assert _lists(padded) == [[[1, -1], [2, 2]], [[3, 3, 3, -1], [4, 4, 4, 4]]]
    too_long = _ragged_source().bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2], pad_to_bucket_boundary=True)
    with pytest.raises(InvalidArgumentError, match="pad_to_bucket_boundary"):
        _lists(too_long)


def test_choose_from_datasets():
    choices = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 0, 0], np.int64))
    parts = [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)]
    expected = [0, 10, 11, 1, 12, 2]
    assert _lists(tf.data.Dataset.choose_from_datasets(parts, choices)) == expected
    assert _lists(tf.data.experimental.choose_from_datasets(
        parts, choices, stop_on_empty_dataset=False)) == expected
    stop = tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 0, 1], np.int64))
    assert _lists(tf.data.Dataset.choose_from_datasets(parts, stop)) == [0, 1, 2]
    assert _lists(tf.data.Dataset.choose_from_datasets(
        parts, stop, stop_on_empty_dataset=False)) == [0, 1, 2, 10]


def test_sample_from_datasets():
    parts = [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)]
    mixed = tf.data.Dataset.sample_from_datasets(parts, seed=1)
    assert mixed.element_spec == tf.TensorSpec([], tf.int64)
    assert int(mixed.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert sorted(_lists(mixed)) == [0, 1, 2, 10, 11, 12]
    assert _lists(mixed) == _lists(tf.data.Dataset.sample_from_datasets(parts, seed=1))
    first_only = tf.data.Dataset.sample_from_datasets(parts, weights=[1.0, 0.0], seed=1,
                                                      stop_on_empty_dataset=True)
    assert _lists(first_only) == [0, 1, 2]
    big = [tf.data.Dataset.from_tensors(np.int64(0)).repeat(),
           tf.data.Dataset.from_tensors(np.int64(1)).repeat()]
    share = np.mean(_lists(tf.data.Dataset.sample_from_datasets(big, [0.2, 0.8], seed=0)
                           .take(4000)))
    assert abs(share - 0.8) < 0.03


def test_unique_take_while_counter_random():
    assert _lists(tf.data.Dataset.from_tensor_slices([1, 2, 1, 3, 2, 5]).unique()) == [1, 2, 3, 5]
    assert _lists(tf.data.Dataset.from_tensor_slices(["a", "b", "a"]).unique()) == [b"a", b"b"]
    with pytest.raises(TypeError, match="unique"):
        tf.data.Dataset.from_tensor_slices([1.0]).unique()
    assert _lists(tf.data.Dataset.range(10).take_while(lambda x: x < 4)) == [0, 1, 2, 3]
    counter = tf.data.Dataset.counter(start=3, step=2)
    assert counter.element_spec == tf.TensorSpec([], tf.int64)
    assert int(counter.cardinality()) == tf.data.INFINITE_CARDINALITY
    assert _lists(counter.take(3)) == [3, 5, 7]
    assert _lists(tf.data.experimental.Counter(1, dtype=tf.int32).take(2)) == [1, 2]
    rand = tf.data.Dataset.random(seed=4)
    assert rand.element_spec == tf.TensorSpec([], tf.int64)
    draws = _lists(rand.take(100))
    assert draws == _lists(tf.data.Dataset.random(seed=4).take(100))
    assert min(draws) >= 0 and len(set(draws)) == 100
    assert [int(tf.data.Dataset.range(n).ignore_errors().cardinality()) for n in (2,)] == [-2]


def test_get_single_element():
    assert int(tf.data.Dataset.range(5, 6).get_single_element()) == 5
    pair = tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors((1, "a")))
    assert int(pair[0]) == 1 and pair[1].numpy() == b"a"
    with pytest.raises(InvalidArgumentError, match="Dataset was empty"):
        tf.data.Dataset.range(0).get_single_element()
    with pytest.raises(InvalidArgumentError, match="Dataset had more than one element"):
        tf.data.Dataset.range(2).get_single_element()


def test_ignore_errors_keeps_the_pipeline_usable():
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
        lambda x: tf.debugging.check_numerics(1.0 / x, "boom"))
    it = iter(ds)
    assert float(next(it)) == 1.0
    with pytest.raises(InvalidArgumentError):
        next(it)
    assert float(next(it)) == 0.5
    assert _lists(ds.ignore_errors()) == [1.0, 0.5]
    assert _lists(ds.apply(tf.data.experimental.ignore_errors(log_warning=True))) == [1.0, 0.5]


def test_rejection_resample():
    source = tf.data.Dataset.range(4000).map(lambda x: x % 4)
    target = [0.5, 0.5, 0.0, 0.0]
    out = source.rejection_resample(lambda x: tf.cast(x, tf.int32), target, seed=7)
    assert out.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int64))
    pairs = _lists(out)
    classes = [c for c, _ in pairs]
    assert all(c == x for c, x in pairs) and set(classes) == {0, 1}
    assert abs(np.mean(classes) - 0.5) < 0.05


def test_scan_and_experimental_aliases():
    exp = tf.data.experimental
    scanned = tf.data.Dataset.range(4).apply(exp.scan(np.int64(0), lambda s, x: (s + x, s)))
    assert _lists(scanned) == [0, 0, 1, 3]
    assert _lists(tf.data.Dataset.range(6).apply(exp.take_while(lambda x: x < 2))) == [0, 1]
    assert _lists(tf.data.Dataset.from_tensor_slices([3, 3, 1]).apply(exp.unique())) == [3, 1]
    pairs = tf.data.Dataset.range(2).apply(exp.enumerate_dataset(5))
    assert _lists(pairs) == [[5, 0], [6, 1]]
    mb = tf.data.Dataset.range(5).apply(exp.map_and_batch(lambda x: x * 2, 2))
    assert _lists(mb) == [[0, 2], [4, 6], [8]]
    assert sorted(_lists(tf.data.Dataset.range(3).apply(exp.shuffle_and_repeat(3, 2,
                                                                               seed=1)))) == \
        [0, 0, 1, 1, 2, 2]
    inter = tf.data.Dataset.range(2).apply(exp.parallel_interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2))
    assert _lists(inter) == [0, 1, 0, 1]
    assert _lists(tf.data.Dataset.from_tensors([1, 2]).apply(exp.unbatch())) == [1, 2]
    assert _lists(exp.from_list([(1, "a"), (2, "b")]).map(lambda x, y: x)) == [1, 2]
    assert int(exp.at(tf.data.Dataset.range(10), 4)) == 4
    assert exp.get_structure(tf.data.Dataset.range(3)) == tf.TensorSpec([], tf.int64)
    padded = tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).apply(exp.pad_to_cardinality(3))
    assert [(e["a"], e["valid"]) for e in padded.as_numpy_iterator()] == [
        (1, True), (2, True), (0, False)]
    card = tf.data.Dataset.range(3).apply(exp.assert_cardinality(3))
    assert int(exp.cardinality(card)) == 3


def test_group_by_reducer():
    reducer = tf.data.experimental.Reducer(
        init_func=lambda k: np.int64(0), reduce_func=lambda s, x: s + x,
        finalize_func=lambda s: s)
    ds = tf.data.Dataset.range(10).apply(
        tf.data.experimental.group_by_reducer(lambda x: x % 2, reducer))
    assert _lists(ds) == [20, 25]


def test_lookup_tables_from_datasets():
    words = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])
    table = tf.data.experimental.index_table_from_dataset(words)
    assert table.lookup(tf.constant(["c", "a", "z"])).numpy().tolist() == [2, 0, -1]
    pairs = tf.data.Dataset.from_tensor_slices((["x", "y"], np.array([7, 8], np.int64)))
    table = tf.data.experimental.table_from_dataset(pairs, default_value=np.int64(-5))
    assert table.lookup(tf.constant(["y", "q"])).numpy().tolist() == [8, -5]


def test_options_are_accepted_and_stored():
    options = tf.data.Options()
    assert options.deterministic is None and options.threading.private_threadpool_size is None
    assert options.experimental_distribute.auto_shard_policy == \
        tf.data.experimental.AutoShardPolicy.AUTO
    with pytest.raises(TypeError, match='Property "deterministic" must be of type'):
        options.deterministic = 3
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options"):
        options.foo = 3
    options.deterministic = False
    other = tf.data.Options()
    other.threading.private_threadpool_size = 3
    other.experimental_optimization.map_fusion = True
    other.experimental_external_state_policy = tf.data.experimental.ExternalStatePolicy.IGNORE
    merged = options.merge(other)
    assert merged.deterministic is False and merged.threading.private_threadpool_size == 3
    assert merged.experimental_deterministic is False
    ds = tf.data.Dataset.range(3).with_options(options).map(lambda x: x).with_options(other)
    got = ds.options()
    assert got.deterministic is False and got.experimental_optimization.map_fusion is True
    assert got == merged and tf.data.Options() == tf.data.Options()
    assert isinstance(tf.data.ThreadingOptions(), tf.data.experimental.ThreadingOptions)
    assert int(tf.data.experimental.AutoShardPolicy.OFF) == -1


def test_make_csv_dataset_element_is_ordered_dict(tmp_path):
    (tmp_path / "d.csv").write_text("b,a\n1,2\n")
    ds = tf.data.experimental.make_csv_dataset(str(tmp_path / "d.csv"), 1, num_epochs=1)
    assert isinstance(ds.element_spec, collections.OrderedDict)
    assert list(ds.element_spec) == ["b", "a"]
