"""`wengert.compat.v1.gfile`: TensorFlow 1's file functions (`tf.gfile.Exists`, `GFile`,
`MakeDirs`, ...), the CamelCase names of `tf.io.gfile` (wengert/tf1/file_functions.py)."""
from ...tf1.file_functions import (Copy, DeleteRecursively, Exists, FastGFile, GFile, Glob,
                                   IsDirectory, ListDirectory, MakeDirs, MkDir, Open, Remove,
                                   Rename, Stat, Walk)

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory",
           "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk"]
