"""TensorFlow's GraphDef, NodeDef, AttrValue and MetaGraphDef messages
(wengert/framework/protos/graph.py, meta_graph.py) and `Graph.as_graph_def()`
(wengert/graph/graph_def.py, node_defs.py): bytes TensorFlow 2.21 wrote read and written back
byte for byte, text format as TensorFlow prints it, and a wengert graph written as a GraphDef
that TensorFlow imports and runs to the same numbers. The fixtures and TensorFlow's outputs are
in tests/fixtures/graph_defs/ (write_graph_defs.py writes them), so CI checks them without
TensorFlow."""
import os
import subprocess
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError
from wengert.framework.protos.graph import AttrValue, GraphDef, NameAttrList, NodeDef
from wengert.framework.protos.meta_graph import MetaGraphDef

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "graph_defs")
sys.path.insert(0, HERE)
import mlp_graph  # noqa: E402

v1 = tf.compat.v1


def _read(name):
    with open(os.path.join(HERE, name), "rb") as f:
        return f.read()


def _expected():
    return dict(np.load(os.path.join(HERE, "expected.npz")))


def _wengert_graph():
    graph = tf.Graph()
    with graph.as_default():
        tensors = mlp_graph.build(tf)
    return graph, tensors


@pytest.mark.parametrize("name,cls", [("tf_mlp.pb", GraphDef), ("tf_mlp_frozen.pb", GraphDef),
                                      ("tf_meta_graph.pb", MetaGraphDef)])
def test_tensorflow_bytes_round_trip_byte_for_byte(name, cls):
    data = _read(name)
    message = cls.FromString(data)
    assert message.SerializeToString() == data
    assert not message.UnknownFields()
    again = cls()
    assert again.ParseFromString(data) == len(data) and again == message


def test_text_format_prints_what_tensorflow_prints():
    message = GraphDef.FromString(_read("tf_mlp.pb"))
    text = _read("tf_mlp.pbtxt").decode()
    # TensorFlow prints a map's entries in a per-process hash order: compare the lines
    assert sorted(str(message).splitlines()) == sorted(text.splitlines())
    assert "type: DT_FLOAT" in str(message)


def test_tensorflow_graph_def_fields_read_as_tensorflow_reads_them():
    gd = v1.GraphDef.FromString(_read("tf_mlp.pb"))
    nodes = {n.name: n for n in gd.node}
    x = nodes["x"]
    assert x.op == "Placeholder" and x.attr["dtype"].type == tf.float32.as_datatype_enum
    assert [d.size for d in x.attr["shape"].shape.dim] == [-1, 4]
    matmul = nodes["dense1/MatMul"]
    assert matmul.attr["transpose_a"].b is False and matmul.attr["T"].WhichOneof("value") == "type"
    assert list(nodes["probs"].input) == ["dense2/MatMul"]
    assert gd.versions.producer > 0


def test_messages_build_as_protobuf_builds_them():
    node = NodeDef(name="a", op="Const", input=["b", "^c"])
    node.attr["list"].list.i.extend([1, 2])
    node.attr["f"].func.CopyFrom(NameAttrList(name="fn", attr={"k": AttrValue(i=3)}))
    gd = GraphDef(node=[node])
    gd.versions.producer = 7
    back = GraphDef.FromString(gd.SerializeToString())
    assert back == gd and back.node[0].attr["f"].func.attr["k"].i == 3
    assert back.node[0].attr["list"].WhichOneof("value") == "list"
    meta = MetaGraphDef(graph_def=gd)
    meta.meta_info_def.tags.append("serve")
    meta.collection_def["c"].node_list.value.append("a:0")
    assert MetaGraphDef.FromString(meta.SerializeToString()) == meta


def test_corrupt_bytes_are_data_loss():
    data = _read("tf_mlp.pb")
    with pytest.raises(DataLossError):
        GraphDef.FromString(data[:-7])
    with pytest.raises(DataLossError):
        GraphDef.FromString(b"\x0a\xff\xff\xff\x0f")


def test_as_graph_def_is_a_protobuf_and_plain_data():
    graph, _ = _wengert_graph()
    gd = graph.as_graph_def()
    assert isinstance(gd, v1.GraphDef)
    nodes = {n.name: n for n in gd.node}
    assert nodes["dense1/MatMul"].op == "MatMul" and nodes["probs"].op == "Softmax"
    assert list(nodes["mean"].input) == ["probs", "mean/reduction_indices"]
    assert nodes["mean"].attr["keep_dims"].b is False
    assert nodes["label"].attr["DstT"].type == tf.float32.as_datatype_enum
    assert nodes["dense1/kernel"].op == "VarHandleOp"
    assert v1.GraphDef.FromString(gd.SerializeToString()) == gd
    plain = gd.as_dict()
    assert {n["name"] for n in plain["node"]} == {op.name for op in graph.get_operations()}
    shaped = graph.as_graph_def(add_shapes=True)
    shapes = {n.name: n.attr["_output_shapes"].list.shape for n in shaped.node}
    assert [d.size for d in shapes["x"][0].dim] == [-1, 4]
    assert len(graph.as_graph_def(from_version=graph.version).node) == 0


def test_wengert_graph_def_is_the_checked_in_one():
    """wengert_mlp.pb is what TensorFlow ran (expected.npz); regenerate both if this changes:
    write the file from this graph, then run write_graph_defs.py with TensorFlow."""
    graph, _ = _wengert_graph()
    data = graph.as_graph_def().SerializeToString()
    path = os.path.join(HERE, "wengert_mlp.pb")
    if os.environ.get("WENGERT_WRITE_GRAPH_FIXTURES"):
        with open(path, "wb") as f:
            f.write(data)
    assert data == _read("wengert_mlp.pb")


def test_tensorflow_ran_wengert_graph_def_to_wengert_numbers():
    expected = _expected()
    graph, t = _wengert_graph()
    with v1.Session(graph=graph) as sess:
        sess.run(t["init"])
        ours = sess.run([t[k] for k in mlp_graph.OUTPUTS], {t["x"]: mlp_graph.X})
    for key, value in zip(mlp_graph.OUTPUTS, ours):
        np.testing.assert_allclose(value, expected[f"wengert_in_tf_{key}"], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(value, expected[f"tf_{key}"], rtol=1e-6, atol=1e-6)


def test_tensorflow_imports_wengert_graph_def_live(tmp_path):
    python = os.environ.get("TF_PYTHON", "/work/tfvenv/bin/python")
    if not os.path.exists(python):
        pytest.skip("TensorFlow is not installed here (its answers are in expected.npz)")
    graph, _ = _wengert_graph()
    path = tmp_path / "g.pb"
    path.write_bytes(graph.as_graph_def().SerializeToString())
    script = ("import sys, numpy as np, tensorflow as tf; v1 = tf.compat.v1; "
              "v1.disable_eager_execution(); "
              "tf.import_graph_def(v1.GraphDef.FromString(open(sys.argv[1], 'rb').read()), name='');"
              "s = v1.Session(); s.run('init'); "
              "print(s.run('total:0', {'x:0': np.linspace(-2, 2, 20).reshape(5, 4)}))")
    done = subprocess.run([python, "-c", script, str(path)], capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout.split()[-1]) == pytest.approx(float(_expected()["tf_total"]),
                                                           rel=1e-5)


def test_type_attributes_follow_tensorflows_op_definitions():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 4, 4, 2], name="x")
        scale = tf.constant([1.0, 2.0])
        y, _, _ = v1.nn.fused_batch_norm(x, scale, scale, mean=scale, variance=scale,
                                         is_training=False)
        tf.concat([y, y, y], axis=3, name="cat")
        tf.cast(tf.shape(x), tf.float32, name="shape_f")
    nodes = {n.name: n for n in graph.as_graph_def().node}
    float32 = tf.float32.as_datatype_enum
    bn = nodes[y.op.name]
    assert bn.attr["T"].type == float32 and bn.attr["U"].type == float32
    assert nodes["cat"].attr["N"].i == 3 and nodes["cat"].attr["Tidx"].type == \
        tf.int32.as_datatype_enum
    assert nodes["shape_f"].attr["SrcT"].type == tf.int32.as_datatype_enum
    assert nodes["shape_f"].attr["DstT"].type == float32


def _wengert_cnn():
    import cnn_graph
    graph = tf.Graph()
    with graph.as_default():
        tensors = cnn_graph.build(tf)
    return cnn_graph, graph, tensors


def test_wengert_cnn_graph_def_runs_in_tensorflow_to_its_numbers():
    """wengert_cnn.pb (checked in, as this graph writes it) ran in TensorFlow to expected.npz's
    wengert_in_tf_cnn_* (write_graph_defs.py), which equal TensorFlow's own cnn_*."""
    cnn_graph, graph, t = _wengert_cnn()
    data = graph.as_graph_def().SerializeToString()
    path = os.path.join(HERE, "wengert_cnn.pb")
    if os.environ.get("WENGERT_WRITE_GRAPH_FIXTURES"):
        with open(path, "wb") as f:
            f.write(data)
    assert data == _read("wengert_cnn.pb")
    expected = _expected()
    with v1.Session(graph=graph) as sess:
        sess.run(t["init"])
        ours = sess.run([t[k] for k in cnn_graph.OUTPUTS], {t["x"]: cnn_graph.X})
    for key, value in zip(cnn_graph.OUTPUTS, ours):
        np.testing.assert_allclose(expected[f"wengert_in_tf_cnn_{key}"], expected[f"cnn_{key}"],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(value, expected[f"cnn_{key}"], rtol=1e-5, atol=1e-6)
