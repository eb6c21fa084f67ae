"""The shared TensorFlow worker (tf_subprocess.py, tf_worker.py) answers as a fresh process would:
a script's exit status and stderr come back, and what one script changes (environment, argv,
Keras settings) is gone for the next. Runs where TensorFlow is installed."""
import pytest

import tf_subprocess
from tf_reference import tf_python

pytestmark = pytest.mark.skipif(tf_python() is None, reason="TensorFlow is not installed")

FIRST = """
import os, sys
import keras
os.environ["WENGERT_WORKER_PROBE"] = "set"
keras.config.set_floatx("float64")
sys.stderr.write("first " + " ".join(sys.argv[1:]))
sys.exit(3)
"""
SECOND = """
import os, sys
import keras
assert "WENGERT_WORKER_PROBE" not in os.environ, "environment leaked"
assert os.environ.get("WENGERT_GIVEN") == "given", "the caller's environment is missing"
assert keras.config.floatx() == "float32", "floatx leaked"
assert sys.argv[1:] == ["b"], sys.argv
raise ValueError("second fails")
"""


def test_scripts_run_one_after_another_as_fresh_processes(tmp_path, monkeypatch):
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text(FIRST)
    second.write_text(SECOND)
    monkeypatch.setenv("WENGERT_GIVEN", "given")
    assert tf_subprocess.run(tf_python(), [str(first), "a", "1"]) == (3, "first a 1")
    code, stderr = tf_subprocess.run(tf_python(), [str(second), "b"])
    assert code == 1 and "ValueError: second fails" in stderr
    with tf_subprocess.fresh():
        code, stderr = tf_subprocess.run(tf_python(), [str(second), "b"])
    assert code == 1 and "ValueError: second fails" in stderr
