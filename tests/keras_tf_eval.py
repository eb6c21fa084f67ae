"""Evaluate a snippet under TensorFlow 2.21's Keras (TF_PYTHON, default /work/tfvenv/bin/python)
in a subprocess, for tests comparing wengert's keras.losses / metrics / text layers with it.

`tf_eval(script, arrays)` runs `script` with `tf`, `keras`, `np`, `A` (the arrays, by name) and
`out` (an empty dict) in scope, and returns `out` as NumPy arrays. Without TensorFlow the answer
comes from tests/references/ (reference_store.py), filed under the script's SHA-1.
"""
import hashlib
import os
import tempfile

import numpy as np

import reference_store
import tf_subprocess
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
    """`out` of `script` run by TensorFlow under `python` (default TF_PYTHON), or its stored
    answer when TensorFlow is not installed."""
    python = python or tf_python()
    arrays = arrays or {}
    name = "snippet-" + hashlib.sha1(script.encode()).hexdigest()[:16]
    request = [{"name": name, "lines": script.count("\n")}]
    prefixed = {f"{name}/{k}": v for k, v in arrays.items()}
    results = reference_store.answers(
        request, prefixed, python,
        lambda py: {f"{name}/{k}": v for k, v in _run(py, script, arrays).items()})
    return {k[len(name) + 1:]: v for k, v in results.items()}


def _run(python, script, arrays):
    with tempfile.TemporaryDirectory() as tmp:
        src, arr, res = (os.path.join(tmp, n) for n in ("s.py", "a.npz", "o.npz"))
        with open(src, "w") as f:
            f.write(_PRELUDE + script + _EPILOGUE)
        np.savez(arr, **arrays)
        returncode, stderr = tf_subprocess.run(python, [src, arr, res])
        if returncode != 0:
            raise RuntimeError(f"TensorFlow snippet failed:\n{stderr[-3000:]}")
        with np.load(res, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}



SAVED_MODEL_VARIABLE = "WENGERT_TEST_SAVED_MODEL"


def tf_eval_saved_model(path, script, monkeypatch, arrays=None):
    """tf_eval of `script` with `loaded`, TensorFlow's tf.saved_model.load of directory `path`
    (passed in the environment, so the script and its stored answer do not name the path)."""
    monkeypatch.setenv(SAVED_MODEL_VARIABLE, path)
    return tf_eval(f"loaded = tf.saved_model.load(os.environ[{SAVED_MODEL_VARIABLE!r}])\n" +
                   script, arrays)
