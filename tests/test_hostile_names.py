"""Names never run as code (issue 22 item 1). Every place a name is accepted gets a name holding
a newline and Python code: no file is ever written, and where TensorFlow raises (op and scope
names in graphs and traced functions, variables created while tracing, Keras layers in a
compiled step) a ValueError names the name; where TF accepts any name (eagerly, eager variables
used in functions, function names, checkpoint keys) the code runs as it should."""
import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.graph.graph import check_op_name, check_scope_name, valid_name

v1 = tf.compat.v1

HOSTILE = "m\n    open('pwned.txt', 'w').write('x')  #"
NAMES = [HOSTILE, "a b", "_a", "-a", "/a", "a:0", "é", "x)\nimport os\n#"]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    assert not (tmp_path / "pwned.txt").exists(), "a name ran as code"
    assert list(tmp_path.iterdir()) == [] or all(p.name == "ckpt" for p in tmp_path.iterdir())


@pytest.mark.parametrize("name", NAMES)
def test_op_names_in_a_traced_function_raise(name):
    f = tf.function(lambda x: tf.multiply(x, 2.0, name=name))
    with pytest.raises(ValueError, match="not a valid root scope name"):  # TensorFlow's words
        f(tf.constant(1.0))


@pytest.mark.parametrize("name", NAMES)
def test_op_names_in_a_graph_raise_before_anything_runs(name):
    with tf.Graph().as_default() as g:
        x = v1.placeholder(tf.float32, [], name="x")
        with pytest.raises(ValueError, match="not a valid root scope name"):
            tf.multiply(x, 2.0, name=name)  # the op's scope (its constant is `name/y`)
        with pytest.raises(ValueError, match="not a valid node name"):
            v1.placeholder(tf.float32, [], name=name)
        y = x * 2.0
    with v1.Session(graph=g) as sess:
        assert sess.run(y, {x: 3.0}) == 6.0


@pytest.mark.parametrize("name", NAMES)
def test_name_scopes_in_graphs_raise_and_eagerly_are_accepted(name):
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="not a valid root scope name"):
            with tf.name_scope(name):
                pass
        with tf.name_scope("outer"):
            if name.startswith(("_", "-", "/")):  # valid inside a scope, as in TensorFlow
                with tf.name_scope(name):
                    pass
            else:
                with pytest.raises(ValueError, match="not a valid scope name"):
                    with tf.name_scope(name):
                        pass
    with tf.name_scope(name):  # eagerly TensorFlow accepts any name
        assert float(tf.constant(1.0) + 1.0) == 2.0


@pytest.mark.parametrize("name", NAMES)
def test_variables(name):
    v = tf.Variable(1.0, name=name)  # eagerly any name, as in TensorFlow
    f = tf.function(lambda: v.assign_add(2.0) * 2.0)  # used in a function: its reads are named
    assert float(f()) == 6.0
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="not a valid root scope name"):
            tf.Variable(1.0, name=name)

    @tf.function
    def make():
        return tf.Variable(1.0, name=name).read_value()
    with pytest.raises(ValueError, match="not a valid"):
        make()


@pytest.mark.parametrize("name", NAMES)
def test_function_names_are_accepted(name):
    def double(x):
        return x * 2.0
    double.__name__ = name
    inner = tf.function(double)
    assert float(inner(tf.constant(1.0))) == 2.0
    outer = tf.function(lambda x: inner(x) + 1.0)  # inlined into another graph: a scope
    assert float(outer(tf.constant(1.0))) == 3.0
    named = tf.function(lambda x: x * 3.0, name=name)
    assert float(named(tf.constant(1.0))) == 3.0


@pytest.mark.parametrize("name", [HOSTILE, "a b"])
def test_keras_layer_names_raise_in_compiled_steps_only(name):
    x, y = np.ones((4, 2), np.float32), np.ones((4, 2), np.float32)
    model = keras.Sequential([keras.layers.Dense(2, name=name)])
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="not a valid scope name"):
        model.fit(x, y, verbose=0)
    eager = keras.Sequential([keras.layers.Dense(2, name=name)])
    eager.compile("sgd", "mse", run_eagerly=True)
    eager.fit(x, y, verbose=0)
    assert eager.predict(x, verbose=0).shape == (4, 2)


def test_keras_model_names_raise_in_compiled_steps():
    model = keras.Sequential([keras.layers.Dense(2)], name=HOSTILE)
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="not a valid root scope name"):
        model.fit(np.ones((4, 2), np.float32), np.ones((4, 2), np.float32), verbose=0)


def test_checkpoint_keys_are_data(tmp_path):
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(**{HOSTILE: v})
    path = ckpt.write(str(tmp_path / "ckpt" / "model"))
    v.assign([5.0, 6.0])
    tf.train.Checkpoint(**{HOSTILE: v}).read(path)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_the_rules_are_tensorflows():
    for good in ["a", "A.b", ".a", "1a", "a/b", "a-b", "a>b", "a\\b", "scope/op_1"]:
        assert check_op_name(good) == good
        assert check_scope_name(good, root=True) == good
    for bad in ["", "_a", "-a", "/a", "a b", "a:0", "é", "a\nb"]:
        with pytest.raises(ValueError, match="not a valid node name"):
            check_op_name(bad)
    assert check_scope_name("_a", root=False) == "_a"
    assert check_scope_name("", root=False) == ""
    with pytest.raises(ValueError, match=r"'a b' is not a valid scope name"):
        check_scope_name("a b", root=False)
    for name in NAMES:
        assert check_op_name(valid_name(name)) == valid_name(name)
