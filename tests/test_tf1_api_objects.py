"""compat.v1's objects that hold no op: register_tensor_conversion_function (TensorFlow's
priorities and checks, compared with TensorFlow 2.21), the TypeSpec classes, train.ClusterSpec
and train.summary_iterator."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

v1 = tf.compat.v1

# In both TensorFlow and wengert: two classes, Box (converted by two functions at priorities 50
# and 10, the one at 10 answering NotImplemented for negative contents) and its subclass Crate.
_SETUP = ("(lambda Box: (lambda Crate: ("
          "tf.register_tensor_conversion_function(Box, lambda v, dtype=None, name=None, "
          "as_ref=False: tf.constant(v.x * 2.0, dtype=dtype), priority=50), "
          "tf.register_tensor_conversion_function(Box, lambda v, dtype=None, name=None, "
          "as_ref=False: NotImplemented if (v.x < 0).any() else tf.constant(v.x + 1.0, "
          "dtype=dtype), priority=10), {EXPR})[-1])(type('Crate', (Box,), {{}})))"
          "(type('Box', (), {{'__init__': lambda s, x: setattr(s, 'x', x)}}))")


def _conversion(expr):
    return _SETUP.format(EXPR=expr)


def _registered(fn):
    def run(x):
        box = type("Box", (), {"__init__": lambda s, v: setattr(s, "x", v)})
        crate = type("Crate", (box,), {})
        tf.register_tensor_conversion_function(
            box, lambda v, dtype=None, name=None, as_ref=False: tf.constant(v.x * 2.0, dtype=dtype),
            priority=50)
        tf.register_tensor_conversion_function(
            box, lambda v, dtype=None, name=None, as_ref=False: NotImplemented
            if (v.x < 0).any() else tf.constant(v.x + 1.0, dtype=dtype), priority=10)
        return fn(box, crate, x)
    return run


CASES = [
    TFCase("conversion_low_priority_first", _conversion("tf.add(Box(x0.numpy()), 0.0)"),
           _registered(lambda box, crate, x: tf.add(box(x.numpy()), 0.0)),
           [np.array([1.0, 2.0], np.float32)]),
    TFCase("conversion_not_implemented_passes_on", _conversion("tf.add(Box(x0.numpy()), 0.0)"),
           _registered(lambda box, crate, x: tf.add(box(x.numpy()), 0.0)),
           [np.array([-1.0, 2.0], np.float32)]),
    TFCase("conversion_subclass", _conversion("tf.convert_to_tensor(Crate(x0.numpy()))"),
           _registered(lambda box, crate, x: tf.convert_to_tensor(crate(x.numpy()))),
           [np.array([3.0], np.float64)]),
    TFCase("conversion_dtype", _conversion("tf.convert_to_tensor(Box(x0.numpy()), dtype=tf.float64)"),
           _registered(lambda box, crate, x: tf.convert_to_tensor(box(x.numpy()), tf.float64)),
           [np.array([0.5, 4.0])]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_conversion_against_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


class _Meters:
    def __init__(self, value):
        self.value = value


def test_conversion_errors_follow_tensorflow():
    with pytest.raises(TypeError, match="Python numeric types"):
        tf.register_tensor_conversion_function(float, lambda v, **_: v)
    with pytest.raises(TypeError, match="must be a type"):
        tf.register_tensor_conversion_function("Meters", lambda v, **_: v)
    tf.register_tensor_conversion_function(_Meters, lambda v, dtype=None, name=None,
                                           as_ref=False: "not a tensor" if v.value is None
                                           else tf.constant(v.value, tf.int32))
    np.testing.assert_array_equal((tf.constant(1) + _Meters(4)).numpy(), 5)
    with pytest.raises(RuntimeError, match="returned non-Tensor"):
        tf.convert_to_tensor(_Meters(None))
    with pytest.raises(RuntimeError, match="incompatible dtype: requested = float32"):
        tf.convert_to_tensor(_Meters(2), dtype=tf.float32)
    g = tf.Graph()
    with g.as_default():
        out = tf.multiply(_Meters(3), 2)
        with v1.Session() as sess:
            assert sess.run(out) == 6


def test_type_specs():
    ta = tf.TensorArraySpec([2], tf.float32)
    assert repr(ta) == "TensorArraySpec(TensorShape([2]), tf.float32, False, True)"
    assert ta == tf.TensorArraySpec([2]) and hash(ta) == hash(tf.TensorArraySpec([2]))
    assert tf.TensorArraySpec([None]).is_compatible_with(ta)
    assert not tf.TensorArraySpec([3]).is_compatible_with(ta)
    assert tf.TensorArraySpec([None]).most_specific_common_supertype([ta]) == \
        tf.TensorArraySpec([None])
    assert tf.TensorArraySpec.from_value(tf.TensorArray(tf.float32, 3, element_shape=[2])) == ta
    assert ta.value_type is tf.TensorArray
    assert repr(tf.IndexedSlicesSpec([4, 3])) == \
        "IndexedSlicesSpec(TensorShape([4, 3]), tf.float32, tf.int64, None, TensorShape([None]))"
    assert tf.IndexedSlicesSpec().value_type is tf.IndexedSlices
    opt = tf.OptionalSpec.from_value(tf.experimental.Optional.from_value(1.0))
    assert opt == tf.OptionalSpec(tf.TensorSpec([], tf.float32))
    assert repr(v1.NoneTensorSpec()) == "NoneTensorSpec()"
    for spec in (tf.TensorSpec([1]), tf.SparseTensorSpec([2], tf.int32), ta, opt):
        assert isinstance(spec, v1.TypeSpec)
    assert v1.TensorInfo(name="x:0").name == "x:0"


def test_cluster_spec():
    cluster = v1.train.ClusterSpec({"ps": ["a:1", "b:2"], "worker": {1: "w1:1", 3: "w3:3"}})
    assert repr(cluster) == "ClusterSpec({'ps': ['a:1', 'b:2'], 'worker': {1: 'w1:1', 3: 'w3:3'}})"
    assert cluster.jobs == ["ps", "worker"] and cluster.num_tasks("worker") == 2
    assert cluster.task_indices("worker") == [1, 3] and cluster.task_address("ps", 1) == "b:2"
    assert cluster.job_tasks("worker") == [None, "w1:1", None, "w3:3"]
    assert cluster == tf.train.ClusterSpec(cluster.as_dict()) and bool(cluster)
    assert tf.train.ClusterSpec(cluster.as_cluster_def()) == cluster
    assert tf.train.ClusterSpec(cluster) == cluster and not tf.train.ClusterSpec({})
    with pytest.raises(ValueError, match="No such job in cluster: 'x'"):
        cluster.task_address("x", 0)
    with pytest.raises(ValueError, match="No task with index 5 in job 'ps'"):
        cluster.task_address("ps", 5)
    with pytest.raises(TypeError, match="must be a list or a dictionary"):
        tf.train.ClusterSpec({"ps": "a:1"})


def test_summary_iterator_reads_what_filewriter_wrote(tmp_path):
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [])
        merged = v1.summary.merge([v1.summary.scalar("loss", x)])
        writer = v1.summary.FileWriter(str(tmp_path))
        with v1.Session() as sess:
            for step in range(3):
                writer.add_summary(sess.run(merged, {x: step * 1.5}), step)
        writer.close()
    (path,) = tf.io.gfile.glob(str(tmp_path / "events.*"))
    events = list(v1.train.summary_iterator(path))
    assert events[0].file_version == "brain.Event:2"
    values = [(e.step, v.tag, v.simple_value) for e in events[1:] for v in e.summary.value]
    assert values == [(0, "loss", 0.0), (1, "loss", 1.5), (2, "loss", 3.0)]
