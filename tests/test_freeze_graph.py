"""Freezing and the other graph_util tools (wengert/tf1/graph_util.py) against what TensorFlow
2.21 gives on the same GraphDefs (tests/fixtures/graph_defs/graph_util.json, tf_mlp_frozen.pb):
convert_variables_to_constants, extract_sub_graph, remove_training_nodes, must_run_on_cpu,
tensor_shape_from_node_def_name, and write_graph in text and binary."""
import json
import os
import sys

import numpy as np
import pytest

import wengert as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "graph_defs")
sys.path.insert(0, HERE)
import mlp_graph  # noqa: E402

v1 = tf.compat.v1
util = v1.graph_util


def _graph_def(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return v1.GraphDef.FromString(f.read())


def _answers():
    with open(os.path.join(HERE, "graph_util.json")) as f:
        return json.load(f)


def _nodes(graph_def):
    return [[n.name, n.op, list(n.input)] for n in graph_def.node]


@pytest.fixture(scope="module")
def trained():
    graph = tf.Graph()
    with graph.as_default():
        t = mlp_graph.build(tf)
        sess = v1.Session()
        sess.run(t["init"])
    yield graph, sess
    sess.close()


def test_freezing_gives_tensorflows_constants(trained):
    graph, sess = trained
    frozen = util.convert_variables_to_constants(sess, graph.as_graph_def(),
                                                 list(mlp_graph.OUTPUTS))
    theirs = {n.name: n for n in _graph_def("tf_mlp_frozen.pb").node}
    ours = {n.name: n for n in frozen.node}
    for name in ("dense1/kernel", "dense1/bias", "dense2/kernel"):
        assert ours[name] == theirs[name]  # the same Const node, byte for byte
    assert not {n.op for n in frozen.node} & {"VarHandleOp", "ReadVariableOp",
                                               "AssignVariableOp"}
    assert sorted(n.op for n in frozen.node if n.op != "Const") == sorted(
        n.op for n in theirs.values() if n.op != "Const")


def test_frozen_graph_runs_without_variables(trained, tmp_path):
    graph, sess = trained
    frozen = util.convert_variables_to_constants(sess, graph.as_graph_def(), ["probs"])
    path = v1.train.write_graph(frozen, str(tmp_path / "out"), "frozen.pb", as_text=False)
    with open(path, "rb") as f:
        read = v1.GraphDef.FromString(f.read())
    assert read == frozen
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 4])
        probs, = v1.import_graph_def(read, input_map={"x:0": x}, return_elements=["probs:0"])
        with v1.Session() as fresh:
            np.testing.assert_allclose(fresh.run(probs, {x: mlp_graph.X}),
                                       np.load(os.path.join(HERE, "expected.npz"))["tf_probs"],
                                       rtol=1e-5)


def test_whitelist_and_blacklist_choose_variables(trained):
    graph, sess = trained
    gd = graph.as_graph_def()
    only = util.convert_variables_to_constants(sess, gd, ["probs"],
                                               variable_names_whitelist=["dense1/kernel"])
    ops = {n.name: n.op for n in only.node}
    assert ops["dense1/kernel"] == "Const" and ops["dense1/bias"] == "VarHandleOp"
    but = util.convert_variables_to_constants(sess, gd, ["probs"],
                                              variable_names_blacklist=["dense2/kernel"])
    ops = {n.name: n.op for n in but.node}
    assert ops["dense2/kernel"] == "VarHandleOp" and ops["dense1/bias"] == "Const"
    with pytest.raises(AssertionError, match="nope is not in graph"):
        util.convert_variables_to_constants(sess, gd, ["nope"])


def test_extract_sub_graph_and_remove_training_nodes_as_tensorflow():
    answers = _answers()
    gd = _graph_def("tf_mlp.pb")
    assert _nodes(util.extract_sub_graph(gd, ["mean"])) == answers["sub_graph_mean"]
    assert _nodes(util.extract_sub_graph(gd, ["init"])) == answers["sub_graph_init"]
    frozen = _graph_def("tf_mlp_frozen.pb")
    assert _nodes(util.remove_training_nodes(frozen)) == \
        answers["frozen_without_training_nodes"]
    assert _nodes(util.remove_training_nodes(
        frozen, protected_nodes=["dense1/MatMul/ReadVariableOp"])) == answers["protected"]
    assert {n.name: util.must_run_on_cpu(n) for n in frozen.node} == \
        answers["must_run_on_cpu"]
    with pytest.raises(TypeError, match="dest_nodes must be an iterable of strings"):
        util.extract_sub_graph(gd, "mean")
    with pytest.raises(TypeError, match="must be a graph_pb2.GraphDef proto"):
        util.extract_sub_graph(b"", ["mean"])


def test_shapes_and_text_files(trained, tmp_path):
    graph, _ = trained
    assert util.tensor_shape_from_node_def_name(graph, "dense1/MatMul").as_list() == [None, 3]
    path = tf.io.write_graph(graph, str(tmp_path), "graph.pbtxt")
    text = open(path).read()
    assert 'op: "MatMul"' in text and "type: DT_FLOAT" in text
    assert path == os.path.join(str(tmp_path), "graph.pbtxt")
