"""`tf.io.gfile`: TensorFlow's file-system functions, over the local file system.

Paths are str or bytes, optionally with the `file://` scheme. Failures are TensorFlow's errors,
before anything changes: a missing file or directory is NotFoundError, copying or renaming onto
an existing file without `overwrite=True` is AlreadyExistsError, removing a directory with
`remove` is FailedPreconditionError, a file that may not be opened is PermissionDeniedError.
`GFile` opens its file on first use, as TensorFlow's does, reads str in mode "r" and bytes in
"rb", and knows its `size()`. `glob` returns the matches sorted, `walk` yields
(directory, subdirectories, files) top-down unless told otherwise.
"""
import glob as _glob
import os
import shutil

from ...framework.errors import (AlreadyExistsError, FailedPreconditionError, NotFoundError,
                                 PermissionDeniedError)

__all__ = ["GFile", "exists", "glob", "isdir", "listdir", "makedirs", "mkdir", "remove",
           "rename", "copy", "rmtree", "stat", "walk", "join", "get_registered_schemes",
           "FileStatistics"]


def _path(path):
    path = path.numpy() if hasattr(path, "numpy") else path
    path = os.fsdecode(os.fspath(path.item() if hasattr(path, "item") else path))
    return path[len("file://"):] if path.startswith("file://") else path


def _os_error(err, path):
    """TensorFlow's error for an OSError about `path`."""
    text = f"{path}; {err.strerror or err}"
    if isinstance(err, FileNotFoundError):
        return NotFoundError(text)
    if isinstance(err, FileExistsError):
        return AlreadyExistsError(text)
    if isinstance(err, (IsADirectoryError, NotADirectoryError)):
        return FailedPreconditionError(text)
    if isinstance(err, PermissionError):
        return PermissionDeniedError(text)
    return err


def exists(path):
    return os.path.exists(_path(path))


def isdir(path):
    return os.path.isdir(_path(path))


def glob(pattern):
    """The paths matching `pattern` (a str or a list of them), sorted."""
    patterns = pattern if isinstance(pattern, (list, tuple)) else [pattern]
    return sorted({m for p in patterns for m in _glob.glob(_path(p))})


def listdir(path):
    """The names in directory `path` (NotFoundError when it is not one)."""
    path = _path(path)
    if not os.path.isdir(path):
        raise NotFoundError(f"Could not find directory {path}")
    return os.listdir(path)


def makedirs(path):
    """Make `path` and any missing parents; nothing when it exists."""
    path = _path(path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise _os_error(err, path) from None


def mkdir(path):
    """Make directory `path` (its parent must exist); nothing when it exists."""
    path = _path(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise AlreadyExistsError(f"{path}; a file of that name exists") from None
    except OSError as err:
        raise _os_error(err, path) from None


def remove(path):
    """Delete the file `path`."""
    path = _path(path)
    if os.path.isdir(path):
        raise FailedPreconditionError(f"{path}; Is a directory (use rmtree)")
    try:
        os.remove(path)
    except OSError as err:
        raise _os_error(err, path) from None


def rmtree(path):
    """Delete directory `path` and everything under it."""
    path = _path(path)
    if not os.path.exists(path):
        raise NotFoundError(f"{path} not found")
    try:
        shutil.rmtree(path)
    except OSError as err:
        raise _os_error(err, path) from None


def _check_target(dst, overwrite):
    if not overwrite and os.path.exists(dst):
        raise AlreadyExistsError(f"file already exists: {dst} (pass overwrite=True to replace "
                                 f"it)")


def copy(src, dst, overwrite=False):
    """Copy file `src` to `dst`."""
    src, dst = _path(src), _path(dst)
    _check_target(dst, overwrite)
    try:
        shutil.copyfile(src, dst)
    except OSError as err:
        raise _os_error(err, src) from None


def rename(src, dst, overwrite=False):
    """Move `src` to `dst`."""
    src, dst = _path(src), _path(dst)
    _check_target(dst, overwrite)
    try:
        os.replace(src, dst)
    except OSError as err:
        raise _os_error(err, src) from None


class FileStatistics:
    """What `stat` returns: length (bytes), mtime_nsec, is_directory."""

    def __init__(self, length, mtime_nsec, is_directory):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory

    def __repr__(self):
        return (f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, "
                f"is_directory={self.is_directory})")


def stat(path):
    path = _path(path)
    try:
        info = os.stat(path)
    except OSError as err:
        raise _os_error(err, path) from None
    return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(path))


def walk(top, topdown=True, onerror=None):
    """Yield (directory, subdirectory names, file names) for `top` and every directory under
    it; `onerror(err)` is called for a directory that cannot be listed."""
    def report(err):
        if onerror is not None:
            onerror(_os_error(err, getattr(err, "filename", top)))
    yield from os.walk(_path(top), topdown=topdown, onerror=report)


def join(path, *paths):
    return os.path.join(path, *paths)


def get_registered_schemes():
    """The path schemes served: the local file system, plain or as file://."""
    return ["", "file"]


class GFile:
    """A file, like Python's `open(name, mode)`, opened on first use: `GFile(path, "rb").read()`.
    Modes: "r", "rb", "w", "wb", "a", "ab" (with "+" for reading and writing)."""

    def __init__(self, name, mode="r"):
        if mode.replace("b", "").replace("+", "") not in ("r", "w", "a"):
            raise ValueError(f"GFile: mode must be 'r', 'w' or 'a' (with 'b' or '+'), got "
                             f"{mode!r}.")
        self.name, self.mode, self._file = _path(name), mode, None

    def _open(self):
        if self._file is None:
            try:
                self._file = open(self.name, self.mode)  # noqa: SIM115 - closed by close()
            except OSError as err:
                raise _os_error(err, self.name) from None
        return self._file

    def read(self, n=-1):
        return self._open().read(n)

    def readline(self):
        return self._open().readline()

    def readlines(self):
        return self._open().readlines()

    def write(self, file_content):
        return self._open().write(file_content)

    def seek(self, offset=None, whence=0, position=None):
        """Move to `offset` (or `position`, TensorFlow's older name) from `whence`."""
        target = position if offset is None else offset
        if target is None:
            raise TypeError("GFile.seek: give an offset.")
        self._open().seek(target, whence)

    def tell(self):
        return self._open().tell()

    def seekable(self):
        return True

    def size(self):
        self.flush()
        return os.path.getsize(self.name)

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
