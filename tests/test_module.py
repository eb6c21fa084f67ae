"""tf.Module: names and name scopes, TensorFlow's tracking rules, checkpoints, tf.function methods
(issue 14 item 1). Orders and names were checked against TensorFlow 2.21."""
import collections

import numpy as np
import pytest

import wengert as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    @tf.Module.with_name_scope
    def __call__(self, x):
        self.last_scope_variable = tf.Variable(0.0, name="probe", trainable=False)
        return x @ self.w + self.b


class Stack(tf.Module):
    def __init__(self):
        super().__init__()
        self.l2 = Dense(2, 2)
        self.l1 = Dense(3, 2, name="first")
        self.layers = [Dense(2, 1), {"z": tf.Variable(5.0), "a": tf.Variable(6.0, trainable=False)}]
        self.plain = (1, "text")


def test_names_and_scopes():
    assert tf.Module().name == "module"

    class MyDense2D(tf.Module):
        pass
    assert MyDense2D().name == "my_dense2_d"  # TensorFlow's camel_to_snake
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="a b")
    with tf.name_scope("outer"):
        inner = Dense(1, 1, name="inner")
    assert inner.name == "inner" and inner.name_scope.name == "outer/inner/"
    with inner.name_scope as scope:
        assert scope == "outer/inner/"
        assert tf.Variable(1.0, name="v").name == "outer/inner/v:0"
    inner(tf.ones([1, 1]))  # with_name_scope: what the method creates is named in the scope
    assert inner.last_scope_variable.name == "outer/inner/probe:0"
    assert tf.Variable(1.0, name="v").name == "v:0"  # the scope was left


def test_tracking_order_follows_tensorflow():
    m = Stack()
    # own leaves first (sorted attribute names, dict values by sorted key), then submodules
    # depth first in the order found
    paths = [p for p, _ in m._flatten(with_path=True, predicate=lambda x: isinstance(
        x, tf.Variable))]
    assert paths == [("layers", 1, "a"), ("layers", 1, "z"), ("l1", "b"), ("l1", "w"),
                     ("l2", "b"), ("l2", "w"), ("layers", 0, "b"), ("layers", 0, "w")]
    assert len(m.variables) == 8 and len(m.trainable_variables) == 7
    assert [v.numpy() for v in m.non_trainable_variables] == [6.0]
    assert [s.name for s in m.submodules] == ["first", "dense", "dense"]
    assert m.submodules[0] is m.l1 and m.submodules[2] is m.layers[0]


def test_shared_and_cyclic_modules_are_reported_once():
    a, b = Dense(1, 1), Dense(1, 1)
    a.peer, b.peer = b, a  # a cycle
    holder = tf.Module()
    holder.x, holder.y = a, a  # shared
    assert holder.submodules == (a, b)
    assert len(holder.variables) == 4
    nested = tf.Module()
    Pair = collections.namedtuple("Pair", "left right")
    nested.pairs = {"p": [Pair(tf.Variable(1.0), Dense(1, 2))]}
    assert len(nested.variables) == 3 and len(nested.submodules) == 1


def test_checkpoint_round_trip_into_a_fresh_module(tmp_path):
    m = Stack()
    for i, v in enumerate(m.variables):
        v.assign(tf.fill(v.shape, float(i + 1)))
    saved = [v.numpy() for v in m.variables]
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "ckpt"))
    names = {name for name, _ in tf.train.list_variables(path)}
    assert {f"model/{p}/.ATTRIBUTES/VARIABLE_VALUE" for p in ("l1/w", "layers/0/b",
                                                              "layers/1/z")} <= names
    fresh = Stack()  # built later: its layer-name counters differ, its attribute paths do not
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_consumed()
    for a, b in zip(saved, fresh.variables):
        np.testing.assert_array_equal(a, b.numpy())


class Lazy(tf.Module):
    """Creates its variables on the first call, as many models do."""

    def __init__(self):
        super().__init__()
        self.dense = None

    def __call__(self, x):
        if self.dense is None:
            self.dense = Dense(int(x.shape[-1]), 2)
            self.scale = tf.Variable(1.0)
        return self.dense(x) * self.scale


def test_restore_before_variables_exist_is_deferred(tmp_path):
    model = Lazy()
    model(tf.ones([1, 3]))
    model.dense.w.assign(tf.fill([3, 2], 7.0))
    model.scale.assign(3.0)
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "w"))
    later = Lazy()
    tf.train.Checkpoint(model=later).restore(path)
    out = later(tf.ones([1, 3]))  # variables created now take the saved values
    np.testing.assert_allclose(later.dense.w.numpy(), 7.0)
    assert later.scale.numpy() == 3.0
    np.testing.assert_allclose(out.numpy(), [[63.0, 63.0]])


def test_checkpoint_manager_keeps_the_newest(tmp_path):
    m = Dense(2, 2)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=m), str(tmp_path), 2)
    for step in range(3):
        m.b.assign([float(step), 0.0])
        manager.save()
    assert len(manager.checkpoints) == 2 and manager.latest_checkpoint.endswith("ckpt-3")
    fresh = Dense(2, 2)
    again = tf.train.CheckpointManager(tf.train.Checkpoint(model=fresh), str(tmp_path), 2)
    assert again.restore_or_initialize() == manager.latest_checkpoint
    np.testing.assert_array_equal(fresh.b.numpy(), [2.0, 0.0])


def test_function_methods_trace_once_per_instance():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return self.w * x

    a, b = Model(), Model()
    b.w.assign(5.0)
    assert float(a(tf.constant(3.0))) == 6.0 and float(b(tf.constant(3.0))) == 15.0
    a(tf.constant(4.0))
    assert type(a).__call__.__get__(a).experimental_get_tracing_count() == 1
    with tf.GradientTape() as tape:
        y = a(tf.constant(3.0))
    assert float(tape.gradient(y, a.w)) == 3.0


def test_keras_layers_and_models_are_modules():
    layer = tf.keras.layers.Dense(3)
    model = tf.keras.Sequential([tf.keras.layers.Dense(4), layer])
    model(tf.ones([1, 2]))
    assert isinstance(layer, tf.Module) and isinstance(model, tf.Module)
    assert layer in model.submodules and len(model.trainable_variables) == 4
    with layer.name_scope as scope:
        assert scope == layer.name + "/"
    holder = tf.Module()
    holder.model = model
    assert len(holder.variables) == 4 and model in holder.submodules
