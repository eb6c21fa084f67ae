"""tf.compat.v1.train.Saver and its state file, checked against what TensorFlow 2.21's Saver
does with the same calls (file names, the state file, kept checkpoints, errors), and meta graphs
exported and imported into a fresh graph."""
import os

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from wengert.framework.errors import InvalidArgumentError, NotFoundError
from wengert.train import (Saver, checkpoint_exists, export_meta_graph, get_checkpoint_state,
                           import_meta_graph, latest_checkpoint, list_variables)


def _model():
    with v1.variable_scope("dense"):
        w = v1.get_variable("kernel", [2, 3], initializer=v1.ones_initializer())
        b = v1.get_variable("bias", [3], initializer=v1.zeros_initializer())
    return w, b


def test_save_with_global_step_keeps_max_to_keep_and_writes_the_state_file(tmp_path):
    with tf.Graph().as_default():
        _model()
        step = v1.train.get_or_create_global_step()
        saver = Saver(max_to_keep=2)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            paths = []
            for _ in range(3):
                paths.append(saver.save(sess, str(tmp_path / "m.ckpt"), global_step=step))
                sess.run(step.assign_add(1))
    assert paths == [str(tmp_path / f"m.ckpt-{i}") for i in range(3)]
    assert saver.last_checkpoints == paths[1:]
    assert sorted(os.listdir(tmp_path)) == [
        "checkpoint", "m.ckpt-1.data-00000-of-00001", "m.ckpt-1.index", "m.ckpt-1.meta",
        "m.ckpt-2.data-00000-of-00001", "m.ckpt-2.index", "m.ckpt-2.meta"]
    text = (tmp_path / "checkpoint").read_text().splitlines()
    assert text[:3] == [f'model_checkpoint_path: "{paths[2]}"',
                        f'all_model_checkpoint_paths: "{paths[1]}"',
                        f'all_model_checkpoint_paths: "{paths[2]}"']
    assert latest_checkpoint(str(tmp_path)) == paths[2]
    state = get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == paths[1:]
    assert list_variables(paths[2]) == [("dense/bias", [3]), ("dense/kernel", [2, 3]),
                                        ("global_step", [])]


def test_latest_filename_and_no_meta_graph(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "x"), latest_filename="other",
                              write_meta_graph=False, global_step=7)
            with pytest.raises(ValueError, match="must not contain path components"):
                saver.save(sess, str(tmp_path / "x"), latest_filename="a/b")
            with pytest.raises(ValueError, match="Parent directory of .* doesn't exist"):
                saver.save(sess, str(tmp_path / "no" / "m"))
            with pytest.raises(TypeError, match="'sess' must be a Session"):
                saver.save("notasession", str(tmp_path / "x"))
    assert path == str(tmp_path / "x-7")
    assert sorted(os.listdir(tmp_path)) == ["other", "x-7.data-00000-of-00001", "x-7.index"]
    assert latest_checkpoint(str(tmp_path)) is None
    assert latest_checkpoint(str(tmp_path), "other") == path


def _trained_values(tmp_path):
    with tf.Graph().as_default():
        w, b = _model()
        saver = Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run([w.assign(np.arange(6.0, dtype=np.float32).reshape(2, 3)),
                      b.assign([7.0, 8.0, 9.0])])
            return saver.save(sess, str(tmp_path / "model.ckpt")), sess.run([w, b])


def test_restore_by_name_into_a_new_graph_and_by_dict(tmp_path):
    path, (w0, b0) = _trained_values(tmp_path)
    with tf.Graph().as_default():
        w, b = _model()
        with v1.Session() as sess:
            Saver().restore(sess, path)
            np.testing.assert_array_equal(sess.run(w), w0)
            np.testing.assert_array_equal(sess.run(b), b0)
    with tf.Graph().as_default():
        other = v1.get_variable("renamed", [3], initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            Saver({"dense/bias": other}).restore(sess, path)
            np.testing.assert_array_equal(sess.run(other), b0)


def test_a_missing_key_is_not_found_and_changes_nothing(tmp_path):
    path, _ = _trained_values(tmp_path)
    with tf.Graph().as_default():
        w, b = _model()
        extra = v1.get_variable("extra", [2], initializer=v1.zeros_initializer())
        saver = Saver([w, b, extra])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            with pytest.raises(NotFoundError, match="Key extra not found in checkpoint"):
                saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run(w), np.ones((2, 3)))
            with pytest.raises(ValueError, match="not a valid checkpoint"):
                saver.restore(sess, str(tmp_path / "nothere"))
            with pytest.raises(ValueError, match="Can't load save_path when it is None"):
                saver.restore(sess, None)


def test_dtype_and_shape_mismatches_and_reshape(tmp_path):
    path, (w0, _) = _trained_values(tmp_path)
    with tf.Graph().as_default():
        wrong = v1.get_variable("k", [2, 3], dtype=tf.float64)
        with v1.Session() as sess:
            with pytest.raises(InvalidArgumentError, match="expected dtype float64 does not "
                                                           "equal original dtype float32"):
                Saver({"dense/kernel": wrong}).restore(sess, path)
    with tf.Graph().as_default():
        flat = v1.get_variable("k", [3, 2])
        with v1.Session() as sess:
            with pytest.raises(InvalidArgumentError, match=r"lhs shape= \[3, 2\] rhs shape= "
                                                           r"\[2, 3\]"):
                Saver({"dense/kernel": flat}).restore(sess, path)
            Saver({"dense/kernel": flat}, reshape=True).restore(sess, path)
            np.testing.assert_array_equal(sess.run(flat), w0.reshape(3, 2))


def test_var_list_errors(tmp_path):
    with tf.Graph().as_default():
        w, _ = _model()
        with pytest.raises(ValueError, match="At least two variables have the same name: "
                                             "dense/kernel"):
            Saver([w, w])
        with pytest.raises(TypeError, match="var_list holds 3"):
            Saver([w, 3])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No variables to save"):
            Saver()
        with v1.Session() as sess:
            empty = Saver(allow_empty=True)
            assert empty.save(sess, str(tmp_path / "empty")) is None
        assert os.listdir(tmp_path) == ["empty.meta"]  # TensorFlow writes the meta graph only


def test_eager_saver_needs_var_list_and_round_trips(tmp_path):
    with pytest.raises(RuntimeError, match="`var_list` must specify a list or dict"):
        Saver()
    v = tf.Variable([1.0, 2.0], name="v")
    saver = Saver([v])
    path = saver.save(None, str(tmp_path / "e"))
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "e.data-00000-of-00001", "e.index"]
    v.assign([5.0, 6.0])
    saver.restore(None, path)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    keep_all = Saver({"x": v}, max_to_keep=None)
    assert keep_all.save(None, str(tmp_path / "e2"), global_step=3) == str(tmp_path / "e2-3")
    assert keep_all.last_checkpoints == []
    assert Saver([v], pad_step_number=True).save(None, str(tmp_path / "p"), global_step=5) \
        == str(tmp_path / "p-00000005")


def test_keep_checkpoint_every_n_hours_keeps_one_per_period(tmp_path, monkeypatch):
    import wengert.train.saver as saver_module
    clock = [1000.0]
    monkeypatch.setattr(saver_module.time, "time", lambda: clock[0])
    v = tf.Variable([1.0], name="v")
    saver = Saver([v], max_to_keep=1, keep_checkpoint_every_n_hours=1.0)
    for step in range(4):  # saved at 0, 40, 80, 120 minutes after the saver was made
        saver.save(None, str(tmp_path / "m"), global_step=step)
        clock[0] += 2400
    kept = sorted(p for p in os.listdir(tmp_path) if p.endswith(".index"))
    assert kept == ["m-2.index", "m-3.index"]  # m-2 was the first saved an hour in
    assert checkpoint_exists(str(tmp_path / "m-2"))
    assert not checkpoint_exists(str(tmp_path / "m-1"))
    fresh = Saver([v])
    fresh.recover_last_checkpoints([str(tmp_path / f"m-{i}") for i in range(4)])
    assert fresh.last_checkpoints == [str(tmp_path / "m-2"), str(tmp_path / "m-3")]


def test_relative_paths_in_the_state_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("run")
    v = tf.Variable([1.0], name="v")
    Saver([v], save_relative_paths=True).save(None, os.path.join("run", "m"), global_step=1)
    assert (tmp_path / "run" / "checkpoint").read_text().splitlines() == [
        'model_checkpoint_path: "m-1"', 'all_model_checkpoint_paths: "m-1"']
    assert latest_checkpoint("run") == os.path.join("run", "m-1")


def test_meta_graph_round_trip_restores_and_runs(tmp_path):
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(4, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        w, b = _model()
        y = tf.identity(tf.matmul(x, w) + b, name="y")
        loss = tf.reduce_mean(tf.square(y))
        train = v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        v1.add_to_collection("train_op", train)
        saver = Saver({"w": w, "b": b})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(train, {x: xs})
            path = saver.save(sess, str(tmp_path / "m"))
            expected = sess.run(y, {x: xs})
            after = (sess.run(train, {x: xs}), sess.run(y, {x: xs}))[1]
    assert os.path.isfile(path + ".meta")
    with tf.Graph().as_default() as graph:
        restored = import_meta_graph(path + ".meta")
        assert [v.name for v in v1.trainable_variables()] == ["dense/kernel:0", "dense/bias:0"]
        with v1.Session() as sess:
            restored.restore(sess, path)
            x2, y2 = graph.get_tensor_by_name("x:0"), graph.get_tensor_by_name("y:0")
            np.testing.assert_allclose(sess.run(y2, {x2: xs}), expected, rtol=1e-6)
            sess.run(v1.get_collection("train_op")[0], {x2: xs})
            np.testing.assert_allclose(sess.run(y2, {x2: xs}), after, rtol=1e-6)


def test_save_writes_the_sessions_graph_under_another_default_graph(tmp_path):
    """TensorFlow's Saver.save exports `sess.graph`, also when another graph is the default
    (a TF 1 script with eager execution disabled saves outside `graph.as_default()`)."""
    graph = tf.Graph()
    with graph.as_default():
        _model()
        saver = Saver()
        sess = v1.Session(graph=graph)
        sess.run(v1.global_variables_initializer())
    with tf.Graph().as_default():
        path = saver.save(sess, str(tmp_path / "m"), global_step=3)
    sess.close()
    with tf.Graph().as_default():
        import_meta_graph(path + ".meta")
        assert [v.name for v in v1.global_variables()] == ["dense/kernel:0", "dense/bias:0"]


def test_repeated_saves_write_the_meta_graph_a_fresh_export_writes(tmp_path, monkeypatch):
    """A save reuses the previous save's meta graph text only while the graph, its collections
    and the SaverDef are unchanged: every .meta file equals a fresh export at that moment, and
    the graph is exported again only after a change."""
    def fresh(name):
        path = str(tmp_path / f"fresh-{name}.meta")
        with graph.as_default():
            export_meta_graph(path, saver=saver)
        return open(path, "rb").read()

    graph = tf.Graph()
    with graph.as_default():
        w, _ = _model()
        saver = Saver(max_to_keep=None)
        sess = v1.Session(graph=graph)
        sess.run(v1.global_variables_initializer())
    exports = []
    export = Saver.export_meta_graph
    monkeypatch.setattr(Saver, "export_meta_graph",
                        lambda self, *a, **k: exports.append(1) or export(self, *a, **k))
    paths, wanted = [], []
    for step, change in enumerate(["none", "none", "op", "collection", "none"]):
        with graph.as_default():
            if change == "op":
                tf.identity(w, name="added")
            elif change == "collection":
                v1.add_to_collection("extra", w)
            paths.append(saver.save(sess, str(tmp_path / "m"), global_step=step))
        wanted.append(fresh(step))
    sess.close()
    got = [open(p + ".meta", "rb").read() for p in paths]
    assert got == wanted
    assert got[0] == got[1] != got[2] != got[3] == got[4]
    assert len(exports) == 3


def test_export_meta_graph_without_file_and_a_corrupt_file(tmp_path):
    with tf.Graph().as_default():
        _model()
        meta = export_meta_graph(collection_list=["variables"])
    assert set(meta["collections"]) == {"variables"}
    bad = tmp_path / "bad.meta"
    bad.write_text("{not json")
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.DataLossError, match="not JSON"):
            import_meta_graph(str(bad))


def test_saver_def_and_checkpoint_state_are_protocol_messages(tmp_path):
    from wengert.train import SaverDef, generate_checkpoint_state_proto
    with tf.Graph().as_default():
        _model()
        saver = Saver(max_to_keep=3, keep_checkpoint_every_n_hours=0.5)
        saver_def = saver.as_saver_def()
        assert (saver_def.filename_tensor_name, saver_def.save_tensor_name,
                saver_def.restore_op_name) == ("save/Const:0", "save/control_dependency:0",
                                               "save/restore_all")
        assert Saver(name="save").saver_def.restore_op_name == "save_1/restore_all"
    again = SaverDef.FromString(saver_def.SerializeToString())
    assert again == saver_def and again.max_to_keep == 3 and again.version == SaverDef.V2
    assert again.keep_checkpoint_every_n_hours == 0.5
    state = generate_checkpoint_state_proto("run", "run/m-2", ["run/m-1"])
    assert list(state.all_model_checkpoint_paths) == ["m-1", "m-2"]
    assert state.model_checkpoint_path == "m-2"
