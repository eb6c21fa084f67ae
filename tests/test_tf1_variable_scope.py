"""TensorFlow 1 variable management: `variable_scope`, `get_variable`, `VariableScope` and the
names, sharing, defaults and errors they give, compared with TensorFlow 2.21's `tf.compat.v1`
running the same programs (tf1_scenarios.py), plus checks that need no TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

SCENARIOS = {
    "naming": '''
with tf.variable_scope("foo") as s:
    v = tf.get_variable("v", [2, 3])
    out["v"] = v.name
    out["op_in_scope"] = tf.identity(v, name="y").op.name
    out["plain_variable"] = tf.Variable(1.0, name="w").name
    out["scope"] = [s.name, s.original_name_scope]
with tf.variable_scope("foo", reuse=True) as s2:
    out["shared"] = tf.get_variable("v") is v
    out["reentered_by_name"] = [s2.name, s2.original_name_scope, tf.identity(v, name="y").op.name]
with tf.variable_scope(s) as s3:
    out["reentered_object"] = [s3.name, s3.original_name_scope,
                               tf.identity(v, name="y").op.name]
with tf.name_scope("ns"):
    out["in_name_scope"] = [tf.get_variable("u", [1]).name, tf.identity(v, name="y").op.name]
    with tf.variable_scope("inner") as inner:
        out["nested"] = [tf.get_variable("q", [1]).name, tf.identity(v, name="y").op.name,
                         inner.name, inner.original_name_scope, tf.get_variable_scope().name]
for i in range(3):
    with tf.variable_scope(None, default_name="dense") as d:
        out[f"default_{i}"] = [d.name, d.original_name_scope, tf.get_variable("k", []).name]
with tf.variable_scope("outer"):
    for i in range(2):
        with tf.variable_scope(None, default_name="layer") as d:
            out[f"nested_default_{i}"] = [d.name, tf.get_variable("k", []).name]
with tf.variable_scope("a"):
    with tf.variable_scope("b"):
        with tf.variable_scope("c") as c:
            out["deep"] = [c.name, c.original_name_scope, tf.get_variable("x", []).name]
with tf.variable_scope("plain", auxiliary_name_scope=False) as p:
    out["no_name_scope"] = [p.original_name_scope, tf.identity(v, name="z").op.name]
out["root"] = [tf.get_variable_scope().name, tf.get_variable_scope().reuse]
out["variable_ops"] = [var.op.name for var in tf.global_variables()]
out["found_by_name"] = tf.get_default_graph().get_operation_by_name("foo/v") is v.op
''',
    "errors": '''
with tf.variable_scope("foo"):
    v = tf.get_variable("v", [2, 3])
count = len(tf.get_default_graph().get_operations())
out["exists"] = error_of(lambda: tf.get_variable("foo/v", [2, 3]))
def reuse(name, **kw):
    with tf.variable_scope("foo", reuse=True):
        return tf.get_variable(name, **kw)
out["missing"] = error_of(lambda: reuse("nope", shape=[1]))
out["shape"] = error_of(lambda: reuse("v", shape=[3, 3]))
out["dtype"] = error_of(lambda: reuse("v", shape=[2, 3], dtype=tf.float64))
out["compatible_shape"] = error_of(lambda: reuse("v", shape=[None, 3]))
def default_reuse():
    with tf.variable_scope(None, default_name="d", reuse=True):
        pass
out["default_name_reuse"] = error_of(default_reuse)
out["no_name"] = error_of(lambda: tf.variable_scope(None))
out["bad_reuse"] = error_of(lambda: tf.variable_scope("x", reuse="yes"))
out["constant_with_shape"] = error_of(
    lambda: tf.get_variable("c", [2], initializer=np.ones(2, np.float32)))
out["no_shape"] = error_of(lambda: tf.get_variable("n"))
out["init_dtype"] = error_of(
    lambda: tf.get_variable("m", initializer=tf.constant([1, 2]), dtype=tf.float32))
out["nothing_built"] = len(tf.get_default_graph().get_operations()) == count
out["variables"] = names(tf.global_variables())
''',
    "reuse_modes": '''
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a1 = tf.get_variable("a", [1])
with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
    a2 = tf.get_variable("a", [1])
    b = tf.get_variable("b", [1])
out["auto"] = [a1 is a2, b.name]
with tf.variable_scope("top", reuse=tf.AUTO_REUSE):
    with tf.variable_scope("inner") as s:
        out["inherited_auto"] = str(s.reuse)
with tf.variable_scope("r"):
    tf.get_variable("x", [1])
with tf.variable_scope("r", reuse=True) as s:
    with tf.variable_scope("sub", reuse=False) as sub:
        out["inherited_true"] = [s.reuse, sub.reuse]
with tf.variable_scope("share") as s:
    w1 = tf.get_variable("w", [2])
    s.reuse_variables()
    w2 = tf.get_variable("w", [2])
    out["reuse_variables"] = [w1 is w2, s.reuse]
with tf.variable_scope(s, reuse=True):
    out["object_reuse"] = tf.get_variable("w", [2]) is w1
out["repr_auto"] = repr(tf.AUTO_REUSE)
''',
    "defaults": '''
with tf.variable_scope("init", initializer=tf.constant_initializer(2.0), dtype=tf.float64):
    i1 = tf.get_variable("i", [2])
    out["scope_dtype"] = [i1.dtype.name, tf.get_variable_scope().dtype.name]
    with tf.variable_scope("sub"):
        i2 = tf.get_variable("j", [3])
        i3 = tf.get_variable("k", [1], initializer=tf.ones_initializer(), dtype=tf.float32)
c = tf.get_variable("c", initializer=tf.constant([1, 2]))
z = tf.get_variable("z", [2], dtype=tf.int32)
g = tf.get_variable("g", [40, 60])
t = tf.get_variable("t", [2], trainable=False)
out["dtypes"] = [i2.dtype.name, i3.dtype.name, c.dtype.name, z.dtype.name, g.dtype.name]
out["shapes"] = [v.shape.as_list() for v in (c, z, g)]
out["trainable"] = names(tf.trainable_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["i1"], out["i2"], out["i3"], out["c"], out["z"] = sess.run([i1, i2, i3, c, z])
    gv = sess.run(g)
    out["glorot_within_limit"] = bool(np.abs(gv).max() <= np.sqrt(6.0 / 100))
    out["glorot_spread"] = bool(np.abs(gv).max() > 0.5 * np.sqrt(6.0 / 100))
''',
    "templates": '''
def linear(x, units):
    w = tf.get_variable("w", [2, units], initializer=tf.constant_initializer(0.5))
    return tf.identity(tf.matmul(x, w), name="y")
first = tf.make_template("linear", linear, units=3)
x = tf.constant([[1.0, 2.0]])
a, b = first(x), first(x * 2.0)
second = tf.make_template("linear", linear, units=3)
c = second(x)
now = tf.make_template("early", linear, create_scope_now_=True, units=1)
d, e = now(x), now(x)
named = tf.make_template("ignored", linear, unique_name_="exact", units=1)
f = named(x)
out["names"] = [a.op.name, b.op.name, c.op.name, d.op.name, e.op.name, f.op.name]
out["scopes"] = [first.variable_scope.name, first.variable_scope_name, second.variable_scope.name,
                 now.variable_scope.name, named.variable_scope.name]
out["variables"] = names(tf.global_variables())
out["template_variables"] = [names(first.trainable_variables), names(now.global_variables),
                             names(second.non_trainable_variables)]
def makes_a_variable(x):
    return x * tf.Variable(1.0, name="v")
bad = tf.make_template("bad", makes_a_variable)
bad(x)
out["second_call"] = error_of(lambda: bad(x)).split(":")[0]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["values"] = np.concatenate([v.reshape(-1) for v in sess.run([a, b, c, d, e, f])])
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


def test_get_variable_shares_within_one_graph_only():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = v1.get_variable("w", [2])
    with g2.as_default():
        b = v1.get_variable("w", [2])
        with v1.variable_scope("", reuse=True):
            assert v1.get_variable("w") is b
    assert a is not b and a.graph is g1 and b.graph is g2


def test_custom_getters_nest_outer_first():
    calls = []

    def outer(getter, name, *args, **kwargs):
        calls.append(("outer", name))
        return getter(name, *args, **kwargs)

    def inner(getter, name, *args, **kwargs):
        calls.append(("inner", name))
        kwargs["trainable"] = False
        return getter(name + "_c", *args, **kwargs)

    with tf.Graph().as_default():
        with v1.variable_scope("a", custom_getter=outer):
            with v1.variable_scope("b", custom_getter=inner):
                v = v1.get_variable("v", [1])
        assert v.name == "a/b/v_c:0"
        assert calls == [("inner", "a/b/v"), ("outer", "a/b/v_c")]
        assert v not in v1.trainable_variables()


def test_improper_nesting_raises():
    with tf.Graph().as_default():
        first, second = v1.variable_scope("a"), v1.variable_scope("b")
        first.__enter__()
        second.__enter__()
        with pytest.raises(RuntimeError, match="Improper nesting"):
            first.__exit__(None, None, None)


def test_a_bad_partitioner_is_refused_before_anything_is_built():
    with tf.Graph().as_default() as g:
        with pytest.raises(ValueError, match="only slice a variable along one dimension"):
            v1.get_variable("p", [4, 2], partitioner=lambda shape, dtype: [2, 2])
        assert g.get_operations() == []


def test_eager_get_variable_makes_a_new_variable_each_time():
    with v1.variable_scope("e"):
        a = v1.get_variable("w", [2], initializer=v1.ones_initializer())
        b = v1.get_variable("w", [2], initializer=v1.ones_initializer())
    assert a is not b and a.name == "e/w:0"
    np.testing.assert_array_equal(a.numpy(), [1.0, 1.0])
