"""The object graph of a checkpoint: what a restore does with a saved graph that does not match
the live objects, or that is corrupted (errors raised before anything is assigned)."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, InvalidArgumentError
from wengert.framework.protos.trackable_object_graph import TrackableObjectGraph
from wengert.saved_model import checkpoint_format
from wengert.train import object_graph

KEY = "/.ATTRIBUTES/VARIABLE_VALUE"


class Pair(tf.Module):
    def __init__(self, a=0.0, b=0.0):
        super().__init__()
        self.a = tf.Variable(np.full((2,), a, np.float32))
        self.b = tf.Variable(np.float32(b))


def graph_of(path):
    raw = tf.train.load_variable(path, object_graph.OBJECT_GRAPH_KEY)
    return TrackableObjectGraph.FromString(np.asarray(raw).item())


def test_the_saved_graph_names_children_and_keys(tmp_path):
    path = tf.train.Checkpoint(model=Pair(1.0, 2.0)).write(str(tmp_path / "c"))
    graph = graph_of(path)
    root, model = graph.nodes[0], graph.nodes[graph.nodes[0].children[0].node_id]
    assert [c.local_name for c in root.children] == ["model", "save_counter"]
    assert [c.local_name for c in model.children] == ["a", "b"]
    keys = [a.checkpoint_key for node in graph.nodes for a in node.attributes]
    assert keys == ["save_counter" + KEY, "model/a" + KEY, "model/b" + KEY]
    assert all(node.has_checkpoint_values.value for node in graph.nodes)


def test_names_with_dots_and_slashes_are_escaped_in_keys(tmp_path):
    class Odd:
        def __init__(self):
            self.v = tf.Variable(1.0)

        def _checkpoint_children(self):
            return {"x.y": self.v}
    path = tf.train.Checkpoint(odd=Odd()).write(str(tmp_path / "c"))
    assert tf.train.load_checkpoint(path).has_tensor("odd/x..y" + KEY)
    fresh = Odd()
    fresh.v.assign(0.0)
    tf.train.Checkpoint(odd=fresh).restore(path).assert_consumed()
    assert float(fresh.v.numpy()) == 1.0


def test_a_restore_matches_through_the_graph_not_the_keys(tmp_path):
    shared = tf.Variable([3.0, 4.0])
    holder = tf.Module()
    holder.first, holder.again = shared, shared  # one variable, two paths: saved once
    path = tf.train.Checkpoint(m=holder).write(str(tmp_path / "c"))
    names = [n for n, _ in tf.train.list_variables(path)]
    assert names == [object_graph.OBJECT_GRAPH_KEY, "m/first" + KEY, "save_counter" + KEY]
    other = tf.Module()
    other.again = tf.Variable([0.0, 0.0])  # reached only by the path the key does not spell
    tf.train.Checkpoint(m=other).restore(path).assert_consumed()
    assert other.again.numpy().tolist() == [3.0, 4.0]


def test_a_mismatched_model_changes_nothing(tmp_path):
    path = tf.train.Checkpoint(model=Pair(1.0, 2.0)).write(str(tmp_path / "c"))
    other = Pair(5.0, 6.0)
    other.a = tf.Variable(np.zeros((3,), np.float32))
    with pytest.raises(InvalidArgumentError, match="model/a/.ATTRIBUTES/VARIABLE_VALUE'.*shape"):
        tf.train.Checkpoint(model=other).restore(path)
    assert float(other.b.numpy()) == 6.0
    status = tf.train.Checkpoint(model=tf.Module()).restore(path)
    with pytest.raises(AssertionError, match="not created yet: model/a"):
        status.assert_consumed()


def test_a_corrupted_object_graph_is_data_loss(tmp_path):
    path = str(tmp_path / "c")
    checkpoint_format._write_checkpoint(path, {
        "model/a" + KEY: np.zeros(2, np.float32),
        object_graph.OBJECT_GRAPH_KEY: np.array(b"\x0a\xff\xff", dtype=object)})
    fresh = Pair(7.0)
    with pytest.raises(DataLossError, match="object graph is corrupted"):
        tf.train.Checkpoint(model=fresh).restore(path)
    assert fresh.a.numpy().tolist() == [7.0, 7.0]


def test_node_ids_out_of_range_are_ignored(tmp_path):
    graph = TrackableObjectGraph()
    root = graph.nodes.add()
    root.children.add(node_id=5, local_name="model")
    root.children.add(node_id=1, local_name="v")
    graph.nodes.add().attributes.add(name="VARIABLE_VALUE", checkpoint_key="v" + KEY)
    path = str(tmp_path / "c")
    checkpoint_format._write_checkpoint(path, {
        "v" + KEY: np.float32(4.0),
        object_graph.OBJECT_GRAPH_KEY: np.array(graph.SerializeToString(), dtype=object)})
    v = tf.Variable(0.0)
    status = tf.train.Checkpoint(v=v).restore(path)
    assert float(v.numpy()) == 4.0
    with pytest.raises(AssertionError, match="save_counter"):
        status.assert_consumed()
