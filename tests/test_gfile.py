"""tf.io.gfile over the local file system, with the answers and errors TensorFlow 2.21 gives
(recorded from TensorFlow by hand: missing paths NotFoundError, copy/rename onto a file
AlreadyExistsError, remove of a directory FailedPreconditionError, mkdir of an existing
directory nothing)."""
import os

import pytest

import wengert as tf
from wengert.framework.errors import (AlreadyExistsError, FailedPreconditionError,
                                      NotFoundError)

g = tf.io.gfile


@pytest.fixture
def tree(tmp_path):
    root = str(tmp_path)
    g.makedirs(root + "/a/b")
    with g.GFile(root + "/a/f.txt", "w") as f:
        f.write("hi\nthere\n")
    return root


def test_listing_and_stat(tree):
    assert sorted(g.listdir(tree + "/a")) == ["b", "f.txt"]
    assert g.isdir(tree + "/a") and not g.isdir(tree + "/a/f.txt") and not g.isdir(tree + "/x")
    assert g.exists("file://" + tree + "/a/f.txt") and not g.exists(tree + "/nope")
    info = g.stat(tree + "/a/f.txt")
    assert (info.length, info.is_directory, type(info.mtime_nsec)) == (9, False, int)
    assert [(p.replace(tree, "D"), sorted(s), sorted(f)) for p, s, f in g.walk(tree)] == \
        [("D", ["a"], []), ("D/a", ["b"], ["f.txt"]), ("D/a/b", [], [])]
    assert [p.replace(tree, "D") for p in g.glob(tree + "/a/*")] == ["D/a/b", "D/a/f.txt"]
    assert g.join("a", "b", "c") == "a/b/c" and "file" in g.get_registered_schemes()


def test_errors_as_tensorflow_raises_them(tree):
    with pytest.raises(NotFoundError, match="Could not find directory"):
        g.listdir(tree + "/zz")
    g.mkdir(tree + "/a")
    g.makedirs(tree + "/a")
    with pytest.raises(NotFoundError):
        g.mkdir(tree + "/q/r")
    for fn in (g.stat, g.remove, g.rmtree):
        with pytest.raises(NotFoundError):
            fn(tree + "/nope")
    with pytest.raises(FailedPreconditionError, match="directory"):
        g.remove(tree + "/a/b")
    with pytest.raises(AlreadyExistsError):
        g.copy(tree + "/a/f.txt", tree + "/a/f.txt")
    g.copy(tree + "/a/f.txt", tree + "/a/g.txt")
    with pytest.raises(AlreadyExistsError):
        g.rename(tree + "/a/f.txt", tree + "/a/g.txt")
    g.rename(tree + "/a/f.txt", tree + "/a/g.txt", overwrite=True)
    assert not g.exists(tree + "/a/f.txt") and g.exists(tree + "/a/g.txt")
    lazy = g.GFile(tree + "/nope")
    with pytest.raises(NotFoundError):
        lazy.read()
    g.rmtree(tree + "/a")
    assert not g.exists(tree + "/a")


def test_gfile_reading_and_writing(tree):
    path = tree + "/a/f.txt"
    assert g.GFile(path).read() == "hi\nthere\n"
    assert g.GFile(path).readlines() == ["hi\n", "there\n"]
    assert list(g.GFile(path)) == ["hi\n", "there\n"]
    assert g.GFile(path, "rb").read(4) == b"hi\nt" and g.GFile(path).size() == 9
    f = g.GFile(path)
    assert f.seek(3) is None and f.read() == "there\n" and f.tell() == 9
    with g.GFile(path, "ab") as out:
        out.write(b"more")
        assert out.size() == 13
    assert os.path.getsize(path) == 13
    with pytest.raises(ValueError, match="mode"):
        g.GFile(path, "x")
