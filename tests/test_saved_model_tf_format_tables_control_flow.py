"""tf.saved_model.save writes tf.lookup tables used inside control flow in TensorFlow's form: a
table a cond branch, a switch_case branch, a while_loop body or an AutoGraph `for` loop looks up
(or inserts into) is passed into the If, Case or While node as one more DT_RESOURCE input, after
the variables' handles, as TensorFlow 2.21 passes a captured table, and each branch or body
function takes it as a "table_handle" argument its table nodes use. TensorFlow 2.21 loads the
directory (`tf.saved_model.load`) and its answers equal wengert's, call after call (a loop's
inserts are seen by later calls); wengert reads the same directory back through TensorFlow's form
(saved_model.json removed). TensorFlow's answers are stored in tests/references/ for runs
without TensorFlow, and hand-checked values pin the answers themselves."""
import os
import shutil

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval_saved_model
from wengert.framework.protos.meta_graph import SavedModel

REQUIRE = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
KEYS = np.array([b"a", b"zz", b"c", b"b"])
IDS = np.array([1, 6, 7], np.int64)


class TablesInControlFlow(tf.Module):
    def __init__(self):
        super().__init__()
        self.static = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)), -1)
        self.vocab = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            ["a", "b"], tf.constant([0, 1], tf.int64)), 3)
        self.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        self.mutable.insert(tf.constant(["a"]), tf.constant([5], tf.int64))
        self.dense = tf.lookup.experimental.DenseHashTable(
            tf.int64, tf.float32, -1.0, empty_key=-2, deleted_key=-3, initial_num_buckets=8)
        self.dense.insert(tf.constant([1, 7], tf.int64), tf.constant([0.5, 2.5]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.bool)])
    def branch(self, keys, pred):
        return tf.cond(pred, lambda: self.static.lookup(keys),
                       lambda: self.vocab.lookup(keys) * 10)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.int32)])
    def loop(self, keys, n):
        acc = tf.zeros_like(self.static.lookup(keys))
        for _ in tf.range(n):
            acc = acc + self.static.lookup(keys) + tf.reshape(self.mutable.lookup(keys), [-1])
        return acc

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.int32)])
    def insert_loop(self, keys, n):
        def body(i, acc):
            self.mutable.insert(keys, acc + 1)
            return i + 1, tf.reshape(self.mutable.lookup(keys), [-1])
        zeros = tf.zeros_like(self.static.lookup(keys))
        found = tf.while_loop(lambda i, acc: i < n, body, (0, zeros))[1]
        return found, self.mutable.size()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64), tf.TensorSpec([], tf.int32)])
    def nested(self, ids, index):
        def body(j, acc):
            acc = tf.cond(j % 2 == 0, lambda: acc + tf.reshape(self.dense.lookup(ids), [-1]),
                          lambda: acc - 1.0)
            return j + 1, acc
        acc = tf.while_loop(lambda j, acc: j < 3, body, (0, tf.zeros(tf.shape(ids))))[1]
        return tf.switch_case(index, [lambda: acc, lambda: acc * self.dense.lookup(ids),
                                      lambda: self.dense.lookup(ids + 6)])


def _session(obj):
    """The calls the TensorFlow script makes, in order, on a module or a loaded one."""
    keys, ids = tf.constant(KEYS), tf.constant(IDS)
    out = {"true": obj.branch(keys, True), "false": obj.branch(keys, False),
           "loop": obj.loop(keys, 3)}
    out["found"], out["size"] = obj.insert_loop(keys, 3)
    out["loop_after"] = obj.loop(keys, 2)
    out.update({f"nested_{i}": obj.nested(ids, i) for i in range(3)})
    return {k: v.numpy() for k, v in out.items()}


TF_SESSION = """
keys, ids = tf.constant(A["keys"]), tf.constant(A["ids"])
out["true"], out["false"] = loaded.branch(keys, True), loaded.branch(keys, False)
out["loop"] = loaded.loop(keys, 3)
out["found"], out["size"] = loaded.insert_loop(keys, 3)
out["loop_after"] = loaded.loop(keys, 2)
for i in range(3):
    out[f"nested_{i}"] = loaded.nested(ids, i)
out = {k: v.numpy() for k, v in out.items()}
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """(directory, the same directory without saved_model.json, wengert's answers)."""
    folder = tmp_path_factory.mktemp("tables_control_flow")
    module = TablesInControlFlow()
    path = str(folder / "saved")
    tf.saved_model.save(module, path, options=REQUIRE)
    only_pb = str(folder / "only_pb")
    shutil.copytree(path, only_pb)
    os.remove(os.path.join(only_pb, "saved_model.json"))
    return path, only_pb, _session(module)


def _assert_same(got, want):
    assert sorted(got) == sorted(want)
    for key in sorted(want):
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)


def test_wengerts_answers_are_tensorflows(saved):
    _, _, mine = saved
    np.testing.assert_array_equal(mine["true"], [1, -1, 3, 2])
    np.testing.assert_array_equal(mine["false"], [0, 30, 30, 10])
    np.testing.assert_array_equal(mine["loop"], [18, -6, 6, 3])
    np.testing.assert_array_equal(mine["found"], [3, 3, 3, 3])
    assert int(mine["size"]) == 4
    np.testing.assert_array_equal(mine["loop_after"], [8, 4, 12, 10])
    np.testing.assert_array_equal([mine[f"nested_{i}"] for i in range(3)],
                                  [[0.0, -3.0, 4.0], [0.0, 3.0, 10.0], [2.5, -1.0, -1.0]])


def test_tensorflow_loads_tables_used_in_control_flow_and_answers_as_wengert(saved, monkeypatch):
    path, _, mine = saved
    theirs = tf_eval_saved_model(path, TF_SESSION, monkeypatch, {"keys": KEYS, "ids": IDS})
    _assert_same(theirs, mine)


def test_wengert_reads_them_back_through_tensorflows_form(saved):
    _, only_pb, mine = saved
    _assert_same(_session(tf.saved_model.load(only_pb)), mine)


def test_control_flow_nodes_take_the_tables_as_resource_inputs(saved):
    path, _, _ = saved
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        library = SavedModel.FromString(f.read()).meta_graphs[0].graph_def.library
    functions = {f.signature.name: f for f in library.function}
    nodes = [n for f in library.function for n in f.node_def]
    flows = [n for n in nodes if n.op in ("If", "Case", "While")]
    assert {n.op for n in flows} == {"If", "Case", "While"}
    for node in flows:
        types = list(node.attr["T" if node.op == "While" else "Tin"].list.type)
        callees = ([node.attr["then_branch"].func.name, node.attr["else_branch"].func.name]
                   if node.op == "If" else [f.name for f in node.attr["branches"].list.func]
                   if node.op == "Case" else [node.attr["body"].func.name])
        for name in callees:
            args = functions[name].signature.input_arg
            handles = [a for a in args if a.name.startswith("table_handle")]
            assert handles and all(a.type == 20 for a in handles), name  # DT_RESOURCE
            assert types[-len(handles):] == [20] * len(handles), node.name
            uses = [n for n in functions[name].node_def if n.op.startswith("LookupTable")]
            assert all(n.input[0] in {a.name for a in handles} for n in uses), name
