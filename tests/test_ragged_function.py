"""Ragged tensors through tf.function and tf.nest: RaggedTensorSpec input signatures, ragged
arguments and outputs (retracing as TensorFlow does: per number of rows, not per number of
values), the traced signature's text (TensorFlow 2.21's), gradients through a traced function,
tf.nest.flatten / pack_sequence_as / map_structure with expand_composites, and the spec's own
methods and errors."""
import numpy as np
import pytest

import wengert as tf

R = tf.RaggedTensor
SPEC = tf.RaggedTensorSpec([None, None], tf.float32)


def test_spec_prints_and_lists_components_as_tensorflow():
    assert repr(tf.RaggedTensorSpec([None, None], tf.int32)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    spec = tf.RaggedTensorSpec([4, None, 3], tf.float32)
    assert [(s.shape.as_list(), s.dtype) for s in spec._component_specs()] == \
        [([None], tf.float32), ([5], tf.int64), ([None], tf.int64)]
    assert spec.ragged_rank == 2
    uniform_inner = tf.RaggedTensorSpec([4, None, 3], tf.float32, ragged_rank=1)
    assert [s.shape.as_list() for s in uniform_inner.flatten()] == [[None, 3], [5]]
    deep = tf.RaggedTensorSpec([2, None, None], tf.float32, ragged_rank=2,
                               row_splits_dtype=tf.int32)
    assert [s.shape.as_list() for s in deep.flatten()] == [[None], [3], [None]]
    value = tf.ragged.constant([[1, 2], [3]])
    assert repr(tf.RaggedTensorSpec.from_value(value)) == \
        "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    assert tf.RaggedTensorSpec([None, None], tf.int32).is_compatible_with(value)
    assert not tf.RaggedTensorSpec([4, None, 3], tf.int32).is_compatible_with(value)
    assert tf.RaggedTensorSpec([3, None], tf.int32).is_subtype_of(
        tf.RaggedTensorSpec([None, None], tf.int32))
    common = tf.RaggedTensorSpec([2, None], tf.int32).most_specific_common_supertype(
        [tf.RaggedTensorSpec([3, None], tf.int32)])
    assert common == tf.RaggedTensorSpec([None, None], tf.int32)
    assert hash(common) == hash(tf.RaggedTensorSpec([None, None], tf.int32))


@pytest.mark.parametrize("args, error", [
    ((None, tf.int32), ValueError),
    (([None, None], tf.int32, 2), ValueError),
    (([None, None], tf.int32, 1, tf.float32), ValueError),
])
def test_spec_bad_arguments(args, error):
    with pytest.raises(error):
        tf.RaggedTensorSpec(*args)


def test_input_signature_takes_ragged_arguments():
    @tf.function(input_signature=[SPEC])
    def f(x):
        return tf.reduce_sum(x, axis=1), x * 2.0
    total, doubled = f(tf.ragged.constant([[1.0, 2.0], [3.0], []]))
    np.testing.assert_allclose(total.numpy(), [3.0, 3.0, 0.0])
    assert doubled.to_list() == [[2.0, 4.0], [6.0], []]
    total, _ = f(tf.ragged.constant([[1.0], [2.0, 3.0, 4.0]]))
    np.testing.assert_allclose(total.numpy(), [1.0, 9.0])
    assert f.experimental_get_tracing_count() == 1
    assert f.get_concrete_function().structured_input_signature == ((SPEC,), {})
    with pytest.raises(TypeError):
        f(tf.ragged.constant([[1, 2]]))


def test_ragged_arguments_retrace_per_number_of_rows_as_tensorflow():
    @tf.function
    def g(x):
        return x + 1
    assert g(tf.ragged.constant([[1, 2], [3]])).to_list() == [[2, 3], [4]]
    assert g(tf.ragged.constant([[1], [2, 3, 4]])).to_list() == [[2], [3, 4, 5]]
    assert g(tf.ragged.constant([[1], [2], [3]])).to_list() == [[2], [3], [4]]
    assert g.experimental_get_tracing_count() == 2
    text = g.pretty_printed_concrete_signatures().split("\n\n")[0]
    assert text == ("Input Parameters:\n"
                    "  x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([2, None]), "
                    "tf.int32, 1, tf.int64)\n"
                    "Output Type:\n"
                    "  RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)\n"
                    "Captures:\n"
                    "  None")


def test_gradient_through_a_traced_function():
    @tf.function
    def loss(values):
        rt = R.from_row_lengths(values, [2, 0, 1])
        return tf.reduce_sum(tf.square(rt).to_tensor(default_value=1.0))
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    np.testing.assert_allclose(y.numpy(), 1 + 4 + 9 + 3)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0, 6.0])


def test_nest_expand_composites():
    rt = tf.ragged.constant([[1, 2], [3]])
    flat = tf.nest.flatten({"a": rt, "b": 1}, expand_composites=True)
    assert [np.asarray(f).tolist() for f in flat[:2]] == [[1, 2, 3], [0, 2, 3]]
    assert flat[2] == 1
    assert tf.nest.flatten(rt) == [rt]
    rebuilt = tf.nest.pack_sequence_as(rt, [tf.constant([4, 5, 6]), tf.constant([0, 1, 3],
                                                                                tf.int64)],
                                       expand_composites=True)
    assert rebuilt.to_list() == [[4], [5, 6]]
    doubled = tf.nest.map_structure(lambda v: v * 2, [rt], expand_composites=True)
    assert doubled[0].to_list() == [[2, 4, 6], []]  # the splits are components too, as in TF
    spec_parts = tf.nest.flatten(SPEC, expand_composites=True)
    assert [s.dtype for s in spec_parts] == [tf.float32, tf.int64]


def test_static_shapes_while_building():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, 3], tf.float32,
                                                        ragged_rank=1)])
    def f(x):
        assert x.shape.as_list() == [None, None, 3]
        assert x.to_tensor().shape.as_list() == [None, None, 3]
        return x.to_tensor(shape=[2, 4, 3])
    out = f(R.from_row_lengths(tf.ones([3, 3]), [1, 2]))
    assert out.shape.as_list() == [2, 4, 3]
    np.testing.assert_allclose(out.numpy().sum(axis=(1, 2)), [3.0, 6.0])
