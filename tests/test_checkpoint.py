"""train.Checkpoint: round trips, nested trackables, mismatches, corruption, interrupted saves,
and wengert's first (JSON-index) checkpoint format still read."""
import json
import os

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, InvalidArgumentError, NotFoundError
from wengert.saved_model import checkpoint_format as ckpt_module  # the file format: writes, reads
from wengert.train import (Checkpoint, CheckpointManager, latest_checkpoint, list_variables,
                           load_checkpoint)


class Layer:
    """A fake trackable: a layer with a kernel and a bias."""

    def __init__(self, n_in, n_out, seed=0):
        rng = np.random.RandomState(seed)
        self.kernel = tf.Variable(rng.randn(n_in, n_out).astype(np.float32), name="kernel")
        self.bias = tf.Variable(np.zeros(n_out, np.float32), name="bias")

    def _checkpoint_children(self):
        return {"kernel": self.kernel, "bias": self.bias}


class Model:
    def __init__(self, seed=0):
        self.dense = Layer(3, 4, seed)
        self.out = Layer(4, 2, seed + 1)
        self.step = tf.Variable(np.int64(0), trainable=False)

    def _checkpoint_children(self):
        return {"dense": self.dense, "out": self.out, "step": self.step}


def values(model):
    return [model.dense.kernel.numpy(), model.dense.bias.numpy(), model.out.kernel.numpy(),
            model.out.bias.numpy(), model.step.numpy()]


def key(path):
    """TensorFlow's checkpoint key of the variable at `path`."""
    return path + "/.ATTRIBUTES/VARIABLE_VALUE"


def assert_same(a, b):
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


# -- round trips -----------------------------------------------------------------------------------
def test_variables_round_trip_with_every_dtype(tmp_path):
    originals = {"f32": np.arange(6, dtype=np.float32).reshape(2, 3), "f64": np.float64(2.5),
                 "f16": np.array([1.5, -2.0], np.float16), "i8": np.array([-3, 4], np.int8),
                 "i64": np.array([2**40], np.int64), "u8": np.array([[255]], np.uint8),
                 "b": np.array([True, False]), "empty": np.zeros((0, 3), np.float32)}
    variables = {k: tf.Variable(v) for k, v in originals.items()}
    path = Checkpoint(**variables).write(str(tmp_path / "vars"))
    assert path == str(tmp_path / "vars")
    for var in variables.values():
        var.assign(np.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype))
    status = Checkpoint(**variables).restore(path)
    status.assert_consumed()
    for key, value in originals.items():
        restored = variables[key].numpy()
        assert np.asarray(restored).dtype == value.dtype
        np.testing.assert_array_equal(restored, value)


def test_nested_trackables_round_trip(tmp_path):
    model = Model(seed=0)
    model.step.assign(np.int64(7))
    saved = [v.copy() if isinstance(v, np.ndarray) else v for v in values(model)]
    path = Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt-1")
    fresh = Model(seed=5)
    Checkpoint(model=fresh).restore(path).assert_consumed()
    assert_same(values(fresh), saved)
    names = [name for name, _ in list_variables(str(tmp_path))]
    assert names == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [key(n) for n in (
        "model/dense/bias", "model/dense/kernel", "model/out/bias", "model/out/kernel",
        "model/step", "save_counter")]


def test_reader_api(tmp_path):
    model = Model()
    path = Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    reader = load_checkpoint(path)
    assert reader.get_variable_to_shape_map()[key("model/dense/kernel")] == [3, 4]
    assert reader.get_variable_to_dtype_map()[key("model/step")] == tf.int64
    np.testing.assert_array_equal(reader.get_tensor(key("model/out/kernel")),
                                  model.out.kernel.numpy())
    assert reader.has_tensor(key("save_counter")) and not reader.has_tensor("nope")
    latest = load_checkpoint(str(tmp_path))  # a directory: its latest checkpoint
    assert latest.get_tensor(key("save_counter")) == 1
    with pytest.raises(NotFoundError, match="no tensor named 'nope'"):
        reader.get_tensor("nope")
    with pytest.raises(NotFoundError, match="No checkpoint at"):
        load_checkpoint(str(tmp_path / "ckpt-9"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotFoundError, match="No checkpoint found in directory"):
        load_checkpoint(str(tmp_path / "empty"))


def test_save_counts_and_latest_checkpoint(tmp_path):
    assert latest_checkpoint(str(tmp_path)) is None
    v = tf.Variable(1.0)
    ckpt = Checkpoint(v=v)
    first = ckpt.save(str(tmp_path / "ckpt"))
    v.assign(2.0)
    second = ckpt.save(str(tmp_path / "ckpt"))
    assert (first, second) == (str(tmp_path / "ckpt-1"), str(tmp_path / "ckpt-2"))
    assert int(ckpt.save_counter) == 2
    assert latest_checkpoint(str(tmp_path)) == second
    state = (tmp_path / "checkpoint").read_text()
    assert 'model_checkpoint_path: "ckpt-2"' in state
    assert 'all_model_checkpoint_paths: "ckpt-1"' in state
    restored = Checkpoint(v=v)
    restored.restore(first)
    assert float(v) == 1.0 and int(restored.save_counter) == 1
    restored.save(str(tmp_path / "ckpt"))  # the counter continues from the restored value
    assert latest_checkpoint(str(tmp_path)) == second


def test_restore_none_is_a_fresh_start():
    status = Checkpoint(v=tf.Variable(1.0)).restore(None)
    status.expect_partial()
    with pytest.raises(AssertionError, match="no checkpoint"):
        status.assert_consumed()


# -- partial matches -------------------------------------------------------------------------------
def test_partial_restore_and_status(tmp_path):
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    path = Checkpoint(a=a, b=b).write(str(tmp_path / "ab"))
    a.assign(10.0)
    status = Checkpoint(a=a, c=tf.Variable(3.0)).restore(path)
    assert float(a) == 1.0
    with pytest.raises(AssertionError,
                       match=r"(?s)no object to restore into: b.*not in the checkpoint: c"):
        status.assert_consumed()
    with pytest.raises(AssertionError, match="not in the checkpoint: c"):
        status.assert_existing_objects_matched()
    status.expect_partial()
    status.assert_nontrivial_match()
    Checkpoint(a=a).restore(path).assert_existing_objects_matched()


def test_deferred_values_go_to_the_owner(tmp_path):
    class Lazy:
        def __init__(self):
            self.pending, self.children = {}, {}

        def _checkpoint_children(self):
            return self.children

        def _defer_restore(self, values):
            self.pending.update(values)

    saved = Lazy()
    saved.children = {"w": tf.Variable([1.0, 2.0]), "slots/0/m": tf.Variable([3.0])}
    path = Checkpoint(opt=saved).write(str(tmp_path / "lazy"))
    fresh = Lazy()
    fresh.children = {"w": tf.Variable([0.0, 0.0])}
    status = Checkpoint(opt=fresh).restore(path)
    assert list(fresh.pending) == ["slots/0/m"] and fresh.pending["slots/0/m"].tolist() == [3.0]
    assert fresh.children["w"].numpy().tolist() == [1.0, 2.0]
    with pytest.raises(AssertionError, match="not created yet: opt/slots/0/m"):
        status.assert_consumed()


def test_mismatches_change_nothing(tmp_path):
    model = Model(seed=0)
    path = Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    other = Model(seed=3)
    other.out = Layer(4, 5, seed=9)                          # a shape mismatch
    other.step = tf.Variable(np.int32(0), trainable=False)   # a dtype mismatch
    before = values(other)
    with pytest.raises(InvalidArgumentError) as info:
        Checkpoint(model=other).restore(path)
    message = str(info.value)
    assert "nothing was changed" in message
    assert f"'{key('model/out/kernel')}': the checkpoint has shape [4, 2]" in message
    assert f"'{key('model/out/bias')}'" in message
    assert f"'{key('model/step')}': the checkpoint has dtype int64" in message
    assert_same(values(other), before)


def test_bad_objects_are_refused():
    with pytest.raises(TypeError, match="'x' is a ndarray"):
        Checkpoint(x=np.zeros(3))
    with pytest.raises(ValueError, match="reserved"):
        Checkpoint(save_counter=tf.Variable(1))
    with tf.Graph().as_default():
        ckpt = Checkpoint(v=tf.Variable(1.0))  # its save counter stays eager
        with pytest.raises(TypeError, match="'v' is a graph variable"):
            ckpt.write("unused")


def test_shared_and_cyclic_trackables(tmp_path):
    class Node:
        def __init__(self):
            self.v, self.other = tf.Variable(1.0), None

        def _checkpoint_children(self):
            return {"v": self.v, **({"other": self.other} if self.other else {})}

    a, b = Node(), Node()
    a.other, b.other = b, a
    path = Checkpoint(a=a).write(str(tmp_path / "cycle"))
    assert [n for n, _ in list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", key("a/other/v"), key("a/v"), key("save_counter")]


# -- corruption ------------------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    model = Model(seed=0)
    path = Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    return path, model


def restore_fails(path, match):
    fresh = Model(seed=4)
    before = values(fresh)
    with pytest.raises(DataLossError, match=match):
        Checkpoint(model=fresh).restore(path)
    assert_same(values(fresh), before)


def test_truncated_data_file(saved):
    path, _ = saved
    data = path + ckpt_module.DATA_SUFFIX
    with open(data, "r+b") as f:
        f.truncate(os.path.getsize(data) - 3)
    restore_fails(path, r"ckpt-1.data-00000-of-00001' has \d+ bytes, its index says")


def test_flipped_byte_fails_the_checksum(saved):
    path, _ = saved
    data = path + ckpt_module.DATA_SUFFIX
    raw = bytearray(open(data, "rb").read())
    raw[len(raw) // 2] ^= 0x40
    open(data, "wb").write(bytes(raw))
    restore_fails(path, "ckpt-1.data-00000-of-00001' is corrupted: tensor .* fails its checksum")


@pytest.mark.parametrize("garbage", [b"{not json", b"\xff\xfe\x00", b"[]", b'{"format": "x"}',
                                     b"[" * 100_000 + b"]" * 100_000])  # too deep for json
def test_garbage_index(saved, garbage):
    path, _ = saved
    open(path + ".index", "wb").write(garbage)
    restore_fails(path, "ckpt-1.index' is corrupted")


def test_truncated_index(saved):
    path, _ = saved
    raw = open(path + ".index", "rb").read()
    open(path + ".index", "wb").write(raw[: len(raw) // 2])
    restore_fails(path, "ckpt-1.index' is corrupted: it does not end with the table magic")


def test_flipped_byte_in_the_index_fails_its_block_checksum(saved):
    path, _ = saved
    raw = bytearray(open(path + ".index", "rb").read())
    raw[20] ^= 0x01
    open(path + ".index", "wb").write(bytes(raw))
    restore_fails(path, "ckpt-1.index' is corrupted: block checksum mismatch")


def test_data_file_shorter_than_the_index_says(saved):
    path, _ = saved
    data = path + ckpt_module.DATA_SUFFIX
    open(data, "wb").write(b"")
    restore_fails(path, "has 0 bytes, its index says")
    os.remove(data)
    restore_fails(path, "ckpt-1.data-00000-of-00001' is missing")


def test_corrupted_state_file(saved, tmp_path):
    (tmp_path / "checkpoint").write_text("model_checkpoint_path ckpt-1 ???\n")
    with pytest.raises(DataLossError, match="state file .*checkpoint' is corrupted"):
        latest_checkpoint(str(tmp_path))


# -- interrupted saves -----------------------------------------------------------------------------
def test_interrupted_save_keeps_the_last_good_checkpoint(saved, tmp_path, monkeypatch):
    path, model = saved
    good = values(model)
    ckpt = Checkpoint(model=model)
    ckpt.restore(path)
    model.dense.kernel.assign(np.full((3, 4), 9.0, np.float32))

    def crash(*args, **kwargs):
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr(ckpt_module, "_write_index", crash)  # after the data file, before the index
    with pytest.raises(KeyboardInterrupt):
        ckpt.save(str(tmp_path / "ckpt"))
    assert int(ckpt.save_counter) == 1
    assert latest_checkpoint(str(tmp_path)) == path
    monkeypatch.undo()

    real_layout = ckpt_module.layout_data
    calls = []

    def disk_full_halfway(arrays):  # the first tensor's bytes are written, then the disk is full
        chunks, entries, unsummed = real_layout(arrays)

        def written():
            yield chunks[0]
            calls.append("full")
            raise OSError(28, "No space left on device")
        return written(), entries, unsummed

    monkeypatch.setattr(ckpt_module, "layout_data", disk_full_halfway)
    with pytest.raises(OSError, match="No space left"):
        ckpt.write(path)  # overwriting the good checkpoint in place
    monkeypatch.setattr(ckpt_module, "layout_data", real_layout)
    assert calls and not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]

    fresh = Model(seed=8)
    Checkpoint(model=fresh).restore(latest_checkpoint(str(tmp_path))).assert_consumed()
    assert_same(values(fresh), good)


def test_written_checkpoints_are_flushed_to_disk_in_the_background(saved, tmp_path, monkeypatch):
    """A save returns once its files are renamed into place; their fsync runs in a thread that the
    next write, sync() and the interpreter's exit wait for, and an error from it is raised there."""
    from wengert.saved_model import disk_flush
    path, model = saved
    ckpt = Checkpoint(model=model)
    flushed = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        flushed.append(os.readlink(f"/proc/self/fd/{fd}") if os.path.isdir("/proc/self/fd")
                       else fd)
        return real_fsync(fd)
    monkeypatch.setattr(disk_flush.os, "fsync", recording_fsync)
    saved_path = ckpt.save(str(tmp_path / "flushed"))
    ckpt.sync()
    if os.path.isdir("/proc/self/fd"):
        assert {saved_path + ".index", saved_path + ckpt_module.DATA_SUFFIX,
                str(tmp_path / "checkpoint"), str(tmp_path)} <= set(flushed)

    def failing_fsync(fd):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(disk_flush.os, "fsync", failing_fsync)
    ckpt.write(str(tmp_path / "unlucky"))  # written and renamed: readable now
    Checkpoint(model=model).read(str(tmp_path / "unlucky")).assert_consumed()
    with pytest.raises(OSError, match=r"flushing '.*unlucky.*' to disk failed: Input/output error"):
        ckpt.sync()
    ckpt.sync()  # the error is raised once
    monkeypatch.setattr(disk_flush.os, "fsync", real_fsync)


# -- CheckpointManager -----------------------------------------------------------------------------
def test_manager_keeps_the_newest(tmp_path):
    v = tf.Variable(0.0)
    manager = CheckpointManager(Checkpoint(v=v), str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None
    paths = []
    for step in range(4):
        v.assign(float(step))
        paths.append(manager.save())
    assert paths[-1] == str(tmp_path / "ckpt-4")
    assert manager.checkpoints == paths[-2:]
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["checkpoint"] + [f"ckpt-{n}{suffix}" for n in (3, 4)
                          for suffix in (".index", ckpt_module.DATA_SUFFIX)])
    assert latest_checkpoint(str(tmp_path)) == paths[-1]
    assert manager.save(checkpoint_number=100).endswith("ckpt-100")

    v.assign(-1.0)
    again = CheckpointManager(Checkpoint(v=v), str(tmp_path), max_to_keep=2)
    assert again.checkpoints == [paths[-1], str(tmp_path / "ckpt-100")]
    assert again.restore_or_initialize() == str(tmp_path / "ckpt-100")
    assert float(v) == 3.0
    with pytest.raises(ValueError, match="max_to_keep"):
        CheckpointManager(Checkpoint(v=v), str(tmp_path), max_to_keep=0)


# -- with the real optimizers and Keras models, when they exist ------------------------------------
def test_optimizer_slots_round_trip(tmp_path):
    optimizers = pytest.importorskip("wengert.optimizers")
    w = tf.Variable([1.0, -2.0, 3.0])

    def train(opt, steps):
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w * w)
            opt.apply_gradients([(tape.gradient(loss, w), w)])

    opt = optimizers.Adam(0.1)
    train(opt, 3)
    path = Checkpoint(w=w, opt=opt).save(str(tmp_path / "ckpt"))
    slots = {name: load_checkpoint(path).get_tensor(key(f"opt/{name}"))
             for name, _ in opt._checkpoint_children().items()}
    train(opt, 2)
    expected = w.numpy()

    w.assign([0.0, 0.0, 0.0])
    fresh = optimizers.Adam(0.1)
    status = Checkpoint(w=w, opt=fresh).restore(path)  # slots not created yet: deferred
    train(fresh, 0)
    for name, value in slots.items():
        if name != "iterations":
            assert name in fresh._pending_restores or name in fresh._checkpoint_children()
    train(fresh, 2)
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-6)
    assert int(fresh.iterations.numpy()) == 5
    status.expect_partial()


def keras_or_skip():
    keras = pytest.importorskip("wengert.keras")
    if not hasattr(keras, "Sequential"):
        pytest.skip("wengert.keras has no Sequential yet")
    return keras


def build_mlp(keras, seed, input_shape=(5,)):
    keras.backend.clear_session()  # layer names (the checkpoint keys) start again: dense, dense_1
    keras.utils.set_random_seed(seed)
    first = keras.layers.Dense(8, activation="relu",
                               **({"input_shape": input_shape} if input_shape else {}))
    return keras.Sequential([first, keras.layers.Dense(3)])


def test_keras_model_round_trip(tmp_path):
    keras = keras_or_skip()
    x = np.random.RandomState(0).randn(4, 5).astype(np.float32)
    model = build_mlp(keras, 0)
    expected = np.asarray(model(x))
    path = Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    fresh = build_mlp(keras, 1)
    assert not np.allclose(np.asarray(fresh(x)), expected)
    Checkpoint(model=fresh).restore(path).assert_consumed()
    np.testing.assert_array_equal(np.asarray(fresh(x)), expected)

    unbuilt = build_mlp(keras, 2, input_shape=None)  # no weights yet: restored when built
    Checkpoint(model=unbuilt).restore(path).expect_partial()
    np.testing.assert_array_equal(np.asarray(unbuilt(x)), expected)


def test_keras_training_resumes_from_a_checkpoint(tmp_path):
    keras = keras_or_skip()
    rng = np.random.RandomState(0)
    x, y = rng.randn(64, 5).astype(np.float32), rng.randint(0, 3, 64)

    def compiled(seed):
        model = build_mlp(keras, seed)
        model.compile(optimizer=keras.optimizers.Adam(0.01),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        return model

    model = compiled(0)
    model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    path = Checkpoint(model=model, optimizer=model.optimizer).save(str(tmp_path / "ckpt"))
    model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)

    fresh = compiled(1)
    Checkpoint(model=fresh, optimizer=fresh.optimizer).restore(path)  # slots come later
    fresh.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)
    assert int(fresh.optimizer.iterations.numpy()) == 12
    np.testing.assert_allclose(np.asarray(fresh(x)), np.asarray(model(x)), rtol=1e-5, atol=1e-6)


def test_keras_keys_do_not_depend_on_layer_name_counters(tmp_path):
    # issue 22 item 5: a model built again later in the process (its layers named dense_2,
    # dense_3 by the global counter) restores by place in the object graph, as TensorFlow's
    import wengert as tf
    first = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    first.build((None, 4))
    path = tf.train.Checkpoint(model=first).save(str(tmp_path / "c"))
    again = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    again.build((None, 4))
    tf.train.Checkpoint(model=again).restore(path).assert_consumed()
    for a, b in zip(first.weights, again.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(3)
            self.blocks = [tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)]

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return self.hidden(x)

    net = Net()
    net(np.ones((1, 2), np.float32))
    names = [n for n, _ in tf.train.list_variables(
        tf.train.Checkpoint(net=net).save(str(tmp_path / "n")))]
    assert key("net/hidden/_kernel") in names and key("net/blocks/1/bias") in names


@pytest.mark.parametrize("fail_in", ["_write_temporary", "_write_index"])
def test_an_interrupted_overwrite_leaves_the_old_checkpoint_whole(saved, monkeypatch, fail_in):
    """Checkpoint.write over an existing prefix (issue 22 item 11): both new files are written
    whole beside the old before either is renamed, so an interruption while writing the data
    file or the index leaves the old checkpoint loadable and no temporary file behind."""
    path, model = saved
    before = values(model)
    model.dense.kernel.assign(model.dense.kernel + 1.0)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt("interrupted while writing")
    monkeypatch.setattr(ckpt_module, fail_in, interrupted)
    with pytest.raises(KeyboardInterrupt):
        Checkpoint(model=model).write(path)
    monkeypatch.undo()
    assert not [f for f in os.listdir(os.path.dirname(path)) if f.endswith(".tmp")]
    fresh = Model(seed=4)
    Checkpoint(model=fresh).restore(path)
    assert_same(values(fresh), before)


def test_overwrites_leave_one_data_file(saved):
    path, model = saved
    for _ in range(3):
        model.dense.kernel.assign(model.dense.kernel * 0.5)
        Checkpoint(model=model).write(path)
        data = [f for f in os.listdir(os.path.dirname(path)) if ".data-" in f
                and f.startswith(os.path.basename(path))]
        assert len(data) == 1, data
        fresh = Model(seed=4)
        Checkpoint(model=fresh).restore(path)
        assert_same(values(fresh), values(model))
