"""Checkpoints both ways with TensorFlow 2.21: TensorFlow restores wengert's checkpoints of a
tf.Module into the same module with `assert_consumed()` (its answers stored in
tests/references/ for runs without TensorFlow), and wengert restores TensorFlow's checkpoints
(tests/fixtures/tf_checkpoints) into its own modules, matched through the object graph."""
import os
import pathlib

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "tf_checkpoints"
SEP = "|"  # a file's relative path in an array name (npz names hold no directories)

MODULES = """
class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(tf.zeros([2, 2]), name="scale")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.zeros([2, 3]), name="w")
        self.b = tf.Variable(tf.zeros([2], tf.int64), name="b")
        self.inner = Inner()
        self.layers = [Inner()]
"""

RESTORE = """
import tempfile
d = tempfile.mkdtemp()
for name, data in A.items():
    path = os.path.join(d, *name.split("|"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data.tobytes())
"""


class Inner(tf.Module):
    def __init__(self, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.scale = tf.Variable(rng.normal(size=(2, 2)).astype(np.float32), name="scale")


class Outer(tf.Module):
    def __init__(self, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w = tf.Variable(rng.normal(size=(2, 3)).astype(np.float32), name="w")
        self.b = tf.Variable(np.array([seed, -seed], np.int64), name="b")
        self.inner = Inner(seed + 1)
        self.layers = [Inner(seed + 2)]


def values(outer):
    return {"w": outer.w.numpy(), "b": outer.b.numpy(), "inner": outer.inner.scale.numpy(),
            "layer0": outer.layers[0].scale.numpy()}


def files(directory):
    out = {}
    for root, _, names in os.walk(directory):
        for name in names:
            rel = os.path.relpath(os.path.join(root, name), directory)
            out[rel.replace(os.sep, SEP)] = np.frombuffer(
                open(os.path.join(root, name), "rb").read(), np.uint8)
    return out


def test_tensorflow_restores_a_written_module(tmp_path):
    model = Outer(seed=3)
    tf.train.Checkpoint(model=model).write(str(tmp_path / "ckpt"))
    got = tf_eval(MODULES + RESTORE + """
model = Outer()
ckpt = tf.train.Checkpoint(model=model)
ckpt.restore(os.path.join(d, "ckpt")).assert_consumed()
out.update(w=model.w.numpy(), b=model.b.numpy(), inner=model.inner.scale.numpy(),
           layer0=model.layers[0].scale.numpy(), save_counter=ckpt.save_counter.numpy())
""", files(tmp_path))
    for name, value in values(model).items():
        np.testing.assert_array_equal(got[name], value)
    assert int(got["save_counter"]) == 0


def test_tensorflow_restores_the_latest_of_a_managed_directory(tmp_path):
    model, step = Outer(seed=5), tf.Variable(0)
    ckpt = tf.train.Checkpoint(model=model, step=step)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    for _ in range(3):
        step.assign_add(1)
        model.w.assign_add(tf.ones_like(model.w))
        manager.save()
    got = tf_eval(MODULES + RESTORE + """
latest = tf.train.latest_checkpoint(d)
model, step = Outer(), tf.Variable(0)
ckpt = tf.train.Checkpoint(model=model, step=step)
ckpt.restore(latest).assert_consumed()
out.update(latest=np.array(os.path.basename(latest)), w=model.w.numpy(),
           step=step.numpy(), save_counter=ckpt.save_counter.numpy(),
           keys=np.array(sorted(n for n, _ in tf.train.list_variables(latest))))
""", files(tmp_path))
    assert str(got["latest"]) == "ckpt-3"
    np.testing.assert_array_equal(got["w"], model.w.numpy())
    assert int(got["step"]) == 3 and int(got["save_counter"]) == 3
    assert got["keys"].tolist() == [n for n, _ in tf.train.list_variables(str(tmp_path))]


def test_tensorflow_reads_string_variables(tmp_path):
    words = tf.Variable(np.array([b"alpha", b"", "\u00e9t\u00e9".encode()], dtype=object))
    tf.train.Checkpoint(words=words).write(str(tmp_path / "ckpt"))
    got = tf_eval(RESTORE + """
words = tf.Variable([b"", b"", b""])
tf.train.Checkpoint(words=words).restore(os.path.join(d, "ckpt")).assert_consumed()
out["hex"] = np.array([w.hex() for w in words.numpy().tolist()])
""", files(tmp_path))
    assert got["hex"].tolist() == [b"alpha".hex(), "", "\u00e9t\u00e9".encode().hex()]


# -- TensorFlow's checkpoints restored by wengert ---------------------------------------------------
class FixtureInner(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(tf.zeros([2, 2]), name="scale")


class FixtureOuter(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.zeros([2, 3]), name="w")
        self.b = tf.Variable(tf.zeros([2], tf.int64), name="b")
        self.inner = FixtureInner()
        self.layers = [FixtureInner()]


def test_wengert_restores_tensorflows_module_checkpoint():
    model = FixtureOuter()
    status = tf.train.Checkpoint(model=model).restore(str(FIXTURES / "module" / "ckpt"))
    with pytest.raises(AssertionError, match="save_counter"):
        status.assert_consumed()  # TensorFlow's write() saves no counter: as in TensorFlow
    status.assert_nontrivial_match()
    np.testing.assert_array_equal(model.w.numpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(model.b.numpy(), [7, -3])
    np.testing.assert_array_equal(model.layers[0].scale.numpy(), [[1.5, -2.0], [0.25, 4.0]])


def test_wengert_restores_tensorflows_managed_checkpoints():
    model, step = FixtureOuter(), tf.Variable(0)
    ckpt = tf.train.Checkpoint(model=model, step=step)
    manager = tf.train.CheckpointManager(ckpt, str(FIXTURES / "managed"), max_to_keep=2)
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-2", "ckpt-3"]
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    assert int(step.numpy()) == 3 and int(ckpt.save_counter.numpy()) == 3
    np.testing.assert_array_equal(model.inner.scale.numpy(), [[1.5, -2.0], [0.25, 4.0]])


def test_values_for_objects_not_built_yet_wait_for_them():
    class Lazy(tf.Module):
        pass

    lazy = Lazy()
    status = tf.train.Checkpoint(model=lazy).restore(str(FIXTURES / "module" / "ckpt"))
    with pytest.raises(AssertionError, match="not created yet"):
        status.assert_consumed()
    lazy.w = tf.Variable(tf.zeros([2, 3]))
    lazy.inner = FixtureInner()
    np.testing.assert_array_equal(lazy.w.numpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(lazy.inner.scale.numpy(), [[1.5, -2.0], [0.25, 4.0]])
