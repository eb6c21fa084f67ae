"""tf.variant, tf.data.experimental.to_variant / from_variant, and datasets and iterators as
tf.function arguments, against TensorFlow 2.21 (answers stored in
tests/references/test_data_variants.npz): one script, run by TensorFlow and by wengert, passes
datasets of one element spec (a range, a map of one, a repeat of slices) to a tf.function that
loops over, maps, batches and reduces them, to one with a DatasetSpec input_signature, and
iterators (IteratorSpec) whose `next` inside the function advances the caller's iterator; counts
the traces (one per spec, as TensorFlow's), and round-trips datasets through variants eagerly
and inside a function. A dataset of another spec is refused by a DatasetSpec signature."""
import linecache

import numpy as np
import pytest

import wengert as tf

from keras_tf_eval import tf_eval

SCRIPT = """
traces = []


@tf.function
def total(ds):
    traces.append("total")
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


out["total"] = np.array([total(tf.data.Dataset.range(3)).numpy(),
                         total(tf.data.Dataset.range(5)).numpy(),
                         total(tf.data.Dataset.range(2).map(lambda x: x * 10)).numpy(),
                         total(tf.data.Dataset.from_tensor_slices(
                             tf.constant([1, 2], tf.int64))).numpy()])
out["total_traces"] = np.array(traces.count("total"))


@tf.function(input_signature=[tf.data.DatasetSpec(tf.TensorSpec([None], tf.float32))])
def rows(ds):
    traces.append("rows")
    return ds.reduce(tf.constant(0.0), lambda s, x: s + tf.reduce_sum(x))


out["rows"] = np.array([rows(tf.data.Dataset.from_tensor_slices(A["rows"])).numpy(),
                        rows(tf.data.Dataset.from_tensor_slices(A["rows"][:, :1]).repeat(2))
                        .numpy()])
out["rows_traces"] = np.array(traces.count("rows"))
out["rows_signature"] = np.array(repr(rows.get_concrete_function().structured_input_signature))


@tf.function
def pipeline(ds):
    traces.append("pipeline")
    return ds.map(lambda x: x + 1).batch(2).reduce(
        tf.constant(0, tf.int64), lambda s, b: s + tf.reduce_sum(b))


out["pipeline"] = np.array([pipeline(tf.data.Dataset.range(4)).numpy(),
                            pipeline(tf.data.Dataset.range(10)).numpy()])
out["pipeline_traces"] = np.array(traces.count("pipeline"))


@tf.function
def pairs(ds):
    return ds.reduce((tf.constant(0.0), tf.constant(0, tf.int64)),
                     lambda s, e: (s[0] + e["a"], s[1] + e["b"]))


dicts = tf.data.Dataset.from_tensor_slices({"a": A["a"], "b": A["b"]})
out["pairs"] = np.array([float(v) for v in pairs(dicts)])
out["pairs_signature"] = np.array(repr(pairs.get_concrete_function(dicts)
                                       .structured_input_signature))


@tf.function
def two(it):
    traces.append("two")
    return next(it) + next(it)


it = iter(tf.data.Dataset.range(10))
out["two"] = np.array([two(it).numpy(), two(it).numpy(), next(it).numpy()])


@tf.function(input_signature=[tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))])
def double(it):
    traces.append("double")
    return next(it) * 2


out["double"] = np.array([double(it).numpy(),
                          double(iter(tf.data.Dataset.range(7, 9))).numpy()])
out["iterator_traces"] = np.array([traces.count("two"), traces.count("double")])


@tf.function
def optional(it):
    o = it.get_next_as_optional()
    return o.has_value()


short = iter(tf.data.Dataset.range(1))
out["optional"] = np.array([bool(optional(short)), bool(optional(short))])

variant = tf.data.experimental.to_variant(tf.data.Dataset.range(4))
out["variant"] = np.array([variant.dtype.name, str(variant.shape),
                           str(tf.variant.as_datatype_enum), str(tf.variant.is_numpy_compatible)])
back = tf.data.experimental.from_variant(variant, tf.TensorSpec([], tf.int64))
out["from_variant"] = np.array(list(back.as_numpy_iterator()))


@tf.function
def round_trip(ds):
    v = tf.data.experimental.to_variant(ds)
    return tf.data.experimental.from_variant(v, ds.element_spec).reduce(
        tf.constant(0, tf.int64), lambda a, b: a + b)


out["round_trip"] = np.array(round_trip(tf.data.Dataset.range(5)).numpy())
spec = tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
components = spec.to_tensors(tf.data.Dataset.range(3))
out["spec_components"] = np.array([repr(spec.flatten()), components[0].dtype.name])
out["spec_from_tensors"] = np.array(list(spec.from_tensors(iter(components))
                                         .as_numpy_iterator()))
flat = tf.nest.flatten(tf.data.Dataset.range(2), expand_composites=True)
out["nest"] = np.array([len(flat), flat[0].dtype.name])
"""

ARRAYS = {"rows": np.array([[1.0, 2.0], [3.0, 4.0]], np.float32),
          "a": np.array([1.0, 2.0], np.float32), "b": np.array([3, 4], np.int64)}


def _in_wengert(script, arrays):
    """`script` run with wengert as `tf`, as tf_eval runs it in TensorFlow."""
    name = f"<variant script {len(linecache.cache)}>"  # AutoGraph reads the source from here
    linecache.cache[name] = (len(script), None, script.splitlines(True), name)
    scope = {"tf": tf, "np": np, "A": arrays, "out": {}}
    exec(compile(script, name, "exec"), scope)  # the test's own script, not user input
    return {k: np.asarray(v) for k, v in scope["out"].items()}


@pytest.fixture(scope="module")
def answers():
    return _in_wengert(SCRIPT, dict(ARRAYS)), tf_eval(SCRIPT, dict(ARRAYS))


def test_datasets_and_iterators_as_arguments_and_variants_match_tensorflow(answers):
    mine, theirs = answers
    assert sorted(mine) == sorted(theirs)
    for key in sorted(theirs):
        np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)


def test_one_trace_per_spec(answers):
    mine, _ = answers
    assert int(mine["total_traces"]) == 1 and int(mine["rows_traces"]) == 1
    assert int(mine["pipeline_traces"]) == 1 and mine["iterator_traces"].tolist() == [1, 1]


def test_a_dataset_of_another_spec_is_refused_by_the_signature():
    rows = tf.function(lambda ds: ds.reduce(tf.constant(0.0), lambda s, x: s + x),
                       input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.float32))])
    assert float(rows(tf.data.Dataset.from_tensor_slices([1.0, 2.5]))) == 3.5
    with pytest.raises(TypeError, match="does not match DatasetSpec"):
        rows(tf.data.Dataset.range(3))


def test_from_variant_checks_the_structure_and_the_variant():
    variant = tf.data.experimental.to_variant(tf.data.Dataset.range(2))
    with pytest.raises(TypeError, match="does not match the structure"):
        tf.data.experimental.from_variant(variant, tf.TensorSpec([], tf.float32))
    with pytest.raises(TypeError, match="scalar variant tensor"):
        tf.data.experimental.from_variant(tf.constant(1), tf.TensorSpec([], tf.int64))
    with pytest.raises(TypeError, match="expects a tf.data.Dataset"):
        tf.data.experimental.to_variant([1, 2])


def test_variant_is_a_dtype():
    assert tf.as_dtype("variant") is tf.variant is tf.dtypes.variant
    assert tf.as_dtype(21) is tf.variant and repr(tf.variant) == "tf.variant"


def test_returning_a_dataset_built_on_an_argument_says_what_to_do():
    same = tf.function(lambda ds: ds.map(lambda x: x * 2))
    with pytest.raises(tf.errors.FailedPreconditionError, match="not yet return such a dataset"):
        list(same(tf.data.Dataset.range(3)))
