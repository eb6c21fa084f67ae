"""Run a program written for TensorFlow 2.21 with wengert standing in for it, unchanged:

    python tests/programs/as_tensorflow.py PROGRAM.py

`import tensorflow as tf` gives `wengert`, `import keras` gives `wengert.keras`, and dotted
imports (`from tensorflow.keras import layers`, `import tensorflow.compat.v1 as tf`,
`from keras import ops`) give the object at that path, through an import hook installed for
this process only. The program then runs as `__main__` with its own folder on sys.path.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys
import types

ROOTS = {"tensorflow": "wengert", "keras": "wengert.keras"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `tensorflow[.x.y]` and `keras[.x.y]` as the wengert objects at the same path."""

    def find_spec(self, fullname, path=None, target=None):
        root = fullname.split(".", 1)[0]
        if root not in ROOTS:
            return None
        if _resolve(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return _resolve(spec.name)

    def exec_module(self, module):
        """The module is wengert's, already run."""


def _resolve(fullname):
    """The wengert module standing for `fullname`, or None when wengert has no module there
    (`from tensorflow.x import y` of a name that is not a module imports `x`, then reads y)."""
    root, *rest = fullname.split(".")
    obj = importlib.import_module(ROOTS[root])
    for part in rest:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    if isinstance(obj, types.ModuleType):
        return obj
    return None


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    program = os.path.abspath(argv[0])
    sys.meta_path.insert(0, _Alias())
    sys.argv = [program]
    sys.path.insert(0, os.path.dirname(program))
    runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
