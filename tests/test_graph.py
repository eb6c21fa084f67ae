"""Graph construction: default graphs, names and scopes, lookups, control dependencies, build-time
shape and dtype inference and errors, override maps, and seeing the graph (graph_def/describe)."""
import threading

import numpy as np
import pytest

import wengert as tf
from wengert.framework.context import state
from wengert.graph.graph_def import describe, graph_def

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


# -- default graph ---------------------------------------------------------------------------------
def test_as_default_is_nestable_and_restores():
    g1, g2 = tf.Graph(), tf.Graph()
    assert tf.executing_eagerly()
    with g1.as_default():
        assert tf.get_default_graph() is g1 and not tf.executing_eagerly()
        with g2.as_default():
            c = tf.constant(1.0)
            assert tf.get_default_graph() is g2
        assert c.graph is g2
        d = tf.constant(2.0)
        assert d.graph is g1 and tf.get_default_graph() is g1
    assert tf.executing_eagerly()
    assert len(g1.get_operations()) == 1 and len(g2.get_operations()) == 1


def test_as_default_is_per_thread():
    g = tf.Graph()
    seen = {}

    def other_thread():
        seen["eager"] = tf.executing_eagerly()
        seen["value"] = float(tf.constant(2.0) * 3.0)

    with g.as_default():
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
    assert seen == {"eager": True, "value": 6.0}
    assert g.get_operations() == []


def test_as_default_restores_after_an_error():
    g = tf.Graph()
    with pytest.raises(ZeroDivisionError):
        with g.as_default():
            raise ZeroDivisionError
    assert tf.executing_eagerly()


def test_every_op_adds_a_node_constants_included():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1.0, 2.0])
        y = x * 2.0 + 1.0
    types = [op.type for op in g.get_operations()]
    assert types == ["Const", "Const", "Mul", "Const", "AddV2"]
    assert isinstance(y, tf.Tensor) and y.graph is g
    assert y.op is g.get_operations()[-1]
    assert y.op.inputs[0] is g.get_operations()[2].outputs[0]


def test_eager_tensor_is_captured_once_as_a_constant():
    e = tf.constant([1.0, 2.0])
    g = tf.Graph()
    with g.as_default():
        a = e + e
        b = tf.sin(e)
    consts = [op for op in g.get_operations() if op.type == "Const"]
    assert len(consts) == 1
    assert a.op.inputs[0] is b.op.inputs[0] is consts[0].outputs[0]


def test_tensors_of_two_graphs_do_not_mix():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with g2.as_default():
        with pytest.raises(ValueError, match="another graph"):
            tf.sin(a)


def test_symbolic_tensor_has_no_python_value():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        with pytest.raises(TypeError, match="tf.cond"):
            bool(x > 0)
        with pytest.raises(NotImplementedError, match="Session"):
            x.numpy()
        with pytest.raises(TypeError, match="Session.run"):
            np.asarray(x)


# -- names -----------------------------------------------------------------------------------------
def test_unique_names():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="a")
        m1 = a * a
        m2 = a * a
        m3 = tf.multiply(a, a, name="Mul")
        b = tf.constant(2.0, name="a")
    # an operator's op is named as TensorFlow names it ("mul"), uniquified case-insensitively
    assert [m1.op.name, m2.op.name, m3.op.name] == ["mul", "mul_1", "Mul_2"]
    assert a.name == "a:0" and b.name == "a_1:0"


def test_unique_names_skip_names_taken_explicitly():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="Mul_1")
        m1 = a * a
        m2 = a * a
    assert (m1.op.name, m2.op.name) == ("mul", "mul_2")


def test_name_scopes_nest_and_are_uniquified():
    g = tf.Graph()
    with g.as_default():
        with tf.name_scope("layer") as scope:
            assert scope == "layer/"
            a = tf.constant(1.0, name="w")
            with tf.name_scope("inner"):
                b = tf.constant(1.0)
            assert g.get_name_scope() == "layer"
        with tf.name_scope("layer") as scope2:
            c = tf.constant(1.0, name="w")
        with g.name_scope("layer/"):  # a trailing slash re-enters the scope
            d = tf.constant(1.0, name="w")
        with v1.name_scope(None, default_name="dense"):
            e = tf.constant(1.0)
        f = tf.constant(1.0)
    assert scope2 == "layer_1/"
    assert [t.op.name for t in (a, b, c, d, e, f)] == [
        "layer/w", "layer/inner/Const", "layer_1/w", "layer/w_1", "dense/Const", "Const"]


def test_name_scope_is_harmless_eagerly():
    with tf.name_scope("eager"):
        assert float(tf.constant(2.0) + 1.0) == 3.0


def test_variables_are_named_in_scopes():
    g = tf.Graph()
    with g.as_default():
        with tf.name_scope("dense"):
            w = tf.Variable(np.zeros(2, np.float32), name="kernel")
        w2 = tf.Variable(np.zeros(2, np.float32), name="kernel")
    assert w.name == "dense/kernel:0" and w2.name == "kernel:0"
    assert g.get_operation_by_name("dense/kernel/read").type == "ReadVariableOp"
    assert g.get_operation_by_name("dense/kernel/Assign").type == "AssignVariableOp"


# -- lookups ---------------------------------------------------------------------------------------
def test_lookups_by_name():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        y = tf.sin(x, name="y")
        parts = tf.unstack(tf.constant(np.zeros((2, 3), np.float32)), name="parts")
    assert g.get_operation_by_name("y") is y.op
    assert g.get_tensor_by_name("y:0") is y
    assert g.get_tensor_by_name("x:0") is x
    assert g.get_tensor_by_name("parts:1") is parts[1]
    with pytest.raises(KeyError, match="nope"):
        g.get_operation_by_name("nope")
    with pytest.raises(KeyError, match="outputs"):
        g.get_tensor_by_name("y:1")
    with pytest.raises(ValueError, match="op_name:0"):
        g.get_tensor_by_name("y")
    assert g.get_operations() == [op for op in g.get_operations()]
    assert [op.name for op in g.get_operations()][:2] == ["x", "y"]


def test_get_operations_is_a_copy():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
    ops = g.get_operations()
    ops.clear()
    assert len(g.get_operations()) == 1


def test_finalize():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
        g.finalize()
        assert g.finalized
        with pytest.raises(RuntimeError, match="finalized"):
            tf.constant(2.0)


# -- build-time shapes and errors ------------------------------------------------------------------
def test_shapes_inferred_with_unknown_dims():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        w = tf.constant(np.ones((3, 2), np.float32))
        y = tf.nn.relu(tf.matmul(x, w) + tf.constant(np.ones(2, np.float32)))
        s = tf.reduce_sum(y, axis=1)
        m = tf.reduce_mean(y)
        u = v1.placeholder(tf.float64)  # unknown rank
        v = tf.exp(u)
    assert y.shape.as_list() == [None, 2] and y.dtype == tf.float32
    assert s.shape.as_list() == [None] and m.shape == ()
    assert v.shape.rank is None and v.dtype == tf.float64


def test_matmul_shape_error_at_build_time_names_the_op():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = v1.placeholder(tf.float32, [4, 2], name="w")
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.matmul(x, w, name="logits")
    message = str(info.value)
    assert "MatMul" in message and "logits" in message
    assert "3" in message and "4" in message


def test_broadcast_shape_error_at_build_time():
    with tf.Graph().as_default():
        a = v1.placeholder(tf.float32, [None, 3])
        b = v1.placeholder(tf.float32, [4])
        with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2"):
            a + b


def test_dtype_error_at_build_time():
    with tf.Graph().as_default():
        a = v1.placeholder(tf.float32, [2])
        b = v1.placeholder(tf.float64, [2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="float32.*float64|cast"):
            a * b


def test_no_node_is_added_when_building_fails():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        w = v1.placeholder(tf.float32, [4, 2])
        n = len(g.get_operations())
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.matmul(x, w)
    assert len(g.get_operations()) == n


def test_set_shape_refines_a_placeholder():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        x.set_shape([5, 3])
        assert x.shape.as_list() == [5, 3]
        with pytest.raises(ValueError):
            x.set_shape([5, 4])


# -- control dependencies --------------------------------------------------------------------------
def test_control_dependencies_are_recorded_and_run_first():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.float32(1.0), name="v")
        inc = v.assign_add(10.0)
        with tf.control_dependencies([inc]):
            after = v.read_value() * 1.0
            with g.control_dependencies(None):
                free = tf.constant(1.0)
        assert after.op.control_inputs == (inc.op,) and free.op.control_inputs == ()
        assert after.op.inputs[0].op.control_inputs == (inc.op,)
        with v1.Session() as sess:
            sess.run(v.initializer)
            assert sess.run(after) == 11.0
            assert sess.run(after) == 21.0
            assert sess.run(v) == 21.0


def test_control_dependency_on_an_op_runs_it():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(np.float32(0.0), name="v")
        step = v.assign_add(1.0)
        with tf.control_dependencies([step, tf.constant(0.0)]):
            marker = tf.constant(5.0) + 1.0
        with v1.Session() as sess:
            sess.run(v.initializer)
            for _ in range(3):
                assert sess.run(marker) == 6.0
            assert sess.run(v) == 3.0


# -- gradient override map -------------------------------------------------------------------------
@tf.RegisterGradient("TestGraphSquareTimesTen")
def _square_times_ten(op, grad):
    return grad * 10.0 * op.inputs[0]


def test_gradient_override_map_is_honoured():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float64, [3], name="x")
        with g.gradient_override_map({"Square": "TestGraphSquareTimesTen"}):
            y = tf.square(x)
        z = tf.square(x)
        gy, = tf.gradients(tf.reduce_sum(y), [x])
        gz, = tf.gradients(tf.reduce_sum(z), [x])
    assert y.op.gradient_override == "TestGraphSquareTimesTen"
    assert z.op.gradient_override is None
    with v1.Session(graph=g) as sess:
        xs = np.array([1.0, 2.0, -3.0])
        a, b = sess.run([gy, gz], {x: xs})
    np.testing.assert_allclose(a, 10 * xs)
    np.testing.assert_allclose(b, 2 * xs)


def test_gradient_override_map_nests():
    g = tf.Graph()
    with g.as_default():
        with g.gradient_override_map({"Square": "A"}):
            with g.gradient_override_map({"Exp": "B"}):
                assert g._override_map == {"Square": "A", "Exp": "B"}
            assert g._override_map == {"Square": "A"}
        assert g._override_map == {}


# -- collections -----------------------------------------------------------------------------------
def test_collections():
    g = tf.Graph()
    with g.as_default():
        a = tf.Variable(1.0, name="a")
        with tf.name_scope("s"):
            b = tf.Variable(2.0, name="b", trainable=False)
        g.add_to_collection("losses", tf.constant(1.0))
    assert g.get_collection("variables") == [a, b]
    assert g.get_collection("trainable_variables") == [a]
    assert g.get_collection("variables", scope="s") == [b]
    assert len(g.get_collection("losses")) == 1 and g.get_collection("nothing") == []


# -- seeing the graph ------------------------------------------------------------------------------
def _small_graph_with_gradients():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.ones((3, 1), np.float32), name="w")
        loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)), name="loss")
        gw, = tf.gradients(loss, [w])
        v1.global_variables_initializer()
    return g, gw


def test_as_graph_def_is_plain_data():
    g, gw = _small_graph_with_gradients()
    gd = g.as_graph_def()
    names = [n.name for n in gd.node]
    assert all(op.name in names for op in g.get_operations())
    nodes = {n.name: n for n in gd.node}
    assert nodes["x"].op == "Placeholder"
    assert nodes["x"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert nodes["MatMul"].input == ["x", "w/read"]  # TensorFlow's names: output 0 unsuffixed
    assert nodes["init"].input == ["^w/Assign"]      # control inputs start with ^
    assert nodes["loss"].op == "Sum"
    plain = gd.as_dict()
    by_name = {n["name"]: n for n in plain["node"]}
    assert by_name["x"]["output"] == [{"dtype": "float32", "shape": [None, 3]}]
    assert by_name["w/read"]["input"] == ["w"]
    grad_nodes = [n for n in gd.node if n.name.startswith("gradients/")]
    assert grad_nodes and {"TanhGrad", "MatMul"} <= {n.op for n in grad_nodes}
    assert gw.op.name.startswith("gradients/")
    assert _is_plain(plain)


def _is_plain(obj):
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif not (item is None or isinstance(item, (str, int, float, bool))):
            return False
    return True


def test_graph_def_summarizes_big_constants():
    g = tf.Graph()
    with g.as_default():
        tf.constant(np.zeros((10, 10)), name="big")
        tf.constant([1.0, 2.0], name="small")
    nodes = {n.name: n for n in graph_def(g).node}
    assert nodes["small"].attr["value"] == [1.0, 2.0]
    assert "10, 10" in nodes["big"].attr["value"]


def test_describe_lists_every_op_including_gradient_nodes():
    g, _ = _small_graph_with_gradients()
    text = describe(g)
    lines = text.splitlines()
    assert len(lines) == len(g.get_operations())
    assert lines[0] == "x = Placeholder() -> float32[None, 3]"
    assert "MatMul = MatMul(x, w/read) -> float32[None, 1]" in lines
    assert any(line.startswith("gradients/") and "TanhGrad(" in line for line in lines)
    assert any(line.startswith("init = NoOp()") and "w/Assign" in line for line in lines)


def test_disable_eager_execution_builds_in_the_default_graph():
    v1.reset_default_graph()
    v1.disable_eager_execution()
    try:
        assert not tf.executing_eagerly()
        c = tf.constant(1.0) + 1.0
        assert c.graph is tf.get_default_graph()
        with v1.Session() as sess:
            assert sess.run(c) == 2.0
    finally:
        v1.enable_eager_execution()
    assert tf.executing_eagerly() and state.graph is None
    assert float(tf.constant(1.0) + 1.0) == 2.0
