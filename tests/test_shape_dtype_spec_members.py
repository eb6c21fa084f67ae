"""TensorShape's, DType's, TensorSpec's and Tensor's public members as TensorFlow 2.21 has them:
rank checks, protos, the TraceType protocol, set_shape/eval/experimental_ref. The expected values
and messages were read from TensorFlow 2.21 (/work/tfvenv) case by case."""
import re

import pytest

import wengert as tf

S = tf.TensorShape


def test_rank_checks():
    assert S([2, None]).with_rank(2) == S([2, None])
    assert S(None).with_rank(3) == S([None, None, None])
    assert S([2, None]).with_rank_at_least(1) == S([2, None])
    assert S(None).with_rank_at_most(1) == S(None)
    S([2, None]).assert_has_rank(2)
    S(None).assert_has_rank(5)
    S([2, None]).assert_same_rank(None)
    S([2, None]).assert_is_compatible_with([2, 7])
    S([2, 3]).assert_is_fully_defined()
    cases = [(lambda: S([2, None]).with_rank(3), "Shape (2, None) must have rank 3"),
             (lambda: S([2, None]).with_rank_at_least(3),
              "Shape (2, None) must have rank at least 3"),
             (lambda: S([2, None]).with_rank_at_most(1),
              "Shape (2, None) must have rank at most 1"),
             (lambda: S([2, None]).assert_has_rank(1), "Shape (2, None) must have rank 1"),
             (lambda: S([2, None]).assert_is_compatible_with([3, 1]),
              "Shapes (2, None) and [3, 1] are incompatible"),
             (lambda: S([2, None]).assert_is_fully_defined(),
              "Shape (2, None) is not fully defined"),
             (lambda: S(None).assert_is_fully_defined(), "Shape <unknown> is not fully defined"),
             (lambda: S([2, None]).assert_same_rank([3]),
              "Shapes (2, None) and (3,) must have the same rank")]
    for call, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            call()


def test_most_specific_compatible_shape():
    assert S([2, None]).most_specific_compatible_shape([2, 3]) == S([2, None])
    assert S([2, 4]).most_specific_compatible_shape([2, 3]) == S([2, None])
    assert S([2, None]).most_specific_compatible_shape([2, 3, 4]) == S(None)
    assert S([2, 4]).most_specific_compatible_shape(None) == S(None)


def test_shape_proto_round_trip():
    proto = S([2, None]).as_proto()
    assert [d.size for d in proto.dim] == [2, -1] and not proto.unknown_rank
    assert S(None).experimental_as_proto().unknown_rank
    assert S.experimental_from_proto(proto) == S([2, None])
    # the bytes TensorFlow writes for TensorShape([2, None]).as_proto()
    assert proto.SerializeToString() == b"\x12\x02\x08\x02\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"


def test_shape_trace_type():
    assert S([2, 3]).is_subtype_of(S([2, None]))
    assert not S([2, None]).is_subtype_of(S([2, 3]))
    assert S([2, None]).is_subtype_of(S(None))
    assert not S([2, None]).is_subtype_of([2, None])  # only TensorShapes
    assert S([2, 3]).most_specific_common_supertype([S([2, 4]), S([2, 3])]) == S([2, None])
    assert S([2, 3]).most_specific_common_supertype([S([2, 4, 3])]) == S(None)
    assert S([2, 3]).most_specific_common_supertype([]) == S([2, 3])
    assert S([2, 3]).most_specific_common_supertype([[2, 3]]) is None
    shape = S([2, 3])
    assert shape.placeholder_value(None) is None and shape.from_tensors(iter([])) is None
    assert shape.to_tensors(shape) == [] and shape.flatten() == []
    assert shape.cast(None, None) is None
    with pytest.raises(AssertionError, match="Can not cast"):
        shape.cast(S([2, 3]), None)


def test_dtype_members():
    f = tf.float32
    assert tf.DType(1) is f and tf.dtypes.DType(type_enum=3) is tf.int32
    assert f.is_compatible_with(tf.float32) and f.is_compatible_with("float32")
    assert not f.is_compatible_with(tf.int32)
    with pytest.raises(TypeError):
        f.is_compatible_with("foo")
    assert f.is_subtype_of(tf.float32) and f.is_subtype_of("float32")
    assert not f.is_subtype_of(tf.int32)
    assert f.most_specific_common_supertype([tf.float32]) is f
    assert f.most_specific_common_supertype([tf.int32]) is None
    assert f.most_specific_common_supertype([]) is f
    assert f.placeholder_value(None) is None and f.to_tensors(1) == [] and f.flatten() == []
    assert f.from_tensors(iter([])) is None and f.cast(None, None) is None
    with pytest.raises(AssertionError, match="Can not cast tf.float32 to type tf.float32"):
        f.cast(tf.float32, None)
    proto = f.experimental_as_proto()
    assert proto.datatype == 1 and proto.SerializeToString() == b"\x08\x01"
    assert tf.DType.experimental_from_proto(tf.float64.experimental_as_proto()) is tf.float64


def test_tensor_spec_trace_type():
    a = tf.TensorSpec([2, 3], tf.float32, "x")
    b = tf.TensorSpec([2, None], tf.float32, "x")
    assert a.is_subtype_of(b) and not b.is_subtype_of(a)
    assert not a.is_subtype_of(tf.TensorSpec([2, None], tf.float32))  # names differ
    assert not a.is_subtype_of(tf.TensorSpec([2, 3], tf.int32, "x"))
    assert not a.is_subtype_of(S([2, 3]))
    assert a.most_specific_common_supertype([tf.TensorSpec([2, 4], tf.float32, "x")]) == b
    assert a.most_specific_common_supertype([tf.TensorSpec([2, 4], tf.float32, "y")]) is None
    assert a.most_specific_common_supertype([tf.TensorSpec([2, 4], tf.int32, "x")]) is None
    assert a.most_specific_common_supertype(
        [tf.TensorSpec([2, 4, 5], tf.float32, "x")]) == tf.TensorSpec(None, tf.float32, "x")
    with pytest.raises(ValueError, match="No TypeSpec is compatible with both"):
        a.most_specific_compatible_type(tf.TensorSpec([2, 4], tf.float32, "y"))
    assert a.flatten() == [a]
    [t] = a.to_tensors([[1, 2, 3], [4, 5, 6]])
    assert t.dtype == tf.float32 and t.numpy().tolist() == [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(TypeError, match="Can not cast TensorSpec"):
        a.to_tensors(tf.ones([2, 4]))
    with pytest.raises(TypeError, match="Can not cast TensorSpec"):
        a.to_tensors(tf.ones([2, 3], tf.int32))
    one = tf.ones([2, 4])
    assert b.from_tensors(iter([one])) is one
    with pytest.raises(StopIteration):
        a.from_tensors(iter([]))
    proto = a.experimental_as_proto()
    assert proto.name == "x" and [d.size for d in proto.shape.dim] == [2, 3]
    assert tf.TensorSpec.experimental_from_proto(proto) == a


def test_tensor_spec_cast_and_placeholder_in_a_function():
    spec = tf.TensorSpec([2, None], tf.float32, "x")
    seen = []

    @tf.function
    def f(x):
        seen.append(spec.cast(x, None).shape)
        return x

    f.get_concrete_function(tf.TensorSpec([None, None]))
    assert seen == [S([2, None])]  # refined to the spec's shape, as TensorFlow's cast does
    with tf.Graph().as_default():
        p = spec.placeholder_value(None)
        assert p.shape == S([2, None]) and p.dtype == tf.float32 and p.op.type == "Placeholder"


def test_tensor_set_shape_eval_experimental_ref():
    x = tf.ones([2, 3])
    x.set_shape([2, None])
    x.set_shape(None)
    with pytest.raises(ValueError, match=r"Tensor's shape \(2, 3\) is not compatible with "
                                         r"supplied shape \(2, 4\)\."):
        x.set_shape([2, 4])
    with pytest.raises(NotImplementedError, match="eval is not supported when eager"):
        x.eval()
    assert x.experimental_ref().deref() is x and x.experimental_ref() == x.ref()
    seen = []

    @tf.function
    def f(a):
        a.set_shape([None, 3])
        seen.append(a.shape)
        a.set_shape([4, 3])  # merges, as TensorFlow's graph tensors do
        seen.append(a.shape)
        return a

    f.get_concrete_function(tf.TensorSpec([None, None]))
    assert seen == [S([None, 3]), S([4, 3])]
    with tf.Graph().as_default() as g:
        p = tf.compat.v1.placeholder(tf.float32, [None, 2])
        with pytest.raises(ValueError):
            p.set_shape([3, 3])
        with tf.compat.v1.Session(graph=g) as sess:
            assert p.eval({p: [[1, 2]]}, session=sess).tolist() == [[1, 2]]
