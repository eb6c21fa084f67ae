"""tf.data.Dataset (issue 14 item 2): sources, transformations, nested structures, iteration
eagerly and inside tf.function, Keras fit/evaluate/predict, and the bad inputs of the issue.
Orders and specs were checked against TensorFlow 2.21."""
import threading
import time

import numpy as np
import pytest

import wengert as tf

Dataset = tf.data.Dataset


def values(ds):
    return list(ds.as_numpy_iterator())


# -- sources -----------------------------------------------------------------------------------
def test_from_tensor_slices_nested_structures():
    ds = Dataset.from_tensor_slices(({"a": np.arange(6).reshape(3, 2), "b": [1.0, 2.0, 3.0]},
                                     ["x", "y", "z"]))
    spec = ds.element_spec
    assert spec[0]["a"] == tf.TensorSpec([2], tf.int64) and spec[0]["b"].dtype is tf.float32
    assert spec[1].dtype is tf.string and len(ds) == 3
    first = next(iter(ds))
    assert isinstance(first, tuple) and set(first[0]) == {"a", "b"}
    np.testing.assert_array_equal(first[0]["a"].numpy(), [0, 1])
    assert first[1].numpy() == b"x"
    assert values(Dataset.from_tensor_slices([1, 2, 3])) == [1, 2, 3]  # a list is one tensor


def test_from_tensors_range_zip_concatenate():
    assert len(values(Dataset.from_tensors(np.ones((2, 3))))) == 1
    assert values(Dataset.range(2, 11, 3)) == [2, 5, 8]
    assert Dataset.range(3).element_spec == tf.TensorSpec([], tf.int64)
    pairs = Dataset.zip((Dataset.range(3), Dataset.range(10, 20)))
    assert values(pairs) == [(0, 10), (1, 11), (2, 12)] and len(pairs) == 3
    named = Dataset.zip({"x": Dataset.range(2), "y": Dataset.range(2)})
    assert values(named)[1] == {"x": 1, "y": 1}
    assert values(Dataset.range(2).concatenate(Dataset.range(5, 6))) == [0, 1, 5]
    with pytest.raises(TypeError, match="dtypes"):
        Dataset.range(2).concatenate(Dataset.from_tensor_slices([1.0]))


def test_from_generator_with_output_signature():
    def gen():
        for i in range(3):
            yield np.full([i + 1], i, np.float32), i
    ds = Dataset.from_generator(gen, output_signature=(tf.TensorSpec([None], tf.float32),
                                                      tf.TensorSpec([], tf.int32)))
    out = values(ds)
    assert [len(x) for x, _ in out] == [1, 2, 3] and out[2][1] == 2
    assert len(values(ds)) == 3  # a second pass calls the generator again
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    args = Dataset.from_generator(lambda n: iter(range(int(n))), args=[4],
                                  output_signature=tf.TensorSpec([], tf.int64))
    assert values(args) == [0, 1, 2, 3]


# -- transformations ----------------------------------------------------------------------------
def test_map_filter_unpacks_tuples_and_traces_once():
    calls = []

    def fn(x, y):
        calls.append(1)  # a Python side effect: runs when the function is traced
        return {"sum": x + y, "x": x}
    ds = Dataset.from_tensor_slices((np.arange(5), np.arange(5) * 10)).map(fn)
    assert [e["sum"] for e in values(ds)] == [0, 11, 22, 33, 44]
    assert len(calls) == 1
    evens = Dataset.range(10).filter(lambda x: x % 2 == 0)
    assert values(evens) == [0, 2, 4, 6, 8]
    assert int(evens.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    par = Dataset.range(50).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE)
    assert values(par) == [i * i for i in range(50)]  # in order (deterministic)


def test_batch_padded_unbatch_rebatch():
    ds = Dataset.range(7).batch(3)
    assert [list(b) for b in values(ds)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert ds.element_spec.shape.as_list() == [None]
    dropped = Dataset.range(7).batch(3, drop_remainder=True)
    assert dropped.element_spec.shape.as_list() == [3] and len(dropped) == 2
    ragged = Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
    padded = values(ragged.padded_batch(2, padding_values=np.int64(-1)))
    np.testing.assert_array_equal(padded[0], [[1, -1], [2, 2]])
    np.testing.assert_array_equal(padded[1], [[3, 3, 3]])
    fixed = values(ragged.padded_batch(3, padded_shapes=[4]))
    assert fixed[0].shape == (3, 4)
    assert values(Dataset.range(5).batch(2).unbatch()) == [0, 1, 2, 3, 4]
    assert [list(b) for b in values(Dataset.range(6).batch(4).rebatch(3))] == [[0, 1, 2],
                                                                               [3, 4, 5]]


def test_shuffle_buffer_semantics_and_seeds():
    ds = Dataset.range(100)
    full = values(ds.shuffle(100, seed=1))
    assert sorted(full) == list(range(100)) and full != list(range(100))
    assert values(ds.shuffle(100, seed=1)) == full  # the same seed, the same first pass
    again = ds.shuffle(100, seed=1, reshuffle_each_iteration=True)
    assert values(again) != values(again)           # each pass reshuffles
    fixed = ds.shuffle(100, seed=1, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    small = values(ds.shuffle(3, seed=2))           # a buffer of 3: elements move < 3 back
    assert all(small.index(i) >= i - 2 for i in range(100))
    batched = values(Dataset.from_tensor_slices(np.arange(100)).shuffle(10, seed=3).batch(10))
    generic = values(Dataset.range(100).shuffle(10, seed=3).batch(10))
    assert sorted(np.concatenate(batched)) == list(range(100))
    assert len(generic) == 10


def test_repeat_take_skip_shard_enumerate_window():
    assert values(Dataset.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert int(Dataset.range(3).repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert values(Dataset.range(3).repeat().take(5)) == [0, 1, 2, 0, 1]
    assert values(Dataset.range(5).skip(3)) == [3, 4]
    assert values(Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    assert values(Dataset.range(2).enumerate(start=5)) == [(5, 0), (6, 1)]
    windows = Dataset.range(7).window(3, shift=2).flat_map(lambda w: w.batch(3))
    assert [list(w) for w in values(windows)] == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    strided = Dataset.range(10).window(2, shift=4, stride=3, drop_remainder=True)
    assert [list(w) for w in values(strided.flat_map(lambda w: w.batch(2)))] == [
        [0, 3], [4, 7]]


def test_flat_map_interleave_scan_reduce_apply():
    nested = Dataset.range(3).flat_map(lambda x: Dataset.from_tensors(x).repeat(x))
    assert values(nested) == [1, 2, 2]
    mixed = Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(3),
                                           cycle_length=2, block_length=2)
    assert values(mixed) == [1, 1, 2, 2, 1, 2, 3, 3, 3]
    running = Dataset.range(5).scan(np.int64(0), lambda s, x: (s + x, s + x))
    assert values(running) == [0, 1, 3, 6, 10]
    total = Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)
    assert int(total) == 10
    growing = Dataset.range(3).reduce(tf.zeros([0], tf.int64),
                                      lambda s, x: tf.concat([s, tf.reshape(x, [1])], 0))
    assert growing.numpy().tolist() == [0, 1, 2]  # the state's shape may change
    assert values(Dataset.range(4).apply(lambda d: d.skip(2))) == [2, 3]


def test_cache_in_memory_and_in_a_file(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from [1.0, 2.0]
    source = Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.float32))
    cached = source.cache()
    assert values(cached) == values(cached) == [1.0, 2.0] and len(calls) == 1
    path = str(tmp_path / "cache")
    strings = Dataset.from_tensor_slices((["a", "bc"], [1, 2])).cache(path)
    assert values(strings) == [(b"a", 1), (b"bc", 2)]
    reread = Dataset.from_tensor_slices((["zz", "zz"], [9, 9])).cache(path)
    assert values(reread) == [(b"a", 1), (b"bc", 2)]  # read back from the file


def test_prefetch_runs_ahead_on_a_thread():
    seen = []

    def slow(x):
        seen.append(threading.current_thread().name)
        time.sleep(0.02)
        return x
    source = Dataset.from_generator(lambda: iter(range(6)),
                                    output_signature=tf.TensorSpec([], tf.int64))
    ds = source.map(lambda x: tf.py_function(slow, [x], tf.int64)).prefetch(2)
    it = iter(ds)
    assert int(next(it)) == 0
    for _ in range(500):  # the thread prepares the next elements before they are asked for
        if len(seen) >= 3:
            break
        time.sleep(0.01)
    assert len(seen) >= 3 and set(seen[1:3]) == {seen[1]} and "wengert-prefetch" in seen[1]
    assert [int(next(it)) for _ in range(2)] == [1, 2]


def test_cardinality_options_and_assert_cardinality():
    ds = Dataset.range(10).batch(3)
    assert int(ds.cardinality()) == 4 and int(tf.data.experimental.cardinality(ds)) == 4
    options = tf.data.Options()
    options.deterministic = False
    assert ds.with_options(options).options().deterministic is False
    claimed = Dataset.range(10).filter(lambda x: x < 5).apply(
        tf.data.experimental.assert_cardinality(5))
    assert len(claimed) == 5 and len(values(claimed)) == 5
    wrong = Dataset.range(3).apply(tf.data.experimental.assert_cardinality(5))
    with pytest.raises(tf.errors.FailedPreconditionError, match="expected to contain 5"):
        values(wrong)


def test_strings_in_pipelines():
    ds = Dataset.from_tensor_slices(["1.5", "2", "x7"]).filter(
        lambda s: tf.strings.regex_full_match(s, r"[0-9.]+")).map(tf.strings.to_number)
    assert values(ds) == [1.5, 2.0]
    lengths = Dataset.from_tensor_slices(["ab", "c"]).map(tf.strings.length)
    assert values(lengths) == [2, 1]


# -- iteration ------------------------------------------------------------------------------------
def test_iterators_eagerly():
    it = iter(Dataset.range(2))
    assert int(it.get_next()) == 0 and int(next(it)) == 1
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    optional = iter(Dataset.range(1)).get_next_as_optional()
    assert bool(optional.has_value()) and int(optional.get_value()) == 0
    empty = iter(Dataset.range(0)).get_next_as_optional()
    assert not bool(empty.has_value())
    with pytest.raises(tf.errors.InvalidArgumentError):
        empty.get_value()


def test_pipeline_is_not_recorded_by_tapes():
    w = tf.Variable(2.0)
    ds = Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) * 3.0)
    with tf.GradientTape() as tape:
        total = sum(w * x for x in ds)
    assert float(tape.gradient(total, w)) == 9.0


def test_for_loop_inside_function_unrolls_known_datasets():
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    ds = Dataset.from_tensor_slices((x, x.sum(1))).shuffle(6).batch(2)
    w = tf.Variable([1.0, 1.0])

    @tf.function
    def total_error(dataset):
        total = tf.constant(0.0)
        for xb, yb in dataset:
            total += tf.reduce_sum(tf.abs(tf.linalg.matvec(xb, w) - yb))
        return total
    assert float(total_error(ds)) == 0.0
    w.assign([2.0, 2.0])
    assert float(total_error(ds)) == float(x.sum())  # the data is pulled when the graph runs

    @tf.function(autograph=False)
    def unknown():
        for _ in Dataset.range(5).filter(lambda v: v > 1):
            pass
    with pytest.raises(TypeError, match="AutoGraph"):
        unknown()

    @tf.function  # AutoGraph makes the loop one while_loop over the elements (issue 15)
    def total():
        s = tf.constant(0, tf.int64)
        for v in Dataset.range(5).filter(lambda v: v > 1):
            s += v
        return s
    assert int(total()) == 9


def test_while_loop_over_get_next_as_optional_in_a_function():
    """The form AutoGraph gives a `for` loop over any dataset (issue 15)."""
    ds = Dataset.range(6).filter(lambda v: v % 2 == 1)

    @tf.function
    def total():
        it = iter(ds)

        def body(acc, _):
            opt = it.get_next_as_optional()
            # get_value of an empty optional raises when run (as in TensorFlow): read it in a cond
            value = tf.cond(opt.has_value(), opt.get_value, lambda: tf.constant(0, tf.int64))
            return acc + value, opt.has_value()
        return tf.while_loop(lambda acc, more: more, body,
                             [tf.constant(0, tf.int64), tf.constant(True)])[0]
    assert int(total()) == 9 and int(total()) == 9


# -- Keras ----------------------------------------------------------------------------------------
def test_keras_fit_evaluate_predict_on_datasets():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 4)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    train = Dataset.from_tensor_slices((x, y)).shuffle(256, seed=1).batch(32).prefetch(2)
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(train, epochs=5, validation_data=train.take(2), verbose=0)
    assert history.history["accuracy"][-1] > 0.85 and "val_loss" in history.history
    loss, accuracy = model.evaluate(train, verbose=0)
    assert accuracy > 0.85
    assert model.predict(train.map(lambda a, b: a), verbose=0).shape == (256, 2)
    steps = model.fit(train.repeat(), epochs=2, steps_per_epoch=3, verbose=0)
    assert len(steps.history["loss"]) == 2
    with pytest.raises(ValueError, match="steps_per_epoch"):
        model.fit(train.repeat(), epochs=1, verbose=0)
    with pytest.raises(ValueError, match="must not be given"):
        model.fit(train, y, verbose=0)


# -- bad input ---------------------------------------------------------------------------------------
def test_bad_inputs_raise_clear_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[3\].*\[2\]|same size"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="greater than zero"):
        Dataset.range(3).batch(0)
    with pytest.raises(TypeError, match="buffer_size"):
        Dataset.range(3).shuffle()
    with pytest.raises(TypeError, match="returned None"):
        Dataset.range(3).map(lambda x: None)
    with pytest.raises(TypeError, match="flat_map"):
        Dataset.range(3).map(lambda x: Dataset.range(2))
    with pytest.raises(TypeError, match="new state must match"):
        Dataset.range(3).scan((np.int64(0), np.int64(0)), lambda s, x: (s[0], s[0]))
    with pytest.raises(TypeError, match="must return a Dataset"):
        values(Dataset.range(3).flat_map(lambda x: x))
    uneven = Dataset.from_generator(lambda: iter([np.zeros(2), np.zeros(3)]),
                                    output_signature=tf.TensorSpec([None], tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"component 0.*\[2\].*\[3\]"):
        values(uneven.batch(2))


def test_generator_yielding_the_wrong_shape_names_the_element():
    def gen():
        yield np.zeros(2, np.float32)
        yield np.zeros(3, np.float32)
    ds = Dataset.from_generator(gen, output_signature=tf.TensorSpec([2], tf.float32))
    it = iter(ds)
    next(it)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"element 1.*\[3\].*\(2,\)"):
        next(it)
    wrong = Dataset.from_generator(lambda: iter([(1, 2)]),
                                   output_signature=(tf.TensorSpec([], tf.int32),) * 3)
    with pytest.raises(TypeError, match="structure"):
        values(wrong)


def test_an_element_failing_midway_leaves_the_iterator_usable():
    ds = Dataset.range(5).map(lambda i: tf.gather(tf.constant([10, 20, 30, 40]), i))
    it = iter(ds)
    assert [int(next(it)) for _ in range(4)] == [10, 20, 30, 40]
    with pytest.raises(tf.errors.InvalidArgumentError, match="element 4"):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    failing = Dataset.range(4).map(lambda i: tf.gather(tf.constant([1, 2]), (i * 3) % 4))
    it = iter(failing)  # indices 0, 3, 2, 1: elements 1 and 2 fail, element 3 does not
    assert int(next(it)) == 1
    for _ in range(2):
        with pytest.raises(tf.errors.InvalidArgumentError, match="element [12]"):
            next(it)
    assert int(next(it)) == 2


def test_guide_snippets_old_generator_api_and_lazy_specs():
    """From TensorFlow's data guide: output_types/output_shapes, a transformation after
    flat_map (whose element spec comes from its first dataset), reduce from a Python 0."""
    def count(stop):
        yield from range(int(stop))
    counter = Dataset.from_generator(count, args=[25], output_types=tf.int32, output_shapes=())
    assert [b.tolist() for b in values(counter.repeat().batch(10).take(2))] == [
        list(range(10)), list(range(10, 20))]
    series = Dataset.from_generator(lambda: iter([(0, np.ones(3)), (1, np.ones(1))]),
                                    output_types=(tf.int32, tf.float32),
                                    output_shapes=((), (None,)))
    assert series.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([None]))
    ids, padded = next(iter(series.padded_batch(2)))
    assert padded.shape == (2, 3)
    windows = Dataset.range(100).window(5, shift=1, drop_remainder=True).flat_map(
        lambda w: w.batch(5)).take(2)
    assert windows.element_spec.shape.as_list() == [None]
    assert [list(w) for w in values(windows)] == [[0, 1, 2, 3, 4], [1, 2, 3, 4, 5]]
    assert int(Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1]).reduce(
        0, lambda state, value: state + value)) == 22


def test_global_seed_makes_shuffles_reproducible():
    tf.random.set_seed(5)
    first = values(Dataset.range(20).shuffle(20))
    tf.random.set_seed(5)
    again = values(Dataset.range(20).shuffle(20))
    tf.random.set_seed(None)
    assert first == again and sorted(first) == list(range(20))


def test_an_empty_optional_inside_tf_function_raises_when_its_value_is_read():
    dataset = tf.data.Dataset.range(2)

    @tf.function
    def read_past_the_end():
        it = iter(dataset)
        first, second = it.get_next_as_optional(), it.get_next_as_optional()
        third = it.get_next_as_optional()
        return first.get_value(), second.get_value(), third.has_value(), third.get_value()

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for x in iter(dataset):  # AutoGraph's loop reads each optional before testing it
            s += x
        return s

    with pytest.raises(tf.errors.InvalidArgumentError, match="has no value"):
        read_past_the_end()
    assert int(total()) == 1


def test_reduce_inside_tf_function_folds_into_a_symbolic_initial_state():
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(5, dtype=np.int64),
                                                np.ones(5, np.float32)))

    @tf.function
    def fold(start):
        return pairs.reduce((start, tf.constant(0.0)),
                            lambda state, element: (state[0] + element[0],
                                                    state[1] + element[1]))

    total, count = fold(tf.constant(10, tf.int64))
    assert int(total) == 20 and float(count) == 5.0  # TensorFlow: 20, 5.0
    total, _ = fold(tf.constant(1, tf.int64))
    assert int(total) == 11


def test_datasets_of_a_traced_functions_tensors_are_iterated_reduced_and_repeated():
    @tf.function
    def doubled_sum(x):
        return tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2).reduce(
            tf.constant(0.0), lambda s, v: s + v)

    @tf.function
    def batched_dot(x, y):
        s = tf.constant(0.0)
        for a, b in tf.data.Dataset.from_tensor_slices((x, y)).batch(2):
            s += tf.reduce_sum(a * b)
        return s

    @tf.function
    def twice(x):
        it = iter(tf.data.Dataset.from_tensors(x).repeat(2))
        return next(it) + next(it)

    # TensorFlow 2.21: 12.0 and 6.0 (one trace per shape), 32.0, 6.0
    assert float(doubled_sum(tf.constant([1.0, 2.0, 3.0]))) == 12.0
    assert float(doubled_sum(tf.constant([1.0, 2.0]))) == 6.0
    assert float(batched_dot(tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0]))) == 32.0
    assert float(twice(tf.constant(3.0))) == 6.0


def test_range_of_a_traced_functions_tensors():
    @tf.function
    def total(n):
        return tf.data.Dataset.range(n).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    @tf.function
    def stepped(a, b):
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(a, b, 2).map(lambda v: v * 10):
            s += x
        return s

    # TensorFlow 2.21: 10 and 21 from one trace, and 160
    assert int(total(tf.constant(5, tf.int64))) == 10
    assert int(total(tf.constant(7, tf.int64))) == 21
    assert total.experimental_get_tracing_count() == 1
    assert int(stepped(tf.constant(1, tf.int64), tf.constant(8, tf.int64))) == 160
