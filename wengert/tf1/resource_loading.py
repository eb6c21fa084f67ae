"""TensorFlow 1's `tf.resource_loader`: paths of the data files that ship beside a program.
`get_data_files_path()` is the directory of the calling module's file and
`get_path_to_datafile(path)` a path relative to it; `load_resource(path)` reads a file relative
to the package root (wengert's, where TensorFlow's reads its own), `readahead_file_path` gives a
path back unchanged (there is no readahead file system here), and
`get_root_dir_with_all_resources()` is that package root's directory."""
import inspect
import os
import sys

__all__ = ["get_data_files_path", "get_path_to_datafile", "get_root_dir_with_all_resources",
           "load_resource", "readahead_file_path"]

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _caller_directory(depth):
    frame = sys._getframe(depth + 1)
    try:
        return os.path.dirname(inspect.getfile(frame))
    except TypeError:  # code typed at a prompt has no file
        return ""


def get_data_files_path():
    """The directory of the calling module's file."""
    return _caller_directory(1)


def get_path_to_datafile(path):
    """`path` relative to the calling module's directory."""
    return os.path.join(_caller_directory(1), path)


def get_root_dir_with_all_resources():
    """The directory holding the package's resources."""
    return _ROOT


def load_resource(path):
    """The bytes of the file at `path`, relative to the package's parent directory."""
    with open(os.path.join(os.path.dirname(_ROOT), path.replace("/", os.sep)), "rb") as f:
        return f.read()


def readahead_file_path(path, readahead="128M"):
    """`path` unchanged (a readahead of `readahead` bytes has no file system to use here)."""
    if not isinstance(readahead, str):
        raise TypeError(f"readahead_file_path: readahead must be a size such as '128M', got "
                        f"{readahead!r}.")
    return path
