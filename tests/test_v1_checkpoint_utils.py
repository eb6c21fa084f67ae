"""Reading TF 1 checkpoints outside a Saver: NewCheckpointReader, load_variable,
init_from_checkpoint (name, scope and root maps, the errors TensorFlow raises), and
checkpoints_iterator; plus GlobalStepWaiterHook and AdamOptimizer's own scope for its
non-slot variables."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.train import (GlobalStepWaiterHook, MonitoredSession, NewCheckpointReader, Saver,
                           checkpoints_iterator, init_from_checkpoint, load_variable)


def _saved(tmp_path):
    with tf.Graph().as_default():
        with v1.variable_scope("old"):
            v1.get_variable("w", initializer=np.float32([[1.0, 2.0], [3.0, 4.0]]))
            v1.get_variable("b", initializer=np.float32([5.0, 6.0]))
        v1.get_variable("top", initializer=np.float32(7.0))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            return Saver().save(sess, str(tmp_path / "m"))


def test_reader_and_load_variable(tmp_path):
    path = _saved(tmp_path)
    reader = NewCheckpointReader(path)
    assert reader.get_variable_to_shape_map() == {"old/w": [2, 2], "old/b": [2], "top": []}
    np.testing.assert_array_equal(load_variable(str(tmp_path), "old/b:0"), [5.0, 6.0])
    assert v1.train.list_variables(path)[0] == ("old/b", [2])


def _fresh_model():
    with v1.variable_scope("new"):
        w = v1.get_variable("w", [2, 2], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
    top = v1.get_variable("top", [], initializer=v1.zeros_initializer())
    return w, b, top


def test_init_from_checkpoint_by_scope_name_and_variable(tmp_path):
    path = _saved(tmp_path)
    with tf.Graph().as_default():
        w, b, top = _fresh_model()
        init_from_checkpoint(path, {"old/": "new/", "top": top})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(w), [[1.0, 2.0], [3.0, 4.0]])
            np.testing.assert_array_equal(sess.run(b), [5.0, 6.0])
            assert sess.run(top) == 7.0
    with tf.Graph().as_default():
        w, b, top = _fresh_model()
        init_from_checkpoint(path, {"old/b": "new/b"})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(w), np.zeros((2, 2)))
            np.testing.assert_array_equal(sess.run(b), [5.0, 6.0])


def test_init_from_checkpoint_errors_change_nothing(tmp_path):
    path = _saved(tmp_path)
    with tf.Graph().as_default():
        w, b, top = _fresh_model()
        initializer = w.initializer
        with pytest.raises(ValueError, match="Tensor old/nothere is not found in"):
            init_from_checkpoint(path, {"old/b": "new/b", "old/nothere": "new/w"})
        with pytest.raises(ValueError, match=r"Shape of variable new/b:0 \(\(2,\)\) doesn't "
                                             r"match with shape of tensor old/w"):
            init_from_checkpoint(path, {"old/w": b})
        with pytest.raises(ValueError, match="should map to scope only old. Should be "
                                             "'scope/': 'other_scope/'"):
            init_from_checkpoint(path, {"old": "new/"})
        assert w.initializer is initializer


def test_eager_init_from_checkpoint_assigns(tmp_path):
    path = _saved(tmp_path)
    v = tf.Variable(np.zeros(2, np.float32))
    init_from_checkpoint(path, {"old/b": v})
    np.testing.assert_array_equal(v.numpy(), [5.0, 6.0])


def test_checkpoints_iterator_yields_the_latest_then_times_out(tmp_path):
    path = _saved(tmp_path)
    assert list(checkpoints_iterator(str(tmp_path), timeout=0.2)) == [path]
    calls = []
    found = list(checkpoints_iterator(str(tmp_path), timeout=0.1,
                                      timeout_fn=lambda: calls.append(1) or len(calls) > 1))
    assert found == [path] and len(calls) == 2


def test_global_step_waiter_and_adam_scope():
    with tf.Graph().as_default():
        step = v1.train.get_or_create_global_step()
        w = v1.get_variable("w", initializer=np.float32([1.0]))
        train = v1.train.AdamOptimizer(0.1, use_own_namescope_for_non_slot_vars=True).minimize(
            tf.reduce_sum(w * w), global_step=step)
        names = [v.name for v in v1.global_variables()]
        assert "Adam/beta1_power:0" in names and "Adam/beta2_power:0" in names
        with MonitoredSession(hooks=[GlobalStepWaiterHook(0)]) as sess:
            sess.run(train)


def test_meta_graph_keeps_string_constants(tmp_path):
    with tf.Graph().as_default():
        tf.constant(np.array([b"a", b"bc"], dtype=object), name="words")
        v1.get_variable("v", initializer=np.float32(1.0))
        v1.train.export_meta_graph(str(tmp_path / "g.meta"))
    with tf.Graph().as_default() as graph:
        v1.train.import_meta_graph(str(tmp_path / "g.meta"))
        with v1.Session() as sess:
            assert list(sess.run(graph.get_tensor_by_name("words:0"))) == [b"a", b"bc"]


def test_session_manager_prepares_recovers_and_checks_readiness(tmp_path):
    from wengert.train import SessionManager
    path = _saved(tmp_path)
    with tf.Graph().as_default():
        w, b, top = _fresh_model()
        ready = v1.report_uninitialized_variables()
        manager = SessionManager(ready_op=ready)
        with pytest.raises(RuntimeError, match="Init operations did not make model ready.*"
                                               "new/b, top"):
            manager.prepare_session("", init_op=v1.variables_initializer([w]))
        sess = manager.prepare_session("", init_op=v1.global_variables_initializer())
        assert sess.run(top) == 0.0
        sess, restored = manager.recover_session("", saver=Saver({"top": top}),
                                                 checkpoint_dir=str(tmp_path))
        assert not restored  # only `top` was restored: new/w and new/b are not ready
        saver = Saver({"old/w": w, "old/b": b, "top": top})
        sess, restored = manager.recover_session("", saver=saver, checkpoint_dir=str(tmp_path))
        assert restored and sess.run(top) == 7.0
        with pytest.raises(ValueError, match="Can not provide both checkpoint_dir and"):
            manager.prepare_session("", checkpoint_dir=str(tmp_path),
                                    checkpoint_filename_with_path=path)


def test_replica_device_setter_without_parameter_servers():
    assert v1.train.replica_device_setter() is None
    with tf.device(v1.train.replica_device_setter(ps_tasks=0)):
        assert tf.constant(1.0).numpy() == 1.0
    with pytest.raises(tf.errors.UnimplementedError, match="ps_tasks=2"):
        v1.train.replica_device_setter(ps_tasks=2)
