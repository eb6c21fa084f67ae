"""`tf.compat.v1.import_graph_def` (wengert/graph/graph_import.py): GraphDefs TensorFlow 2.21
wrote (tests/fixtures/graph_defs/, binary .pb: a frozen graph and one with resource variables)
and GraphDefs wengert wrote, rebuilt under a name prefix and run to TensorFlow's numbers
(expected.npz); input_map, return_elements, nodes in any order, and bad input raising
TensorFlow's error classes with what its messages say, before any op is made."""
import os
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import NotFoundError

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "graph_defs")
sys.path.insert(0, HERE)
import mlp_graph  # noqa: E402

v1 = tf.compat.v1
OUTPUTS = [f"{k}:0" for k in mlp_graph.OUTPUTS]


def _graph_def(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return v1.GraphDef.FromString(f.read())


def _expected():
    return dict(np.load(os.path.join(HERE, "expected.npz")))


def _check(values):
    expected = _expected()
    for key, value in zip(mlp_graph.OUTPUTS, values):
        np.testing.assert_allclose(value, expected[f"tf_{key}"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["tf_mlp_frozen.pb", "tf_mlp.pb", "wengert_mlp.pb"])
def test_graph_defs_import_and_run_to_tensorflow_numbers(name):
    graph = tf.Graph()
    with graph.as_default():
        outs = v1.import_graph_def(_graph_def(name), return_elements=OUTPUTS)
        assert [t.name for t in outs] == [f"import/{k}" for k in OUTPUTS]
        assert graph.get_tensor_by_name("import/probs:0") is outs[0]
        with v1.Session() as sess:
            if name != "tf_mlp_frozen.pb":
                sess.run("import/init")
            _check(sess.run(outs, {"import/x:0": mlp_graph.X}))


def test_input_map_replaces_a_tensor_and_return_elements_give_ops():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 4], name="features")
        probs, placeholder, matmul = tf.graph_util.import_graph_def(
            _graph_def("tf_mlp_frozen.pb"), input_map={"x": x},
            return_elements=["probs:0", "x", "dense1/MatMul"], name="model")
        assert probs.name == "model/probs:0" and placeholder.name == "model/x"
        assert matmul.type == "MatMul" and matmul.inputs[0] is x
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(probs, {x: mlp_graph.X}),
                                       _expected()["tf_probs"], rtol=1e-5)


def test_prefixes_are_uniquified_and_empty_name_imports_at_the_root():
    graph = tf.Graph()
    with graph.as_default():
        gd = _graph_def("tf_mlp_frozen.pb")
        a, = v1.import_graph_def(gd, return_elements=["probs:0"])
        b, = v1.import_graph_def(gd, return_elements=["probs:0"])
        c, = v1.import_graph_def(gd, return_elements=["probs:0"], name="")
    assert (a.name, b.name, c.name) == ("import/probs:0", "import_1/probs:0", "probs:0")


def test_nodes_in_any_order_are_sorted_without_recursion():
    gd = _graph_def("tf_mlp_frozen.pb")
    shuffled = v1.GraphDef()
    shuffled.node.extend(reversed(list(gd.node)))
    graph = tf.Graph()
    with graph.as_default():
        probs, = v1.import_graph_def(shuffled, return_elements=["probs:0"])
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(probs, {"import/x:0": mlp_graph.X}),
                                       _expected()["tf_probs"], rtol=1e-5)
    chain = v1.GraphDef()
    with tf.Graph().as_default() as g:
        t = tf.constant(1.0, name="c0")
        for i in range(1, 3000):
            t = tf.identity(t, name=f"c{i}")
    chain.node.extend(reversed(list(g.as_graph_def().node)))
    with tf.Graph().as_default():
        last, = v1.import_graph_def(chain, return_elements=["c2999:0"])
        with v1.Session() as sess:
            assert sess.run(last) == 1.0


def test_wengert_round_trip_through_bytes():
    graph = tf.Graph()
    with graph.as_default():
        t = mlp_graph.build(tf)
    data = graph.as_graph_def().SerializeToString()
    with tf.Graph().as_default():
        outs = v1.import_graph_def(v1.GraphDef.FromString(data), return_elements=OUTPUTS,
                                   name="copy")
        with v1.Session() as sess:
            sess.run("copy/init")
            _check(sess.run(outs, {"copy/x:0": mlp_graph.X}))
    assert t["probs"].name == "probs:0"


def _unchanged(graph, call, error, match):
    count = len(graph.get_operations())
    with pytest.raises(error, match=match):
        call()
    assert len(graph.get_operations()) == count


def test_bad_input_raises_tensorflow_errors_before_any_op_is_made():
    graph = tf.Graph()
    gd = _graph_def("tf_mlp_frozen.pb")
    with graph.as_default():
        one = tf.constant(1.0)
        _unchanged(graph, lambda: v1.import_graph_def(gd, input_map={"nope:0": one}),
                   ValueError, r"Attempted to map inputs that were not found in graph_def: "
                               r"\[nope:0\]")
        _unchanged(graph, lambda: v1.import_graph_def(gd, return_elements=["nope:0"]),
                   ValueError, "Requested return tensor 'nope:0' not found in graph def")
        _unchanged(graph, lambda: v1.import_graph_def(gd, return_elements=["nope"]),
                   ValueError, "Requested return node 'nope' not found in graph def")
        _unchanged(graph, lambda: v1.import_graph_def(gd, return_elements=["probs:3"]),
                   ValueError, "Invalid return output 3 of node 'probs', which has 1 output")
        _unchanged(graph, lambda: v1.import_graph_def(b"\x0a\x01"), TypeError,
                   "must be a GraphDef proto")
        _unchanged(graph, lambda: v1.import_graph_def(gd, input_map=[1]), TypeError,
                   "must be a dictionary")
        unknown = v1.GraphDef()
        unknown.CopyFrom(gd)
        unknown.node[4].op = "FooBarOp"
        _unchanged(graph, lambda: v1.import_graph_def(unknown), NotFoundError,
                   "node 'dense1/MatMul' has op type 'FooBarOp'.*Op type not registered")
        dangling = v1.GraphDef()
        dangling.CopyFrom(gd)
        dangling.node[3].input.append("missing")
        _unchanged(graph, lambda: v1.import_graph_def(dangling), ValueError,
                   "Node 'dense1/MatMul/ReadVariableOp': Unknown input node 'missing'")
        cycle = v1.GraphDef()
        cycle.node.add(name="a", op="Identity", input=["b"]).attr["T"].type = 1
        cycle.node.add(name="b", op="Identity", input=["a"]).attr["T"].type = 1
        _unchanged(graph, lambda: v1.import_graph_def(cycle), ValueError, "cycle")


def test_tensorflow_frozen_cnn_imports_and_runs():
    import cnn_graph
    expected = _expected()
    with tf.Graph().as_default():
        outs = v1.import_graph_def(_graph_def("tf_cnn_frozen.pb"),
                                   return_elements=[f"{k}:0" for k in cnn_graph.OUTPUTS])
        with v1.Session() as sess:
            values = sess.run(outs, {"import/images:0": cnn_graph.X})
    for key, value in zip(cnn_graph.OUTPUTS, values):
        np.testing.assert_allclose(value, expected[f"cnn_{key}"], rtol=1e-5, atol=1e-6)
