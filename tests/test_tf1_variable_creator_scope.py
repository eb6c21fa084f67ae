"""tf.variable_creator_scope and tf.compat.v1.variable_creator_scope: creators see TensorFlow
2.21's keyword arguments (the lists below are what TensorFlow's creators saw for the same
code), nest innermost first, may change or replace the variable, and leave construction as it
was outside their scope."""
import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1

_V2_KWARGS = ["aggregation", "caching_device", "constraint", "dtype",
              "experimental_enable_variable_lifting", "import_scope", "initial_value", "name",
              "shape", "synchronization", "trainable", "validate_shape", "variable_def"]
_V1_KWARGS = sorted(_V2_KWARGS + ["collections", "expected_shape", "use_resource"])


def test_creators_nest_and_see_tensorflows_arguments():
    log = []

    def change(next_creator, **kw):
        log.append(sorted(kw))
        if kw["name"] == "a":
            kw["initial_value"] = 5.0
        return next_creator(**kw)

    def outer(next_creator, **kw):
        log.append("outer")
        return next_creator(**kw)
    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(change):
            a = tf.Variable(1.0, name="a")
            b = tf.Variable(2.0, False, name="b")
    assert float(a.numpy()) == 5.0 and a.trainable and not b.trainable
    assert log == [_V2_KWARGS, "outer", _V2_KWARGS, "outer"]
    assert float(tf.Variable(1.0, name="a").numpy()) == 1.0


def test_v1_scope_sees_get_variable_in_a_graph():
    seen = []

    def record(next_creator, **kw):
        seen.append((sorted(kw), kw["name"], kw["trainable"], tuple(kw["shape"])))
        return next_creator(**kw)
    with tf.Graph().as_default():
        with v1.variable_creator_scope(record):
            b = v1.get_variable("b", [2], trainable=False)
        assert seen == [(_V1_KWARGS, "b", False, (2,))]
        assert b.name == "b:0" and not b.trainable
        assert b in v1.global_variables() and b not in v1.trainable_variables()


def test_a_creator_may_replace_the_variable():
    made = []

    def shared(next_creator, **kw):
        if made:
            return made[0]
        made.append(next_creator(**kw))
        return made[0]
    with tf.variable_creator_scope(shared):
        first, second = tf.Variable(np.ones(2)), tf.Variable(np.zeros(3))
    assert first is second
    with pytest.raises(TypeError, match="callable"):
        with tf.variable_creator_scope("not a function"):
            pass
