"""tf.saved_model.load of a SavedModel TensorFlow 2.21 wrote whose functions use tf.lookup tables
inside control flow (tests/fixtures/saved_model_tf2/tables_control_flow, write_fixtures.py):
TensorFlow passes each table's handle into the If, Case and While nodes as a DT_RESOURCE input
and each branch or body function looks it up there. wengert binds those inputs to the restored
tables (a StaticHashTable, a StaticVocabularyTable, a MutableHashTable the loop inserts into, a
DenseHashTable looked up in a cond nested in a while and in a switch_case) and returns
TensorFlow's answers, held here as literals (TensorFlow's run of the same calls on the same
fixture). An op wengert lacks inside a loop body is still named, with its node, before anything
runs."""
import os
import shutil

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import NotFoundError
from wengert.framework.protos.meta_graph import SavedModel

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "saved_model_tf2",
                    "tables_control_flow")
KEYS = ["a", "zz", "c", "b"]
IDS = np.array([1, 6, 7], np.int64)


@pytest.fixture()
def loaded():
    return tf.saved_model.load(HERE)


def test_a_cond_looks_up_static_and_vocabulary_tables(loaded):
    keys = tf.constant(KEYS)
    np.testing.assert_array_equal(loaded.branch(keys, True).numpy(), [1, -1, 3, 2])
    np.testing.assert_array_equal(loaded.branch(keys, False).numpy(), [0, 30, 30, 10])


def test_an_autograph_for_loop_looks_up_tables_each_iteration(loaded):
    np.testing.assert_array_equal(loaded.loop(tf.constant(KEYS), 3).numpy(), [18, -6, 6, 3])


def test_a_while_loop_inserts_into_a_mutable_table_and_later_calls_see_it(loaded):
    keys = tf.constant(KEYS)
    found, size = loaded.insert_loop(keys, 3)
    np.testing.assert_array_equal(found.numpy(), [3, 3, 3, 3])
    assert int(size) == 4
    np.testing.assert_array_equal(loaded.loop(keys, 2).numpy(), [8, 4, 12, 10])


def test_a_cond_nested_in_a_while_and_a_switch_case_look_up_a_dense_table(loaded):
    got = [loaded.nested(tf.constant(IDS), i).numpy() for i in range(3)]
    np.testing.assert_array_equal(got, [[0.0, -3.0, 4.0], [0.0, 3.0, 10.0], [2.5, -1.0, -1.0]])


def test_an_op_wengert_lacks_in_a_loop_body_names_the_op_and_its_node(tmp_path):
    path = str(tmp_path / "edited")
    shutil.copytree(HERE, path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        model = SavedModel.FromString(f.read())
    body = next(f for f in model.meta_graphs[0].graph_def.library.function
                if "while_body" in f.signature.name and
                any(n.op == "LookupTableInsertV2" for n in f.node_def))
    node = next(n for n in body.node_def if n.op == "LookupTableInsertV2")
    node.op = "NoSuchTableOp"
    with open(os.path.join(path, "saved_model.pb"), "wb") as f:
        f.write(model.SerializeToString())
    with pytest.raises(NotFoundError, match=f"node '{node.name}' of function "
                                            f"'{body.signature.name}' has op type "
                                            "'NoSuchTableOp'"):
        tf.saved_model.load(path)
