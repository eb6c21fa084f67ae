"""tf.data.DatasetSpec and tf.data.IteratorSpec (data/type_specs.py), and an eager iterator
passed into a tf.function (data/iterator.py): each call takes the iterator's next elements where
it stands, as TensorFlow's iterator resource does. Expected values are what TensorFlow 2.21
gave for the same expressions (recorded as literals)."""
import pytest

import wengert as tf
from wengert.framework.errors import OutOfRangeError


def _spec(shape, dtype=tf.int64):
    return tf.TensorSpec(shape, dtype)


def test_dataset_spec_reads_as_tensorflows():
    ds = tf.data.Dataset.range(5)
    spec = tf.data.DatasetSpec(_spec([]))
    assert repr(spec) == ("DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                          "TensorShape([]))")
    assert spec.element_spec == _spec([])
    assert tf.data.DatasetSpec.from_value(ds) == spec and ds._type_spec == spec
    assert hash(spec) == hash(tf.data.DatasetSpec(_spec([]), []))
    assert spec != tf.data.DatasetSpec(_spec([], tf.int32))
    assert spec.value_type is tf.data.Dataset
    assert repr(tf.data.DatasetSpec.from_value(ds.batch(2))) == (
        "DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorShape([]))")
    assert repr(ds.window(2).element_spec) == repr(spec)
    with pytest.raises(AttributeError):
        tf.data.DatasetSpec.from_value(5)


def test_dataset_spec_compatibility_and_supertypes():
    spec = tf.data.DatasetSpec(_spec([]))
    assert spec.is_compatible_with(tf.data.Dataset.range(3))
    assert not spec.is_compatible_with(tf.data.DatasetSpec(_spec([None])))
    assert not spec.is_compatible_with(_spec([]))
    assert not spec.is_compatible_with(5)
    assert not spec.is_compatible_with(tf.data.DatasetSpec({"a": _spec([])}))
    three, unknown = tf.data.DatasetSpec(_spec([3])), tf.data.DatasetSpec(_spec([None]))
    assert three.is_compatible_with(unknown) and unknown.is_compatible_with(three)
    assert three.is_subtype_of(unknown) and not unknown.is_subtype_of(three)
    super_ = three.most_specific_common_supertype([tf.data.DatasetSpec(_spec([4]))])
    assert super_ == unknown
    assert spec.most_specific_common_supertype([tf.data.DatasetSpec(_spec([], tf.int32))]) is None
    assert spec.most_specific_common_supertype(
        [tf.data.IteratorSpec(_spec([]))]) is None
    batched = tf.data.DatasetSpec(_spec([3]), dataset_shape=[2])
    assert repr(batched.most_specific_common_supertype([tf.data.DatasetSpec(_spec([3]), [4])])
                ) == ("DatasetSpec(TensorSpec(shape=(3,), dtype=tf.int64, name=None), "
                      "TensorShape([None]))")
    assert batched.is_subtype_of(tf.data.DatasetSpec(_spec([3]), [None]))
    nested = tf.data.DatasetSpec({"a": _spec([2], tf.float32), "b": (_spec([]),)})
    assert repr(nested) == ("DatasetSpec({'a': TensorSpec(shape=(2,), dtype=tf.float32, "
                            "name=None), 'b': (TensorSpec(shape=(), dtype=tf.int64, "
                            "name=None),)}, TensorShape([]))")


def test_iterator_spec_reads_as_tensorflows():
    it = iter(tf.data.Dataset.range(6))
    spec = tf.data.IteratorSpec(_spec([]))
    assert repr(spec) == "IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)"
    assert it.element_spec == _spec([]) and it._type_spec == spec
    assert tf.data.IteratorSpec.from_value(it) == spec
    assert hash(spec) == hash(tf.data.IteratorSpec(_spec([])))
    assert spec.value_type is type(it) and spec.is_compatible_with(it)
    assert not hasattr(spec, "element_spec")
    assert tf.data.IteratorSpec(_spec([None])).is_compatible_with(
        tf.data.IteratorSpec(_spec([3])))
    assert repr(tf.data.IteratorSpec(_spec([2])).most_specific_common_supertype(
        [tf.data.IteratorSpec(_spec([3]))])) == (
        "IteratorSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None),)")
    assert not spec.is_subtype_of(tf.data.IteratorSpec(_spec([None])))
    assert spec.is_subtype_of(tf.data.IteratorSpec(_spec(None)))
    assert spec.most_specific_common_supertype([tf.data.IteratorSpec(_spec([], tf.int32))]) \
        is None


def test_eager_iterator_inside_tf_function_continues_where_it_stands():
    it = iter(tf.data.Dataset.range(6))

    @tf.function
    def step(i):
        return next(i) * 2

    assert [int(step(it)), int(step(it)), int(next(it))] == [0, 2, 2]

    @tf.function
    def plus(i):
        return next(i) + 100

    assert [int(plus(it)), int(plus(it))] == [103, 104]
    first, second = iter(tf.data.Dataset.range(3)), iter(tf.data.Dataset.range(10, 13))
    assert [int(plus(first)), int(plus(second)), int(plus(first)), int(plus(second))] == [
        100, 110, 101, 111]

    @tf.function
    def optional(i):
        o = i.get_next_as_optional()
        return o.has_value(), o.get_value()

    has, value = optional(first)
    assert bool(has) and int(value) == 2 and int(next(second)) == 12
    with pytest.raises(OutOfRangeError):
        plus(first)
    d = iter(tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1., 2.], [3., 4.]]}))

    @tf.function
    def both(i):
        e = i.get_next()
        return e["a"] * 2, e["b"]

    assert [x.numpy().tolist() for x in both(d)] == [2, [1.0, 2.0]]
    assert [x.numpy().tolist() for x in both(d)] == [4, [3.0, 4.0]]


def test_specs_are_type_specs():
    assert isinstance(tf.data.IteratorSpec(_spec([])), tf.TypeSpec)
    assert isinstance(tf.data.DatasetSpec(_spec([])), tf.TypeSpec)
