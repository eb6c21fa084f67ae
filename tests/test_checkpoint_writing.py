"""How a checkpoint's files are written and read (issue 31, speed, without changing a byte): the
tensors' CRC32C computed in a thread while their bytes are written give the files that computing
them first gives (which are TensorFlow's bytes, test_tensor_bundle.py), with and without that
thread, and checked in a thread while reading still catch a corrupted tensor; an error in the
thread leaves the previous checkpoint and no temporary file; a data file written over keeps a
hidden second name until the flush thread deletes it."""
import os
import subprocess
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError
from wengert.saved_model import bundle_checksums, disk_flush
from wengert.saved_model import checkpoint_format as ckpt_module
from wengert.saved_model.tensor_bundle import encode_data, encode_index
from wengert.train import Checkpoint, load_checkpoint


def _arrays():
    rng = np.random.default_rng(3)
    return {"big": rng.standard_normal((300, 700)).astype(np.float32),
            "empty": np.zeros((0, 4), np.float64), "scalar": np.int64(7),
            "fortran": np.asfortranarray(np.arange(12, dtype=np.int32).reshape(3, 4)),
            "strided": np.arange(20.0)[::3],
            "words": np.array([b"a", b"", "\u00e9".encode()], dtype=object),
            "flags": np.array([True, False])}


def _files(path):
    with open(path + ckpt_module.INDEX_SUFFIX, "rb") as f:
        index = f.read()
    with open(path + ckpt_module.DATA_SUFFIX, "rb") as f:
        return index, f.read()


@pytest.mark.parametrize("thread", [True, False], ids=["crc-in-thread", "crc-after-write"])
def test_written_files_are_the_bundle_encoders_bytes(tmp_path, monkeypatch, thread):
    if thread:
        monkeypatch.setattr(bundle_checksums, "THREAD_FROM", 0)  # a thread even for small files
    else:
        monkeypatch.setattr(bundle_checksums, "_unlocked_extend", lambda: None)
    arrays = _arrays()
    path = str(tmp_path / "ckpt")
    ckpt_module._write_checkpoint(path, arrays)
    chunks, entries = encode_data(arrays)
    assert _files(path) == (encode_index(entries), b"".join(bytes(c) for c in chunks))
    back = load_checkpoint(path).get_tensors(list(arrays))  # every checksum verified
    for name, value in arrays.items():
        np.testing.assert_array_equal(back[name], value)


def test_the_thread_uses_the_c_library_when_installed():
    from wengert.util import crc32c
    extend = bundle_checksums._unlocked_extend()
    if crc32c.LIBRARY != "google-crc32c":
        assert extend is None
        return
    data = np.random.default_rng(0).integers(0, 256, 1 << 16, dtype=np.uint8)
    assert bundle_checksums._checksum(extend, data.data) == crc32c.crc32c(data.tobytes())


def test_an_error_computing_checksums_leaves_the_old_checkpoint(tmp_path, monkeypatch):
    if bundle_checksums._unlocked_extend() is None:
        pytest.skip("the checksums are computed in a thread only with google-crc32c")
    monkeypatch.setattr(bundle_checksums, "THREAD_FROM", 0)
    v = tf.Variable(np.arange(1000, dtype=np.float32))
    ckpt = Checkpoint(v=v)
    path = ckpt.write(str(tmp_path / "ckpt"))
    before = _files(path)
    v.assign(v * 2.0)

    def failing(extend, chunk):
        raise MemoryError("no memory for the checksum")
    monkeypatch.setattr(bundle_checksums, "_checksum", failing)
    with pytest.raises(MemoryError, match="checksum"):
        ckpt.write(path)
    with pytest.raises(MemoryError, match="checksum"):
        ckpt.read(path)
    monkeypatch.undo()
    assert _files(path) == before
    assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    np.testing.assert_array_equal(v.numpy(), np.arange(1000, dtype=np.float32) * 2.0)


@pytest.mark.parametrize("thread", [True, False], ids=["crc-in-thread", "crc-after-read"])
def test_reading_checks_every_tensor(tmp_path, monkeypatch, thread):
    if thread:
        monkeypatch.setattr(bundle_checksums, "THREAD_FROM", 0)
    else:
        monkeypatch.setattr(bundle_checksums, "_unlocked_extend", lambda: None)
    arrays = _arrays()
    path = str(tmp_path / "ckpt")
    ckpt_module._write_checkpoint(path, arrays)
    for name in ("big", "scalar", "words"):
        back = load_checkpoint(path).get_tensors(list(arrays))
        assert all(back[n].flags.writeable for n in arrays if back[n].dtype != object)
        _, offset, size = load_checkpoint(path)._format.entries[name][1:4]
        with open(path + ckpt_module.DATA_SUFFIX, "r+b") as f:
            f.seek(offset + size - 1)
            last = f.read(1)
            f.seek(offset + size - 1)
            f.write(bytes([last[0] ^ 1]))
        with pytest.raises(DataLossError, match=f"tensor '{name}' fails its checksum"):
            load_checkpoint(path).get_tensors(list(arrays), writable=False)
        with open(path + ckpt_module.DATA_SUFFIX, "r+b") as f:
            f.seek(offset + size - 1)
            f.write(last)


def test_a_replaced_data_file_is_deleted_once_the_new_one_is_on_disk(tmp_path, monkeypatch):
    v = tf.Variable(np.arange(1000, dtype=np.float32))
    ckpt = Checkpoint(v=v)
    path = ckpt.write(str(tmp_path / "ckpt"))
    old_data = _files(path)[1]
    ckpt.sync()
    seen = []
    real_flush = disk_flush._flush

    def looking_flush(paths, directory, errors, remove=()):
        seen.extend((name, open(name, "rb").read()) for name in remove)  # alive until the flush
        return real_flush(paths, directory, errors, remove)
    monkeypatch.setattr(disk_flush, "_flush", looking_flush)
    v.assign(v + 1.0)
    ckpt.write(path)
    ckpt.sync()
    assert [(os.path.basename(n).endswith(".replaced"), data) for n, data in seen] == \
        [(True, old_data)]
    assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    np.testing.assert_array_equal(load_checkpoint(path).get_tensor(
        "v/.ATTRIBUTES/VARIABLE_VALUE"), np.arange(1000, dtype=np.float32) + 1.0)


def test_without_hard_links_the_data_file_is_replaced_directly(tmp_path, monkeypatch):
    v = tf.Variable(np.ones(10, np.float32))
    ckpt = Checkpoint(v=v)
    path = ckpt.write(str(tmp_path / "ckpt"))

    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(disk_flush.os, "link", no_links)
    v.assign(v * 3.0)
    ckpt.write(path)
    ckpt.sync()
    assert sorted(os.listdir(tmp_path)) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    np.testing.assert_array_equal(load_checkpoint(path).get_tensor(
        "v/.ATTRIBUTES/VARIABLE_VALUE"), np.full(10, 3.0, np.float32))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX's")
def test_a_forked_child_does_not_wait_for_its_parents_flush(tmp_path):
    """The flush runs in a thread that a child made by fork() does not have: the child's next
    write and sync() go on (a separate interpreter, so that pytest's own threads stay out)."""
    script = (
        "import os, sys, time, numpy as np, wengert as tf\n"
        "from wengert.saved_model import disk_flush\n"
        "v = tf.Variable(np.ones(300000, np.float32)); c = tf.train.Checkpoint(v=v)\n"
        "real_flush = disk_flush._flush\n"
        "disk_flush._flush = lambda *args: (time.sleep(1.0), real_flush(*args))\n"
        "p = c.write(sys.argv[1])  # its flush is under way when the process forks\n"
        "disk_flush._flush = real_flush\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    v.assign(v * 2.0); c.write(p); c.sync(); os._exit(0)\n"
        "_, status = os.waitpid(pid, 0); c.sync(); sys.exit(os.waitstatus_to_exitcode(status))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__)))] +
        [p for p in [os.environ.get("PYTHONPATH")] if p]))
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "ckpt")], env=env,
                          timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(load_checkpoint(str(tmp_path / "ckpt")).get_tensor(
        "v/.ATTRIBUTES/VARIABLE_VALUE"), np.full(300000, 2.0, np.float32))
