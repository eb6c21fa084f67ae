"""Evaluate a snippet under TensorFlow 2.21's Keras (TF_PYTHON, default /work/tfvenv/bin/python)
in a subprocess, for tests comparing wengert's keras.losses / metrics / text layers with it.

`tf_eval(script, arrays)` runs `script` with `tf`, `keras`, `np`, `A` (the arrays, by name) and
`out` (an empty dict) in scope, and returns `out` as NumPy arrays. `tf_eval_or_skip` skips the
calling test when TensorFlow is not installed.
"""
import os
import subprocess
import tempfile

import numpy as np

from tf_reference import tf_python

_PRELUDE = """
import os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf
import keras
A = dict(np.load(sys.argv[1], allow_pickle=False))
out = {}
"""
_EPILOGUE = """
np.savez(sys.argv[2], **{k: np.asarray(v) for k, v in out.items()})
"""


def tf_eval(script, arrays=None, python=None):
    python = python or tf_python()
    with tempfile.TemporaryDirectory() as tmp:
        src, arr, res = (os.path.join(tmp, n) for n in ("s.py", "a.npz", "o.npz"))
        with open(src, "w") as f:
            f.write(_PRELUDE + script + _EPILOGUE)
        np.savez(arr, **(arrays or {}))
        done = subprocess.run([python, src, arr, res], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"TensorFlow snippet failed:\n{done.stderr[-3000:]}")
        return dict(np.load(res, allow_pickle=False))


def tf_eval_or_skip(script, arrays=None):
    import pytest
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow (TF_PYTHON) is not installed")
    return tf_eval(script, arrays, python)
