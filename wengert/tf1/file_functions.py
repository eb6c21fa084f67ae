"""TensorFlow 1's `tf.gfile`: the file functions of `tf.io.gfile` (ops/io/gfile.py) under
their TensorFlow 1 names and argument names (`Exists(filename)`, `Copy(oldpath, newpath)`,
`MakeDirs(dirname)`, `Walk(top, in_order)`...); `Open` and `FastGFile` are `GFile`."""
from ..ops.io import gfile

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory",
           "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk"]

GFile = Open = FastGFile = gfile.GFile


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802 (TensorFlow 1's names)
    """Copy the file oldpath to newpath (an existing newpath only with overwrite)."""
    return gfile.copy(oldpath, newpath, overwrite=overwrite)


def DeleteRecursively(dirname):  # noqa: N802
    """Delete a directory and everything in it."""
    return gfile.rmtree(dirname)


def Exists(filename):  # noqa: N802
    """Whether the path exists."""
    return gfile.exists(filename)


def Glob(filename):  # noqa: N802
    """The paths matching a glob pattern."""
    return gfile.glob(filename)


def IsDirectory(dirname):  # noqa: N802
    """Whether the path is a directory."""
    return gfile.isdir(dirname)


def ListDirectory(dirname):  # noqa: N802
    """The names of a directory's entries."""
    return gfile.listdir(dirname)


def MakeDirs(dirname):  # noqa: N802
    """Create a directory and its missing parents."""
    return gfile.makedirs(dirname)


def MkDir(dirname):  # noqa: N802
    """Create a directory whose parent exists."""
    return gfile.mkdir(dirname)


def Remove(filename):  # noqa: N802
    """Delete a file."""
    return gfile.remove(filename)


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    """Rename a file (onto an existing newname only with overwrite)."""
    return gfile.rename(oldname, newname, overwrite=overwrite)


def Stat(filename):  # noqa: N802
    """The file's statistics (length, mtime_nsec, is_directory)."""
    return gfile.stat(filename)


def Walk(top, in_order=True):  # noqa: N802
    """(directory, subdirectories, files) for each directory under top, parents first when
    in_order."""
    return gfile.walk(top, topdown=in_order)
